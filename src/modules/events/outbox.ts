/**
 * Writing order events: the outbox rows go in with the order change that causes them, in
 * its transaction (or its very statement on PostgreSQL), like a job enqueued with `trx`.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { toJson } from '../../platform/db/values.js';
import type { OrderEventDraft } from './types.js';

type Db = Kysely<Tables> | Transaction<Tables>;

/** The columns an INSERT ... SELECT of events fills, in the order of `eventsSelect`. */
export const OUTBOX_COLUMNS = [
  'account_id',
  'shop_id',
  'order_id',
  'type',
  'status_from',
  'status_to',
  'at',
  'payload',
] as const;

export function outboxRows(
  accountId: number,
  shopId: number | null,
  orderId: number,
  drafts: OrderEventDraft[],
  at: string,
) {
  return drafts.map((draft) => ({
    account_id: accountId,
    shop_id: shopId,
    order_id: orderId,
    type: draft.type,
    status_from: draft.statusFrom,
    status_to: draft.statusTo,
    at,
    payload: toJson(draft.payload),
  }));
}

export async function writeOrderEvents(db: Db, rows: ReturnType<typeof outboxRows>): Promise<void> {
  if (rows.length) await db.insertInto('order_events').values(rows).execute();
}

/**
 * PostgreSQL: the rows of `drafts` as a SELECT over the CTE `source` (the order just
 * written, column `id`), for `WITH source AS (INSERT|UPDATE ... RETURNING id) INSERT INTO
 * order_events ... SELECT`: one statement, and no event when the write matched no row.
 */
export function eventsSelect(
  source: string,
  accountId: number,
  shopId: number | null,
  drafts: OrderEventDraft[],
  at: string,
): RawBuilder<unknown> {
  const from = sql.table(source);
  const selects = drafts.map(
    (draft) =>
      sql`select ${accountId}::bigint, ${shopId}::bigint, ${from}.id, ${draft.type}::text, ${draft.statusFrom}::integer, ${draft.statusTo}::integer, ${at}::timestamptz, ${toJson(draft.payload)}::jsonb from ${from}`,
  );
  return sql.join(selects, sql` union all `);
}

/** Runs `work` in `db` when it is a transaction already, else in a new one. */
export async function withinTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute(work);
}
