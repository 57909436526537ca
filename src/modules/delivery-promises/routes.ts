import { requireAccountWide } from '../../platform/auth.js';
import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/schemas.js';
import type { OnTimeReports } from './report.js';
import { OnTimeQuery, OnTimeReport } from './schemas.js';

/** The services these routes use, and no other. */
export interface DeliveryPromiseRouteServices {
  onTimeReports: OnTimeReports;
}

export function deliveryPromiseRoutes(app: App, services: DeliveryPromiseRouteServices): void {
  app.get(
    '/v2/reports/delivery-times',
    {
      schema: {
        operation: { id: 'getDeliveryTimesReport' },
        tags: ['Delivery promises (extension)'],
        summary: 'Delivery on time: promised against actual, per company and route',
        description:
          "The account's parcels that arrived (delivered, or at the pickup point or post office) between dateFrom and dateTo (inclusive, at most 366 days), in business days from hand-over: how many arrived by the date promised when the order was made, beside the share within the company's declared days; per company and delivery type, and for the 100 busiest routes. " +
          'A sandbox history (POST /v2/sandbox/delivery-history) counts with the promise each parcel would have had then (what the parcels before it taught). Account tokens only (a shop key: 403).',
        querystring: OnTimeQuery,
        response: { 200: OnTimeReport, ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      requireAccountWide(request.scope, 'read the delivery times report');
      return services.onTimeReports.report(request.scope, request.query);
    },
  );
}
