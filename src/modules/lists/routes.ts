import type { App } from '../../platform/http.js';
import { bodyAsQuery, GET_OR_POST } from '../../platform/read-by-post.js';
import { errorResponses } from '../../platform/schemas.js';
import type { OrderStatusDirectory } from './order-statuses.js';
import Type from 'typebox';
import { LocalityNameQuery, WidgetLocality } from '../widget/schemas.js';
import type { WidgetService } from '../widget/service.js';
import { OrderStatuses, OrderStatusesQuery } from './schemas.js';

/** The services these routes use, and no other. */
export interface ListsRouteServices {
  orderStatuses: OrderStatusDirectory;
  widget: WidgetService;
}
export function listRoutes(app: App, services: ListsRouteServices): void {
  app.route({
    method: GET_OR_POST,
    url: '/v2/lists/order-statuses',
    preValidation: bodyAsQuery,
    schema: {
      operationByMethod: {
        GET: { id: 'listOrderStatuses', contract: '4.1' },
        POST: { id: 'listOrderStatusesByPost', contract: '4.1' },
      },
      tags: ['Reference lists'],
      summary: 'Order statuses',
      description: 'Every order status code with its name in the requested language. POST takes `lang` in the body.',
      querystring: OrderStatusesQuery,
      response: { 200: OrderStatuses, ...errorResponses() },
    },
    handler: async (request) => services.orderStatuses.names(request.query.lang ?? 'ru'),
  });

  app.get(
    '/v2/lists/localities',
    {
      schema: {
        operation: { id: 'searchLocalities' },
        tags: ['Reference lists'],
        summary: 'Localities whose name (Russian or English) starts with the typed text, the largest first',
        description:
          "The city search of an order form: send the answer back as deliveryAddress.city (fias, name, type, region) or the calculator's reception.",
        querystring: LocalityNameQuery,
        response: { 200: Type.Array(WidgetLocality), ...errorResponses() },
      },
    },
    async (request) => services.widget.localities(request.query),
  );
}
