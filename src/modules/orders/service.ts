/**
 * Orders: create, price, change, list, and every batch operation of the contract. The
 * rules of state live in state.ts; this file applies them, all or nothing.
 */
import { processScope, requireShopAccess, type Scope } from '../../platform/auth.js';
import type { AccountReadCache } from '../../platform/cache.js';
import { JsonBody } from '../../platform/compression.js';
import { addDays, startOfDay, todayIn } from '../../platform/clock.js';
import { WAREHOUSE_TYPE, type Warehouse } from '../warehouses/schemas.js';
import { closedReason } from '../warehouses/working-days.js';
import { chooseDropOffPoint, needsDropOffPoint, type DropOffChoice } from './drop-off.js';
import { AppError, conflict, FieldErrorCollector, forbidden, notFound, type ErrorCode, type ErrorItem } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs.js';
import { gramsOf } from '../../platform/measures.js';
import { toKopecks } from '../../platform/money.js';
import type { Paging } from '../../platform/paging.js';
import { ListPositions } from '../../platform/list-positions.js';
import type { DeliveryType } from '../../carriers/types.js';
import type { Company } from '../../carriers/registry.js';
import { courierIntervalsIn } from '../companies/courier-intervals.js';
import type { CalculatorService, DeliveryQuoteRequest } from '../calculator/service.js';
import type { ReferenceData } from '../companies/reference.js';
import type { OrderStatusDirectory } from '../lists/order-statuses.js';
import type { ProductService } from '../products/service.js';
import type { Shop } from '../shops/schemas.js';
import type { ShopService } from '../shops/service.js';
import { composeOrder, declaredValueKopecks, extendPointHold, inputOf, parseDoc, pageOf, reversedInputOf, serviceIdsOf, withId, type OrderDoc, type Pricing, type ProductLine, type SenderSnapshot } from './document.js';
import type { ConfirmBody, ExtendHoldBody, MissingProducts, OrderInput, OrderListQuery, OrderPatch, StatusHistoryItem } from './schemas.js';
import { actorOf, NO_FULFILMENT, type GoodsShortage, type OrderFulfilment, type ReservationPlan, type StockActor } from './fulfilment-port.js';
import { afterConfirm, afterUpdate, LIST_PREORDERS, LIST_PROBLEMS, LIST_STATUSES, RESERVATION, refusal, STATUS, stockMoveOf, type Operation, type OrderState } from './state.js';
import type { Db, OrderFilter, OrderRecord, OrderStore, RowExtras } from './store.js';
import { ownMethodOf, type OwnMethod } from '../delivery-methods/rules.js';

/** What orders need of the account's own delivery methods (delivery-methods area). */
export interface OwnMethodLookup {
  method(accountId: number, methodId: number): Promise<OwnMethod | undefined>;
}
const NO_OWN_METHODS: OwnMethodLookup = { method: async () => undefined };

/** Whether an order travels by an own delivery method of its account (its company id is the string of convention 12). */
export function isOwnMethodOrder(doc: Pick<OrderDoc, 'delivery'>): boolean {
  return typeof doc.delivery.company.id === 'string';
}

/** Our track number of an order an own delivery method carries: the shop delivers it, no company gives one. */
export function ownTrackNumber(accountId: number, orderId: number): string {
  return `OWN-${accountId}-${orderId}`;
}

const CACHE_TOPIC = 'orders';
/** How long pricing an order may wait for a company (ms). */
const PRICING_TIMEOUT_MS = 10_000;
export const REGISTER_JOB = 'orders.register';
export const CARRIER_CANCEL_JOB = 'orders.carrier-cancel';
export const EXTEND_HOLD_JOB = 'orders.extend-hold';

export type ShopHeader = string | string[] | undefined;

/** Where an order is after a change, to write it back. */
interface Change {
  doc: OrderDoc;
  extras?: RowExtras;
}

/** An id of a batch that cannot be processed after all (found out while applying it): the batch fails as a whole. */
interface Refused {
  refused: string;
  code: ErrorCode;
}

/** "TSHIRT-RED: 1 of 3 available; BOOK-1: 0 of 2 available" */
export function describeShortage(short: GoodsShortage[]): string {
  return short.map((item) => `${item.vendorCode ?? item.name ?? `product ${item.id}`}: ${item.restCount} of ${item.restCount + item.missingCount} available`).join('; ');
}

function stateOf(record: OrderRecord, doc: OrderDoc): OrderState {
  return { status: record.status, error: doc.error, isPacked: doc.isPacked, reservationStatus: doc.reservationStatus.key, fulfilment: doc.fulfilment };
}

function kopecksOf(roubles: number | null | undefined, field: string, problems: FieldErrorCollector): number {
  if (roubles === null || roubles === undefined) return 0;
  if (Math.abs(roubles * 100 - Math.round(roubles * 100)) > 1e-6) problems.add(field, 'must be given to the kopeck (at most 2 decimals)');
  return toKopecks(roubles);
}

/** Which orders a report reads: instants are RFC 3339 (UTC). */
export interface ReportOrderFilter {
  createdFrom?: string;
  createdBefore?: string;
  statusChangedFrom?: string;
  statusAtLeast?: number;
  /** First handed over (status 14 or later) in [from, to): read in that order by its index. */
  handedOver?: { from: string; to: string };
  /** First delivered (44/47) in [from, to): read in that order by its index. */
  delivered?: { from: string; to: string };
  /** A status list (1 to 8). */
  list?: number;
  withCod?: boolean;
}

function reportFilterOf(filter: ReportOrderFilter): OrderFilter {
  const where: OrderFilter = {};
  if (filter.createdFrom !== undefined) where.createdFrom = filter.createdFrom;
  if (filter.createdBefore !== undefined) where.createdBefore = filter.createdBefore;
  if (filter.statusChangedFrom !== undefined) where.statusChangedFrom = filter.statusChangedFrom;
  if (filter.statusAtLeast !== undefined) where.statusAtLeast = filter.statusAtLeast;
  if (filter.handedOver !== undefined) where.handedOver = filter.handedOver;
  if (filter.delivered !== undefined) where.delivered = filter.delivered;
  if (filter.list !== undefined) where.list = filter.list;
  if (filter.withCod !== undefined) where.withCod = filter.withCod;
  return where;
}

export interface OrderServiceOptions {
  /** Seconds between the simulated steps of a built-in company's journey; 0 turns the simulation off. */
  simulationStepSeconds: number;
}

export class OrderService {

  constructor(
    private readonly store: OrderStore,
    private readonly shops: ShopService,
    private readonly products: ProductService,
    private readonly calculator: CalculatorService,
    private readonly reference: ReferenceData,
    private readonly statuses: OrderStatusDirectory,
    private readonly jobs: JobQueue,
    private readonly cache: AccountReadCache,
    private readonly fulfilment: OrderFulfilment = NO_FULFILMENT,
    private readonly ownMethods: OwnMethodLookup = NO_OWN_METHODS,
  ) {}

  historyItem(code: number, at: string, description: string | null = null): StatusHistoryItem {
    return { code, name: this.statuses.name(code, 'ru'), date: at, description };
  }

  // ---------------------------------------------------------------- reads

  /** The order as answered (JSON text). */
  async getText(scope: Scope, id: number): Promise<Buffer> {
    const record = await this.accessible(scope, id);
    return withId(record.id, record.doc);
  }

  async get(scope: Scope, id: number): Promise<OrderDoc & { id: number }> {
    const record = await this.accessible(scope, id);
    return { id: record.id, ...parseDoc(record.doc) };
  }

  /**
   * A page of orders as JSON bytes, and the total. In the embedded mode the page is
   * remembered, like the total, until the account's orders change: plugins and the orders
   * screen ask for the same first page again and again.
   */
  async list(scope: Scope, query: OrderListQuery, paging: Paging): Promise<{ json: JsonBody; total: number }> {
    const filter = this.filterOf(scope, query);
    const key = JSON.stringify(filter);
    const [json, total] = await Promise.all([
      this.cache.read(scope.accountId, CACHE_TOPIC, `page:${paging.offset}:${paging.perPage}:${key}`, () => this.readPage(scope.accountId, key, filter, paging), (page) => page.weight),
      this.total(scope.accountId, key, filter),
    ]);
    return { json, total };
  }

  /**
   * A page from the database. Far pages start after the last order of a page already read
   * with the same filter (remembered until the account's orders change), so page 400 costs
   * what page 2 does instead of stepping over 20 000 orders.
   */
  private async readPage(accountId: number, key: string, filter: OrderFilter, paging: Paging): Promise<JsonBody> {
    const positions = await this.cache.read(accountId, CACHE_TOPIC, `positions:${key}`, async () => new ListPositions());
    const rows = await this.store.list(accountId, filter, paging.perPage, positions.startFor(paging.offset));
    positions.record(paging.offset, rows.map((row) => row.id));
    return pageOf(rows);
  }

  /**
   * The number of orders a filter matches, remembered until the account's orders change:
   * counting a large account on every page is the most expensive part of a list.
   */
  private total(accountId: number, key: string, filter: OrderFilter): Promise<number> {
    return this.cache.read(accountId, CACHE_TOPIC, key, () => this.store.count(accountId, filter));
  }

  private filterOf(scope: Scope, query: OrderListQuery): OrderFilter {
    const filter: OrderFilter = {};
    // A missing `list` is 0 (all): Python order-sync clients page through every order without one.
    const list = query.list ?? 0;
    if (list === LIST_PROBLEMS) filter.problem = true;
    else if (list === LIST_PREORDERS) filter.reservationStatus = RESERVATION.preorder;
    else if (LIST_STATUSES[list]) filter.list = list;
    if (query.statuses?.length) filter.statuses = query.statuses;
    if (query.deliveryType !== undefined) filter.deliveryType = query.deliveryType;
    if (scope.shopKeyShopId !== null) {
      if (query.shopId !== undefined) requireShopAccess(scope, query.shopId);
      filter.shopId = scope.shopKeyShopId;
    } else if (query.shopId === 0) filter.withoutShop = true;
    else if (query.shopId !== undefined) filter.shopId = query.shopId;
    if (query.warehouseId !== undefined) filter.warehouseId = query.warehouseId;
    if (query.dateFrom) filter.createdFrom = startOfDay(query.dateFrom, scope.timeZone);
    if (query.dateTo) filter.createdBefore = startOfDay(addDays(query.dateTo, 1), scope.timeZone);
    if (query.deliveryCompanies?.length) {
      // another account's own method ids match none of the caller's orders
      const own = query.deliveryCompanies.map((id) => ownMethodOf(scope.accountId, id)).filter((id): id is number => id !== null);
      filter.companies = { companyIds: query.deliveryCompanies.filter((id): id is number => typeof id === 'number'), ownMethodIds: own };
    }
    if (query.paymentMethods?.length) filter.paymentTypes = query.paymentMethods;
    if (query.stickerFormed !== undefined) filter.stickerFormed = query.stickerFormed === 1;
    if (query.wasInAct !== undefined) filter.wasInAct = query.wasInAct === 1;
    if (query.packed !== undefined) filter.packed = query.packed === 1;
    if (query.storagingEnds !== undefined) {
      const tomorrow = addDays(todayIn(scope.timeZone), 1);
      if (query.storagingEnds === 1) filter.holdEndsBy = tomorrow;
      else filter.notHoldEndsBy = tomorrow;
    }
    if (query.withCod !== undefined) filter.withCod = query.withCod === 1;
    if (query.codReceived !== undefined) filter.codReceived = query.codReceived === 1;
    if (query.recipientCountry) filter.recipientCountry = query.recipientCountry;
    if (query.recipientCity) filter.recipientCityContains = query.recipientCity;
    if (query.search?.trim()) filter.search = query.search;
    if (query.reservationStatus !== undefined) filter.reservationStatus = query.reservationStatus;
    if (query.autoReservation !== undefined) filter.autoReserved = query.autoReservation === 1;
    return filter;
  }

  /**
   * Orders for reports, as GET answers them, in id order, read in keyset pages of `pageSize`:
   * a report over a million orders holds one page at a time. `created` is the list's
   * dateFrom/dateTo rule (creation day in the account's zone); `statusChangedFrom` keeps
   * orders whose status changed at or after the instant (every status reached in a period);
   * with `handedOver` or `delivered` the pages follow that instant's index instead of the id.
   */
  async *scanForReport(accountId: number, filter: ReportOrderFilter, pageSize = 1000): AsyncGenerator<OrderDoc & { id: number }> {
    const where = reportFilterOf(filter);
    const period = filter.handedOver ? 'handed_over_at' : filter.delivered ? 'delivered_at' : null;
    if (period) {
      for (let after: { at: string; id: number } | null = null; ; ) {
        const page = await this.store.scanPeriodPage(accountId, where, period, after, pageSize);
        for (const row of page) yield { id: row.id, ...parseDoc(row.doc) };
        if (page.length < pageSize) return;
        after = page[page.length - 1];
      }
    }
    for (let afterId = 0; ; ) {
      const page = await this.store.scanPage(accountId, where, afterId, pageSize);
      for (const row of page) yield { id: row.id, ...parseDoc(row.doc) };
      if (page.length < pageSize) return;
      afterId = page[page.length - 1].id;
    }
  }

  /** How many orders `scanForReport` would read (an estimate of a report's rows). */
  countForReport(accountId: number, filter: ReportOrderFilter): Promise<number> {
    return this.store.count(accountId, reportFilterOf(filter));
  }

  /**
   * Orders for other areas (documents: stickers, acts, assembly statements): every id of the
   * account the caller may see, as answered by GET; unknown or foreign ids are left out.
   */
  async getMany(scope: Scope, ids: number[]): Promise<Map<number, OrderDoc & { id: number }>> {
    const records = await this.store.getMany(scope.accountId, ids);
    const orders = new Map<number, OrderDoc & { id: number }>();
    for (const [id, record] of records) {
      if (scope.shopKeyShopId !== null && record.shopId !== scope.shopKeyShopId) continue;
      orders.set(id, { id, ...parseDoc(record.doc) });
    }
    return orders;
  }

  /**
   * The shop of each of the account's orders among `ids` (null: an order without a shop),
   * whoever may see them: other areas use it to tell another shop's order (403) from a
   * missing one (404).
   */
  async shopsOf(scope: Scope, ids: number[]): Promise<Map<number, number | null>> {
    const records = await this.store.getMany(scope.accountId, ids);
    return new Map([...records.values()].map((record) => [record.id, record.shopId]));
  }

  /** Marks orders as having stickers formed and/or having been in an act (documents area). */
  async markDocuments(scope: Scope, ids: number[], marks: { stickerFormed?: boolean; wasInAct?: boolean }): Promise<void> {
    await this.store.transaction(async (trx) => {
      const records = await this.store.getMany(scope.accountId, ids, trx, true);
      for (const record of records.values()) {
        if (scope.shopKeyShopId !== null && record.shopId !== scope.shopKeyShopId) continue;
        const doc = parseDoc(record.doc);
        if (marks.stickerFormed !== undefined) doc.stickerFormed = marks.stickerFormed;
        if (marks.wasInAct !== undefined) doc.wasInAct = marks.wasInAct;
        if (!(await this.store.update(scope.accountId, record, doc, {}, trx))) throw this.raced(record.id);
      }
    });
    this.changed(scope.accountId);
  }

  // ---------------------------------------------------------------- create and change

  async create(scope: Scope, input: OrderInput, shopHeader: ShopHeader): Promise<number> {
    const doc = await this.compose(scope, input, shopHeader, [this.historyItem(STATUS.draft, new Date().toISOString())]);
    const id = await this.store.shortWrite((trx) => this.store.insert(scope.accountId, doc, {}, trx));
    this.changed(scope.accountId);
    return id;
  }

  async replace(scope: Scope, id: number, input: OrderInput, shopHeader: ShopHeader): Promise<void> {
    const record = await this.accessible(scope, id);
    const current = parseDoc(record.doc);
    const refused = refusal('update', stateOf(record, current));
    if (refused) throw conflict('order_state', `Order ${id} cannot be changed: ${refused}.`, [{ id, message: refused }]);
    const now = new Date().toISOString();
    const status = afterUpdate(record.status);
    const history = status === record.status ? current.statusHistory : [this.historyItem(status, now, 'Changed by the sender'), ...current.statusHistory];
    const header = input.shopId ? undefined : (current.shopId !== null && scope.shopKeyShopId === null && shopHeader === undefined ? String(current.shopId) : shopHeader);
    const doc = await this.compose(scope, input, header, history);
    const next: OrderDoc = { ...doc, creationDate: current.creationDate, tasks: current.tasks, isPacked: current.isPacked, reservationStatus: current.reservationStatus };
    if (!(await this.store.update(scope.accountId, record, next))) throw this.raced(id);
    this.changed(scope.accountId);
  }

  async patch(scope: Scope, id: number, patch: OrderPatch): Promise<void> {
    const record = await this.accessible(scope, id);
    const doc = parseDoc(record.doc);
    const refused = refusal('patch', stateOf(record, doc));
    if (refused) throw conflict('order_state', `Order ${id} cannot be changed: ${refused}.`, [{ id, message: refused }]);
    if (patch.recipient) {
      const { legalEntity, ...contact } = patch.recipient;
      for (const [key, value] of Object.entries(contact)) if (value !== undefined) (doc.recipient as Record<string, unknown>)[key] = typeof value === 'string' ? value.trim() : value;
      if (legalEntity === null) doc.recipient.legalEntity = { name: null, TIN: null };
      else if (legalEntity) doc.recipient.legalEntity = { name: legalEntity.name !== undefined ? legalEntity.name : doc.recipient.legalEntity.name, TIN: legalEntity.TIN !== undefined ? legalEntity.TIN : doc.recipient.legalEntity.TIN };
    }
    const problems = new FieldErrorCollector();
    if (!doc.recipient.fullName) problems.add('recipient.fullName', 'must not be empty');
    if (!doc.recipient.phone) problems.add('recipient.phone', 'must not be empty');
    problems.throwIfAny();
    for (const key of ['cmsId', 'comment', 'commentForAssembly', 'documentsForWarehouse'] as const) if (patch[key] !== undefined) doc[key] = patch[key] ?? null;
    if (!(await this.store.update(scope.accountId, record, doc))) throw this.raced(id);
    this.changed(scope.accountId);
  }

  /** Validates a request and prices it: the document of a new (or replaced) order. */
  private async compose(scope: Scope, input: OrderInput, shopHeader: ShopHeader, history: StatusHistoryItem[], copy = false): Promise<OrderDoc> {
    const shop = await this.shops.resolveShopHeader(scope, input.shopId ? String(input.shopId) : shopHeader, false);
    const problems = new FieldErrorCollector();
    const sender = this.senderOf(shop, input, problems);
    const products = await this.productLines(scope, input, problems);
    const companyId = input.delivery.company.id;
    const company = typeof companyId === 'number' ? (await this.reference.registry.companyOf(scope.accountId, companyId))?.company : undefined;
    const ownId = ownMethodOf(scope.accountId, companyId);
    const own = ownId === null ? undefined : await this.ownMethods.method(scope.accountId, ownId);
    if (typeof companyId === 'string') {
      if (!own) problems.add('delivery.company.id', `${companyId} is not a delivery method of this account (GET /v2/delivery-methods)`);
      else if (own.type !== input.delivery.type) problems.add('delivery.type', `${own.name} delivers with type ${own.type} only`);
    } else if (!company) problems.add('delivery.company.id', `${companyId} is not a delivery company of this service`);
    else if (!company.deliveryTypes.includes(input.delivery.type as DeliveryType)) problems.add('delivery.type', `${company.name} does not deliver with type ${input.delivery.type}`);
    const pointMissing = input.delivery.type === 1 && !input.delivery.point?.id;
    if (pointMissing && !copy) problems.add('delivery.point.id', 'is required for delivery to a pickup point (type 1)');
    for (const [index, place] of (input.places ?? []).entries()) if (place.weight) gramsOf(place.weight, `places[${index}].weight`, problems);
    if (input.dimensions?.weight) gramsOf(input.dimensions.weight, 'dimensions.weight', problems);
    for (const field of ['priceDeclared', 'discount', 'clientPrice', 'clientPrePay'] as const) kopecksOf(input[field], field, problems);
    const clientCourierTime = company ? this.courierTimeOf(input, company, problems) : null;
    if (company && !copy) this.checkDropOffPoint(input, company, problems);
    if (company && !copy) this.checkPickup(input, company, shop?.warehouse ?? null, scope.timeZone, problems);
    problems.throwIfAny();

    const dropOff = company ? this.dropOffPointOf(input, sender, company, shop?.warehouse ?? null) : null;
    // a copy sent the other way has no point yet: a draft asking for one
    const priced = pointMissing ? { quote: null, error: 'Choose a pickup point near the recipient (delivery.point.id).' } : await this.price(scope, shop, input, products, own?.name, dropOff?.pointId ?? null);
    // the calculator offers no such company there, so its pricing failed for the same reason: say the fix once
    const pricing = dropOff?.problem ? { ...priced, error: dropOff.problem } : priced;
    const pickup = dropOff?.pointId ? { ...input.pickup, pointId: dropOff.pointId } : input.pickup;
    const pointId = input.delivery.type === 1 || input.delivery.type === 3 ? (input.delivery.point?.id ?? null) : null;
    const known = pointId && company ? this.reference.registry.point(pointId) : undefined;
    // post (type 3) may name one of the company's post offices (its index is where the parcel waits); any other point is not kept
    const knownPoint = known && (input.delivery.type === 1 || known.type === 3) ? known : undefined;
    return composeOrder({
      input: { ...input, clientCourierTime, pickup },
      products,
      sender,
      company,
      ownMethodName: own?.name ?? null,
      knownPoint: knownPoint && knownPoint.companyId === companyId ? knownPoint : undefined,
      serviceNames: new Map(this.reference.services.map((service) => [service.id, service.name])),
      pricing,
      now: history[history.length - 1]?.date ?? new Date().toISOString(),
      history,
      testMode: typeof companyId === 'number' && company?.driver === 'contract' && (await this.reference.registry.isTestMode(scope.accountId, companyId)),
    });
  }

  /**
   * A courier delivery gets one of the company's intervals in the recipient's locality: the
   * one asked for, else the company's default (contract 2.13). Other delivery types have no
   * courier visit: the field is not kept.
   */
  private courierTimeOf(input: OrderInput, company: Company, problems: FieldErrorCollector): number | null {
    if (input.delivery.type !== 2) return null;
    const city = input.deliveryAddress.city;
    const locality = this.reference.localities.find({ countryCode: city.countryCode, fias: city.fias ?? undefined, name: city.name, region: city.region ?? undefined });
    const intervals = locality ? courierIntervalsIn(company, locality) : [];
    const asked = input.clientCourierTime;
    if (asked === undefined || asked === null) return intervals.find((interval) => interval.isDefault)?.id ?? null;
    if (!intervals.some((interval) => interval.id === asked)) {
      const offered = intervals.map((interval) => `${interval.id} (${interval.timeFrom}-${interval.timeTo})`).join(', ');
      problems.add('clientCourierTime', offered ? `is not a courier interval of ${company.name} there; choose one of ${offered} (GET /v2/couriers/schedule)` : `${company.name} offers no courier interval there`);
    }
    return asked;
  }

  /** A drop-off point the order names must be one of the delivery company's own points (GET /v2/orders/shipment). */
  private checkDropOffPoint(input: OrderInput, company: Company, problems: FieldErrorCollector): void {
    const pointId = input.pickup?.pointId;
    if (pointId !== undefined && pointId !== null && this.reference.registry.point(pointId)?.companyId !== company.id) {
      problems.add('pickup.pointId', `is not a drop-off point of ${company.name} (GET /v2/orders/shipment lists them)`);
    }
  }

  /**
   * Where the parcel is dropped off (orders/drop-off.ts): the order's point, else the one the
   * warehouse set for the company, else the company's point nearest the sender; a company
   * that needs one and has none there makes the order a draft with an error, never a refusal.
   */
  private dropOffPointOf(input: OrderInput, sender: SenderSnapshot, company: Company, warehouse: Warehouse | null): DropOffChoice {
    const pickupType = input.pickup?.type ?? sender.defaultPickupType;
    const city = sender.senderAddress.city;
    const locality = city.name ? this.reference.localities.find({ countryCode: city.countryCode, fias: city.fias ?? undefined, name: city.name, region: city.region ?? undefined }) : undefined;
    const setting = warehouse?.dropOffPoints.find((entry) => entry.companyId === company.id)?.pointId ?? null;
    return chooseDropOffPoint({
      company,
      pickupType,
      givenPointId: input.pickup?.pointId ?? null,
      // a point the warehouse chose and the company has since closed is not used
      warehouseDefault: setting !== null && this.reference.registry.point(setting)?.companyId === company.id ? setting : null,
      candidates: locality && needsDropOffPoint(company, pickupType) ? this.reference.registry.pointsIn(company.id, locality.id) : [],
      sender: { placeName: city.name, centre: locality ? { latitude: locality.latitude, longitude: locality.longitude } : null, street: sender.senderAddress.street },
    });
  }

  /**
   * The rest of what GET /v2/orders/shipment offers: the pickup type an order names must be one
   * the company takes (drop-off at its points, or its own courier), and the day the parcel
   * leaves must not be past. An order that will wait for a pickup (own warehouse, type 3 or 4)
   * needs a day the warehouse works: no pickup can be booked on another (POST /v2/pickups),
   * and the order would wait at 13 for ever.
   */
  private checkPickup(input: OrderInput, company: Company, warehouse: Warehouse | null, timeZone: string, problems: FieldErrorCollector): void {
    const type = input.pickup?.type;
    if (type === 1 && company.pickup && !company.pickup.dropOff) problems.add('pickup.type', `${company.name} takes no drop-offs at its points; use 4 (its courier) or another company (GET /v2/orders/shipment)`);
    if (type === 4 && !company.pickup?.direct) problems.add('pickup.type', `${company.name} has no courier of its own to collect parcels; use 1 (drop-off) or another company (GET /v2/orders/shipment)`);
    const date = input.pickup?.date;
    if (!date) return;
    const day = date.slice(0, 10);
    const waitsForPickup = warehouse !== null && warehouse.type === WAREHOUSE_TYPE.own && [3, 4].includes(type ?? warehouse.pickupType);
    const closed = waitsForPickup ? closedReason(warehouse, day) : null;
    if (day < todayIn(timeZone)) problems.add('pickup.date', 'must be today or later');
    else if (closed) problems.add('pickup.date', `${closed}: no pickup collects that day`);
  }

  private senderOf(shop: Shop | null, input: OrderInput, problems: FieldErrorCollector): SenderSnapshot {
    if (shop) {
      const warehouse = shop.warehouse;
      return {
        shopId: shop.id,
        warehouseId: warehouse.id,
        brand: shop.brand,
        fulfilment: warehouse.type === 2,
        defaultPickupType: warehouse.pickupType,
        senderAddress: { city: { ...warehouse.address.city }, street: warehouse.address.street, house: warehouse.address.house, bulk: warehouse.address.bulk, flat: warehouse.address.flat },
        sender: { fullName: warehouse.contact.name, phone: warehouse.contact.phone },
      };
    }
    const address = input.senderAddress ?? null;
    if (!address?.city?.name) problems.add('senderAddress.city.name', 'is required when the order names no shop');
    if (!input.sender?.fullName) problems.add('sender.fullName', 'is required when the order names no shop');
    if (!input.sender?.phone) problems.add('sender.phone', 'is required when the order names no shop');
    if (!input.pickup?.type) problems.add('pickup.type', 'is required when the order names no shop (1 or 4)');
    const city = address?.city;
    return {
      shopId: null,
      warehouseId: null,
      brand: input.sender?.fullName ?? '',
      fulfilment: false,
      defaultPickupType: null,
      senderAddress: {
        city: { countryCode: (city?.countryCode ?? 'RU').toUpperCase(), name: city?.name ?? null, fias: city?.fias ?? null, type: city?.type ?? null, region: city?.region ?? null, area: city?.area ?? null },
        street: address?.street ?? null,
        house: address?.house ?? null,
        bulk: address?.bulk ?? null,
        flat: address?.flat ?? null,
      },
      sender: { fullName: input.sender?.fullName ?? null, phone: input.sender?.phone ?? null },
    };
  }

  /** Product lines with catalogue values filled in where a line names a product. */
  private async productLines(scope: Scope, input: OrderInput, problems: FieldErrorCollector): Promise<ProductLine[]> {
    const items = input.products ?? [];
    const ids = items.map((item) => item.id).filter((id): id is number => typeof id === 'number');
    const catalogue = ids.length ? await this.products.getMany(scope, ids) : new Map();
    return items.map((item, index) => {
      const field = `products[${index}]`;
      const product = item.id ? catalogue.get(item.id) : undefined;
      if (item.id && !product) problems.add(`${field}.id`, `product ${item.id} does not exist in this account`);
      if (!item.id && !item.name) problems.add(`${field}.name`, 'is required unless the line names a product (id)');
      const pick = <T>(own: T | null | undefined, fallback: T | null | undefined): T | null => (own !== undefined && own !== null ? own : (fallback ?? null));
      const weight = pick(item.weight, product?.weight);
      return {
        id: product ? product.id : null,
        name: pick(item.name, product?.name),
        nameEn: pick(item.nameEn, product?.nameEn),
        vendorCode: pick(item.vendorCode, product?.vendorCode),
        vat: pick<number>(item.vat, product?.vat),
        priceDeclaredKopecks: kopecksOf(pick(item.priceDeclared, product?.priceDeclared), `${field}.priceDeclared`, problems),
        priceCodKopecks: kopecksOf(pick(item.priceCod, product?.priceCod), `${field}.priceCod`, problems),
        prePayKopecks: kopecksOf(item.prePay, `${field}.prePay`, problems),
        discountKopecks: kopecksOf(item.discount, `${field}.discount`, problems),
        tnved: pick(item.tnved, product?.tnved),
        count: item.count ?? 1,
        weightGrams: weight === null ? null : gramsOf(weight, `${field}.weight`, problems),
        brand: pick(item.brand, product?.brand),
        producingCountry: pick(item.producingCountry, product?.producingCountry),
        barcode: pick(item.barcode, product?.barcodes[0]),
        dimensions: {
          width: pick(item.dimensions?.width, product?.dimensions.width),
          height: pick(item.dimensions?.height, product?.dimensions.height),
          length: pick(item.dimensions?.length, product?.dimensions.length),
        },
      };
    });
  }

  /** Prices the chosen company, type and point; a refusal is the order's error, never a failed request. */
  private async price(scope: Scope, shop: Shop | null, input: OrderInput, products: ProductLine[], ownMethodName: string | undefined, dropOffPointId: number | null): Promise<Pricing> {
    const city = input.deliveryAddress.city;
    const from = input.senderAddress?.city;
    const sides = (value: { width?: number | null; height?: number | null; length?: number | null } | undefined) =>
      value && value.width && value.height && value.length ? { width: value.width, height: value.height, length: value.length } : undefined;
    const request: DeliveryQuoteRequest = {
      companyId: input.delivery.company.id,
      deliveryType: input.delivery.type as DeliveryType,
      pointId: input.delivery.point?.id ?? null,
      dropOffPointId,
      reception: {
        countryCode: city.countryCode,
        cityName: city.name,
        ...(city.fias ? { cityFias: city.fias } : {}),
        ...(city.type ? { cityType: city.type } : {}),
        ...(city.region ? { region: city.region } : {}),
        ...(city.area ? { area: city.area } : {}),
        ...(input.deliveryAddress.zipCode ? { zipCode: input.deliveryAddress.zipCode } : {}),
      },
      ...(shop
        ? {}
        : {
            sender: { countryCode: from?.countryCode ?? 'RU', ...(from?.name ? { cityName: from.name } : {}), ...(from?.fias ? { cityFias: from.fias } : {}), ...(from?.region ? { region: from.region } : {}) },
          }),
      ...(input.pickup?.type ? { pickupType: input.pickup.type } : {}),
      products: products.map((line) => ({
        priceDeclared: line.priceDeclaredKopecks / 100,
        priceCod: line.priceCodKopecks / 100,
        discount: line.discountKopecks / 100,
        count: line.count,
        ...(line.weightGrams ? { weight: line.weightGrams / 1000 } : {}),
        ...(sides(line.dimensions) ? { dimensions: sides(line.dimensions) } : {}),
      })),
      priceDeclared: declaredValueKopecks(products.map((line) => ({ priceDeclared: line.priceDeclaredKopecks / 100, count: line.count })), input.priceDeclared) / 100,
      ...(input.clientPrice ? { priceClient: input.clientPrice } : {}),
      ...(input.clientPrePay ? { pricePrePayClient: input.clientPrePay } : {}),
      ...(input.discount ? { discount: input.discount } : {}),
      servicesRequired: serviceIdsOf(input),
      ...(input.places?.length ? { places: input.places.map((place) => ({ ...(place.weight ? { weight: place.weight } : {}), ...(sides(place.dimensions) ? { dimensions: sides(place.dimensions) } : {}) })) } : {}),
      ...(input.dimensions?.weight ? { weight: input.dimensions.weight } : {}),
      ...(sides(input.dimensions) ? { dimensions: sides(input.dimensions) } : {}),
      ...(input.dimensions?.places ? { itemCount: input.dimensions.places } : {}),
      priceMode: input.priceMode ?? 1,
      applyWidgetSettings: input.applyWidgetSettings === true,
      applyDefaultDimensions: input.applyDefaultDimensions === true,
      timeout: PRICING_TIMEOUT_MS,
    };
    try {
      let failure: string | null = null;
      const quote = await this.calculator.quoteOne(scope, shop, request, (_companyId, reason) => (failure = reason));
      if (quote) return { quote, error: null };
      const companyId = input.delivery.company.id;
      const company = ownMethodName ?? (typeof companyId === 'number' ? (await this.reference.registry.companyOf(scope.accountId, companyId))?.company.name : undefined) ?? `Company ${companyId}`;
      const where = input.delivery.type === 1 ? ` to point ${input.delivery.point?.id}` : '';
      return { quote: null, error: failure ? `${company} did not price the delivery: ${failure}` : `${company} cannot deliver this order${where} (delivery type ${input.delivery.type}).` };
    } catch (error) {
      if (error instanceof AppError) return { quote: null, error: error.message };
      throw error;
    }
  }

  // ---------------------------------------------------------------- batch operations

  /**
   * All or nothing: every id is checked first, and if any cannot be processed nothing
   * changes and the error lists each failing id with its reason.
   */
  private async batch(
    scope: Scope,
    ids: number[],
    operation: Operation,
    apply: (record: OrderRecord, doc: OrderDoc, trx: Db) => Promise<Change | Refused> | Change | Refused,
    options: { preOrder?: boolean } = {},
  ): Promise<void> {
    const unique = [...new Set(ids)];
    await this.store.transaction(async (trx) => {
      const records = await this.store.getMany(scope.accountId, unique, trx, true);
      const failures = this.checkAll(scope, unique, records, (record, doc) => refusal(operation, stateOf(record, doc), options));
      if (failures) throw failures;
      const refused: Array<ErrorItem & { code: ErrorCode }> = [];
      for (const id of unique) {
        const record = records.get(id) as OrderRecord;
        const change = await apply(record, parseDoc(record.doc), trx);
        if ('refused' in change) {
          refused.push({ id, message: `Order ${id}: ${change.refused}.`, code: change.code });
          continue;
        }
        if (!(await this.store.update(scope.accountId, record, change.doc, change.extras ?? {}, trx))) throw this.raced(id);
      }
      // the transaction rolls back: what the other ids reserved meanwhile is given back too
      if (refused.length) {
        const summary = `${refused.length} of ${unique.length} order${unique.length > 1 ? 's' : ''} cannot be processed; nothing was changed. ${refused[0].message}`;
        throw conflict(refused[0].code, summary, refused.map(({ id, message }) => ({ id, message })));
      }
    });
    this.changed(scope.accountId);
  }

  /** The error of a batch naming every failing id, or null when all may proceed. */
  private checkAll(scope: Scope, ids: number[], records: Map<number, OrderRecord>, check: (record: OrderRecord, doc: OrderDoc) => string | null): AppError | null {
    const missing: ErrorItem[] = [];
    const foreign: ErrorItem[] = [];
    const refused: ErrorItem[] = [];
    for (const id of ids) {
      const record = records.get(id);
      if (!record) missing.push({ id, message: `Order ${id} was not found.` });
      else if (scope.shopKeyShopId !== null && record.shopId !== scope.shopKeyShopId) foreign.push({ id, message: `Order ${id} belongs to another shop.` });
      else {
        const reason = check(record, parseDoc(record.doc));
        if (reason) refused.push({ id, message: `Order ${id}: ${reason}.` });
      }
    }
    const all = [...refused, ...foreign, ...missing].sort((a, b) => ids.indexOf(a.id as number) - ids.indexOf(b.id as number));
    if (all.length === 0) return null;
    const summary = `${all.length} of ${ids.length} order${ids.length > 1 ? 's' : ''} cannot be processed; nothing was changed. ${all[0].message}`;
    if (refused.length) return conflict('order_state', summary, all);
    if (foreign.length) return new AppError(403, 'forbidden', summary, all);
    return new AppError(404, 'not_found', summary, all);
  }

  /**
   * Drafts become Confirmed and are registered with their company. An order of a fulfilment
   * shop reserves its goods first: short goods fail its id (the batch rule) unless it is
   * confirmed as a preorder, which waits for the goods unregistered.
   */
  async confirm(scope: Scope, body: ConfirmBody): Promise<void> {
    const preOrder = body.preOrder === true;
    const now = new Date().toISOString();
    const actor = actorOf(scope);
    const plans = await this.plansFor(scope, body.ids);
    const missing = new Map<number, string>();
    try {
      await this.batch(
        scope,
        body.ids,
        'confirm',
        async (record, doc, trx) => {
          let reservation: number | null = null;
          if (doc.fulfilment && doc.reservationStatus.key !== RESERVATION.reserved) {
            const asPreorder = preOrder || doc.reservationStatus.key === RESERVATION.preorder;
            const plan = plans.get(record.id);
            if (!plan || plan.version !== record.version) throw this.raced(record.id);
            const short = await this.fulfilment.reserve(trx, scope.accountId, record.id, plan.plan, actor);
            if (short.length === 0) reservation = RESERVATION.reserved;
            else if (asPreorder) reservation = RESERVATION.preorder;
            else {
              missing.set(record.id, describeShortage(short));
              return { refused: `goods are missing at the fulfilment warehouse (${describeShortage(short)}); confirm it as a preorder (preOrder) to wait for them`, code: 'insufficient_stock' };
            }
          } else if (!doc.fulfilment) reservation = afterConfirm(preOrder).reservationStatus;
          doc.status = STATUS.confirmed;
          doc.statusHistory = [this.historyItem(STATUS.confirmed, now, reservation === RESERVATION.preorder ? 'Confirmed as a preorder' : null), ...doc.statusHistory];
          if (reservation !== null && reservation !== doc.reservationStatus.key) doc.reservationStatus = { key: reservation, date: now };
          // a preorder is registered once its goods are reserved; an own method's order has no company to register with
          if (doc.reservationStatus.key !== RESERVATION.preorder) {
            if (isOwnMethodOrder(doc)) this.readyForOwnDelivery(scope.accountId, record.id, doc, now);
            else await this.enqueueRegistration(scope.accountId, record.id, trx);
          }
          return { doc };
        },
        { preOrder },
      );
    } catch (error) {
      // the batch rolled back, but the shops are told which orders lack goods (orderProductsNotAvailableInFulfilment)
      if (error instanceof AppError && error.code === 'insufficient_stock') await this.goodsMissing(scope.accountId, missing);
      throw error;
    }
  }

  private async goodsMissing(accountId: number, missing: Map<number, string>, db?: Db): Promise<void> {
    if (missing.size === 0) return;
    const records = await this.store.getMany(accountId, [...missing.keys()], db);
    for (const record of records.values()) {
      const doc = parseDoc(record.doc);
      await this.store.recordEvents(accountId, record, [{ type: 'fulfilment.goods_missing', statusFrom: record.status, statusTo: record.status, payload: { cmsId: doc.cmsId, trackNumber: doc.trackNumber, description: `Goods are missing at the fulfilment warehouse: ${missing.get(record.id)}` } }], db);
    }
  }

  /** Reservation plans of the fulfilment orders among `ids`, made before their transaction, with the version they were made from. */
  private async plansFor(scope: Scope, ids: number[]): Promise<Map<number, { version: number; plan: ReservationPlan }>> {
    const plans = new Map<number, { version: number; plan: ReservationPlan }>();
    for (const record of (await this.store.getMany(scope.accountId, ids)).values()) {
      const doc = parseDoc(record.doc);
      if (doc.fulfilment) plans.set(record.id, { version: record.version, plan: await this.fulfilment.plan(scope, doc) });
    }
    return plans;
  }

  /**
   * An order of an own delivery method is ready as soon as it is confirmed (and its goods
   * reserved): no company registers it, the shop delivers it itself. It gets our track number
   * (stickers carry it as a barcode, GET /v2/tracking finds it) and no tracking link.
   */
  readyForOwnDelivery(accountId: number, orderId: number, doc: OrderDoc, at: string): void {
    doc.status = STATUS.prepared;
    doc.error = null;
    doc.trackNumber = ownTrackNumber(accountId, orderId);
    doc.trackingUrl = null;
    doc.statusHistory = [this.historyItem(STATUS.prepared, at, 'Ready: the shop delivers it with its own delivery method'), ...doc.statusHistory];
  }

  private async enqueueRegistration(accountId: number, orderId: number, trx: Db): Promise<void> {
    await this.jobs.enqueue(accountId, REGISTER_JOB, { orderId }, { uniqueKey: `register:${accountId}:${orderId}` }, trx);
  }

  async cancel(scope: Scope, ids: number[]): Promise<void> {
    const now = new Date().toISOString();
    await this.batch(scope, ids, 'cancel', async (record, doc, trx) => {
      if (doc.trackNumber) await this.jobs.enqueue(scope.accountId, CARRIER_CANCEL_JOB, { orderId: record.id, companyId: record.companyId, trackNumber: doc.trackNumber }, {}, trx);
      if (doc.fulfilment && doc.reservationStatus.key === RESERVATION.reserved) await this.fulfilment.release(trx, scope.accountId, record.id, actorOf(scope));
      doc.status = STATUS.canceled;
      doc.statusHistory = [this.historyItem(STATUS.canceled, now), ...doc.statusHistory];
      if (doc.reservationStatus.key === RESERVATION.preorder || doc.reservationStatus.key === RESERVATION.reserved) doc.reservationStatus = { key: RESERVATION.cancelled, date: now };
      return { doc, extras: { journeyStep: -1 } };
    });
  }

  /**
   * Records the request as a task; `journey` (tracking's) may turn a simulated parcel back,
   * inside the same transaction, and says what to write to the row.
   */
  async requestReturn(scope: Scope, ids: number[], journey?: (record: OrderRecord, doc: OrderDoc, trx: Db) => Promise<RowExtras>): Promise<void> {
    const now = new Date().toISOString();
    await this.batch(scope, ids, 'return', async (record, doc, trx) => {
      doc.tasks = [...doc.tasks, { type: 'return', date: now, status: 'requested' }];
      return { doc, extras: journey ? await journey(record, doc, trx) : {} };
    });
  }

  /** Built-in companies grant the extension at once; it is recorded as a task either way. */
  async extendHold(scope: Scope, body: ExtendHoldBody): Promise<void> {
    const now = new Date().toISOString();
    const today = todayIn(scope.timeZone);
    await this.batch(scope, body.ids, 'extendHold', async (record, doc, trx) => {
      const driver = (await this.reference.registry.companyOf(scope.accountId, record.companyId))?.driver;
      // a company of its own asks over the wire (a job; tracking's); the built-in ones grant at once
      if (driver && driver.code !== 'tariff' && doc.trackNumber) {
        doc.tasks = [...doc.tasks, { type: 'extend-hold', date: now, status: 'requested', days: body.days }];
        await this.jobs.enqueue(scope.accountId, EXTEND_HOLD_JOB, { orderId: record.id, days: body.days, requestedAt: now }, {}, trx);
        return { doc };
      }
      doc.tasks = [...doc.tasks, { type: 'extend-hold', date: now, status: 'done', days: body.days }];
      extendPointHold(doc, body.days, today);
      return { doc };
    });
  }

  async pack(scope: Scope, ids: number[], packed: boolean): Promise<void> {
    await this.batch(scope, ids, packed ? 'pack' : 'unpack', (_record, doc) => {
      doc.isPacked = packed;
      return { doc };
    });
  }

  /**
   * PUT reservation: reserves the goods (2); while they are short the order waits as a
   * preorder (1), and a preorder still short is a 409. A confirmed order whose goods are now
   * reserved goes on to registration. reservation-cancel gives the goods back (3).
   */
  async reserve(scope: Scope, id: number, reserve: boolean): Promise<void> {
    const now = new Date().toISOString();
    const actor = actorOf(scope);
    const read = await this.accessible(scope, id);
    const readDoc = parseDoc(read.doc);
    const plan = reserve && readDoc.fulfilment ? await this.fulfilment.plan(scope, readDoc) : null;
    await this.store.transaction(async (trx) => {
      const record = (await this.store.getMany(scope.accountId, [id], trx, true)).get(id);
      if (!record) throw notFound('Order', id);
      if (record.version !== read.version) throw this.raced(id);
      const doc = parseDoc(record.doc);
      const refused = refusal(reserve ? 'reserve' : 'cancelReserve', stateOf(record, doc));
      if (refused) throw conflict('order_state', `Order ${id} cannot be ${reserve ? 'reserved' : 'released'}: ${refused}.`, [{ id, message: refused }]);
      if (!reserve) {
        await this.fulfilment.release(trx, scope.accountId, id, actor);
        doc.reservationStatus = { key: RESERVATION.cancelled, date: now };
      } else {
        const short = plan ? await this.fulfilment.reserve(trx, scope.accountId, id, plan, actor) : [];
        if (short.length > 0 && doc.reservationStatus.key === RESERVATION.preorder) {
          const message = `goods are still missing at the fulfilment warehouse (${describeShortage(short)})`;
          throw conflict('insufficient_stock', `Order ${id} cannot be reserved: ${message}.`, [{ id, message }]);
        }
        doc.reservationStatus = { key: short.length ? RESERVATION.preorder : RESERVATION.reserved, date: now };
        if (!short.length && record.status === STATUS.confirmed) await this.enqueueRegistration(scope.accountId, id, trx);
      }
      if (!(await this.store.update(scope.accountId, record, doc, {}, trx))) throw this.raced(id);
    });
    this.changed(scope.accountId);
  }

  /** Drafts of fulfilment shops lacking goods at their fulfilment warehouse (reserved ones lack nothing). */
  async checkRests(scope: Scope, ids: number[]): Promise<MissingProducts> {
    const unique = [...new Set(ids)];
    const records = await this.store.getMany(scope.accountId, unique);
    const failures = this.checkAll(scope, unique, records, () => null);
    if (failures) throw failures;
    const answer: MissingProducts = [];
    for (const id of unique) {
      const record = records.get(id) as OrderRecord;
      const doc = parseDoc(record.doc);
      if (refusal('checkRests', stateOf(record, doc)) || !doc.fulfilment || doc.reservationStatus.key === RESERVATION.reserved) continue;
      const missing = await this.fulfilment.shortages(scope, doc);
      if (missing.length) answer.push({ id, missingProducts: missing });
    }
    return answer;
  }

  /**
   * Goods arrived at a fulfilment warehouse: the preorders of the account's warehouses that
   * ask for it (`autoReserve`) are reserved, first come first served (by when they became
   * preorders). A preorder that still lacks goods keeps them from the later ones: those
   * needing any product it lacks wait behind it. Answers the ids reserved.
   */
  async autoReserve(accountId: number, warehouseIds: number[]): Promise<number[]> {
    const scope = processScope(accountId);
    const actor: StockActor = { actor: 'process:fulfilment.auto-reserve', employeeId: null };
    const preorders = (await this.store.preorders(accountId, warehouseIds, 1000))
      .map((record) => ({ record, doc: parseDoc(record.doc) }))
      .sort((a, b) => (a.doc.reservationStatus.date ?? '').localeCompare(b.doc.reservationStatus.date ?? '') || a.record.id - b.record.id);
    const waiting = new Set<number>();
    const reserved: number[] = [];
    for (const { record: first, doc: firstDoc } of preorders) {
      if (firstDoc.products.some((line) => line.id !== null && waiting.has(line.id))) continue;
      const now = new Date().toISOString();
      const plan = await this.fulfilment.plan(scope, firstDoc);
      const short = await this.store.transaction(async (trx) => {
        const record = (await this.store.getMany(accountId, [first.id], trx, true)).get(first.id);
        if (!record || record.version !== first.version) return [];
        const doc = parseDoc(record.doc);
        if (doc.reservationStatus.key !== RESERVATION.preorder || !doc.fulfilment || (record.status !== STATUS.draft && record.status !== STATUS.confirmed)) return [];
        const lacking = await this.fulfilment.reserve(trx, accountId, record.id, plan, actor);
        if (lacking.length) {
          await this.store.recordEvents(accountId, record, [{ type: 'fulfilment.goods_missing', statusFrom: record.status, statusTo: record.status, payload: { cmsId: doc.cmsId, trackNumber: doc.trackNumber, description: `Goods arrived, but not enough: ${describeShortage(lacking)}` } }], trx);
          return lacking;
        }
        doc.reservationStatus = { key: RESERVATION.reserved, date: now };
        if (record.status === STATUS.confirmed) await this.enqueueRegistration(accountId, record.id, trx);
        if (!(await this.store.update(accountId, record, doc, { autoReserved: true }, trx))) throw this.raced(record.id);
        reserved.push(record.id);
        return [];
      });
      for (const item of short) if (item.id !== null) waiting.add(item.id);
    }
    if (reserved.length) this.changed(accountId);
    return reserved;
  }

  /**
   * Writes a status the company reported; for a fulfilment order the goods move with it in
   * the same transaction (handover ships them, a return back at the warehouse restocks them).
   * False when the order changed meanwhile.
   */
  /** Orders a pickup collects (orders/store.ts readyForPickup), as answered. */
  async readyForPickup(accountId: number, filter: Parameters<OrderStore['readyForPickup']>[1], limit: number): Promise<Array<OrderDoc & { id: number }>> {
    return (await this.store.readyForPickup(accountId, filter, limit)).map((record) => ({ id: record.id, ...parseDoc(record.doc) }));
  }

  /** Orders of the account by id, as answered (a pickup's collected ones); missing ids are left out. */
  async byIds(accountId: number, ids: number[]): Promise<Array<OrderDoc & { id: number }>> {
    const records = await this.store.getMany(accountId, ids);
    return ids.flatMap((id) => {
      const record = records.get(id);
      return record ? [{ id, ...parseDoc(record.doc) }] : [];
    });
  }

  async writeCarrierStatus(record: OrderRecord, doc: OrderDoc, extras: RowExtras, followUp?: (trx: Db) => Promise<void>): Promise<boolean> {
    const move = doc.fulfilment ? stockMoveOf(record.status, doc.status) : null;
    if (!move && !followUp) return this.store.update(record.accountId, record, doc, extras);
    const actor: StockActor = { actor: `process:company-${record.companyId}`, employeeId: null };
    return this.store.transaction(async (trx) => {
      if (!(await this.store.update(record.accountId, record, doc, extras, trx))) return false;
      if (move === 'ship') await this.fulfilment.ship(trx, record.accountId, record.id, actor);
      else if (move) await this.fulfilment.receiveReturn(trx, record.accountId, record.id, actor);
      // the jobs the status implies commit with it (an outbox): never a status without its next step
      await followUp?.(trx);
      return true;
    });
  }

  /** New drafts with the same content (or in the opposite direction); all or nothing. */
  async duplicate(scope: Scope, ids: number[], back: boolean): Promise<Array<{ id: number; newId: number }>> {
    const unique = [...new Set(ids)];
    const records = await this.store.getMany(scope.accountId, unique);
    const failures = this.checkAll(scope, unique, records, () => null);
    if (failures) throw failures;
    const docs: Array<{ id: number; doc: OrderDoc }> = [];
    for (const id of unique) {
      const source = parseDoc((records.get(id) as OrderRecord).doc);
      const input = back ? reversedInputOf(source) : inputOf(source);
      const history = [this.historyItem(STATUS.draft, new Date().toISOString(), `${back ? 'Return copy' : 'Copy'} of order ${id}`)];
      try {
        docs.push({ id, doc: await this.compose(scope, input, input.shopId ? String(input.shopId) : undefined, history, true) });
      } catch (error) {
        if (error instanceof AppError && error.statusCode < 500) throw conflict('order_state', `Order ${id} cannot be copied: ${error.message}`, [{ id, message: error.message }]);
        throw error;
      }
    }
    const created = await this.store.transaction(async (trx) => {
      const result: Array<{ id: number; newId: number }> = [];
      for (const { id, doc } of docs) result.push({ id, newId: await this.store.insert(scope.accountId, doc, {}, trx) });
      return result;
    });
    this.changed(scope.accountId);
    return created;
  }

  // ---------------------------------------------------------------- helpers

  /** The order's record if the caller may see it: 404 for another account's, 403 for another shop's (shop key). */
  accessibleRecord(scope: Scope, id: number): Promise<OrderRecord> {
    return this.accessible(scope, id);
  }

  private async accessible(scope: Scope, id: number): Promise<OrderRecord> {
    const record = await this.store.get(scope.accountId, id);
    if (!record) throw notFound('Order', id);
    if (scope.shopKeyShopId !== null && record.shopId !== scope.shopKeyShopId) throw forbidden(`This API key belongs to shop ${scope.shopKeyShopId}; order ${id} is not one of its orders.`);
    return record;
  }

  private raced(id: number): AppError {
    return conflict('order_changed', `Order ${id} was changed by another request at the same time; read it again and retry.`, [{ id, message: 'changed concurrently' }]);
  }

  /** Every write to an account's orders: cached pages and counts are no longer valid. */
  changed(accountId: number): void {
    this.cache.invalidate(accountId, CACHE_TOPIC);
  }
}
