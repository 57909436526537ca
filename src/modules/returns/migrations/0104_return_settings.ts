import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/** Each shop's return rules (window, ways, who pays, auto-approval), beside its other settings. */
export const returnSettingsTable: SchemaMigration = {
  name: '0104_return_settings',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('return_settings')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull().references('shops.id').onDelete('cascade'))
      .addColumn('settings', t.json, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('return_settings_pk', ['account_id', 'shop_id'])
      .execute();
  },
};
