import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { queryAsBody } from '../../platform/read-by-post.js';
import { errorResponses, IdParams, NoContent, RecordId } from '../../platform/schemas.js';
import type { SupplyService } from './supply-service.js';
import type { ReturnInspectionService } from './return-inspections.js';
import { FileResult } from '../documents/schemas.js';
import {
  AcceptanceBody,
  AccountReturnInspectionQuery,
  InspectionBody,
  OrderIdParams,
  ReturnInspection,
  ReturnInspectionQuery,
  OperatorSupply,
  OperatorSupplyQuery,
  Supply,
  SupplyCreated,
  SupplyIdBody,
  SupplyInput,
  SupplyLabelsBody,
  SupplyListQuery,
} from './schemas.js';

const tags = ['Fulfilment supplies'];
const staffTags = ['Fulfilment warehouse staff (extension)'];
const STAFF_AUTH =
  'Send "Authorization: Bearer opr_..." (a token of the warehouse\'s staff: `npm run cli -- fulfilment operator-token --warehouse ID`); account tokens and shop keys are refused.';

/** The services these routes use, and no other. */
export interface FulfilmentRouteServices {
  supplies: SupplyService;
  returnInspections: ReturnInspectionService;
}
export function fulfilmentRoutes(app: App, services: FulfilmentRouteServices): void {
  app.get(
    '/v2/products/shipments',
    {
      schema: {
        operation: { id: 'listSupplies', contract: '4.11' },
        tags,
        summary: 'List supplies',
        description: "Newest first. A shop API key sees the supplies to its shop's fulfilment warehouse only.",
        querystring: SupplyListQuery,
        response: { 200: { ...Type.Array(Supply), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.supplies.list(request.scope, request.query, at), at);
    },
  );

  app.get(
    '/v2/products/shipments/:id',
    {
      schema: {
        operation: { id: 'getSupply' },
        tags,
        summary: 'Get a supply (extension)',
        params: IdParams,
        response: { 200: Supply, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.supplies.get(request.scope, request.params.id),
  );

  app.post(
    '/v2/products/shipments/:id/labels',
    {
      schema: {
        operation: { id: 'createSupplyProductLabels' },
        tags,
        summary: 'Product labels of a supply for a thermal printer (extension)',
        description:
          "A 58x40 mm label per product line: its barcode (the product's first, else its vendor code) as Code 128, name, vendor code, batch and expiry. perUnit (default true): as many copies as units (ZPL ^PQ; PNG names carry the count), else one per product.",
        params: IdParams,
        body: SupplyLabelsBody,
        response: { 200: FileResult, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.supplies.productLabels(request.scope, request.params.id, request.body),
  );

  app.post(
    '/v2/products/shipments',
    {
      schema: {
        operation: { id: 'createSupply', contract: '4.11' },
        tags,
        summary: 'Create a supply (Draft) and its act',
        description:
          'Goods the shop sends to a fulfilment warehouse of the service. Batch-accounted goods need `batch` and `expires`. ' +
          "Answers the new supply's id and the URL of its act (PDF: goods, vendor codes, scannable barcodes, counts, places, and the supply's number as a barcode).",
        body: SupplyInput,
        response: { 201: SupplyCreated, ...errorResponses(403) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.supplies.create(request.scope, request.body)),
  );

  app.post(
    '/v2/products/shipments/confirm',
    {
      schema: {
        operation: { id: 'confirmSupply', contract: '4.11' },
        tags,
        summary: 'Confirm a Draft supply',
        body: SupplyIdBody,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.supplies.confirm(request.scope, request.body.id);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/products/shipments',
    {
      schema: {
        operation: { id: 'deleteSupply', contract: '4.11' },
        tags,
        summary: 'Delete a Draft supply',
        description:
          "The supply becomes Canceled (5) and stays listed with its history. `id` may come in the body or in the query string (`?id=15`), as clients send a DELETE's parameters.",
        querystring: Type.Object({ id: Type.Optional(RecordId('The supply (when the body does not name it)')) }),
        body: Type.Optional(SupplyIdBody),
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
      preValidation: queryAsBody,
    },
    async (request, reply) => {
      await services.supplies.delete(request.scope, (request.body as SupplyIdBody).id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v2/fulfilment/operator/supplies',
    {
      config: { public: true },
      schema: {
        operation: { id: 'listSuppliesAtWarehouse' },
        tags: staffTags,
        summary: "Supplies on the way to, or at, the staff's warehouse",
        description: `Every account's supplies to this warehouse; by default Confirmed (2) and Arrived (3), oldest first. ${STAFF_AUTH}`,
        querystring: OperatorSupplyQuery,
        response: { 200: { ...Type.Array(OperatorSupply), headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const operator = await services.supplies.operatorOf(request.headers.authorization);
      const at = paging(request.query);
      return sendPage(reply, await services.supplies.operatorList(operator, request.query, at), at);
    },
  );

  app.post(
    '/v2/fulfilment/operator/supplies/:id/arrived',
    {
      config: { public: true },
      schema: {
        operation: { id: 'markSupplyArrived' },
        tags: staffTags,
        summary: 'The supply arrived (Confirmed to Arrived)',
        description: STAFF_AUTH,
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await services.supplies.arrived(
        await services.supplies.operatorOf(request.headers.authorization),
        request.params.id,
      );
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/fulfilment/operator/supplies/:id/accepted',
    {
      config: { public: true },
      schema: {
        operation: { id: 'acceptSupply' },
        tags: staffTags,
        summary: 'The supply is counted and accepted (Arrived to Accepted)',
        description:
          'Per line of the act, the good units counted (`accepted`, these alone enter stock) and those found unfit (`damaged`); a line left out was not found. ' +
          `The supply then shows per line what was short, surplus or damaged. ${STAFF_AUTH}`,
        params: IdParams,
        body: AcceptanceBody,
        response: { 204: NoContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await services.supplies.accept(
        await services.supplies.operatorOf(request.headers.authorization),
        request.params.id,
        request.body,
      );
      return reply.code(204).send();
    },
  );

  // ---------------------------------------------------------------- returned parcels' inspection

  const inspectionTags = ['Fulfilment returns inspection (extension)'];

  app.get(
    '/v2/fulfilment/operator/return-inspections',
    {
      config: { public: true },
      schema: {
        operation: { id: 'listReturnedParcelsAtWarehouse' },
        tags: inspectionTags,
        summary: "Returned parcels at the staff's warehouse",
        description: `Every account's returned parcels (refused, the refused lines of a partial buyout, buyers' return parcels) at this warehouse; by default those waiting for inspection, oldest first. \`search\`: a scanned order id or track number. ${STAFF_AUTH}`,
        querystring: ReturnInspectionQuery,
        response: { 200: { ...Type.Array(ReturnInspection), headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const operator = await services.supplies.operatorOf(request.headers.authorization);
      const at = paging(request.query);
      return sendPage(reply, await services.returnInspections.operatorList(operator, request.query, at), at);
    },
  );

  app.get(
    '/v2/fulfilment/operator/return-inspections/:orderId',
    {
      config: { public: true },
      schema: {
        operation: { id: 'getReturnedParcelAtWarehouse' },
        tags: inspectionTags,
        summary: 'A returned parcel at the warehouse (a scan opens it)',
        description: STAFF_AUTH,
        params: OrderIdParams,
        response: { 200: ReturnInspection, ...errorResponses(404) },
      },
    },
    async (request) =>
      services.returnInspections.operatorGet(
        await services.supplies.operatorOf(request.headers.authorization),
        request.params.orderId,
      ),
  );

  app.post(
    '/v2/fulfilment/operator/return-inspections/:orderId',
    {
      config: { public: true },
      schema: {
        operation: { id: 'inspectReturnedParcel' },
        tags: inspectionTags,
        summary: 'Inspect a returned parcel: each line back to stock, to the defect stock, or written off',
        description:
          'Every unit that came back gets an outcome and a reason (per product the counts add up to what came back). Recorded once: ' +
          'the stock ledger takes each line a single time however often this is sent; the same outcomes again answer the inspection, ' +
          "other outcomes after it are 409 inspection_done. Then fulfilment.return_received (the shop's fulfillmentReceivedReturns) and, " +
          `for goods back in stock, fulfilment.stock_changed (the CMS's product-quantity-update). ${STAFF_AUTH}`,
        params: OrderIdParams,
        body: InspectionBody,
        response: { 200: ReturnInspection, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      services.returnInspections.inspect(
        await services.supplies.operatorOf(request.headers.authorization),
        request.params.orderId,
        request.body,
      ),
  );

  app.get(
    '/v2/fulfilment/return-inspections',
    {
      schema: {
        operation: { id: 'listReturnInspections' },
        tags: inspectionTags,
        summary: "The account's returned parcels at fulfilment warehouses and their inspection",
        description: "Oldest first. A shop API key sees its shop's parcels only.",
        querystring: AccountReturnInspectionQuery,
        response: { 200: { ...Type.Array(ReturnInspection), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.returnInspections.list(request.scope, request.query, at), at);
    },
  );

  app.get(
    '/v2/fulfilment/return-inspections/:orderId',
    {
      schema: {
        operation: { id: 'getReturnInspection' },
        tags: inspectionTags,
        summary: 'A returned parcel of the account and its inspection',
        params: OrderIdParams,
        response: { 200: ReturnInspection, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.returnInspections.get(request.scope, request.params.orderId),
  );
}
