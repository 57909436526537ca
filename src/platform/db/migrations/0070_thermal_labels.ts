import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Thermal labels: a sticker set records its output (pdf, zpl, png) and resolution,
 * and a large set made by a job its state and progress (labels done of total) under the file
 * name handed out before the file exists; each warehouse may name its label printer's
 * resolution.
 */
export const thermalLabels: SchemaMigration = {
  name: '0070_thermal_labels',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .alterTable('sticker_sets')
      .addColumn('output', 'text', (c) => c.notNull().defaultTo('pdf'))
      .execute();
    await db.schema.alterTable('sticker_sets').addColumn('dpi', 'integer').execute();
    await db.schema
      .alterTable('sticker_sets')
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('ready'))
      .execute();
    await db.schema
      .alterTable('sticker_sets')
      .addColumn('labels_total', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('sticker_sets')
      .addColumn('labels_done', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('sticker_sets').addColumn('file_name', 'text').execute();
    await db.schema.createIndex('sticker_sets_file_name').on('sticker_sets').columns(['file_name']).execute();

    await db.schema
      .createTable('warehouse_label_printers')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('warehouse_id', t.bigint, (c) => c.notNull().references('warehouses.id').onDelete('cascade'))
      .addColumn('dpi', 'integer', (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('warehouse_label_printers_pk', ['account_id', 'warehouse_id'])
      .execute();
  },
};
