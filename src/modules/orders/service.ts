/**
 * Orders: create, change, and every batch operation of the contract. The list side is
 * list-read-model.ts, making and pricing an order's document is composer.ts, the goods of
 * fulfilment orders are reservations.ts, the carrier follow-up is tracking.ts. The rules of
 * state live in state.ts; this file applies them, all or nothing, and refuses as refusals.ts says.
 */
import type { Scope } from '../../platform/auth.js';
import type { AccountReadCache } from '../../platform/cache.js';
import type { JsonBody } from '../../platform/compression.js';
import { todayIn } from '../../platform/clock.js';
import { AppError, conflict, FieldErrorCollector, type ErrorCode, type ErrorItem } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { Paging } from '../../platform/paging.js';
import type { CalculatorService } from '../calculator/service.js';
import type { ReferenceData } from '../companies/reference.js';
import type { OrderStatusDirectory } from '../lists/order-statuses.js';
import type { ProductService } from '../products/service.js';
import type { ShopService } from '../shops/service.js';
import { extendPointHold, inputOf, parseDoc, reversedInputOf, withId, type OrderDoc } from './document.js';
import type {
  ConfirmBody,
  ExtendHoldBody,
  MissingProducts,
  OrderInput,
  OrderListQuery,
  OrderPatch,
  StatusHistoryItem,
} from './schemas.js';
import { actorOf, NO_FULFILMENT, type OrderFulfilment, type StockActor } from './fulfilment-port.js';
import { afterConfirm, afterUpdate, RESERVATION, refusal, STATUS, stockMoveOf, type Operation } from './state.js';
import type { Db, OrderRecord, OrderStore, RowExtras } from './store.js';
import { describeOrderChange, type OrderChange } from './list-directories.js';
import { OrderListReadModel, ORDERS_CACHE_TOPIC, type ReportOrderFilter } from './list-read-model.js';
import type { AddressChecker } from './recipient-address.js';
import { NO_OWN_METHODS, OrderComposer, type OwnMethodLookup, type ShopHeader } from './composer.js';
import { CARRIER_CANCEL_JOB, EXTEND_HOLD_JOB, queueRegistration } from './order-jobs.js';
import { accessibleOrder, checkAll, raced, stateOf } from './refusals.js';
import { describeShortage, OrderReservations } from './reservations.js';
import { ReturnParcelOrders } from './return-parcels.js';

export type { ReturnParcelSpec } from './return-parcels.js';

export type { ReportOrderFilter } from './list-read-model.js';

export type { OwnMethodLookup, ShopHeader } from './composer.js';

/** Whether an order travels by an own delivery method of its account (its company id is the string of convention 12). */
export function isOwnMethodOrder(doc: Pick<OrderDoc, 'delivery'>): boolean {
  return typeof doc.delivery.company.id === 'string';
}

/** Our track number of an order an own delivery method carries: the shop delivers it, no company gives one. */
export function ownTrackNumber(accountId: number, orderId: number): string {
  return `OWN-${accountId}-${orderId}`;
}

const CACHE_TOPIC = ORDERS_CACHE_TOPIC;
/** Kept here for the callers of before the split. */
export { CARRIER_CANCEL_JOB, EXTEND_HOLD_JOB, REGISTER_JOB } from './order-jobs.js';
export { describeShortage } from './reservations.js';

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
    addresses: AddressChecker | null = null,
  ) {
    this.reads = new OrderListReadModel(store, cache);
    this.composer = new OrderComposer(shops, products, calculator, reference, ownMethods, addresses);
    this.reservations = new OrderReservations(store, jobs, fulfilment);
    this.returnParcels = new ReturnParcelOrders(store, this.composer, jobs, fulfilment, (code, at, description) =>
      this.historyItem(code, at, description),
    );
  }

  /** The parcels of buyers' returns (modules/returns): orders in the reverse direction (return-parcels.ts). */
  readonly returnParcels: ReturnParcelOrders;

  /** The create side: a request made into a priced document. */
  private readonly composer: OrderComposer;

  /** The list side: pages, totals and report scans. */
  private readonly reads: OrderListReadModel;

  /** The goods of fulfilment orders: reservations, check-rests, preorders reserved when goods arrive. */
  private readonly reservations: OrderReservations;

  historyItem(code: number, at: string, description: string | null = null): StatusHistoryItem {
    return { code, name: this.statuses.name(code, 'ru'), date: at, description };
  }

  // ---------------------------------------------------------------- reads

  /** The order as answered (JSON text). */
  async getText(scope: Scope, id: number): Promise<Buffer> {
    const record = await accessibleOrder(this.store, scope, id);
    return withId(record.id, record.doc);
  }

  async get(scope: Scope, id: number): Promise<OrderDoc & { id: number }> {
    const record = await accessibleOrder(this.store, scope, id);
    return { id: record.id, ...parseDoc(record.doc) };
  }

  /** A page of orders as JSON bytes, and the total (list-read-model.ts). */
  list(
    scope: Scope,
    query: OrderListQuery,
    paging: Paging,
    wantsPlain = false,
  ): Promise<{ json: JsonBody; total: number }> {
    return this.reads.list(scope, query, paging, wantsPlain);
  }

  /** Orders for reports in keyset pages (list-read-model.ts). */
  scanForReport(
    accountId: number,
    filter: ReportOrderFilter,
    pageSize = 1000,
  ): AsyncGenerator<OrderDoc & { id: number }> {
    return this.reads.scanForReport(accountId, filter, pageSize);
  }

  /** How many orders `scanForReport` would read (list-read-model.ts). */
  countForReport(accountId: number, filter: ReportOrderFilter): Promise<number> {
    return this.reads.countForReport(accountId, filter);
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
  async markDocuments(
    scope: Scope,
    ids: number[],
    marks: { stickerFormed?: boolean; wasInAct?: boolean },
  ): Promise<void> {
    await this.store.transaction(async (trx) => {
      const records = await this.store.getMany(scope.accountId, ids, trx, true);
      for (const record of records.values()) {
        if (scope.shopKeyShopId !== null && record.shopId !== scope.shopKeyShopId) continue;
        const doc = parseDoc(record.doc);
        if (marks.stickerFormed !== undefined) doc.stickerFormed = marks.stickerFormed;
        if (marks.wasInAct !== undefined) doc.wasInAct = marks.wasInAct;
        if (!(await this.store.update(scope.accountId, record, doc, {}, trx))) throw raced(record.id);
      }
    });
    this.changed(scope.accountId, { ids });
  }

  // ---------------------------------------------------------------- create and change

  async create(scope: Scope, input: OrderInput, shopHeader: ShopHeader): Promise<number> {
    const doc = await this.composer.compose(scope, input, shopHeader, [
      this.historyItem(STATUS.draft, new Date().toISOString()),
    ]);
    // outside a transaction: on SQLite it joins the orders written with it (a group of the writer thread)
    const id = await this.store.insert(scope.accountId, doc);
    this.changed(scope.accountId, { created: true });
    return id;
  }

  async replace(scope: Scope, id: number, input: OrderInput, shopHeader: ShopHeader): Promise<void> {
    const record = await accessibleOrder(this.store, scope, id);
    const current = parseDoc(record.doc);
    const refused = refusal('update', stateOf(record, current));
    if (refused)
      throw conflict('order_state', `Order ${id} cannot be changed: ${refused}.`, [{ id, message: refused }]);
    const now = new Date().toISOString();
    const status = afterUpdate(record.status);
    const history =
      status === record.status
        ? current.statusHistory
        : [this.historyItem(status, now, 'Changed by the sender'), ...current.statusHistory];
    const header = input.shopId
      ? undefined
      : current.shopId !== null && scope.shopKeyShopId === null && shopHeader === undefined
        ? String(current.shopId)
        : shopHeader;
    const doc = await this.composer.compose(scope, input, header, history);
    const next: OrderDoc = {
      ...doc,
      creationDate: current.creationDate,
      tasks: current.tasks,
      isPacked: current.isPacked,
      reservationStatus: current.reservationStatus,
    };
    if (!(await this.store.update(scope.accountId, record, next))) throw raced(id);
    this.changed(scope.accountId, { ids: [id] });
  }

  async patch(scope: Scope, id: number, patch: OrderPatch): Promise<void> {
    const record = await accessibleOrder(this.store, scope, id);
    const doc = parseDoc(record.doc);
    const refused = refusal('patch', stateOf(record, doc));
    if (refused)
      throw conflict('order_state', `Order ${id} cannot be changed: ${refused}.`, [{ id, message: refused }]);
    if (patch.recipient) {
      const { legalEntity, ...contact } = patch.recipient;
      for (const [key, value] of Object.entries(contact))
        if (value !== undefined)
          (doc.recipient as Record<string, unknown>)[key] = typeof value === 'string' ? value.trim() : value;
      if (legalEntity === null) doc.recipient.legalEntity = { name: null, TIN: null };
      else if (legalEntity)
        doc.recipient.legalEntity = {
          name: legalEntity.name !== undefined ? legalEntity.name : doc.recipient.legalEntity.name,
          TIN: legalEntity.TIN !== undefined ? legalEntity.TIN : doc.recipient.legalEntity.TIN,
        };
    }
    const problems = new FieldErrorCollector();
    if (!doc.recipient.fullName) problems.add('recipient.fullName', 'must not be empty');
    if (!doc.recipient.phone) problems.add('recipient.phone', 'must not be empty');
    problems.throwIfAny();
    for (const key of ['cmsId', 'comment', 'commentForAssembly', 'documentsForWarehouse'] as const)
      if (patch[key] !== undefined) doc[key] = patch[key] ?? null;
    if (!(await this.store.update(scope.accountId, record, doc))) throw raced(id);
    this.changed(scope.accountId, { ids: [id] });
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
      const failures = checkAll(scope, unique, records, (record, doc) =>
        refusal(operation, stateOf(record, doc), options),
      );
      if (failures) throw failures;
      const refused: Array<ErrorItem & { code: ErrorCode }> = [];
      for (const id of unique) {
        const record = records.get(id) as OrderRecord;
        const change = await apply(record, parseDoc(record.doc), trx);
        if ('refused' in change) {
          refused.push({ id, message: `Order ${id}: ${change.refused}.`, code: change.code });
          continue;
        }
        if (!(await this.store.update(scope.accountId, record, change.doc, change.extras ?? {}, trx))) throw raced(id);
      }
      // the transaction rolls back: what the other ids reserved meanwhile is given back too
      if (refused.length) {
        const summary = `${refused.length} of ${unique.length} order${unique.length > 1 ? 's' : ''} cannot be processed; nothing was changed. ${refused[0].message}`;
        throw conflict(
          refused[0].code,
          summary,
          refused.map(({ id, message }) => ({ id, message })),
        );
      }
    });
    this.changed(scope.accountId, { ids: unique });
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
    const plans = await this.reservations.plansFor(scope, body.ids);
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
            if (!plan || plan.version !== record.version) throw raced(record.id);
            const short = await this.fulfilment.reserve(trx, scope.accountId, record.id, plan.plan, actor);
            if (short.length === 0) reservation = RESERVATION.reserved;
            else if (asPreorder) reservation = RESERVATION.preorder;
            else {
              missing.set(record.id, describeShortage(short));
              return {
                refused: `goods are missing at the fulfilment warehouse (${describeShortage(short)}); confirm it as a preorder (preOrder) to wait for them`,
                code: 'insufficient_stock',
              };
            }
          } else if (!doc.fulfilment) reservation = afterConfirm(preOrder).reservationStatus;
          doc.status = STATUS.confirmed;
          doc.statusHistory = [
            this.historyItem(
              STATUS.confirmed,
              now,
              reservation === RESERVATION.preorder ? 'Confirmed as a preorder' : null,
            ),
            ...doc.statusHistory,
          ];
          if (reservation !== null && reservation !== doc.reservationStatus.key)
            doc.reservationStatus = { key: reservation, date: now };
          // a preorder is registered once its goods are reserved; an own method's order has no company to register with
          if (doc.reservationStatus.key !== RESERVATION.preorder) {
            if (isOwnMethodOrder(doc)) this.readyForOwnDelivery(scope.accountId, record.id, doc, now);
            else await queueRegistration(this.jobs, scope.accountId, record.id, trx);
          }
          return { doc };
        },
        { preOrder },
      );
    } catch (error) {
      // the batch rolled back, but the shops are told which orders lack goods (orderProductsNotAvailableInFulfilment)
      if (error instanceof AppError && error.code === 'insufficient_stock')
        await this.reservations.goodsMissing(scope.accountId, missing);
      throw error;
    }
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
    doc.statusHistory = [
      this.historyItem(STATUS.prepared, at, 'Ready: the shop delivers it with its own delivery method'),
      ...doc.statusHistory,
    ];
  }

  async cancel(scope: Scope, ids: number[]): Promise<void> {
    const now = new Date().toISOString();
    await this.batch(scope, ids, 'cancel', async (record, doc, trx) => {
      if (doc.trackNumber)
        await this.jobs.enqueue(
          scope.accountId,
          CARRIER_CANCEL_JOB,
          { orderId: record.id, companyId: record.companyId, trackNumber: doc.trackNumber },
          {},
          trx,
        );
      if (doc.fulfilment && doc.reservationStatus.key === RESERVATION.reserved)
        await this.fulfilment.release(trx, scope.accountId, record.id, actorOf(scope));
      doc.status = STATUS.canceled;
      doc.statusHistory = [this.historyItem(STATUS.canceled, now), ...doc.statusHistory];
      if (doc.reservationStatus.key === RESERVATION.preorder || doc.reservationStatus.key === RESERVATION.reserved)
        doc.reservationStatus = { key: RESERVATION.cancelled, date: now };
      return { doc, extras: { journeyStep: -1 } };
    });
  }

  /**
   * Records the request as a task; `journey` (tracking's) may turn a simulated parcel back,
   * inside the same transaction, and says what to write to the row.
   */
  async requestReturn(
    scope: Scope,
    ids: number[],
    journey?: (record: OrderRecord, doc: OrderDoc, trx: Db) => Promise<RowExtras>,
  ): Promise<void> {
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
        await this.jobs.enqueue(
          scope.accountId,
          EXTEND_HOLD_JOB,
          { orderId: record.id, days: body.days, requestedAt: now },
          {},
          trx,
        );
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
   * preorder (1), and a preorder still short is a 409 (reservations.ts).
   */
  async reserve(scope: Scope, id: number, reserve: boolean): Promise<void> {
    await this.reservations.reserve(scope, id, reserve);
    this.changed(scope.accountId, { ids: [id] });
  }

  /** Drafts of fulfilment shops lacking goods at their fulfilment warehouse (reservations.ts). */
  checkRests(scope: Scope, ids: number[]): Promise<MissingProducts> {
    return this.reservations.checkRests(scope, ids);
  }

  /** Goods arrived at a fulfilment warehouse: its waiting preorders reserved (reservations.ts). Answers the ids reserved. */
  async autoReserve(accountId: number, warehouseIds: number[]): Promise<number[]> {
    const reserved = await this.reservations.autoReserve(accountId, warehouseIds);
    if (reserved.length) this.changed(accountId, { ids: reserved });
    return reserved;
  }

  /** Orders a pickup collects (orders/store.ts readyForPickup), as answered. */
  async readyForPickup(
    accountId: number,
    filter: Parameters<OrderStore['readyForPickup']>[1],
    limit: number,
  ): Promise<Array<OrderDoc & { id: number }>> {
    return (await this.store.readyForPickup(accountId, filter, limit)).map((record) => ({
      id: record.id,
      ...parseDoc(record.doc),
    }));
  }

  /** Orders of the account by id, as answered (a pickup's collected ones); missing ids are left out. */
  async byIds(accountId: number, ids: number[]): Promise<Array<OrderDoc & { id: number }>> {
    const records = await this.store.getMany(accountId, ids);
    return ids.flatMap((id) => {
      const record = records.get(id);
      return record ? [{ id, ...parseDoc(record.doc) }] : [];
    });
  }

  /**
   * Writes a status the company reported; for a fulfilment order the goods move with it in
   * the same transaction (handover ships them, a return back at the warehouse joins the inspection queue).
   * False when the order changed meanwhile.
   */
  async writeCarrierStatus(
    record: OrderRecord,
    doc: OrderDoc,
    extras: RowExtras,
    followUp?: (trx: Db) => Promise<void>,
  ): Promise<boolean> {
    const move = doc.fulfilment ? stockMoveOf(record.status, doc.status) : null;
    if (!move && !followUp) return this.store.update(record.accountId, record, doc, extras);
    const actor: StockActor = { actor: `process:company-${record.companyId}`, employeeId: null };
    return this.store.transaction(async (trx) => {
      if (!(await this.store.update(record.accountId, record, doc, extras, trx))) return false;
      if (move === 'ship') await this.fulfilment.ship(trx, record.accountId, record.id, actor);
      else if (move) await this.fulfilment.receiveReturn(trx, record.accountId, record.id, actor, doc);
      // the jobs the status implies commit with it (an outbox): never a status without its next step
      await followUp?.(trx);
      return true;
    });
  }

  /** New drafts with the same content (or in the opposite direction); all or nothing. */
  async duplicate(scope: Scope, ids: number[], back: boolean): Promise<Array<{ id: number; newId: number }>> {
    const unique = [...new Set(ids)];
    const records = await this.store.getMany(scope.accountId, unique);
    const failures = checkAll(scope, unique, records, () => null);
    if (failures) throw failures;
    const docs: Array<{ id: number; doc: OrderDoc }> = [];
    for (const id of unique) {
      const source = parseDoc((records.get(id) as OrderRecord).doc);
      const input = back ? reversedInputOf(source) : inputOf(source);
      const history = [
        this.historyItem(STATUS.draft, new Date().toISOString(), `${back ? 'Return copy' : 'Copy'} of order ${id}`),
      ];
      try {
        docs.push({
          id,
          doc: await this.composer.compose(
            scope,
            input,
            input.shopId ? String(input.shopId) : undefined,
            history,
            true,
          ),
        });
      } catch (error) {
        if (error instanceof AppError && error.statusCode < 500)
          throw conflict('order_state', `Order ${id} cannot be copied: ${error.message}`, [
            { id, message: error.message },
          ]);
        throw error;
      }
    }
    const created = await this.store.transaction(async (trx) => {
      const result: Array<{ id: number; newId: number }> = [];
      for (const { id, doc } of docs)
        result.push({ id, newId: await this.store.insert(scope.accountId, doc, {}, trx) });
      return result;
    });
    this.changed(scope.accountId, { created: true });
    return created;
  }

  // ---------------------------------------------------------------- helpers

  /** The order's record if the caller may see it: 404 for another account's, 403 for another shop's (shop key). */
  accessibleRecord(scope: Scope, id: number): Promise<OrderRecord> {
    return accessibleOrder(this.store, scope, id);
  }

  /**
   * Every write to an account's orders, once it is committed: cached pages and counts are no
   * longer valid. `change` says which orders were written (the lists' directories then count
   * only their blocks again); without it every list is walked again.
   */
  changed(accountId: number, change?: OrderChange): void {
    this.cache.invalidate(accountId, CACHE_TOPIC, change ? describeOrderChange(change) : undefined);
  }
}
