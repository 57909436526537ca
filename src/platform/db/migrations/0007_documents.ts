import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/** Sticker sets and waybill sets formed by the documents area (the files themselves are in `files`). */
export const documents: SchemaMigration = {
  name: '0007_documents',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('sticker_sets'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint)
      .addColumn('format', 'integer')
      .addColumn('file_url', 'text', (c) => c.notNull())
      .addColumn('files', 'text', (c) => c.notNull())
      .addColumn('order_ids', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('sticker_sets_account_created')
      .on('sticker_sets')
      .columns(['account_id', 'created_at'])
      .execute();
    await kit
      .withId(db.schema.createTable('waybill_sets'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint)
      .addColumn('warehouse_id', t.bigint)
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('company_name', 'text', (c) => c.notNull())
      .addColumn('date', t.date, (c) => c.notNull())
      .addColumn('count_orders', 'integer', (c) => c.notNull())
      .addColumn('act_url', 'text', (c) => c.notNull())
      .addColumn('waybill_url', 'text')
      .addColumn('warehouse', 'text', (c) => c.notNull())
      .addColumn('order_ids', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('waybill_sets_account').on('waybill_sets').columns(['account_id', 'id']).execute();
    await db.schema
      .createIndex('waybill_sets_account_warehouse')
      .on('waybill_sets')
      .columns(['account_id', 'warehouse_id', 'id'])
      .execute();
  },
};
