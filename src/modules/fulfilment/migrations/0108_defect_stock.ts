import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * The defect stock: units of a stock row found unfit on a returned parcel's inspection, kept
 * apart from what is on hand (never available, never reserved). A movement says how much of
 * it changed, and which inspected line made it: the unique key lets each line move stock once
 * per kind, whatever repeats above it.
 */
export const defectStock: SchemaMigration = {
  name: '0108_defect_stock',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .alterTable('stock')
      .addColumn('defective', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('stock_movements')
      .addColumn('defective_delta', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('stock_movements').addColumn('inspection_line_id', t.bigint).execute();
    await db.schema
      .createIndex('stock_movements_inspection_line')
      .unique()
      .on('stock_movements')
      .columns(['inspection_line_id', 'kind'])
      .execute();
  },
};
