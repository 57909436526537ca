/** modules/marketplace-orders, the area definition (src/modules.ts lists it): Orders read from the connected marketplaces, and the poll that reads them. */
import { defineModule } from '../../platform/module.js';
import { marketplaceOrderRoutes, type MarketplaceOrdersRouteServices } from './routes.js';
import { MarketplaceOrder } from './schemas.js';
import type { MarketplaceOrderTables } from './tables.js';

export const marketplaceOrdersModule = defineModule<MarketplaceOrdersRouteServices, MarketplaceOrderTables>({
  area: 'marketplace-orders',
  purpose: 'Orders read from the connected marketplaces, and the poll that reads them.',
  offers: ['marketplaceOrders'],
  dependsOn: ['marketplaces', 'products', 'fulfilment'],
  migrationHistory: ['0015_marketplaces', '0019_marketplace_followup'],
  schemas: { MarketplaceOrder },
  routes: marketplaceOrderRoutes,
  jobs: (worker, services) => {
    services.marketplaceOrders.registerJobs(worker);
  },
  schedules: async (services) => {
    await services.marketplaceOrders.scheduleRounds();
  },
});
