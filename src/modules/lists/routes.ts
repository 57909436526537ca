import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/schemas.js';
import type { Services } from '../../services.js';
import { OrderStatuses, OrderStatusesQuery } from './schemas.js';

export function listRoutes(app: App, services: Services): void {
  app.get(
    '/v2/lists/order-statuses',
    {
      schema: {
        tags: ['Reference lists'],
        summary: 'Order statuses',
        description: 'Every order status code with its name in the requested language.',
        querystring: OrderStatusesQuery,
        response: { 200: OrderStatuses, ...errorResponses() },
      },
    },
    async (request) => services.orderStatuses.names(request.query.lang ?? 'ru'),
  );
}
