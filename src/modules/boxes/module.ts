/** modules/boxes, the area definition (src/modules.ts lists it): Parcel boxes of an account. */
import { defineModule } from '../../platform/module.js';
import { boxRoutes, type BoxesRouteServices } from './routes.js';
import { Box } from './schemas.js';
import type { BoxTables } from './tables.js';

export const boxesModule = defineModule<BoxesRouteServices, BoxTables>({
  area: 'boxes',
  purpose: 'Parcel boxes of an account.',
  offers: ['boxes'],
  dependsOn: [],
  migrationHistory: ['0001_foundation'],
  tags: [{ name: 'Boxes', description: 'Contract 4.7: parcel boxes.' }],
  schemas: { Box },
  routes: boxRoutes,
});
