/** SQL of pickups, always scoped by account (the jobs read one by its account and id). */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, nowIso, toJson, isUniqueViolation } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';
import { outboxRows, withinTransaction, writeOrderEvents } from '../events/outbox.js';
import { PICKUP_STATUS, type PickupStatusItem } from './schemas.js';

export interface PickupRecord {
  id: number;
  accountId: number;
  warehouseId: number;
  companyId: number;
  type: 3 | 4;
  date: string;
  status: number;
  statusHistory: PickupStatusItem[];
  number: string | null;
  timeFrom: string | null;
  timeTo: string | null;
  weightGrams: number;
  comment: string | null;
  error: string | null;
  file: string | null;
  actOrders: number[] | null;
  /** Frozen when the pickup ended; null while current. */
  orderIds: number[] | null;
  /** Fixed when it was Done; null before. */
  priceKopecks: number | null;
  doneAt: string | null;
}

export type NewPickup = Pick<
  PickupRecord,
  'warehouseId' | 'companyId' | 'type' | 'date' | 'status' | 'statusHistory' | 'weightGrams' | 'comment'
>;

/** What a move of status may set beside it. */
export type PickupChange = Partial<
  Pick<PickupRecord, 'number' | 'timeFrom' | 'timeTo' | 'error' | 'orderIds' | 'priceKopecks' | 'doneAt'>
> & { status: number; statusHistory: PickupStatusItem[] };

type Row = Selectable<Tables['pickups']>;
type Db = Kysely<Tables> | Transaction<Tables>;

function toRecord(row: Row): PickupRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    warehouseId: row.warehouse_id,
    companyId: row.company_id,
    type: row.type as 3 | 4,
    date: row.date,
    status: row.status,
    statusHistory: fromJson(row.status_history),
    number: row.number,
    timeFrom: row.time_from,
    timeTo: row.time_to,
    weightGrams: Number(row.weight_grams),
    comment: row.comment,
    error: row.error,
    file: row.file,
    actOrders: row.act_orders === null ? null : fromJson(row.act_orders),
    orderIds: row.order_ids === null ? null : fromJson(row.order_ids),
    priceKopecks: row.price_kopecks === null ? null : Number(row.price_kopecks),
    doneAt: row.done_at,
  };
}

export class PickupStore {
  constructor(readonly db: Kysely<Tables>) {}

  /** The new pickup's id, or null when an identical one (same warehouse, company, type and day, not canceled) exists: the unique index decides. */
  async insert(accountId: number, pickup: NewPickup, db: Db = this.db): Promise<number | null> {
    const now = nowIso();
    try {
      const row = await db
        .insertInto('pickups')
        .values({
          account_id: accountId,
          warehouse_id: pickup.warehouseId,
          company_id: pickup.companyId,
          company_key: pickup.type === 3 ? 0 : pickup.companyId,
          type: pickup.type,
          date: pickup.date,
          status: pickup.status,
          status_history: toJson(pickup.statusHistory),
          number: null,
          time_from: null,
          time_to: null,
          weight_grams: pickup.weightGrams,
          comment: pickup.comment,
          error: null,
          file: null,
          act_orders: null,
          order_ids: null,
          price_kopecks: null,
          done_at: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async get(accountId: number, id: number): Promise<PickupRecord | undefined> {
    const row = await this.db
      .selectFrom('pickups')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /**
   * Current pickups (not yet ended, or dated today or later), or the archive: ended ones (done,
   * canceled, error: nothing more can be done with them) dated before `today`. Newest first.
   */
  async list(
    accountId: number,
    filter: { archive: boolean; today: string; warehouseId?: number },
    paging: Paging,
  ): Promise<Page<PickupRecord>> {
    const ended = [PICKUP_STATUS.done, PICKUP_STATUS.canceled, PICKUP_STATUS.error];
    let query = this.db.selectFrom('pickups').where('account_id', '=', accountId);
    if (filter.warehouseId !== undefined) query = query.where('warehouse_id', '=', filter.warehouseId);
    query = filter.archive
      ? query.where('status', 'in', ended).where('date', '<', filter.today)
      : query.where((eb) => eb.or([eb('status', 'not in', ended), eb('date', '>=', filter.today)]));
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRecord), total: Number(count.total) };
  }

  /**
   * Moves a pickup on if it is still in one of `from` (compare-and-set): false when someone
   * else moved it first. The move writes its pickup.status_changed event with it (webhooks).
   */
  async move(
    accountId: number,
    id: number,
    from: readonly number[],
    change: PickupChange,
    db: Db = this.db,
  ): Promise<boolean> {
    const { status, statusHistory, orderIds, timeFrom, timeTo, priceKopecks, doneAt, ...rest } = change;
    return withinTransaction(db, async (trx) => {
      const result = await trx
        .updateTable('pickups')
        .set({
          status,
          status_history: toJson(statusHistory),
          ...rest,
          ...(timeFrom !== undefined ? { time_from: timeFrom } : {}),
          ...(timeTo !== undefined ? { time_to: timeTo } : {}),
          ...(orderIds !== undefined ? { order_ids: orderIds === null ? null : toJson(orderIds) } : {}),
          ...(priceKopecks !== undefined ? { price_kopecks: priceKopecks } : {}),
          ...(doneAt !== undefined ? { done_at: doneAt } : {}),
          updated_at: nowIso(),
        })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      // a pickup is no order (order id 0) and no shop's: account-wide readers see it
      const event = {
        type: 'pickup.status_changed' as const,
        statusFrom: statusHistory[1]?.code ?? null,
        statusTo: status,
        payload: { cmsId: null, trackNumber: null, pickupId: id },
      };
      await writeOrderEvents(trx, outboxRows(accountId, null, 0, [event], nowIso()));
      return true;
    });
  }

  /** Pickups the courier collected in [from, to), oldest first. */
  async doneBetween(accountId: number, from: string, to: string): Promise<PickupRecord[]> {
    const rows = await this.db
      .selectFrom('pickups')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('done_at', '>=', from)
      .where('done_at', '<', to)
      .orderBy('done_at')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async setError(accountId: number, id: number, error: string): Promise<void> {
    await this.db
      .updateTable('pickups')
      .set({ error: error.slice(0, 1000), updated_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  /** Pickups of a warehouse, any status (a warehouse with pickups is not deleted: they show it). */
  async countAt(accountId: number, warehouseId: number): Promise<number> {
    const row = await this.db
      .selectFrom('pickups')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('account_id', '=', accountId)
      .where('warehouse_id', '=', warehouseId)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  async setAct(accountId: number, id: number, file: string, orderIds: number[]): Promise<void> {
    await this.db
      .updateTable('pickups')
      .set({ file, act_orders: toJson(orderIds) })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }
}
