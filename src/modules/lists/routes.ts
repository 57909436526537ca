import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { bodyAsQuery, GET_OR_POST } from '../../platform/read-by-post.js';
import { errorResponses } from '../../platform/schemas.js';
import type { OrderStatusDirectory } from './order-statuses.js';
import Type from 'typebox';
import {
  CourierInterval,
  CourierScheduleQuery,
  DeliveryCompanyItem,
  PointItem,
  PointsQuery,
  ReturnCompanyItem,
  ServicesList,
  ServicesQuery,
} from '../companies/schemas.js';
import type { DeliveryCompanyService } from '../companies/service.js';
import { LocalityNameQuery, WidgetLocality } from '../widget/schemas.js';
import type { WidgetService } from '../widget/service.js';
import { OrderStatuses, OrderStatusesQuery } from './schemas.js';

const tags = ['Reference lists'];

/** The services these routes use, and no other. */
export interface ListsRouteServices {
  deliveryCompanies: DeliveryCompanyService;
  orderStatuses: OrderStatusDirectory;
  widget: WidgetService;
}
export function listRoutes(app: App, services: ListsRouteServices): void {
  // Reference lists answer POST too, filters in the body (read-by-post.ts).
  app.route({
    method: GET_OR_POST,
    url: '/v2/lists/order-statuses',
    preValidation: bodyAsQuery,
    schema: {
      operationByMethod: {
        GET: { id: 'listOrderStatuses', contract: '4.1' },
        POST: { id: 'listOrderStatusesByPost', contract: '4.1' },
      },
      tags,
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
        tags,
        summary: 'Localities whose name (Russian or English) starts with the typed text, the largest first',
        description:
          "The city search of an order form: send the answer back as deliveryAddress.city (fias, name, type, region) or the calculator's reception.",
        querystring: LocalityNameQuery,
        response: { 200: Type.Array(WidgetLocality), ...errorResponses() },
      },
    },
    async (request) => services.widget.localities(request.query),
  );

  app.route({
    method: GET_OR_POST,
    url: '/v2/lists/services',
    preValidation: bodyAsQuery,
    schema: {
      operationByMethod: {
        GET: { id: 'listServices', contract: '4.1' },
        POST: { id: 'listServicesByPost', contract: '4.1' },
      },
      tags,
      summary: 'Additional services',
      querystring: ServicesQuery,
      response: { 200: ServicesList, ...errorResponses(403, 404) },
    },
    handler: async (request) => services.deliveryCompanies.services(request.scope, request.query.shopId),
  });

  app.route({
    method: GET_OR_POST,
    url: '/v2/lists/delivery-companies',
    schema: {
      operationByMethod: {
        GET: { id: 'listDeliveryCompanies', contract: '4.1' },
        POST: { id: 'listDeliveryCompaniesByPost', contract: '4.1' },
      },
      tags,
      summary: 'Delivery companies',
      response: { 200: Type.Array(DeliveryCompanyItem), ...errorResponses() },
    },
    handler: async () => services.deliveryCompanies.deliveryCompanies(),
  });

  app.route({
    method: GET_OR_POST,
    url: '/v2/lists/return-companies',
    schema: {
      operationByMethod: {
        GET: { id: 'listReturnCompanies', contract: '4.1' },
        POST: { id: 'listReturnCompaniesByPost', contract: '4.1' },
      },
      tags,
      summary: 'Return companies',
      response: { 200: Type.Array(ReturnCompanyItem), ...errorResponses() },
    },
    handler: async () => services.deliveryCompanies.returnCompanies(),
  });

  app.route({
    method: GET_OR_POST,
    url: '/v2/lists/points',
    preValidation: bodyAsQuery,
    schema: {
      operationByMethod: {
        GET: { id: 'listPickupPoints', contract: '4.1' },
        POST: { id: 'listPickupPointsByPost', contract: '4.1' },
      },
      tags,
      summary: 'Pickup points',
      description:
        'Filters: id, companyId, cityFias, country, types (1 pickup point, 2 parcel locker, 3 post office); paged. POST takes the same filters in the body.',
      querystring: PointsQuery,
      response: { 200: { ...Type.Array(PointItem), headers: PAGING_HEADERS }, ...errorResponses() },
    },
    handler: async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.deliveryCompanies.points(request.query, at), at);
    },
  });

  app.get(
    '/v2/couriers/schedule',
    {
      schema: {
        operation: { id: 'listCourierIntervals', contract: '4.1' },
        tags,
        summary: 'Courier time intervals',
        querystring: CourierScheduleQuery,
        response: { 200: Type.Array(CourierInterval), ...errorResponses(403, 404) },
      },
    },
    async (request) => services.deliveryCompanies.courierSchedule(request.scope, request.query),
  );
}
