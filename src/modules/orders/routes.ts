import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS } from '../../platform/paging.js';
import { sendJsonBody, takesAssembledGzip } from '../../platform/compression.js';
import { Created, errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import { OrderShipmentQuery, ShipmentOption } from '../companies/schemas.js';
import type { DeliveryCompanyService } from '../companies/service.js';
import type { ShopService } from '../shops/service.js';
import type { OrderService } from './service.js';
import type { TrackingService } from './tracking.js';
import {
  ConfirmBody,
  DuplicateResult,
  ExtendHoldBody,
  IdsBody,
  MissingProducts,
  Order,
  OrderInput,
  OrderListQuery,
  OrderPatch,
  OwnStatusBody,
  PushBody,
  PushHeaders,
  PushParams,
  PushResult,
  TrackingQuery,
  TrackingRecord,
} from './schemas.js';
import type { ExampleDoc } from '../../platform/openapi.js';

/** The point of company 1 (Пунктир) in Санкт-Петербург and its drop-off point in Москва, from the reference data in data/. */
const SPB_POINT_ID = 10000721;
const MOSCOW_DROP_OFF_POINT_ID = 10001485;

/** The docs page's example, run after the warehouse and shop examples on a fresh instance. */
export const ORDER_EXAMPLE: ExampleDoc = {
  summary: 'One book to a pickup point in Санкт-Петербург, cash on delivery',
  description: `Shop 1 is the shop of the shop example. Company 1 takes parcels at a drop-off point chosen in advance (pickup.pointId, in Москва where the warehouse is); delivery.point.id is its point in Санкт-Петербург.`,
  value: {
    shopId: 1,
    cmsId: 'SITE-77',
    products: [
      {
        name: 'Книга',
        vendorCode: 'BOOK-1',
        priceDeclared: 800,
        priceCod: 900,
        count: 1,
        weight: 0.5,
        dimensions: { width: 15, height: 4, length: 22 },
      },
    ],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
    delivery: { company: { id: 1 }, type: 1, point: { id: SPB_POINT_ID } },
    pickup: { pointId: MOSCOW_DROP_OFF_POINT_ID },
  },
};

const tags = ['Orders'];
const JSON_TYPE = 'application/json; charset=utf-8';
const ShopIdHeader = Type.Object({
  'shop-id': Type.Optional(Type.String({ description: 'The shop the order is for, when the body has no shopId' })),
});
const batchErrors = errorResponses(403, 404, 409);

/** The services these routes use, and no other. */
export interface OrdersRouteServices {
  deliveryCompanies: DeliveryCompanyService;
  orders: OrderService;
  shops: ShopService;
  tracking: TrackingService;
}
export function orderRoutes(app: App, services: OrdersRouteServices): void {
  const orders = services.orders;

  app.get(
    '/v2/orders',
    {
      schema: {
        operation: { id: 'listOrders', contract: '4.4' },
        tags,
        summary: 'List orders',
        querystring: OrderListQuery,
        response: { 200: { ...Type.Array(Order), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      const wantsPlain = !takesAssembledGzip(request.headers['accept-encoding']);
      const page = await orders.list(request.scope, request.query, at, wantsPlain);
      reply
        .header('X-Total-Count', String(page.total))
        .header('X-Page', String(at.page))
        .header('X-Per-Page', String(at.perPage));
      // stored documents are spliced as they are, not parsed and serialised again; a page of 50 is about 190 kB
      return sendJsonBody(request, reply, page.json);
    },
  );

  app.get(
    '/v2/orders/:id',
    {
      schema: {
        operation: { id: 'getOrder', contract: '4.4' },
        tags,
        summary: 'Get an order',
        params: IdParams,
        response: { 200: Order, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) =>
      reply.type(JSON_TYPE).send((await orders.getText(request.scope, request.params.id)) as unknown as Order),
  );

  app.post(
    '/v2/orders',
    {
      schema: {
        operation: { id: 'createOrder', contract: '4.4', examples: { order: ORDER_EXAMPLE } },
        tags,
        summary: 'Create an order (a draft, priced)',
        headers: ShopIdHeader,
        body: OrderInput,
        response: { 201: Created, ...errorResponses(403, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ id: await orders.create(request.scope, request.body, request.headers['shop-id']) }),
  );

  app.put(
    '/v2/orders/:id',
    {
      schema: {
        operation: { id: 'replaceOrder', contract: '4.4', examples: { order: ORDER_EXAMPLE } },
        tags,
        summary: 'Replace an order (drafts and orders in error)',
        params: IdParams,
        headers: ShopIdHeader,
        body: OrderInput,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await orders.replace(request.scope, request.params.id, request.body, request.headers['shop-id']);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/orders/status/:id',
    {
      schema: {
        operation: { id: 'setOwnDeliveryOrderStatus' },
        tags,
        summary: 'Move an order of an own delivery method to its next status (extension)',
        description:
          "Only orders of the account's own delivery methods ('{accountId}_{methodId}'), from 13 (ready for shipment) on: the shop delivers them itself, so it reports their statuses. 409 when the order's status does not lead to the code; 422 for an order of a delivery company.",
        params: IdParams,
        body: OwnStatusBody,
        response: { 204: NoContent, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      await services.tracking.setOwnStatus(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.patch(
    '/v2/orders/:id',
    {
      schema: {
        operation: { id: 'patchOrder', contract: '4.4' },
        tags,
        summary: 'Change recipient contacts, cmsId and comments; any other field is refused',
        params: IdParams,
        body: OrderPatch,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await orders.patch(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/orders/confirm',
    {
      schema: {
        operation: { id: 'confirmOrders', contract: '4.4' },
        tags,
        summary: 'Confirm drafts; each is registered with its company (preOrder: as a preorder)',
        body: ConfirmBody,
        response: { 204: NoContent, ...batchErrors },
      },
    },
    async (request, reply) => {
      await orders.confirm(request.scope, request.body);
      return reply.code(204).send();
    },
  );
  app.post(
    '/v2/orders/cancel',
    {
      schema: {
        operation: { id: 'cancelOrders', contract: '4.4' },
        tags,
        summary: 'Cancel orders not yet handed over',
        body: IdsBody,
        response: { 204: NoContent, ...batchErrors },
      },
    },
    async (request, reply) => {
      await orders.cancel(request.scope, request.body.ids);
      return reply.code(204).send();
    },
  );
  app.post(
    '/v2/orders/return',
    {
      schema: {
        operation: { id: 'returnOrders', contract: '4.4' },
        tags,
        summary: 'Request the return of orders at the pickup point or delivered',
        body: IdsBody,
        response: { 204: NoContent, ...batchErrors },
      },
    },
    async (request, reply) => {
      // through tracking: a built-in company's parcel then travels back
      await services.tracking.requestReturn(request.scope, request.body.ids);
      return reply.code(204).send();
    },
  );
  app.post(
    '/v2/orders/extend-hold',
    {
      schema: {
        operation: { id: 'extendOrderHold', contract: '4.4' },
        tags,
        summary: 'Request longer storage at the pickup point',
        body: ExtendHoldBody,
        response: { 204: NoContent, ...batchErrors },
      },
    },
    async (request, reply) => {
      await orders.extendHold(request.scope, request.body);
      return reply.code(204).send();
    },
  );
  app.post(
    '/v2/orders/pack',
    {
      schema: {
        operation: { id: 'packOrders', contract: '4.4' },
        tags,
        summary: 'Mark orders packed',
        body: IdsBody,
        response: { 204: NoContent, ...batchErrors },
      },
    },
    async (request, reply) => {
      await orders.pack(request.scope, request.body.ids, true);
      return reply.code(204).send();
    },
  );
  app.post(
    '/v2/orders/unpack',
    {
      schema: {
        operation: { id: 'unpackOrders', contract: '4.4' },
        tags,
        summary: 'Mark orders not packed',
        body: IdsBody,
        response: { 204: NoContent, ...batchErrors },
      },
    },
    async (request, reply) => {
      await orders.pack(request.scope, request.body.ids, false);
      return reply.code(204).send();
    },
  );
  app.post(
    '/v2/orders/duplicate',
    {
      schema: {
        operation: { id: 'duplicateOrders', contract: '4.4' },
        tags,
        summary: 'Copy orders as new drafts (answers the new ids)',
        body: IdsBody,
        response: { 200: DuplicateResult, ...batchErrors },
      },
    },
    async (request) => orders.duplicate(request.scope, request.body.ids, false),
  );
  app.post(
    '/v2/orders/duplicate-back',
    {
      schema: {
        operation: { id: 'duplicateOrdersBack', contract: '4.4' },
        tags,
        summary: 'Copy orders as new drafts in the opposite direction (answers the new ids)',
        body: IdsBody,
        response: { 200: DuplicateResult, ...batchErrors },
      },
    },
    async (request) => orders.duplicate(request.scope, request.body.ids, true),
  );
  app.post(
    '/v2/orders/check-rests',
    {
      // changes nothing: a read for key scopes and the audit trail (platform/key-scopes.ts)
      config: { readOnly: true },
      schema: {
        operation: { id: 'checkOrderRests', contract: '4.4' },
        tags,
        summary: 'Drafts lacking goods at the warehouse (others are skipped)',
        body: IdsBody,
        response: { 200: MissingProducts, ...batchErrors },
      },
    },
    async (request) => orders.checkRests(request.scope, request.body.ids),
  );
  app.put(
    '/v2/orders/reservation/:id',
    {
      schema: {
        operation: { id: 'reserveOrder', contract: '4.4' },
        tags,
        summary: 'Reserve the goods of an order (a preorder until they arrive)',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await orders.reserve(request.scope, request.params.id, true);
      return reply.code(204).send();
    },
  );
  app.put(
    '/v2/orders/reservation-cancel/:id',
    {
      schema: {
        operation: { id: 'cancelOrderReservation', contract: '4.4' },
        tags,
        summary: 'Cancel the reserve of an order',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await orders.reserve(request.scope, request.params.id, false);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v2/orders/shipment',
    {
      schema: {
        operation: { id: 'listOrderShipmentOptions', contract: '4.4' },
        tags,
        summary: 'Shipment options for a company and pickup type',
        description:
          "The next 3 working days (Monday to Friday). Extension: with the header Shop-Id (or a shop key) and pickupType 4, the days skip the shop warehouse's holidays and days off, when no pickup collects and an order naming such a pickup.date is refused.",
        querystring: OrderShipmentQuery,
        response: { 200: Type.Array(ShipmentOption), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const shop = await services.shops.resolveShopHeader(request.scope, request.headers['shop-id'], false);
      return services.deliveryCompanies.orderShipment(request.scope, request.query, shop?.warehouse ?? null);
    },
  );
}

export function trackingRoutes(app: App, services: OrdersRouteServices): void {
  app.get(
    '/v2/tracking',
    {
      schema: {
        operation: { id: 'getTrackingRecord', contract: '4.1' },
        tags: ['Tracking'],
        summary: 'The tracking record of an order, by id (or orderId), trackNumber or cmsId',
        querystring: TrackingQuery,
        response: { 200: TrackingRecord, ...errorResponses(404) },
      },
    },
    async (request) => services.tracking.record(request.scope, request.query),
  );

  app.post(
    '/v2/tracking/events/:companyId',
    {
      config: { public: true },
      schema: {
        operation: { id: 'pushTrackingEvents' },
        tags: ['Tracking'],
        summary: 'Extension: a delivery company pushes status events of its parcels',
        description:
          "Authenticated by the company's own secret in X-Carrier-Secret (not a bearer token). Events of unknown track numbers, or statuses that do not apply, are listed in `ignored`.",
        security: [],
        params: PushParams,
        headers: PushHeaders,
        body: PushBody,
        response: { 200: PushResult, ...errorResponses(404) },
      },
    },
    async (request) =>
      services.tracking.push(request.params.companyId, request.headers['x-carrier-secret'], request.body),
  );
}
