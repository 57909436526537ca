/** modules/lists, the area definition (src/modules.ts lists it): The reference lists of contract 4.1 and the localities search: order statuses and countries are its own fixed lists; services, companies, points and courier intervals the companies area's data. */
import { defineModule } from '../../platform/module.js';
import { listRoutes, type ListsRouteServices } from './routes.js';
import { OrderStatuses } from './schemas.js';

export const listsModule = defineModule<ListsRouteServices>({
  area: 'lists',
  purpose:
    "The reference lists of contract 4.1 and the localities search: order statuses and countries are its own fixed lists; services, companies, points and courier intervals the companies area's data.",
  offers: ['orderStatuses', 'countries'],
  dependsOn: ['companies', 'widget'],
  migrationHistory: [],
  tags: [
    {
      name: 'Reference lists',
      description:
        'Contract 4.1: services, delivery and return companies, pickup points, courier intervals, order statuses.',
    },
  ],
  schemas: { OrderStatuses },
  routes: listRoutes,
});
