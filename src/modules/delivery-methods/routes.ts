import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { errorResponses, NoContent } from '../../platform/schemas.js';
import type { DeliveryMethodService } from './service.js';
import {
  CreatedMethod,
  DeliveryMethod,
  DeliveryMethodInput,
  DeliveryMethodListQuery,
  MethodIdParams,
} from './schemas.js';

const tags = ['Delivery methods'];

/** The services these routes use, and no other. */
export interface DeliveryMethodsRouteServices {
  deliveryMethods: DeliveryMethodService;
}
/** Extension: an account's own delivery methods (their ids follow convention 12). */
export function deliveryMethodRoutes(app: App, services: DeliveryMethodsRouteServices): void {
  app.get(
    '/v2/delivery-methods',
    {
      schema: {
        operation: { id: 'listOwnDeliveryMethods' },
        tags,
        summary: 'List own delivery methods (extension)',
        description: "The account's own delivery methods, newest first. A shop's API key may read them.",
        querystring: DeliveryMethodListQuery,
        response: { 200: { ...Type.Array(DeliveryMethod), headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.deliveryMethods.list(request.scope, request.query, at), at);
    },
  );

  app.get(
    '/v2/delivery-methods/:id',
    {
      schema: {
        operation: { id: 'getOwnDeliveryMethod' },
        tags,
        summary: 'Get an own delivery method (extension)',
        params: MethodIdParams,
        response: { 200: DeliveryMethod, ...errorResponses(404) },
      },
    },
    async (request) => services.deliveryMethods.get(request.scope, request.params.id),
  );

  app.post(
    '/v2/delivery-methods',
    {
      schema: {
        operation: { id: 'createOwnDeliveryMethod' },
        tags,
        summary: 'Create an own delivery method (extension)',
        description:
          "Answers 201 {id: '{accountId}_{methodId}'}, the id the calculator and orders use for it. Account tokens only (a shop key is 403).",
        body: DeliveryMethodInput,
        response: { 201: CreatedMethod, ...errorResponses(403) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ id: await services.deliveryMethods.create(request.scope, request.body) }),
  );

  app.put(
    '/v2/delivery-methods/:id',
    {
      schema: {
        operation: { id: 'replaceOwnDeliveryMethod' },
        tags,
        summary: 'Replace an own delivery method (extension)',
        description:
          'Points sent with their id keep it; points without one are new; points not sent are removed. Orders keep what they copied.',
        params: MethodIdParams,
        body: DeliveryMethodInput,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.deliveryMethods.replace(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/delivery-methods/:id',
    {
      schema: {
        operation: { id: 'deleteOwnDeliveryMethod' },
        tags,
        summary: 'Delete an own delivery method (extension)',
        params: MethodIdParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.deliveryMethods.delete(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );
}
