/**
 * Documents of orders: labels (stickers), handover acts and waybills, assembly statements.
 * Orders come from the orders area (getMany, markDocuments); PDFs from src/documents; files
 * go to the file store, whose URLs work without a token. This file maps and records.
 */
import type { BoxService } from '../boxes/service.js';
import type { Box } from '../boxes/schemas.js';
import { MAX_PER_PAGE } from '../../platform/paging.js';
import type { Scope } from '../../platform/auth.js';
import { addDays, startOfDay, todayIn } from '../../platform/clock.js';
import {
  AppError,
  conflict,
  fieldErrors,
  FieldErrorCollector,
  notFound,
  type ErrorItem,
} from '../../platform/errors.js';
import { requireAccountWide } from '../../platform/auth.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import { pipeline } from 'node:stream/promises';
import {
  bytesEntry,
  labelCount,
  type FileEntry,
  OUTPUT_CONTENT_TYPE,
  stickerEntries,
  writeEntries,
  type StickerPlan,
} from '../../documents/sticker-files.js';
import type { PrinterDpi } from '../../documents/thermal.js';
import { newFileName, type FileStore } from '../../platform/files.js';
import { toKopecks } from '../../platform/money.js';
import type { Page, Paging } from '../../platform/paging.js';
import {
  formatAddress,
  renderAssemblyStatement,
  renderHandoverAct,
  renderWaybill,
  type ActOrder,
  type AssemblyOrder,
  type DocumentParty,
  type PostalAddress,
  type StickerFormat,
  type StickerOrder,
} from '../../documents/index.js';
import { declaredValueKopecks, type OrderDoc } from '../orders/document.js';
import type { OrderService } from '../orders/service.js';
import { STATUS } from '../orders/state.js';
import type { Warehouse } from '../warehouses/schemas.js';
import type { WarehouseService } from '../warehouses/service.js';
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
import type { DocumentStore } from './store.js';

type Order = OrderDoc & { id: number };

/**
 * "Carrier A" and "carrier B" of the contract: the two of our companies whose handover counts
 * transport units, so their acts come with a waybill (DESIGN.md: docs/decisions.md, issue 6).
 */
export const PLACES_CARRIERS = {
  A: { companyId: 6, units: 'bags' as const, field: 'carrierAPlaces' as const },
  B: { companyId: 5, units: 'boxes' as const, field: 'carrierBPlaces' as const },
};
const FORMATS: StickerFormat[] = [1, 2, 3];
/** How many companies' labels are asked at once, and how long a set waits for them all. */
const LABEL_CONCURRENCY = 4;
const LABEL_TIMEOUT_MS = 30_000;

/** Where a registered parcel's label comes from when its company prints its own (injected: the carriers' registry). */
export interface CompanyLabels {
  /** Whether the company is one that prints its own labels (a real company reached over HTTP). */
  printsOwn(accountId: number, companyId: number): Promise<boolean>;
  /** Its label of the parcel, or null. */
  label(accountId: number, companyId: number, trackNumber: string, signal: AbortSignal): Promise<Buffer | null>;
}
const NO_COMPANY_LABELS: CompanyLabels = { printsOwn: async () => false, label: async () => null };
const FORMAT_SUFFIX: Record<StickerFormat, string> = { 1: 'a4', 2: '100x150', 3: '75x120' };

function postal(address: {
  city: { countryCode?: string | null; name: string | null; region?: string | null; area?: string | null };
  street?: string | null;
  house?: string | null;
  bulk?: string | null;
  flat?: string | null;
  zipCode?: string | null;
}): PostalAddress {
  return {
    countryCode: address.city.countryCode ?? null,
    zipCode: address.zipCode ?? null,
    region: address.city.region ?? null,
    area: address.city.area ?? null,
    city: address.city.name ?? '',
    street: address.street ?? null,
    house: address.house ?? null,
    bulk: address.bulk ?? null,
    flat: address.flat ?? null,
  };
}

function weightKgOf(order: Order): number {
  const dims = order.dimensions;
  if (dims.factWeight) return dims.factWeight;
  if (dims.weight) return dims.weight;
  const places = order.places.reduce((sum, place) => sum + Math.round((place.weight ?? 0) * 1000), 0);
  if (places > 0) return places / 1000;
  return order.products.reduce((sum, line) => sum + Math.round((line.weight ?? 0) * 1000) * line.count, 0) / 1000;
}

function declaredKopecksOf(order: Order): number {
  return declaredValueKopecks(order.products, order.priceDeclared);
}

function placesOf(order: Order): number {
  return order.places.length || order.dimensions.places || 1;
}

export function senderOf(order: Order): DocumentParty {
  return {
    name: order.sender.fullName ?? order.brand,
    phone: order.sender.phone,
    legalName: order.brand || null,
    address: postal(order.senderAddress),
  };
}

export function stickerOrderOf(order: Order): StickerOrder {
  const point = order.delivery.type === 1 ? order.delivery.point : null;
  return {
    orderId: order.id,
    cmsId: order.cmsId,
    trackNumber: order.trackNumber ?? '',
    company: {
      name: order.delivery.company.name ?? `Company ${order.delivery.company.id}`,
      tariff: order.delivery.company.tariff,
    },
    sender: senderOf(order),
    recipient: {
      name: order.recipient.fullName,
      phone: order.recipient.phone,
      legalName: order.recipient.legalEntity?.name ?? null,
    },
    destination: point
      ? { kind: 'point', point: { id: point.id, name: point.name, address: point.address } }
      : { kind: 'address', address: postal(order.deliveryAddress) },
    weightKg: weightKgOf(order),
    places:
      order.places.length > 0
        ? order.places.map((place) => ({ weightKg: place.weight }))
        : Array.from({ length: placesOf(order) }, () => ({})),
    codKopecks: toKopecks(order.priceCod ?? 0),
    comment: order.comment,
  };
}

export function actOrderOf(order: Order): ActOrder {
  return {
    orderId: order.id,
    cmsId: order.cmsId,
    trackNumber: order.trackNumber ?? '',
    recipientName: order.recipient.fullName,
    city: order.deliveryAddress.city.name,
    places: placesOf(order),
    weightKg: weightKgOf(order),
    declaredValueKopecks: declaredKopecksOf(order),
    codKopecks: toKopecks(order.priceCod ?? 0),
  };
}

type BoxLine = NonNullable<AssemblyOrder['boxes']>[number];

function sidesKey(sides: Array<number | null | undefined>): string | null {
  if (sides.some((side) => side === null || side === undefined)) return null;
  return (sides as number[])
    .slice()
    .sort((a, b) => b - a)
    .join('x');
}

/**
 * The boxes to pack an order into: one per place, named after the account's box of the
 * same size when there is one, else described by its size; places without sizes are left out.
 */
function boxesOf(order: Order, catalogue: Map<string, Box>): BoxLine[] | null {
  const sizes =
    order.places.length > 0
      ? order.places.map((place) => place.dimensions)
      : Array.from({ length: placesOf(order) }, () => order.dimensions);
  const lines = new Map<string, BoxLine>();
  for (const size of sizes) {
    const key = size ? sidesKey([size.length, size.width, size.height]) : null;
    if (!key || !size) continue;
    const box = catalogue.get(key);
    const name = box?.name ?? `Коробка ${key.replaceAll('x', '×')} см`;
    const line = lines.get(`${name}|${key}`);
    if (line) line.count += 1;
    else
      lines.set(`${name}|${key}`, {
        name,
        dimensions: { length: size.length as number, width: size.width as number, height: size.height as number },
        count: 1,
      });
  }
  return lines.size > 0 ? [...lines.values()] : null;
}

function assemblyOrderOf(order: Order, catalogue: Map<string, Box>): AssemblyOrder {
  return {
    orderId: order.id,
    cmsId: order.cmsId,
    trackNumber: order.trackNumber,
    recipientName: order.recipient.fullName,
    company: order.delivery.company.name,
    goods: order.products.map((line) => ({
      name: line.name ?? line.vendorCode ?? '—',
      vendorCode: line.vendorCode,
      barcodes: line.barcode ? [line.barcode] : [],
      count: line.count,
    })),
    boxes: boxesOf(order, catalogue),
    commentForAssembly: order.commentForAssembly,
    documentsForWarehouse: order.documentsForWarehouse,
  };
}

function statusRefusal(order: Order, what: string): string | null {
  if (order.status === STATUS.prepared) return null;
  return `Order ${order.id} is in status ${order.status}; ${what} only for orders ready for shipment (status 13, Prepared)`;
}

const PDF = 'application/pdf';

export const STICKERS_JOB = 'documents.stickers';
const DEFAULT_DPI: PrinterDpi = 203;
/** How often a job writing a large set records its progress. */
const PROGRESS_EVERY_MS = 1000;

interface StickerJob {
  accountId: number;
  timeZone: string;
  setId: number;
  fileName: string;
  ids: number[];
  plan: StickerPlan;
  /** The date in the file's download name: the day it was asked for. */
  today: string;
}

/** A scope for work outside a request: the account's own view (the request's visibility was checked when it was made). */
function accountScope(accountId: number, timeZone: string): Scope {
  return { accountId, timeZone, kind: 'account', shopKeyShopId: null, employeeId: null };
}

/** How many files our labels make: a PDF per type, one ZPL stream, a PNG per label. */
function ourEntryCount(plan: StickerPlan, labels: number): number {
  if (plan.output === 'pdf') return plan.types.length;
  return plan.output === 'zpl' ? 1 : labels;
}

export class DocumentService {
  constructor(
    private readonly store: DocumentStore,
    private readonly orders: OrderService,
    private readonly warehouses: WarehouseService,
    private readonly files: FileStore,
    private readonly boxes: BoxService,
    /** A delivery company's own label of a registered parcel (the real companies'), null where ours is printed. */
    private readonly companyLabels: CompanyLabels = NO_COMPANY_LABELS,
    private readonly jobs: JobQueue | null = null,
    private readonly options: { syncLabels: number } = { syncLabels: Number.MAX_SAFE_INTEGER },
  ) {}

  /**
   * The companies' own labels of the orders that have one (a company's sorting centre scans
   * its own barcode), asked LABEL_CONCURRENCY at a time within LABEL_TIMEOUT_MS. A label the
   * company does not give (refused, failed, not a PDF, too slow) leaves the order to ours.
   */
  private async companyLabelsOf(scope: Scope, orders: Order[]): Promise<Map<number, Buffer>> {
    const labels = new Map<number, Buffer>();
    const signal = AbortSignal.timeout(LABEL_TIMEOUT_MS);
    const waiting = orders.filter((order) => order.trackNumber && typeof order.delivery.company.id === 'number');
    const next = async (): Promise<void> => {
      for (let order = waiting.shift(); order; order = waiting.shift()) {
        const label = await this.companyLabels
          .label(scope.accountId, order.delivery.company.id as number, order.trackNumber as string, signal)
          .catch(() => null);
        if (label) labels.set(order.id, label);
      }
    };
    await Promise.all(Array.from({ length: LABEL_CONCURRENCY }, next));
    return labels;
  }

  /**
   * Every id the caller may see, in request order, or the error naming every failing id
   * (as the orders area's batches do): 409 when a visible order is refused, else 403 for
   * another shop's orders, else 404.
   */
  private async visibleAll(
    scope: Scope,
    ids: number[],
    refuse: ((order: Order) => string | null) | null,
  ): Promise<Order[]> {
    const unique = [...new Set(ids)];
    const found = await this.orders.getMany(scope, unique);
    const refused: ErrorItem[] = [];
    const invisible = unique.filter((id) => !found.has(id));
    const shops = invisible.length > 0 ? await this.orders.shopsOf(scope, invisible) : new Map<number, number | null>();
    const foreign: ErrorItem[] = [];
    const missing: ErrorItem[] = [];
    for (const id of unique) {
      const order = found.get(id);
      if (order) {
        const reason = refuse?.(order);
        if (reason) refused.push({ id, message: `${reason}.` });
      } else if (shops.has(id)) foreign.push({ id, message: `Order ${id} belongs to another shop.` });
      else missing.push({ id, message: `Order ${id} was not found.` });
    }
    const all = [...refused, ...foreign, ...missing].sort(
      (a, b) => unique.indexOf(a.id as number) - unique.indexOf(b.id as number),
    );
    if (all.length > 0) {
      const summary = `${all.length} of ${unique.length} order${unique.length > 1 ? 's' : ''} cannot be processed; nothing was formed. ${all[0].message}`;
      if (refused.length) throw conflict('order_state', summary, all);
      if (foreign.length) throw new AppError(403, 'forbidden', summary, all);
      throw new AppError(404, 'not_found', summary, all);
    }
    return unique.map((id) => found.get(id) as Order);
  }

  // ---------------------------------------------------------------- stickers

  /**
   * Stickers of Prepared orders as one file: ours in the output asked (PDF as before, a ZPL
   * stream, PNG images) and the companies' own labels beside them (a ZIP when there is more
   * than one file). Up to `syncLabels` labels the file is written before the answer; a larger
   * set is written by a job under a name handed out now, whose URL answers 202 until it is
   * there and whose progress `GET /v2/orders/stickers` shows.
   */
  async formStickers(scope: Scope, body: StickersBody): Promise<{ file: string }> {
    const output = body.format ?? 'pdf';
    const problems = new FieldErrorCollector();
    if (output !== 'pdf' && body.type === 1)
      problems.add(
        'type',
        `is 1 (A4 sheets), which print as PDF only; format ${output} is for the thermal types 2 (100x150 mm) and 3 (75x120 mm)`,
      );
    if (output === 'pdf' && body.dpi !== undefined)
      problems.add('dpi', 'applies to format zpl or png only: a PDF prints at any resolution');
    problems.throwIfAny();
    const orders = await this.visibleAll(scope, body.ids, (order) => statusRefusal(order, 'stickers are formed'));
    const plan: StickerPlan = {
      output,
      types: body.type ? [body.type] : output === 'pdf' ? FORMATS : [2],
      dpi: body.dpi ?? (await this.printerDpiOf(scope, orders)),
    };
    const today = todayIn(scope.timeZone);
    const labels = labelCount(orders.map(stickerOrderOf));
    const shopIds = new Set(orders.map((order) => order.shopId));
    const set = {
      account_id: scope.accountId,
      shop_id: shopIds.size === 1 ? (orders[0].shopId ?? null) : null,
      format: body.type ?? null,
      output,
      dpi: output === 'pdf' ? null : plan.dpi,
      order_ids: JSON.stringify(orders.map((order) => order.id)),
      labels_total: labels,
      created_at: new Date().toISOString(),
    };
    if (labels <= this.options.syncLabels) {
      const written = await this.writeStickerFile(scope, orders, plan, today, null, () => undefined);
      await this.store.insertStickerSet({
        ...set,
        file_url: written.url,
        files: JSON.stringify(written.files),
        labels_done: labels,
        status: 'ready',
        file_name: null,
      });
      await this.orders.markDocuments(
        scope,
        orders.map((order) => order.id),
        { stickerFormed: true },
      );
      return { file: written.url };
    }
    // A large set: the kind of file is known now (one entry or a ZIP), so its name can be handed out.
    const single = ourEntryCount(plan, labels) === 1 && !(await this.anyPrintsOwnLabel(scope, orders));
    const fileName = newFileName(single ? plan.output : 'zip');
    const url = this.files.urlOf(fileName);
    const setId = await this.store.insertStickerSet({
      ...set,
      file_url: url,
      files: '[]',
      labels_done: 0,
      status: 'pending',
      file_name: fileName,
    });
    if (!this.jobs) throw new Error('DocumentService needs the job queue for large sticker sets');
    await this.jobs.enqueue<StickerJob>(
      scope.accountId,
      STICKERS_JOB,
      {
        accountId: scope.accountId,
        timeZone: scope.timeZone,
        setId,
        fileName,
        ids: orders.map((order) => order.id),
        plan,
        today,
      },
      { maxAttempts: 3 },
    );
    return { file: url };
  }

  registerJobs(worker: JobWorker): void {
    worker.register<StickerJob>(STICKERS_JOB, async (job) => {
      const { accountId, timeZone, setId, fileName, ids, plan, today } = job.payload;
      const scope = accountScope(accountId, timeZone);
      try {
        const found = await this.orders.getMany(scope, ids);
        const orders = ids.map((id) => found.get(id)).filter((order): order is Order => order !== undefined);
        let done = 0;
        let saved = Date.now();
        const written = await this.writeStickerFile(scope, orders, plan, today, fileName, () => {
          done += 1;
          // progress a second at a time: a write per label would cost more than the label
          if (Date.now() - saved >= PROGRESS_EVERY_MS) {
            saved = Date.now();
            void this.store.updateStickerSet(accountId, setId, { labels_done: done }).catch(() => undefined);
          }
        });
        await this.store.updateStickerSet(accountId, setId, {
          status: 'ready',
          labels_done: done,
          files: JSON.stringify(written.files),
        });
        await this.orders.markDocuments(
          scope,
          orders.map((order) => order.id),
          { stickerFormed: true },
        );
      } catch (error) {
        if (job.attempts >= job.maxAttempts) await this.store.updateStickerSet(accountId, setId, { status: 'failed' });
        throw error;
      }
    });
  }

  /** Whether a large set's file is still being written: its URL answers 202 meanwhile. */
  async isPendingFile(fileName: string): Promise<boolean> {
    return (await this.store.stickerSetOfFile(fileName))?.status === 'pending';
  }

  /** Whether any order's company prints its own label: then the file is a ZIP whatever the companies answer. */
  private async anyPrintsOwnLabel(scope: Scope, orders: Order[]): Promise<boolean> {
    const companies = new Set(
      orders
        .filter((order) => order.trackNumber && typeof order.delivery.company.id === 'number')
        .map((order) => order.delivery.company.id as number),
    );
    for (const companyId of companies) if (await this.companyLabels.printsOwn(scope.accountId, companyId)) return true;
    return false;
  }

  /** The resolution of the label printer of the orders' warehouse when they share one that has it set, else 203. */
  private async printerDpiOf(scope: Scope, orders: Order[]): Promise<PrinterDpi> {
    const warehouseIds = [...new Set(orders.map((order) => order.warehouseId))];
    if (warehouseIds.length !== 1 || warehouseIds[0] === null) return DEFAULT_DPI;
    const dpi = (await this.store.printerDpi(scope.accountId, [warehouseIds[0]])).get(warehouseIds[0]);
    return dpi === 300 ? 300 : DEFAULT_DPI;
  }

  /**
   * Writes the set's file (under `fileName` when one was handed out): ours for the orders whose
   * company gives no label of its own, the companies' labels beside them.
   */
  private async writeStickerFile(
    scope: Scope,
    orders: Order[],
    plan: StickerPlan,
    today: string,
    fileName: string | null,
    onLabel: () => void,
  ): Promise<{ url: string; files: Array<{ type: StickerFormat; file: string }> }> {
    const companyLabels = await this.companyLabelsOf(scope, orders);
    const ours = orders.filter((order) => !companyLabels.has(order.id)).map(stickerOrderOf);
    const theirs = orders
      .filter((order) => companyLabels.has(order.id))
      .map((order) => bytesEntry(`labels/${order.id}-${order.trackNumber}.pdf`, companyLabels.get(order.id) as Buffer));
    let entries = [...stickerEntries(ours, plan, onLabel), ...theirs];
    const single = entries.length === 1;
    // Our PDFs in a ZIP are also kept apart (the set lists each format's PDF): each is written
    // once, to its own file, and the ZIP copies them from the store.
    const files: Array<{ type: StickerFormat; file: string }> = [];
    if (plan.output === 'pdf' && ours.length > 0) {
      const pdfs = entries.slice(0, plan.types.length);
      if (!single) {
        const stored: FileEntry[] = [];
        for (const [index, type] of plan.types.entries()) {
          const file = await this.files.putStreamed(
            scope.accountId,
            { contentType: PDF, extension: 'pdf', downloadName: `stickers-${FORMAT_SUFFIX[type]}-${today}.pdf` },
            (out) => pdfs[index].write(out),
          );
          files.push({ type, file: file.url });
          stored.push(this.storedEntry(pdfs[index].name, file.name));
        }
        entries = [...stored, ...theirs];
      }
    }
    const ownFormat = single && theirs.length === 0;
    const extension = single ? (ownFormat ? plan.output : 'pdf') : 'zip';
    const contentType = single ? (ownFormat ? OUTPUT_CONTENT_TYPE[plan.output] : PDF) : 'application/zip';
    const downloadName = single
      ? ownFormat
        ? entries[0].name.replace(/(\.[a-z]+)$/, `-${today}$1`)
        : `label-${orders.find((order) => companyLabels.has(order.id))?.trackNumber}.pdf`
      : `stickers-${today}.zip`;
    const file = await this.files.putStreamed(
      scope.accountId,
      { contentType, extension, downloadName, ...(fileName ? { name: fileName } : {}) },
      (out) => writeEntries(out, entries),
    );
    if (plan.output === 'pdf' && ours.length > 0 && single) files.push({ type: plan.types[0], file: file.url });
    return { url: file.url, files };
  }

  /** A file kept in the store as an entry of a ZIP: copied from the store as it is read. */
  private storedEntry(name: string, storedName: string): FileEntry {
    return {
      name,
      write: async (out) => {
        const opened = await this.files.open(storedName);
        if (!opened) throw new Error(`stored file ${storedName} vanished while its ZIP was written`);
        await pipeline(opened.body, out);
      },
    };
  }

  /** Sets formed today in the account's time zone, oldest first. */
  async stickerSetsToday(scope: Scope, now: Date = new Date()): Promise<StickerSet[]> {
    const today = todayIn(scope.timeZone, now);
    const rows = await this.store.stickerSetsBetween(
      scope.accountId,
      startOfDay(today, scope.timeZone),
      startOfDay(addDays(today, 1), scope.timeZone),
      scope.shopKeyShopId,
    );
    return rows.map((row) => ({
      id: row.id,
      date: row.created_at,
      deliveryCompanySticker: row.file_url,
      postSticker: null,
      stickers: JSON.parse(row.files) as Array<{ type: number; file: string }>,
      orderIds: JSON.parse(row.order_ids) as number[],
      format: row.output as StickerSet['format'],
      dpi: row.dpi === null ? null : Number(row.dpi),
      status: row.status as StickerSet['status'],
      progress: { done: Number(row.labels_done), total: Number(row.labels_total) },
    }));
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
    const orders = await this.visibleAll(scope, ids, null);
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
    const orders = await this.visibleAll(scope, ids, (order) =>
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
