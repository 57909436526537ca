/**
 * Documents of orders: labels (stickers), handover acts and waybills, assembly statements.
 * Orders come from the orders area (getMany, markDocuments); PDFs from src/documents; files
 * go to the file store, whose URLs work without a token. This file maps and records.
 */
import type { BoxService } from '../boxes/service.js';
import type { Box } from '../boxes/schemas.js';
import { MAX_PER_PAGE } from '../../platform/paging.js';
import { ZipArchive } from 'archiver';
import type { Scope } from '../../platform/auth.js';
import { addDays, startOfDay, todayIn } from '../../platform/clock.js';
import { AppError, conflict, fieldErrors, type ErrorItem } from '../../platform/errors.js';
import type { FileStore } from '../../platform/files.js';
import { toKopecks } from '../../platform/money.js';
import type { Page, Paging } from '../../platform/paging.js';
import {
  formatAddress,
  renderAssemblyStatement,
  renderHandoverAct,
  renderStickers,
  renderWaybill,
  STICKER_FORMATS,
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
import type { PlacesRequired, StickerSet, WaybillListQuery, WaybillSet, WaybillsBody, WaybillsResult } from './schemas.js';
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
export type CompanyLabels = (accountId: number, companyId: number, trackNumber: string, signal: AbortSignal) => Promise<Buffer | null>;
const FORMAT_SUFFIX: Record<StickerFormat, string> = { 1: 'a4', 2: '100x150', 3: '75x120' };

function postal(address: { city: { countryCode?: string | null; name: string | null; region?: string | null; area?: string | null }; street?: string | null; house?: string | null; bulk?: string | null; flat?: string | null; zipCode?: string | null }): PostalAddress {
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
  return { name: order.sender.fullName ?? order.brand, phone: order.sender.phone, legalName: order.brand || null, address: postal(order.senderAddress) };
}

export function stickerOrderOf(order: Order): StickerOrder {
  const point = order.delivery.type === 1 ? order.delivery.point : null;
  return {
    orderId: order.id,
    cmsId: order.cmsId,
    trackNumber: order.trackNumber ?? '',
    company: { name: order.delivery.company.name ?? `Company ${order.delivery.company.id}`, tariff: order.delivery.company.tariff },
    sender: senderOf(order),
    recipient: { name: order.recipient.fullName, phone: order.recipient.phone, legalName: order.recipient.legalEntity?.name ?? null },
    destination: point ? { kind: 'point', point: { id: point.id, name: point.name, address: point.address } } : { kind: 'address', address: postal(order.deliveryAddress) },
    weightKg: weightKgOf(order),
    places: order.places.length > 0 ? order.places.map((place) => ({ weightKg: place.weight })) : Array.from({ length: placesOf(order) }, () => ({})),
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
  return (sides as number[]).slice().sort((a, b) => b - a).join('x');
}

/**
 * The boxes to pack an order into: one per place, named after the account's box of the
 * same size when there is one, else described by its size; places without sizes are left out.
 */
function boxesOf(order: Order, catalogue: Map<string, Box>): BoxLine[] | null {
  const sizes = order.places.length > 0
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
    else lines.set(`${name}|${key}`, { name, dimensions: { length: size.length as number, width: size.width as number, height: size.height as number }, count: 1 });
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
    goods: order.products.map((line) => ({ name: line.name ?? line.vendorCode ?? '—', vendorCode: line.vendorCode, barcodes: line.barcode ? [line.barcode] : [], count: line.count })),
    boxes: boxesOf(order, catalogue),
    commentForAssembly: order.commentForAssembly,
    documentsForWarehouse: order.documentsForWarehouse,
  };
}

function statusRefusal(order: Order, what: string): string | null {
  if (order.status === STATUS.prepared) return null;
  return `Order ${order.id} is in status ${order.status}; ${what} only for orders ready for shipment (status 13, Prepared)`;
}

async function zipOf(entries: Array<{ name: string; bytes: Buffer }>): Promise<Buffer> {
  const zip = new ZipArchive({ store: true });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    zip.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.on('end', () => resolve(Buffer.concat(chunks)));
    zip.on('error', reject);
  });
  for (const entry of entries) zip.append(entry.bytes, { name: entry.name });
  await zip.finalize();
  return done;
}

const PDF = 'application/pdf';

export class DocumentService {
  constructor(
    private readonly store: DocumentStore,
    private readonly orders: OrderService,
    private readonly warehouses: WarehouseService,
    private readonly files: FileStore,
    private readonly boxes: BoxService,
    /** A delivery company's own label of a registered parcel (the real companies'), null where ours is printed. */
    private readonly companyLabel: CompanyLabels = async () => null,
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
        const label = await this.companyLabel(scope.accountId, order.delivery.company.id as number, order.trackNumber as string, signal).catch(() => null);
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
  private async visibleAll(scope: Scope, ids: number[], refuse: ((order: Order) => string | null) | null): Promise<Order[]> {
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
    const all = [...refused, ...foreign, ...missing].sort((a, b) => unique.indexOf(a.id as number) - unique.indexOf(b.id as number));
    if (all.length > 0) {
      const summary = `${all.length} of ${unique.length} order${unique.length > 1 ? 's' : ''} cannot be processed; nothing was formed. ${all[0].message}`;
      if (refused.length) throw conflict('order_state', summary, all);
      if (foreign.length) throw new AppError(403, 'forbidden', summary, all);
      throw new AppError(404, 'not_found', summary, all);
    }
    return unique.map((id) => found.get(id) as Order);
  }

  // ---------------------------------------------------------------- stickers

  async formStickers(scope: Scope, ids: number[], format: StickerFormat | undefined): Promise<{ file: string }> {
    const orders = await this.visibleAll(scope, ids, (order) => statusRefusal(order, 'stickers are formed'));
    const companyLabels = await this.companyLabelsOf(scope, orders);
    // ours for the orders whose company gives no label of its own
    const labels = orders.filter((order) => !companyLabels.has(order.id)).map(stickerOrderOf);
    const today = todayIn(scope.timeZone);
    const formats = labels.length === 0 ? [] : format ? [format] : FORMATS;
    const pdfs: Array<{ type: StickerFormat; bytes: Buffer }> = [];
    for (const type of formats) pdfs.push({ type, bytes: await renderStickers(labels, type) });
    const stored: Array<{ type: StickerFormat; file: string }> = [];
    for (const pdf of pdfs) {
      const file = await this.files.put(scope.accountId, { bytes: pdf.bytes, contentType: PDF, extension: 'pdf', downloadName: `stickers-${FORMAT_SUFFIX[pdf.type]}-${today}.pdf` });
      stored.push({ type: pdf.type, file: file.url });
    }
    const theirs = orders.filter((order) => companyLabels.has(order.id)).map((order) => ({ name: `labels/${order.id}-${order.trackNumber}.pdf`, bytes: companyLabels.get(order.id) as Buffer }));
    const entries = [...pdfs.map((pdf) => ({ name: STICKER_FORMATS[pdf.type].fileName, bytes: pdf.bytes })), ...theirs];
    let answer: string;
    if (entries.length === 1) {
      // one PDF: ours in the format asked, or one company's label
      answer = stored[0]?.file ?? (await this.files.put(scope.accountId, { bytes: theirs[0].bytes, contentType: PDF, extension: 'pdf', downloadName: `label-${orders[0].trackNumber}.pdf` })).url;
    } else {
      const zip = await zipOf(entries);
      answer = (await this.files.put(scope.accountId, { bytes: zip, contentType: 'application/zip', extension: 'zip', downloadName: `stickers-${today}.zip` })).url;
    }
    const shopIds = new Set(orders.map((order) => order.shopId));
    await this.store.insertStickerSet({
      account_id: scope.accountId,
      shop_id: shopIds.size === 1 ? (orders[0].shopId ?? null) : null,
      format: format ?? null,
      file_url: answer,
      files: JSON.stringify(stored),
      order_ids: JSON.stringify(orders.map((order) => order.id)),
      created_at: new Date().toISOString(),
    });
    await this.orders.markDocuments(scope, orders.map((order) => order.id), { stickerFormed: true });
    return { file: answer };
  }

  /** Sets formed today in the account's time zone, oldest first. */
  async stickerSetsToday(scope: Scope, now: Date = new Date()): Promise<StickerSet[]> {
    const today = todayIn(scope.timeZone, now);
    const rows = await this.store.stickerSetsBetween(scope.accountId, startOfDay(today, scope.timeZone), startOfDay(addDays(today, 1), scope.timeZone), scope.shopKeyShopId);
    return rows.map((row) => ({
      id: row.id,
      date: row.created_at,
      deliveryCompanySticker: row.file_url,
      postSticker: null,
      stickers: JSON.parse(row.files) as Array<{ type: number; file: string }>,
      orderIds: JSON.parse(row.order_ids) as number[],
    }));
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
      if (!order) error.push({ orderId: id, message: shops.has(id) ? `Order ${id} belongs to another shop.` : `Order ${id} was not found.` });
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
        problems.push({ field: carrier.field, message: `is required: orders of company ${carrier.companyId} are handed over with a waybill counting ${carrier.units} (see check-places-required)` });
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
    const warehouseIds = [...new Set(ready.map((order) => order.warehouseId).filter((id): id is number => id !== null))];
    const warehouses: Map<number, Warehouse> = warehouseIds.length > 0 ? await this.warehouses.getMany(scope, warehouseIds) : new Map();
    const success: WaybillsResult['success'] = [];
    for (const group of groups.values()) {
      const first = group[0];
      const companyId = first.delivery.company.id;
      const companyName = first.delivery.company.name ?? `Company ${companyId}`;
      const known = first.warehouseId !== null ? warehouses.get(first.warehouseId) : undefined;
      const warehouseAddress = known ? postal({ ...known.address, zipCode: null }) : postal(first.senderAddress);
      const warehouse = { id: known?.id ?? first.warehouseId ?? null, name: known?.name ?? 'Адрес отправителя', address: formatAddress(warehouseAddress) };
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
        const sender: DocumentParty = { name: first.brand || (first.sender.fullName ?? ''), phone: first.sender.phone, legalName: known?.senderOtherEntity.enabled ? (known.senderOtherEntity.company?.name ?? null) : null, address: postal(first.senderAddress) };
        const input = { number: setId, date: body.date, company: { name: companyName }, sender, warehouse: { name: warehouse.name, address: warehouseAddress }, orders: group.map(actOrderOf) };
        const act = await this.files.put(scope.accountId, { bytes: await renderHandoverAct(input), contentType: PDF, extension: 'pdf', downloadName: `act-${setId}-${body.date}.pdf` });
        let waybillUrl: string | null = null;
        if (carrier) {
          const count = body[carrier.field] as number;
          const waybill = await renderWaybill({ ...input, containers: { [carrier.units]: count } });
          waybillUrl = (await this.files.put(scope.accountId, { bytes: waybill, contentType: PDF, extension: 'pdf', downloadName: `waybill-${setId}-${body.date}.pdf` })).url;
        }
        await this.store.completeWaybillSet(scope.accountId, setId, act.url, waybillUrl);
        success.push({ id: setId, file: act.url, ...(waybillUrl ? { crossDockFile: waybillUrl } : {}), orderIds: group.map((order) => order.id) });
      } catch (failure) {
        await this.store.deleteWaybillSet(scope.accountId, setId);
        throw failure;
      }
    }
    if (ready.length > 0) await this.orders.markDocuments(scope, ready.map((order) => order.id), { wasInAct: true });
    return { success, error };
  }

  async listWaybillSets(scope: Scope, query: WaybillListQuery, at: Paging): Promise<Page<WaybillSet>> {
    const page = await this.store.waybillSets(scope.accountId, { warehouseId: query.warehouseId, shopId: scope.shopKeyShopId }, at.offset, at.perPage);
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
    const orders = await this.visibleAll(scope, ids, (order) => (order.status === STATUS.canceled ? `Order ${order.id} is canceled; nothing to assemble` : null));
    const today = todayIn(scope.timeZone);
    const warehouseId = orders[0].warehouseId;
    const sameWarehouse = orders.every((order) => order.warehouseId === warehouseId);
    const warehouse = sameWarehouse && warehouseId !== null ? (await this.warehouses.getMany(scope, [warehouseId])).get(warehouseId) : undefined;
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
    const file = await this.files.put(scope.accountId, { bytes: pdf, contentType: PDF, extension: 'pdf', downloadName: `assembly-${today}.pdf` });
    return { file: file.url };
  }
}
