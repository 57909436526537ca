/** modules/kits, the area definition (src/modules.ts lists it): Kits of products. */
import { defineModule } from '../../platform/module.js';
import { kitRoutes, type KitsRouteServices } from './routes.js';
import { Kit } from './schemas.js';
import type { KitTables } from './tables.js';

export const kitsModule = defineModule<KitsRouteServices, KitTables>({
  area: 'kits',
  purpose: 'Kits of products.',
  offers: ['kits'],
  dependsOn: ['shops', 'products'],
  migrationHistory: ['0003_catalogue'],
  tags: [{ name: 'Kits', description: 'Contract 4.7: kits of products.' }],
  schemas: { Kit },
  routes: kitRoutes,
});
