/** SQL of order events: pages by position (scoped by account), consumer positions, purging. */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DatabaseKind } from '../../platform/db/database.js';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, nowIso } from '../../platform/db/values.js';
import type { AccountEvent, EventPayload, EventType } from './types.js';

type Db = Kysely<Tables> | Transaction<Tables>;
type Row = Selectable<Tables['order_events']>;

/** Any constant: the advisory lock that lets one sequencer at a time give positions (PostgreSQL). */
const SEQUENCER_LOCK = 7_240_815;

export interface EventFilter {
  afterId: number;
  limit: number;
  types?: readonly string[];
  shopId?: number;
}

export class EventStore {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly kind: DatabaseKind,
  ) {}

  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The public id: `seq` on PostgreSQL (given after commit), the row id on SQLite (one writer: ids commit in order). */
  private get position(): 'seq' | 'id' {
    return this.kind === 'postgres' ? 'seq' : 'id';
  }

  private toEvent(row: Row): AccountEvent {
    return {
      id: Number(this.kind === 'postgres' ? row.seq : row.id),
      accountId: row.account_id,
      type: row.type as EventType,
      orderId: row.order_id,
      shopId: row.shop_id,
      statusFrom: row.status_from,
      statusTo: row.status_to,
      at: row.at,
      payload: fromJson<EventPayload>(row.payload),
    };
  }

  /**
   * PostgreSQL: gives positions to the committed events that have none, one sequencer at a
   * time. Ids come from a sequence at insert and commit in any order, so a cursor over them
   * could step over an event committed late; positions are given only to committed rows,
   * in one locked step, so they become visible in order.
   */
  async sequence(): Promise<void> {
    if (this.kind !== 'postgres') return;
    const waiting = await this.db
      .selectFrom('order_events')
      .select('id')
      .where('seq', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (!waiting) return;
    await this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${SEQUENCER_LOCK})`.execute(trx);
      await sql`update order_events set seq = numbered.seq
        from (select id, nextval('order_events_seq') as seq from (select id from order_events where seq is null order by id limit 10000) waiting) numbered
        where order_events.id = numbered.id`.execute(trx);
    });
  }

  /** A page of one account's events after a position, oldest first. */
  async page(accountId: number, filter: EventFilter): Promise<AccountEvent[]> {
    const position = this.position;
    let query = this.db
      .selectFrom('order_events')
      .selectAll()
      .where('account_id', '=', accountId)
      .where(position, '>', filter.afterId);
    if (filter.shopId !== undefined) query = query.where('shop_id', '=', filter.shopId);
    if (filter.types?.length) query = query.where('type', 'in', [...filter.types]);
    const rows = await query.orderBy(position).limit(filter.limit).execute();
    return rows.map((row) => this.toEvent(row));
  }

  /** Every account's events after a position, oldest first (consumers inside the service). */
  async after(position: number, limit: number): Promise<AccountEvent[]> {
    const column = this.position;
    const rows = await this.db
      .selectFrom('order_events')
      .selectAll()
      .where(column, '>', position)
      .orderBy(column)
      .limit(limit)
      .execute();
    return rows.map((row) => this.toEvent(row));
  }

  /** The position a consumer has handled, 0 for a new one. */
  async consumerPosition(name: string): Promise<number> {
    const row = await this.db
      .selectFrom('event_consumers')
      .select('position')
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? Number(row.position) : 0;
  }

  /** Moves a consumer from `from` to `to`; false when another process moved it first. */
  async advanceConsumer(name: string, from: number, to: number, db: Db = this.db): Promise<boolean> {
    const now = nowIso();
    if (from === 0) {
      const inserted = await db
        .insertInto('event_consumers')
        .values({ name, position: to, updated_at: now })
        .onConflict((conflict) => conflict.column('name').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return true;
    }
    const result = await db
      .updateTable('event_consumers')
      .set({ position: to, updated_at: now })
      .where('name', '=', name)
      .where('position', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes events older than `before`, in batches; the number deleted. */
  async purge(before: string): Promise<number> {
    let total = 0;
    for (;;) {
      const ids = (
        await this.db.selectFrom('order_events').select('id').where('at', '<', before).limit(5000).execute()
      ).map((row) => row.id);
      if (ids.length === 0) return total;
      await this.db.deleteFrom('order_events').where('id', 'in', ids).execute();
      total += ids.length;
    }
  }
}
