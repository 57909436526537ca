import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { errorResponses, NoContent } from '../../platform/schemas.js';
import type { ShopService } from '../shops/service.js';
import type { MarketplaceService } from './service.js';
import { logoSvg } from '../companies/routes.js';
import {
  IntegrationBody,
  Marketplace,
  MarketplaceIdParams,
  MarketplaceListQuery,
  MarketplaceWarehouse,
  MarketplaceWarehouseQuery,
  SettingsBody,
} from './schemas.js';

const tags = ['Marketplaces'];

/** The services these routes use, and no other. */
export interface MarketplacesRouteServices {
  marketplaces: MarketplaceService;
  shops: ShopService;
}
export function marketplaceRoutes(app: App, services: MarketplacesRouteServices): void {
  app.get<{ Params: { file: string } }>(
    '/logos/marketplaces/:file',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const code = request.params.file.replace(/\.svg$/, '');
      const marketplace = services.marketplaces.directory.all.find((record) => record.code === code);
      if (!marketplace)
        return reply.code(404).send({ code: 'not_found', message: 'No such logo.', errors: [], logId: request.id });
      return reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .send(logoSvg(marketplace.name, marketplace.code));
    },
  );

  app.get(
    '/v2/marketplaces',
    {
      schema: {
        operation: { id: 'listMarketplaces', contract: '4.9' },
        tags,
        summary: "Marketplaces, with the account's integration state",
        description: 'No paging. Credentials are shown masked.',
        querystring: MarketplaceListQuery,
        response: { 200: Type.Array(Marketplace), ...errorResponses() },
      },
    },
    async (request) => services.marketplaces.list(request.scope, request.query),
  );

  app.get(
    '/v2/marketplaces/warehouses',
    {
      schema: {
        operation: { id: 'listMarketplaceWarehouses', contract: '4.9' },
        tags,
        summary: 'Warehouses of a marketplace in a locality',
        description:
          'No paging. An unknown marketplace is 404; a locality without warehouses answers []. For FBS/DBS of a connected marketplace with a warehouse list (Ozon, Wildberries) the list is asked live: only the warehouses it names are kept, under its names; when it does not answer (3 s), the reference data answers.',
        querystring: MarketplaceWarehouseQuery,
        response: { 200: Type.Array(MarketplaceWarehouse), ...errorResponses(404) },
      },
    },
    async (request) => services.marketplaces.warehouses(request.scope, request.query),
  );

  app.post(
    '/v2/marketplaces/integration/:id',
    {
      schema: {
        operation: { id: 'connectMarketplace', contract: '4.9' },
        tags,
        summary: 'Connect a marketplace account',
        description:
          "The body holds exactly the keys of the marketplace's integrationParams. The credentials are checked with the marketplace first: a refusal is 422 marketplace_auth_failed with its reason, a marketplace that does not answer 503 marketplace_unavailable; nothing is stored then. " +
          "Stored sealed with the instance secret (AES-256-GCM). The Shop-Id header (or a shop key's shop) names the shop notified of new orders; without it, the account's first shop.",
        params: MarketplaceIdParams,
        body: IntegrationBody,
        response: { 204: NoContent, ...errorResponses(403, 404, 422, 503) },
      },
    },
    async (request, reply) => {
      const shop = await services.shops.resolveShopHeader(request.scope, request.headers['shop-id'], false);
      await services.marketplaces.connect(request.scope, request.params.id, request.body, shop?.id ?? null);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/marketplaces/integration/:id',
    {
      schema: {
        operation: { id: 'disconnectMarketplace' },
        tags,
        summary: 'Disconnect a marketplace account (extension)',
        description:
          'Its orders are read no more and its sealed credentials are deleted; the orders already read stay (GET /v2/marketplace-orders). Goods its open orders hold at a fulfilment warehouse are given back. ' +
          'Account-wide (a shop key is 403); a marketplace not connected is 404. Connecting again reads from the start (orders already stored are not stored twice) with every mode the marketplace offers.',
        params: MarketplaceIdParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.marketplaces.disconnect(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/marketplaces/settings/:id',
    {
      schema: {
        operation: { id: 'saveMarketplaceSettings', contract: '4.9' },
        tags,
        summary: 'Shipment settings of a connected marketplace',
        description:
          'Only modes the marketplace offers may be enabled (400 otherwise); a marketplace not connected is 409 marketplace_not_connected. Orders of a disabled mode are not read. ' +
          "FBO orders are not read yet from any marketplace (only the seller's FBS/DBS order lists are adapted), so fboEnabled has no effect for now.",
        params: MarketplaceIdParams,
        body: SettingsBody,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.marketplaces.saveSettings(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );
}
