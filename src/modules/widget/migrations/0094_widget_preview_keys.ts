import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * The dashboard's preview keys: one per shop, for the widget shown inside the dashboard only
 * (its own origin), pricing and previewing, never making an order; each lives two hours.
 */
export const widgetPreviewKeys: SchemaMigration = {
  name: '0094_widget_preview_keys',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('widget_preview_keys')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull().references('shops.id').onDelete('cascade'))
      .addColumn('preview_key', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', t.instant, (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('widget_preview_keys_pk', ['account_id', 'shop_id'])
      .execute();
  },
};
