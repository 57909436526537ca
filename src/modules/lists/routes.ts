import type { App } from '../../platform/http.js';
import { bodyAsQuery, GET_OR_POST } from '../../platform/read-by-post.js';
import { errorResponses } from '../../platform/schemas.js';
import type { OrderStatusDirectory } from './order-statuses.js';
import { OrderStatuses, OrderStatusesQuery } from './schemas.js';


/** The services these routes use, and no other. */
export interface ListsRouteServices {
  orderStatuses: OrderStatusDirectory;
}
export function listRoutes(app: App, services: ListsRouteServices): void {
  app.route({
    method: GET_OR_POST,
    url: '/v2/lists/order-statuses',
    preValidation: bodyAsQuery,
    schema: { operationByMethod: { GET: { id: 'listOrderStatuses', contract: '4.1' }, POST: { id: 'listOrderStatusesByPost', contract: '4.1' } },
      tags: ['Reference lists'],
      summary: 'Order statuses',
      description: 'Every order status code with its name in the requested language. POST takes `lang` in the body.',
      querystring: OrderStatusesQuery,
      response: { 200: OrderStatuses, ...errorResponses() },
    },
    handler: async (request) => services.orderStatuses.names(request.query.lang ?? 'ru'),
  });
}
