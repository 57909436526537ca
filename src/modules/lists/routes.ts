import type { App } from '../../platform/http.js';
import { bodyAsQuery, GET_OR_POST } from '../../platform/read-by-post.js';
import { errorResponses } from '../../platform/schemas.js';
import type { Services } from '../../services.js';
import { OrderStatuses, OrderStatusesQuery } from './schemas.js';

export function listRoutes(app: App, services: Services): void {
  app.route({
    method: GET_OR_POST,
    url: '/v2/lists/order-statuses',
    preValidation: bodyAsQuery,
    schema: {
      tags: ['Reference lists'],
      summary: 'Order statuses',
      description: 'Every order status code with its name in the requested language. POST takes `lang` in the body.',
      querystring: OrderStatusesQuery,
      response: { 200: OrderStatuses, ...errorResponses() },
    },
    handler: async (request) => services.orderStatuses.names(request.query.lang ?? 'ru'),
  });
}
