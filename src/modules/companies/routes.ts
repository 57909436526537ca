import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { errorResponses } from '../../platform/schemas.js';
import type { Services } from '../../services.js';
import {
  CourierInterval,
  CourierScheduleQuery,
  DeliveryCompanyItem,
  OrderShipmentQuery,
  PointItem,
  PointsQuery,
  ReturnCompanyItem,
  ServicesList,
  ServicesQuery,
  ShipmentOption,
  WarehouseShipment,
  WarehouseShipmentQuery,
} from './schemas.js';

const tags = ['Reference lists'];

export function deliveryCompanyRoutes(app: App, services: Services): void {
  app.get(
    '/v2/lists/services',
    { schema: { tags, summary: 'Additional services', querystring: ServicesQuery, response: { 200: ServicesList, ...errorResponses(403, 404) } } },
    async (request) => services.deliveryCompanies.services(request.scope, request.query.shopId),
  );

  app.get(
    '/v2/lists/delivery-companies',
    { schema: { tags, summary: 'Delivery companies', response: { 200: Type.Array(DeliveryCompanyItem), ...errorResponses() } } },
    async () => services.deliveryCompanies.deliveryCompanies(),
  );

  app.get(
    '/v2/lists/return-companies',
    { schema: { tags, summary: 'Return companies', response: { 200: Type.Array(ReturnCompanyItem), ...errorResponses() } } },
    async () => services.deliveryCompanies.returnCompanies(),
  );

  app.get(
    '/v2/lists/points',
    {
      schema: {
        tags,
        summary: 'Pickup points',
        description: 'Filters: id, companyId, cityFias, country, types (1 pickup point, 2 parcel locker, 3 post office); paged.',
        querystring: PointsQuery,
        response: { 200: { ...Type.Array(PointItem), headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.deliveryCompanies.points(request.query, at), at);
    },
  );

  app.get(
    '/v2/couriers/schedule',
    { schema: { tags, summary: 'Courier time intervals', querystring: CourierScheduleQuery, response: { 200: Type.Array(CourierInterval), ...errorResponses(403, 404) } } },
    async (request) => services.deliveryCompanies.courierSchedule(request.scope, request.query),
  );

  app.get(
    '/v2/warehouses/shipment',
    {
      schema: {
        tags: ['Warehouses'],
        summary: 'Shipment methods from a place',
        description: "Keys '1' drop-off to delivery services, '2' drop-off to a consolidated pickup warehouse, '3' consolidated pickup, '4' direct shipment, and companiesForExceptions.",
        querystring: WarehouseShipmentQuery,
        response: { 200: WarehouseShipment, ...errorResponses() },
      },
    },
    async (request) => services.deliveryCompanies.warehouseShipment(request.query),
  );

  app.get(
    '/v2/orders/shipment',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Shipment options for a company and pickup type',
        querystring: OrderShipmentQuery,
        response: { 200: Type.Array(ShipmentOption), ...errorResponses(404) },
      },
    },
    async (request) => services.deliveryCompanies.orderShipment(request.scope, request.query),
  );
}
