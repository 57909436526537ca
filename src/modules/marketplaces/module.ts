/** modules/marketplaces, the area definition (src/modules.ts lists it): Marketplaces and the account's integrations with them. */
import { defineModule } from '../../platform/module.js';
import { marketplaceRoutes, type MarketplacesRouteServices } from './routes.js';
import { Marketplace, MarketplaceWarehouse } from './schemas.js';
import type { MarketplaceTables } from './tables.js';

export const marketplacesModule = defineModule<MarketplacesRouteServices, MarketplaceTables>({
  area: 'marketplaces',
  purpose: "Marketplaces and the account's integrations with them.",
  offers: ['marketplaces'],
  dependsOn: ['shops', 'warehouses'],
  migrationHistory: ['0015_marketplaces'],
  tags: [
    {
      name: 'Marketplaces',
      description:
        "Contract 4.9: marketplaces, the account's integrations with them, their warehouses and the orders read from them.",
    },
  ],
  schemas: { Marketplace, MarketplaceWarehouse },
  routes: marketplaceRoutes,
});
