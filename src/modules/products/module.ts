/** modules/products, the area definition (src/modules.ts lists it): Products and their xlsx import. */
import { defineModule } from '../../platform/module.js';
import { productRoutes, type ProductsRouteServices } from './routes.js';
import { ImportResult, Product } from './schemas.js';
import type { ProductTables } from './tables.js';

export const productsModule = defineModule<ProductsRouteServices, ProductTables>({
  area: 'products',
  purpose: 'Products and their xlsx import.',
  offers: ['products'],
  dependsOn: ['fulfilment', 'marketplaces'],
  migrationHistory: ['0003_catalogue', '0003_catalogue_search', '0015_marketplaces'],
  tags: [{ name: 'Products', description: 'Contract 4.6: products and their xlsx import.' }],
  schemas: { Product, ProductImportResult: ImportResult },
  routes: productRoutes,
});

declare module '../../platform/cache.js' {
  interface CacheTopics {
    'product-counts': 'counts of product lists (products/service.ts)';
    'product-records': 'products read by id (products/service.ts)';
  }
}
