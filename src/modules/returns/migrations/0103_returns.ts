import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * Returns a buyer (or the shop) starts from a delivered order: its lines and photos as JSON
 * (a return has a handful of lines, read whole), the way back and its cost, the return code,
 * the reverse order made on approval. The indexes serve the list's filters, newest first.
 */
export const returnsTable: SchemaMigration = {
  name: '0103_returns',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('returns'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull())
      .addColumn('order_id', t.bigint, (c) => c.notNull())
      .addColumn('order_number', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('way', 'text', (c) => c.notNull())
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('point_id', t.bigint)
      .addColumn('cost_kopecks', t.bigint, (c) => c.notNull())
      .addColumn('payer', 'text', (c) => c.notNull())
      .addColumn('goods_kopecks', t.bigint, (c) => c.notNull())
      .addColumn('lines', t.json, (c) => c.notNull())
      .addColumn('photos', t.json, (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('approved_by', 'text')
      .addColumn('refusal_reason', 'text')
      .addColumn('parcel_order_id', t.bigint)
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('returns_code').unique().on('returns').column('code').execute();
    // newest first under each filter: the page and its count read one index range
    await db.schema
      .createIndex('returns_account_created')
      .on('returns')
      .columns(['account_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('returns_account_status')
      .on('returns')
      .columns(['account_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('returns_account_shop')
      .on('returns')
      .columns(['account_id', 'shop_id', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('returns_account_order').on('returns').columns(['account_id', 'order_id']).execute();
    await db.schema
      .createIndex('returns_account_parcel')
      .on('returns')
      .columns(['account_id', 'parcel_order_id'])
      .execute();
    // the parcels' statuses are read from now on: an instance's old events are not returns'
    await sql`insert into event_consumers (name, position, updated_at)
      select 'returns', coalesce((select max(seq) from order_events), (select max(id) from order_events), 0), ${new Date().toISOString()}`.execute(
      db,
    );
  },
};
