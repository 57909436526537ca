import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * Returned parcels waiting at a fulfilment warehouse for the staff to inspect them (one per
 * order: the unique key makes a repeated arrival add nothing), and each inspected line's
 * outcome (back to stock, to the defect stock, written off) with its reason: one row per
 * parcel, product and outcome, so a repeated or concurrent submit cannot record a line twice.
 */
export const returnInspections: SchemaMigration = {
  name: '0107_return_inspections',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('return_inspections'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('order_id', t.bigint, (c) => c.notNull())
      .addColumn('shop_id', t.bigint)
      .addColumn('fulfilment_warehouse_id', t.bigint, (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('return_id', t.bigint)
      .addColumn('track_number', 'text')
      .addColumn('lines', t.json, (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('arrived_at', t.instant, (c) => c.notNull())
      .addColumn('inspected_at', t.instant)
      .addColumn('actor', 'text')
      .execute();
    await db.schema
      .createIndex('return_inspections_once')
      .unique()
      .on('return_inspections')
      .columns(['account_id', 'order_id'])
      .execute();
    await db.schema
      .createIndex('return_inspections_queue')
      .on('return_inspections')
      .columns(['fulfilment_warehouse_id', 'status', 'id'])
      .execute();
    await db.schema
      .createIndex('return_inspections_account')
      .on('return_inspections')
      .columns(['account_id', 'status', 'id'])
      .execute();
    await kit
      .withId(db.schema.createTable('return_inspection_lines'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('inspection_id', t.bigint, (c) => c.notNull().references('return_inspections.id').onDelete('cascade'))
      .addColumn('product_id', t.bigint, (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('at', t.instant, (c) => c.notNull())
      .addCheckConstraint('return_inspection_lines_count', sql`count > 0`)
      .execute();
    await db.schema
      .createIndex('return_inspection_lines_once')
      .unique()
      .on('return_inspection_lines')
      .columns(['inspection_id', 'product_id', 'outcome'])
      .execute();
  },
};
