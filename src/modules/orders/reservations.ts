/**
 * The goods of fulfilment orders: PUT reservation and its cancel, check-rests, the preorders
 * reserved when goods arrive (first come first served), the plans confirm reserves with, and
 * the events that tell a shop its orders lack goods. Apart from service.ts because it is the
 * one use case that moves stock (through the fulfilment area's port); OrderService builds it
 * from its own dependencies, answers for it, and drops the cached lists after its writes.
 */
import { processScope, type Scope } from '../../platform/auth.js';
import { conflict, notFound } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs.js';
import { parseDoc } from './document.js';
import {
  actorOf,
  type GoodsShortage,
  type OrderFulfilment,
  type ReservationPlan,
  type StockActor,
} from './fulfilment-port.js';
import { queueRegistration } from './order-jobs.js';
import { accessibleOrder, checkAll, raced, stateOf } from './refusals.js';
import type { MissingProducts } from './schemas.js';
import { RESERVATION, refusal, STATUS } from './state.js';
import type { Db, OrderRecord, OrderStore } from './store.js';

/** "TSHIRT-RED: 1 of 3 available; BOOK-1: 0 of 2 available" */
export function describeShortage(short: GoodsShortage[]): string {
  return short
    .map(
      (item) =>
        `${item.vendorCode ?? item.name ?? `product ${item.id}`}: ${item.restCount} of ${item.restCount + item.missingCount} available`,
    )
    .join('; ');
}

/** The event telling a shop its order lacks goods at the fulfilment warehouse (orderProductsNotAvailableInFulfilment). */
function goodsMissingEvent(
  record: { status: number },
  doc: { cmsId: string | null; trackNumber: string | null },
  description: string,
) {
  return {
    type: 'fulfilment.goods_missing' as const,
    statusFrom: record.status,
    statusTo: record.status,
    payload: { cmsId: doc.cmsId, trackNumber: doc.trackNumber, description },
  };
}

export class OrderReservations {
  constructor(
    private readonly store: OrderStore,
    private readonly jobs: JobQueue,
    private readonly fulfilment: OrderFulfilment,
  ) {}

  /** Tells the shops which orders lack goods, in an event of each (orderProductsNotAvailableInFulfilment). */
  async goodsMissing(accountId: number, missing: Map<number, string>, db?: Db): Promise<void> {
    if (missing.size === 0) return;
    const records = await this.store.getMany(accountId, [...missing.keys()], db);
    for (const record of records.values()) {
      const doc = parseDoc(record.doc);
      await this.store.recordEvents(
        accountId,
        record,
        [goodsMissingEvent(record, doc, `Goods are missing at the fulfilment warehouse: ${missing.get(record.id)}`)],
        db,
      );
    }
  }

  /** Reservation plans of the fulfilment orders among `ids`, made before their transaction, with the version they were made from. */
  async plansFor(scope: Scope, ids: number[]): Promise<Map<number, { version: number; plan: ReservationPlan }>> {
    const plans = new Map<number, { version: number; plan: ReservationPlan }>();
    for (const record of (await this.store.getMany(scope.accountId, ids)).values()) {
      const doc = parseDoc(record.doc);
      if (doc.fulfilment)
        plans.set(record.id, { version: record.version, plan: await this.fulfilment.plan(scope, doc) });
    }
    return plans;
  }

  /**
   * PUT reservation: reserves the goods (2); while they are short the order waits as a
   * preorder (1), and a preorder still short is a 409. A confirmed order whose goods are now
   * reserved goes on to registration. reservation-cancel gives the goods back (3).
   */
  async reserve(scope: Scope, id: number, reserve: boolean): Promise<void> {
    const now = new Date().toISOString();
    const actor = actorOf(scope);
    const read = await accessibleOrder(this.store, scope, id);
    const readDoc = parseDoc(read.doc);
    const plan = reserve && readDoc.fulfilment ? await this.fulfilment.plan(scope, readDoc) : null;
    await this.store.transaction(async (trx) => {
      const record = (await this.store.getMany(scope.accountId, [id], trx, true)).get(id);
      if (!record) throw notFound('Order', id);
      if (record.version !== read.version) throw raced(id);
      const doc = parseDoc(record.doc);
      const refused = refusal(reserve ? 'reserve' : 'cancelReserve', stateOf(record, doc));
      if (refused)
        throw conflict('order_state', `Order ${id} cannot be ${reserve ? 'reserved' : 'released'}: ${refused}.`, [
          { id, message: refused },
        ]);
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
        if (!short.length && record.status === STATUS.confirmed)
          await queueRegistration(this.jobs, scope.accountId, id, trx);
      }
      if (!(await this.store.update(scope.accountId, record, doc, {}, trx))) throw raced(id);
    });
  }

  /** Drafts of fulfilment shops lacking goods at their fulfilment warehouse (reserved ones lack nothing). */
  async checkRests(scope: Scope, ids: number[]): Promise<MissingProducts> {
    const unique = [...new Set(ids)];
    const records = await this.store.getMany(scope.accountId, unique);
    const failures = checkAll(scope, unique, records, () => null);
    if (failures) throw failures;
    const answer: MissingProducts = [];
    for (const id of unique) {
      const record = records.get(id) as OrderRecord;
      const doc = parseDoc(record.doc);
      if (
        refusal('checkRests', stateOf(record, doc)) ||
        !doc.fulfilment ||
        doc.reservationStatus.key === RESERVATION.reserved
      )
        continue;
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
      .sort(
        (a, b) =>
          (a.doc.reservationStatus.date ?? '').localeCompare(b.doc.reservationStatus.date ?? '') ||
          a.record.id - b.record.id,
      );
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
        if (
          doc.reservationStatus.key !== RESERVATION.preorder ||
          !doc.fulfilment ||
          (record.status !== STATUS.draft && record.status !== STATUS.confirmed)
        )
          return [];
        const lacking = await this.fulfilment.reserve(trx, accountId, record.id, plan, actor);
        if (lacking.length) {
          await this.store.recordEvents(
            accountId,
            record,
            [goodsMissingEvent(record, doc, `Goods arrived, but not enough: ${describeShortage(lacking)}`)],
            trx,
          );
          return lacking;
        }
        doc.reservationStatus = { key: RESERVATION.reserved, date: now };
        if (record.status === STATUS.confirmed) await queueRegistration(this.jobs, accountId, record.id, trx);
        if (!(await this.store.update(accountId, record, doc, { autoReserved: true }, trx))) throw raced(record.id);
        reserved.push(record.id);
        return [];
      });
      for (const item of short) if (item.id !== null) waiting.add(item.id);
    }
    return reserved;
  }
}
