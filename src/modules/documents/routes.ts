import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { errorResponses } from '../../platform/schemas.js';
import type { MovementReportService } from '../fulfilment/movement-report.js';
import { MovementReportBody, ReportFile } from '../fulfilment/schemas.js';
import type { DocumentService } from './service.js';
import {
  FileResult,
  IdsBody,
  LabelPrinter,
  LabelPrinterBody,
  PlacesRequired,
  WarehouseParams,
  StickerSet,
  StickersBody,
  WaybillListQuery,
  WaybillSet,
  WaybillsBody,
  WaybillsResult,
} from './schemas.js';

const tags = ['Documents'];

/** The services these routes use, and no other. */
export interface DocumentsRouteServices {
  documents: DocumentService;
  movementReport: MovementReportService;
}
export function documentRoutes(app: App, services: DocumentsRouteServices): void {
  const documents = services.documents;

  app.post(
    '/v2/orders/stickers',
    {
      schema: {
        operation: { id: 'createStickers', contract: '4.5' },
        tags,
        summary:
          "Labels of Prepared orders (status 13): a real company's own label where it prints one, ours otherwise, as PDF, ZPL or PNG; one file, or a ZIP of our files and the companies' labels; marks the orders stickerFormed",
        description:
          "Sets of up to STICKER_SYNC_LABELS labels (1000) are written before the answer; larger ones (up to 10,000 orders) by a job: `file` answers 202 with Retry-After until it is written, and GET /v2/orders/stickers shows the set's status and progress.",
        body: StickersBody,
        response: { 200: FileResult, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => documents.formStickers(request.scope, request.body),
  );

  app.get(
    '/v2/orders/stickers',
    {
      schema: {
        operation: { id: 'listStickers', contract: '4.5' },
        tags,
        summary: 'Sticker sets formed today (account time zone)',
        response: { 200: Type.Array(StickerSet), ...errorResponses() },
      },
    },
    async (request) => documents.stickerSetsToday(request.scope),
  );

  app.get(
    '/v2/warehouses/:id/label-printer',
    {
      schema: {
        operation: { id: 'getWarehouseLabelPrinter' },
        tags,
        summary: "Extension: the resolution of the warehouse's label printer (zpl and png stickers of its orders)",
        params: WarehouseParams,
        response: { 200: LabelPrinter, ...errorResponses(404) },
      },
    },
    async (request) => documents.labelPrinter(request.scope, request.params.id),
  );

  app.put(
    '/v2/warehouses/:id/label-printer',
    {
      schema: {
        operation: { id: 'setWarehouseLabelPrinter' },
        tags,
        summary: "Extension: sets the resolution of the warehouse's label printer (account tokens only)",
        params: WarehouseParams,
        body: LabelPrinterBody,
        response: { 200: LabelPrinter, ...errorResponses(403, 404) },
      },
    },
    async (request) => documents.setLabelPrinter(request.scope, request.params.id, request.body),
  );

  app.post(
    '/v2/orders/waybills/check-places-required',
    {
      // changes nothing: a read for key scopes and the audit trail (platform/key-scopes.ts)
      config: { readOnly: true },
      schema: {
        operation: { id: 'checkWaybillPlacesRequired', contract: '4.5' },
        tags,
        summary: 'Whether the handover needs counts of bags (carrier A) or boxes/pallets (carrier B)',
        body: IdsBody,
        response: { 200: PlacesRequired, ...errorResponses(403, 404) },
      },
    },
    async (request) => documents.placesRequired(request.scope, request.body.ids),
  );

  app.post(
    '/v2/orders/waybills',
    {
      schema: {
        operation: { id: 'createWaybills', contract: '4.5' },
        tags,
        summary:
          'Handover acts (and waybills where needed) per company and warehouse for Prepared orders; others are listed in error; marks wasInAct',
        body: WaybillsBody,
        response: { 200: WaybillsResult, ...errorResponses() },
      },
    },
    async (request) => documents.formWaybills(request.scope, request.body),
  );

  app.get(
    '/v2/orders/waybills',
    {
      schema: {
        operation: { id: 'listWaybills', contract: '4.5' },
        tags,
        summary: 'Waybill sets, newest first',
        querystring: WaybillListQuery,
        response: { 200: { ...Type.Array(WaybillSet), headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await documents.listWaybillSets(request.scope, request.query, at), at);
    },
  );

  app.post(
    '/v2/orders/act-assembly',
    {
      schema: {
        operation: { id: 'createAssemblyStatement', contract: '4.5' },
        tags,
        summary: 'Assembly statement: the goods to pick per order, boxes and comments',
        body: IdsBody,
        response: { 200: FileResult, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => documents.assemblyStatement(request.scope, request.body.ids),
  );

  app.post(
    '/v2/products/movement-report',
    {
      schema: {
        operation: { id: 'createMovementReport', contract: '4.5' },
        tags,
        summary: 'Movement report of products at fulfilment warehouses (xlsx)',
        description:
          "Per product and day (in the account's time zone): opening balance, received, shipped, returned, written off, closing balance, with each product's and the warehouse's totals. " +
          'One xlsx per fulfilment warehouse that has held any of the goods; a ZIP of them when there are several. At most 366 days; products that never had stock: 422.',
        body: MovementReportBody,
        response: { 200: ReportFile, ...errorResponses(403, 422) },
      },
    },
    async (request) => services.movementReport.report(request.scope, request.body),
  );
}
