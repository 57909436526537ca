/**
 * The return parcels' statuses move their returns: a consumer of the events outbox (like the
 * buyers' messages and the webhooks) reads every `order.status_changed`, finds the returns whose
 * parcel it is, and in the transaction that moves its position writes the return's step and its
 * `return.*` event. Handed over to the company → in_transit; delivered to the shop → received
 * (and the warehouse hears of it: onReturnParcelArrived).
 */
import { fromJson } from '../../platform/db/values.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import type { Tables } from '../../platform/db/tables.js';
import type { Transaction } from 'kysely';
import type { EventService } from '../events/service.js';
import type { AccountEvent } from '../events/types.js';
import type { OrderService } from '../orders/service.js';
import type { ReturnLine } from './rules.js';
import type { Delivered, ReturnService } from './service.js';
import type { ReturnRow, ReturnStore } from './store.js';

export const RETURNS_CONSUMER = 'returns';
export const RETURNS_DISPATCH_JOB = 'returns.parcels';
const BATCH = 500;

/** The parcel is with the company (collected, at its sorting, on its way, at the shop's point). */
const ON_ITS_WAY: readonly number[] = [14, 15, 31, 32, 41, 411, 412, 42, 43, 46];
/** The parcel reached the shop. */
const ARRIVED: readonly number[] = [44, 47];

interface PlannedMove {
  row: ReturnRow;
  to: 'in_transit' | 'received';
  order: Delivered | null;
}

export class ReturnParcels {
  constructor(
    private readonly store: ReturnStore,
    private readonly returns: ReturnService,
    private readonly orders: OrderService,
    private readonly events: EventService,
    private readonly jobs: JobQueue,
    private readonly options: { dispatchSeconds: number },
  ) {}

  registerJobs(worker: JobWorker): void {
    worker.register(RETURNS_DISPATCH_JOB, async () => {
      try {
        await this.dispatch();
      } finally {
        await this.scheduleDispatch(new Date(Date.now() + this.options.dispatchSeconds * 1000));
      }
    });
  }

  async scheduleDispatch(at = new Date()): Promise<void> {
    if (this.options.dispatchSeconds <= 0) return;
    const slot = Math.floor(at.getTime() / (this.options.dispatchSeconds * 1000));
    await this.jobs.enqueue(
      null,
      RETURNS_DISPATCH_JOB,
      {},
      { runAt: at, uniqueKey: `returns-parcels:${slot}`, maxAttempts: 1 },
    );
  }

  /** Moves the returns of every parcel status not handled yet; the number of events read. */
  async dispatch(): Promise<number> {
    const touched = new Set<number>();
    const read = await this.events.consume(
      RETURNS_CONSUMER,
      BATCH,
      (events) => this.plan(events),
      async (moves, trx) => {
        for (const move of moves) await this.apply(move, trx);
        for (const move of moves) touched.add(Number(move.row.account_id));
      },
    );
    // once committed: the accounts' remembered lists of returns are stale
    for (const accountId of touched) this.returns.changed(accountId);
    return read;
  }

  private async plan(events: AccountEvent[]): Promise<PlannedMove[]> {
    const moves: PlannedMove[] = [];
    for (const event of events) {
      if (event.type !== 'order.status_changed' || event.statusTo === null) continue;
      const to = ARRIVED.includes(event.statusTo)
        ? 'received'
        : ON_ITS_WAY.includes(event.statusTo)
          ? 'in_transit'
          : null;
      if (!to) continue;
      const row = await this.store.byParcel(event.accountId, event.orderId);
      if (!row) continue;
      // an earlier event of the batch moved it already: plan from where it will be
      const planned = moves.filter((move) => Number(move.row.id) === Number(row.id)).at(-1);
      const current = planned ? { ...row, status: planned.to } : row;
      const order = await this.orders.returnParcels.recordOf(event.accountId, Number(row.order_id));
      moves.push({ row: current, to, order });
    }
    return moves;
  }

  private async apply(move: PlannedMove, trx: Transaction<Tables>): Promise<void> {
    // a parcel delivered without an "on its way" status seen (a company that reports only the end) passes through it
    if (move.to === 'received' && move.row.status === 'approved') {
      await this.returns.parcelMoved(trx, move.row, move.order, 'in_transit');
      move.row = { ...move.row, status: 'in_transit' };
    }
    if (!(await this.returns.parcelMoved(trx, move.row, move.order, move.to))) return;
    if (move.to === 'received') await this.onReturnParcelArrived(move, trx);
  }

  /**
   * A return parcel reached the shop. At a fulfilment warehouse its goods go to the warehouse's
   * inspection queue (back on the shelf, to defects, or written off, once; the fulfilment area's
   * return-inspections.ts), keyed by the parcel; goods not of the catalogue are not inspected.
   */
  async onReturnParcelArrived(move: PlannedMove, trx: Transaction<Tables>): Promise<void> {
    if (!move.order?.fulfilment || move.row.parcel_order_id === null) return;
    const lines = fromJson<ReturnLine[]>(move.row.lines).flatMap((line) =>
      line.productId === null ? [] : [{ productId: line.productId, count: line.count }],
    );
    await this.orders.returnParcels.toInspection(trx, {
      accountId: Number(move.row.account_id),
      parcelOrderId: Number(move.row.parcel_order_id),
      goodsOrderId: Number(move.row.order_id),
      returnId: Number(move.row.id),
      lines,
    });
  }
}
