import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { errorResponses, IdParams } from '../../platform/schemas.js';
import type { MarketplaceOrderService } from './service.js';
import { BundleQuery, MarketplaceOrder, MarketplaceOrderListQuery } from './schemas.js';

const tags = ['Marketplaces'];

/** The services these routes use, and no other. */
export interface MarketplaceOrdersRouteServices {
  marketplaceOrders: MarketplaceOrderService;
}
export function marketplaceOrderRoutes(app: App, services: MarketplaceOrdersRouteServices): void {
  app.get(
    '/v2/marketplace-orders',
    {
      schema: {
        operation: { id: 'listMarketplaceOrders', contract: '4.9' },
        tags,
        summary: 'Orders read from the connected marketplaces',
        description:
          "Newest first. A shop API key sees its shop's orders only. Orders are read from the marketplaces' FBS/DBS lists; FBO orders are not read yet (shippingMode=2 matches none). Extension: shopId, the shop notified of an order.",
        querystring: MarketplaceOrderListQuery,
        response: { 200: { ...Type.Array(MarketplaceOrder), headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.marketplaceOrders.list(request.scope, request.query, at), at);
    },
  );

  // before /:id, which would otherwise take "bundles" for an id
  app.get(
    '/v2/marketplace-orders/bundles',
    {
      schema: {
        operation: { id: 'listMarketplaceOrderBundle', contract: '4.9' },
        tags,
        summary: 'The orders of a bundle (shipped together)',
        description: 'An unknown bundle is 404.',
        querystring: BundleQuery,
        response: { 200: Type.Array(MarketplaceOrder), ...errorResponses(404) },
      },
    },
    async (request) => services.marketplaceOrders.bundle(request.scope, request.query.id),
  );

  app.get(
    '/v2/marketplace-orders/:id',
    {
      schema: {
        operation: { id: 'getMarketplaceOrder', contract: '4.9' },
        tags,
        summary: 'A marketplace order',
        params: IdParams,
        response: { 200: MarketplaceOrder, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.marketplaceOrders.get(request.scope, request.params.id),
  );
}
