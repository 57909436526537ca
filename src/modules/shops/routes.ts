import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendCachedPage } from '../../platform/paging.js';
import { Created, errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { ShopService } from './service.js';
import { ApiKeyResponse, Shop, ShopInput, ShopListQuery } from './schemas.js';
import type { ExampleDoc } from '../../platform/openapi.js';

/** The docs page's example: after the warehouse example, this is shop 1 (the order example names it). */
export const SHOP_EXAMPLE: ExampleDoc = {
  summary: 'A shop shipping from warehouse 1',
  description: 'On a fresh instance (after the warehouse example) this is shop 1.',
  value: { name: 'Мой магазин', brand: 'МойБренд', warehouse: { id: 1 }, platform: 'woocommerce' },
};

const tags = ['Shops'];
const ShopList = Type.Array(Shop);

/** The services these routes use, and no other. */
export interface ShopsRouteServices {
  shops: ShopService;
}
/**
 * A `Shop-Id` header is checked on every authenticated call that carries one, whatever the
 * endpoint reads: a plugin's settings check calls a harmless list with the shop id the owner
 * typed, and must hear that a wrong one is wrong (400; a shop key naming another shop: 403).
 */
export function checkShopHeaderOnEveryCall(app: App, services: ShopsRouteServices): void {
  app.addHook('onRequest', async (request) => {
    const header = request.headers['shop-id'];
    if (!request.scope || header === undefined || header === '') return;
    await services.shops.resolveShopHeader(request.scope, header, false);
  });
}

export function shopRoutes(app: App, services: ShopsRouteServices): void {
  app.get(
    '/v2/shops',
    {
      schema: {
        operation: { id: 'listShops', contract: '4.2' },
        tags,
        summary: 'List shops',
        description: 'A shop API key sees only its own shop.',
        querystring: ShopListQuery,
        response: { 200: { ...ShopList, headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendCachedPage(reply, await services.shops.list(request.scope, request.query, at), at, ShopList);
    },
  );

  app.get(
    '/v2/shops/:id',
    {
      schema: {
        operation: { id: 'getShop', contract: '4.2' },
        tags,
        summary: 'Get a shop',
        params: IdParams,
        response: { 200: Shop, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.shops.get(request.scope, request.params.id),
  );

  app.post(
    '/v2/shops',
    {
      schema: {
        operation: { id: 'createShop', contract: '4.2', examples: { shop: SHOP_EXAMPLE } },
        tags,
        summary: 'Create a shop',
        description: 'The shop gets an API key (apiKey in GET), a bearer token limited to this shop.',
        body: ShopInput,
        response: { 201: Created, ...errorResponses(403, 409) },
      },
    },
    async (request, reply) => {
      const id = await services.shops.create(request.scope, request.body);
      return reply.code(201).send({ id });
    },
  );

  app.put(
    '/v2/shops/:id',
    {
      schema: {
        operation: { id: 'replaceShop', contract: '4.2', examples: { shop: SHOP_EXAMPLE } },
        tags,
        summary: 'Replace a shop',
        params: IdParams,
        body: ShopInput,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.shops.replace(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/shops/:id',
    {
      schema: {
        operation: { id: 'deleteShop', contract: '4.2' },
        tags,
        summary: 'Delete a shop',
        description: 'Its API key stops working.',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.shops.delete(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/shops/:id/api-key',
    {
      schema: {
        operation: { id: 'replaceShopApiKey' },
        tags,
        summary: "Replace the shop's API key (extension)",
        description: 'Issues a new apiKey; the old one stops working at once. Needs an account token.',
        params: IdParams,
        response: { 200: ApiKeyResponse, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({ apiKey: await services.shops.rotateApiKey(request.scope, request.params.id) }),
  );
}
