import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { Created, errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import { WarehouseShipment, WarehouseShipmentQuery } from '../companies/schemas.js';
import type { DeliveryCompanyService } from '../companies/service.js';
import type { ShopService } from '../shops/service.js';
import type { WarehouseService } from './service.js';
import { Warehouse, WarehouseInput, WarehouseListQuery } from './schemas.js';
import type { ExampleDoc } from '../../platform/openapi.js';

const WORKDAY = { from: '09:00', to: '18:00' };

/** The docs page's example: on a fresh instance this is warehouse 1 (the shop example names it; a test replays them in order). */
export const WAREHOUSE_EXAMPLE: ExampleDoc = {
  summary: 'A sender warehouse in Москва',
  description: 'On a fresh instance this is warehouse 1.',
  value: {
    name: 'Склад на Складской',
    type: 1,
    address: {
      street: 'Складская улица',
      house: '7',
      city: {
        countryCode: 'RU',
        name: 'Москва',
        fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
        type: 'г',
        region: 'Москва',
      },
    },
    contact: { name: 'Иван Петров', position: 'Кладовщик', phone: '+79161234567' },
    schedule: [WORKDAY, WORKDAY, WORKDAY, WORKDAY, WORKDAY, null, null],
  },
};

const tags = ['Warehouses'];

/** The services these routes use, and no other. */
export interface WarehousesRouteServices {
  deliveryCompanies: DeliveryCompanyService;
  shops: ShopService;
  warehouses: WarehouseService;
}
export function warehouseRoutes(app: App, services: WarehousesRouteServices): void {
  app.get(
    '/v2/warehouses',
    {
      schema: {
        operation: { id: 'listWarehouses', contract: '4.3' },
        tags,
        summary: 'List warehouses',
        description:
          "The account's sender warehouses; with hold=1 the service's fulfilment warehouses, whose ids can be given as fulfilmentWarehouseId.",
        querystring: WarehouseListQuery,
        response: { 200: { ...Type.Array(Warehouse), headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      const shopWarehouse = await services.shops.warehouseOfShopKey(request.scope);
      return sendPage(reply, await services.warehouses.list(request.scope, request.query, at, shopWarehouse), at);
    },
  );

  app.get(
    '/v2/warehouses/:id',
    {
      schema: {
        operation: { id: 'getWarehouse', contract: '4.3' },
        tags,
        summary: 'Get a warehouse',
        params: IdParams,
        response: { 200: Warehouse, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const shopWarehouse = await services.shops.warehouseOfShopKey(request.scope);
      return services.warehouses.get(request.scope, request.params.id, shopWarehouse);
    },
  );

  app.post(
    '/v2/warehouses',
    {
      schema: {
        operation: { id: 'createWarehouse', contract: '4.3', examples: { warehouse: WAREHOUSE_EXAMPLE } },
        tags,
        summary: 'Create a warehouse',
        body: WarehouseInput,
        response: { 201: Created, ...errorResponses(403, 409) },
      },
    },
    async (request, reply) => {
      const id = await services.warehouses.create(request.scope, request.body);
      return reply.code(201).send({ id });
    },
  );

  app.put(
    '/v2/warehouses/:id',
    {
      schema: {
        operation: { id: 'replaceWarehouse', contract: '4.3', examples: { warehouse: WAREHOUSE_EXAMPLE } },
        tags,
        summary: 'Replace a warehouse',
        description: 'A fulfilment warehouse cannot be edited after creation (409); the type cannot change (409).',
        params: IdParams,
        body: WarehouseInput,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.warehouses.replace(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/warehouses/:id',
    {
      schema: {
        operation: { id: 'deleteWarehouse', contract: '4.3' },
        tags,
        summary: 'Delete a warehouse',
        description: 'A warehouse used by a shop cannot be deleted (409).',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.warehouses.delete(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v2/warehouses/shipment',
    {
      schema: {
        operation: { id: 'listWarehouseShipmentMethods', contract: '4.1' },
        tags,
        summary: 'Shipment methods from a place',
        description:
          "Keys '1' drop-off to delivery services, '2' drop-off to a consolidated pickup warehouse, '3' consolidated pickup, '4' direct shipment, and companiesForExceptions.",
        querystring: WarehouseShipmentQuery,
        response: { 200: WarehouseShipment, ...errorResponses() },
      },
    },
    async (request) => services.deliveryCompanies.warehouseShipment(request.query),
  );
}
