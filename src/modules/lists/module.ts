/** modules/lists, the area definition (src/modules.ts lists it): Order statuses and countries: fixed lists. */
import { defineModule } from '../../platform/module.js';
import { listRoutes, type ListsRouteServices } from './routes.js';
import { OrderStatuses } from './schemas.js';

export const listsModule = defineModule<ListsRouteServices>({
  area: 'lists',
  purpose: 'Order statuses and countries: fixed lists.',
  offers: ['orderStatuses', 'countries'],
  dependsOn: ['widget'],
  migrationHistory: [],
  schemas: { OrderStatuses },
  routes: listRoutes,
});
