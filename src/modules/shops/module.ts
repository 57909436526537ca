/** modules/shops, the area definition (src/modules.ts lists it): Shops, their API keys and the Shop-Id header every call may send. */
import { defineModule } from '../../platform/module.js';
import { shopKeyFirstUse } from './migrations/0093_shop_key_first_use.js';
import { checkShopHeaderOnEveryCall, shopRoutes, type ShopsRouteServices } from './routes.js';
import { ApiKeyResponse, Shop } from './schemas.js';
import type { ShopTables } from './tables.js';

export const shopsModule = defineModule<ShopsRouteServices, ShopTables>({
  area: 'shops',
  purpose: 'Shops, their API keys and the Shop-Id header every call may send.',
  offers: ['shops'],
  dependsOn: ['warehouses', 'accounts'],
  migrationHistory: ['0001_foundation'],
  migrations: [shopKeyFirstUse],
  tags: [{ name: 'Shops', description: 'Contract 4.2; extensions: API key rotation and widget settings.' }],
  schemas: { Shop, ShopApiKey: ApiKeyResponse },
  requestHooks: checkShopHeaderOnEveryCall,
  routes: shopRoutes,
});

declare module '../../platform/cache.js' {
  interface CacheTopics {
    shops: 'pages of shops and the Shop-Id header’s shop (shops/service.ts)';
  }
}
