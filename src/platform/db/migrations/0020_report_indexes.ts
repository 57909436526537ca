import { sql, type Kysely } from 'kysely';
import { unpackObject } from '../../json-pieces.js';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/** Statuses before the parcel left the sender, as of this migration (orders/state.ts handedOverAt). */
const BEFORE_HANDOVER = new Set([1, 10, 11, 12, 13, 83]);
const DELIVERED = new Set([44, 47]);
const BACKFILL_PAGE = 1000;

function firstDateOf(
  history: ReadonlyArray<{ code: number; date: string }>,
  counts: (code: number) => boolean,
): string | null {
  let first: string | null = null;
  for (const item of history) if (counts(item.code) && (first === null || item.date < first)) first = item.date;
  return first === null ? null : new Date(first).toISOString();
}

/**
 * Reports find their orders by index ranges:
 * - each order keeps when it was first handed over (first status 14 or later, 83 not counting)
 *   and first delivered (44/47), indexed with the account and the id: the orders billed or
 *   remitted in a period are one range, where `status_at >= from` read every order changed
 *   since (on a busy account, nearly all of them);
 * - the analytical list's `created_at` filter gets an (account, created_at) index;
 * - `bill_line_drafts`: the lines of a bill being made, written in batches as the charge
 *   sources yield them and read back in pages for the PDF and the xlsx, then copied into
 *   `bill_lines` by one statement of the closing transaction (never all held in memory).
 */
export const reportIndexes: SchemaMigration = {
  name: '0020_report_indexes',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema.alterTable('orders').addColumn('handed_over_at', t.instant).execute();
    await db.schema.alterTable('orders').addColumn('delivered_at', t.instant).execute();
    // only orders past 13 can have either date
    for (let afterId = 0; ; ) {
      const page = await sql<{
        id: number;
        doc_packed: Uint8Array;
      }>`select id, doc_packed from orders where id > ${afterId} and status >= 14 order by id limit ${BACKFILL_PAGE}`.execute(
        db,
      );
      for (const row of page.rows) {
        const doc = JSON.parse(unpackObject(Buffer.from(row.doc_packed)).toString('utf8')) as {
          statusHistory?: Array<{ code: number; date: string }>;
        };
        const history = doc.statusHistory ?? [];
        const handedOver = firstDateOf(history, (code) => code >= 14 && !BEFORE_HANDOVER.has(code));
        const delivered = firstDateOf(history, (code) => DELIVERED.has(code));
        if (handedOver !== null || delivered !== null)
          await sql`update orders set handed_over_at = ${handedOver}, delivered_at = ${delivered} where id = ${row.id}`.execute(
            db,
          );
      }
      if (page.rows.length < BACKFILL_PAGE) break;
      afterId = Number(page.rows[page.rows.length - 1].id);
    }
    await db.schema
      .createIndex('orders_account_handed_over')
      .on('orders')
      .columns(['account_id', 'handed_over_at', 'id'])
      .execute();
    await db.schema
      .createIndex('orders_account_delivered')
      .on('orders')
      .columns(['account_id', 'delivered_at', 'id'])
      .execute();
    await db.schema
      .createIndex('analytical_reports_account_created')
      .on('analytical_reports')
      .columns(['account_id', 'created_at', 'id'])
      .execute();

    await kit
      .withId(db.schema.createTable('bill_line_drafts'))
      .addColumn('run', 'text', (c) => c.notNull())
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('order_id', t.bigint)
      .addColumn('quantity', t.bigint, (c) => c.notNull())
      .addColumn('amount', t.bigint, (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('bill_line_drafts_run')
      .on('bill_line_drafts')
      .columns(['run', 'position'])
      .unique()
      .execute();
  },
};
