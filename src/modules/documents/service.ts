/**
 * Documents of orders: labels (stickers), handover acts and waybills, assembly statements.
 * Orders come from the orders area (getMany, markDocuments); PDFs from src/documents; files
 * go to the file store, whose URLs work without a token. This file checks and records acts,
 * waybills, assembly statements and the label printer's setting; sticker sets (with their job)
 * are sticker-sets.ts, a class built here from this service's dependencies and delegated to;
 * what an order gives each renderer is renderer-inputs.ts.
 */
import type { BoxService } from '../boxes/service.js';
import type { Box } from '../boxes/schemas.js';
import { MAX_PER_PAGE } from '../../platform/paging.js';
import type { Scope } from '../../platform/auth.js';
import { todayIn } from '../../platform/clock.js';
import { fieldErrors, notFound, type ErrorItem } from '../../platform/errors.js';
import { requireAccountWide } from '../../platform/auth.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import type { FileStore } from '../../platform/files.js';
import type { Page, Paging } from '../../platform/paging.js';
import {
  formatAddress,
  renderAssemblyStatement,
  renderHandoverAct,
  renderWaybill,
  type DocumentParty,
} from '../../documents/index.js';
import type { OrderDoc } from '../orders/document.js';
import type { OrderService } from '../orders/service.js';
import { STATUS } from '../orders/state.js';
import type { Warehouse } from '../warehouses/schemas.js';
import type { WarehouseService } from '../warehouses/service.js';
import { statusRefusal, visibleOrders } from './document-orders.js';
import { actOrderOf, assemblyOrderOf, postal, sidesKey } from './renderer-inputs.js';
import type {
  LabelPrinter,
  LabelPrinterBody,
  PlacesRequired,
  StickerSet,
  StickersBody,
  WaybillListQuery,
  WaybillSet,
  WaybillsBody,
  WaybillsResult,
} from './schemas.js';
import { DEFAULT_DPI, NO_COMPANY_LABELS, StickerSets, type CompanyLabels } from './sticker-sets.js';
import type { DocumentStore } from './store.js';

type Order = OrderDoc & { id: number };

/**
 * "Carrier A" and "carrier B" of the contract: the two of our companies whose handover counts
 * transport units, so their acts come with a waybill (DESIGN.md: docs/decisions/documents.md).
 */
export const PLACES_CARRIERS = {
  A: { companyId: 6, units: 'bags' as const, field: 'carrierAPlaces' as const },
  B: { companyId: 5, units: 'boxes' as const, field: 'carrierBPlaces' as const },
};

export type { CompanyLabels } from './sticker-sets.js';
export { STICKERS_JOB } from './sticker-sets.js';
export { actOrderOf, senderOf, stickerOrderOf } from './renderer-inputs.js';

const PDF = 'application/pdf';

export class DocumentService {
  private readonly stickers: StickerSets;

  constructor(
    private readonly store: DocumentStore,
    private readonly orders: OrderService,
    private readonly warehouses: WarehouseService,
    private readonly files: FileStore,
    private readonly boxes: BoxService,
    /** A delivery company's own label of a registered parcel (the real companies'), null where ours is printed. */
    companyLabels: CompanyLabels = NO_COMPANY_LABELS,
    jobs: JobQueue | null = null,
    options: { syncLabels: number } = { syncLabels: Number.MAX_SAFE_INTEGER },
  ) {
    this.stickers = new StickerSets(store, orders, files, companyLabels, jobs, options);
  }

  // ---------------------------------------------------------------- stickers (sticker-sets.ts)

  /** Stickers of Prepared orders as one file, written now or, for a large set, by a job (StickerSets.formStickers). */
  formStickers(scope: Scope, body: StickersBody): Promise<{ file: string }> {
    return this.stickers.formStickers(scope, body);
  }

  /** The job that writes a large sticker set. */
  registerJobs(worker: JobWorker): void {
    this.stickers.registerJobs(worker);
  }

  /** Whether a large set's file is still being written: its URL answers 202 meanwhile. */
  isPendingFile(fileName: string): Promise<boolean> {
    return this.stickers.isPendingFile(fileName);
  }

  /** Sets formed today in the account's time zone, oldest first. */
  stickerSetsToday(scope: Scope, now: Date = new Date()): Promise<StickerSet[]> {
    return this.stickers.stickerSetsToday(scope, now);
  }

  /** The resolution of a warehouse's label printer (account tokens only: the warehouse may serve several shops). */
  async labelPrinter(scope: Scope, warehouseId: number): Promise<LabelPrinter> {
    await this.requireWarehouse(scope, warehouseId);
    const dpi = (await this.store.printerDpi(scope.accountId, [warehouseId])).get(warehouseId);
    return { warehouseId, dpi: dpi === 300 ? 300 : DEFAULT_DPI, custom: dpi !== undefined };
  }

  async setLabelPrinter(scope: Scope, warehouseId: number, body: LabelPrinterBody): Promise<LabelPrinter> {
    requireAccountWide(scope, "set a warehouse's label printer");
    await this.requireWarehouse(scope, warehouseId);
    await this.store.setPrinterDpi(scope.accountId, warehouseId, body.dpi, new Date().toISOString());
    return { warehouseId, dpi: body.dpi, custom: true };
  }

  private async requireWarehouse(scope: Scope, warehouseId: number): Promise<void> {
    if (!(await this.warehouses.getMany(scope, [warehouseId])).has(warehouseId)) throw notFound('Warehouse');
  }

  // ---------------------------------------------------------------- waybills and acts

  async placesRequired(scope: Scope, ids: number[]): Promise<PlacesRequired> {
    const orders = await visibleOrders(this.orders, scope, ids, null);
    const prepared = orders.filter((order) => order.status === STATUS.prepared);
    const has = (companyId: number) => prepared.some((order) => order.delivery.company.id === companyId);
    return { carrierARequired: has(PLACES_CARRIERS.A.companyId), carrierBRequired: has(PLACES_CARRIERS.B.companyId) };
  }

  async formWaybills(scope: Scope, body: WaybillsBody): Promise<WaybillsResult> {
    const unique = [...new Set(body.ids)];
    const found = await this.orders.getMany(scope, unique);
    const invisible = unique.filter((id) => !found.has(id));
    const shops = invisible.length > 0 ? await this.orders.shopsOf(scope, invisible) : new Map<number, number | null>();
    const error: WaybillsResult['error'] = [];
    const ready: Order[] = [];
    for (const id of unique) {
      const order = found.get(id);
      if (!order)
        error.push({
          orderId: id,
          message: shops.has(id) ? `Order ${id} belongs to another shop.` : `Order ${id} was not found.`,
        });
      else {
        const reason = statusRefusal(order, 'acts and waybills are formed');
        if (reason) error.push({ orderId: id, message: `${reason}.` });
        else ready.push(order);
      }
    }
    // Transport units: asked for exactly when that carrier's orders are handed over.
    const problems: ErrorItem[] = [];
    for (const carrier of [PLACES_CARRIERS.A, PLACES_CARRIERS.B]) {
      if (body[carrier.field] === undefined && ready.some((order) => order.delivery.company.id === carrier.companyId)) {
        problems.push({
          field: carrier.field,
          message: `is required: orders of company ${carrier.companyId} are handed over with a waybill counting ${carrier.units} (see check-places-required)`,
        });
      }
    }
    if (problems.length > 0) throw fieldErrors(problems);

    const groups = new Map<string, Order[]>();
    for (const order of ready) {
      const key = `${order.delivery.company.id}|${order.warehouseId ?? ''}|${order.shopId ?? ''}`;
      const group = groups.get(key) ?? [];
      group.push(order);
      groups.set(key, group);
    }
    const warehouseIds = [
      ...new Set(ready.map((order) => order.warehouseId).filter((id): id is number => id !== null)),
    ];
    const warehouses: Map<number, Warehouse> =
      warehouseIds.length > 0 ? await this.warehouses.getMany(scope, warehouseIds) : new Map();
    const success: WaybillsResult['success'] = [];
    for (const group of groups.values()) {
      const first = group[0];
      const companyId = first.delivery.company.id;
      const companyName = first.delivery.company.name ?? `Company ${companyId}`;
      const known = first.warehouseId !== null ? warehouses.get(first.warehouseId) : undefined;
      const warehouseAddress = known ? postal({ ...known.address, zipCode: null }) : postal(first.senderAddress);
      const warehouse = {
        id: known?.id ?? first.warehouseId ?? null,
        name: known?.name ?? 'Адрес отправителя',
        address: formatAddress(warehouseAddress),
      };
      const carrier = [PLACES_CARRIERS.A, PLACES_CARRIERS.B].find((item) => item.companyId === companyId);
      const setId = await this.store.insertWaybillSet({
        account_id: scope.accountId,
        shop_id: first.shopId ?? null,
        warehouse_id: first.warehouseId ?? null,
        // an own delivery method (convention 12) is no company of the service: its name tells the act's sets apart
        company_id: typeof companyId === 'number' ? companyId : 0,
        company_name: companyName,
        date: body.date,
        count_orders: group.length,
        act_url: '',
        waybill_url: null,
        warehouse: JSON.stringify(warehouse),
        order_ids: JSON.stringify(group.map((order) => order.id)),
        created_at: new Date().toISOString(),
      });
      try {
        const sender: DocumentParty = {
          name: first.brand || (first.sender.fullName ?? ''),
          phone: first.sender.phone,
          legalName: known?.senderOtherEntity.enabled ? (known.senderOtherEntity.company?.name ?? null) : null,
          address: postal(first.senderAddress),
        };
        const input = {
          number: setId,
          date: body.date,
          company: { name: companyName },
          sender,
          warehouse: { name: warehouse.name, address: warehouseAddress },
          orders: group.map(actOrderOf),
        };
        const act = await this.files.put(scope.accountId, {
          bytes: await renderHandoverAct(input),
          contentType: PDF,
          extension: 'pdf',
          downloadName: `act-${setId}-${body.date}.pdf`,
        });
        let waybillUrl: string | null = null;
        if (carrier) {
          const count = body[carrier.field] as number;
          const waybill = await renderWaybill({ ...input, containers: { [carrier.units]: count } });
          waybillUrl = (
            await this.files.put(scope.accountId, {
              bytes: waybill,
              contentType: PDF,
              extension: 'pdf',
              downloadName: `waybill-${setId}-${body.date}.pdf`,
            })
          ).url;
        }
        await this.store.completeWaybillSet(scope.accountId, setId, act.url, waybillUrl);
        success.push({
          id: setId,
          file: act.url,
          ...(waybillUrl ? { crossDockFile: waybillUrl } : {}),
          orderIds: group.map((order) => order.id),
        });
      } catch (failure) {
        await this.store.deleteWaybillSet(scope.accountId, setId);
        throw failure;
      }
    }
    if (ready.length > 0)
      await this.orders.markDocuments(
        scope,
        ready.map((order) => order.id),
        { wasInAct: true },
      );
    return { success, error };
  }

  async listWaybillSets(scope: Scope, query: WaybillListQuery, at: Paging): Promise<Page<WaybillSet>> {
    const page = await this.store.waybillSets(
      scope.accountId,
      { warehouseId: query.warehouseId, shopId: scope.shopKeyShopId },
      at.offset,
      at.perPage,
    );
    return {
      total: page.total,
      items: page.rows.map((row) => ({
        id: row.id,
        date: row.date,
        company: row.company_name,
        countOrders: row.count_orders,
        file: row.act_url || null,
        ...(row.waybill_url ? { crossDockFile: row.waybill_url } : {}),
        warehouse: JSON.parse(row.warehouse) as WaybillSet['warehouse'],
      })),
    };
  }

  // ---------------------------------------------------------------- assembly

  async assemblyStatement(scope: Scope, ids: number[]): Promise<{ file: string }> {
    const orders = await visibleOrders(this.orders, scope, ids, (order) =>
      order.status === STATUS.canceled ? `Order ${order.id} is canceled; nothing to assemble` : null,
    );
    const today = todayIn(scope.timeZone);
    const warehouseId = orders[0].warehouseId;
    const sameWarehouse = orders.every((order) => order.warehouseId === warehouseId);
    const warehouse =
      sameWarehouse && warehouseId !== null
        ? (await this.warehouses.getMany(scope, [warehouseId])).get(warehouseId)
        : undefined;
    const accountBoxes = await this.boxes.list(scope, {}, { page: 1, perPage: MAX_PER_PAGE, offset: 0 });
    const catalogue = new Map<string, Box>();
    for (const box of accountBoxes.items) {
      const key = sidesKey([box.dimensions.length, box.dimensions.width, box.dimensions.height]);
      if (key && !catalogue.has(key)) catalogue.set(key, box);
    }
    const pdf = await renderAssemblyStatement({
      number: `${today.replaceAll('-', '')}-${orders[0].id}`,
      date: today,
      owner: [...new Set(orders.map((order) => order.brand).filter((brand) => brand))].join(', ') || '—',
      warehouse: warehouse ? { name: warehouse.name, address: postal({ ...warehouse.address, zipCode: null }) } : null,
      orders: orders.map((order) => assemblyOrderOf(order, catalogue)),
    });
    const file = await this.files.put(scope.accountId, {
      bytes: pdf,
      contentType: PDF,
      extension: 'pdf',
      downloadName: `assembly-${today}.pdf`,
    });
    return { file: file.url };
  }
}
