import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { Created, errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { KitService } from './service.js';
import { Kit, KitInput, KitListQuery } from './schemas.js';

const tags = ['Kits'];

/** The services these routes use, and no other. */
export interface KitsRouteServices {
  kits: KitService;
}
export function kitRoutes(app: App, services: KitsRouteServices): void {
  app.get(
    '/v2/kits',
    {
      schema: {
        operation: { id: 'listKits', contract: '4.7' },
        tags,
        summary: 'List kits',
        description: 'Newest first. A shop API key sees its own shop only.',
        querystring: KitListQuery,
        response: { 200: { ...Type.Array(Kit), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(
        reply,
        await services.kits.list(request.scope, request.query, at, request.headers['shop-id']),
        at,
      );
    },
  );

  app.get(
    '/v2/kits/:id',
    {
      schema: {
        operation: { id: 'getKit', contract: '4.7' },
        tags,
        summary: 'Get a kit',
        params: IdParams,
        response: { 200: Kit, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.kits.get(request.scope, request.params.id),
  );

  app.post(
    '/v2/kits',
    {
      schema: {
        operation: { id: 'createKit', contract: '4.7' },
        tags,
        summary: 'Create a kit',
        description:
          'The kit belongs to `shopId` (default: the Shop-Id header). Only products of the account may be added.',
        body: KitInput,
        response: { 201: Created, ...errorResponses(403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ id: await services.kits.create(request.scope, request.body, request.headers['shop-id']) }),
  );

  app.put(
    '/v2/kits/:id',
    {
      schema: {
        operation: { id: 'replaceKit', contract: '4.7' },
        tags,
        summary: 'Replace a kit',
        params: IdParams,
        body: KitInput,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.kits.replace(request.scope, request.params.id, request.body, request.headers['shop-id']);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/kits/:id',
    {
      schema: {
        operation: { id: 'deleteKit', contract: '4.7' },
        tags,
        summary: 'Delete a kit',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.kits.delete(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );
}
