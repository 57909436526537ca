import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { Created, errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { BoxService } from './service.js';
import { Box, BoxInput, BoxListQuery, BoxPatch } from './schemas.js';

const tags = ['Boxes'];

/** The services these routes use, and no other. */
export interface BoxesRouteServices {
  boxes: BoxService;
}
export function boxRoutes(app: App, services: BoxesRouteServices): void {
  app.get(
    '/v2/boxes',
    {
      schema: {
        operation: { id: 'listBoxes', contract: '4.7' },
        tags,
        summary: 'List boxes',
        querystring: BoxListQuery,
        response: { 200: { ...Type.Array(Box), headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.boxes.list(request.scope, request.query, at), at);
    },
  );

  app.get(
    '/v2/boxes/:id',
    {
      schema: {
        operation: { id: 'getBox', contract: '4.7' },
        tags,
        summary: 'Get a box',
        params: IdParams,
        response: { 200: Box, ...errorResponses(404) },
      },
    },
    async (request) => services.boxes.get(request.scope, request.params.id),
  );

  app.post(
    '/v2/boxes',
    {
      schema: {
        operation: { id: 'createBox', contract: '4.7' },
        tags,
        summary: 'Create a box',
        body: BoxInput,
        response: { 201: Created, ...errorResponses() },
      },
    },
    async (request, reply) => reply.code(201).send({ id: await services.boxes.create(request.scope, request.body) }),
  );

  app.put(
    '/v2/boxes/:id',
    {
      schema: {
        operation: { id: 'replaceBox', contract: '4.7' },
        tags,
        summary: 'Replace a box',
        params: IdParams,
        body: BoxInput,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.boxes.replace(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.patch(
    '/v2/boxes/:id',
    {
      schema: {
        operation: { id: 'patchBox', contract: '4.7' },
        tags,
        summary: 'Change part of a box',
        params: IdParams,
        body: BoxPatch,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.boxes.patch(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/boxes/:id',
    {
      schema: {
        operation: { id: 'deleteBox', contract: '4.7' },
        tags,
        summary: 'Delete a box',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.boxes.delete(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );
}
