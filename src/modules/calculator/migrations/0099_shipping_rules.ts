import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * A shop's shipping rules, one row per version: a change writes a new version and
 * never rewrites an old one, so who changed what and when stays, and a revert is a new version
 * holding an old one's rules. The current rules are the highest version.
 */
export const shippingRules: SchemaMigration = {
  name: '0099_shipping_rules',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('shipping_rule_versions')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull().references('shops.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('rules', t.json, (c) => c.notNull())
      .addColumn('rule_count', 'integer', (c) => c.notNull())
      .addColumn('comment', 'text')
      .addColumn('reverted_from', 'integer')
      .addColumn('created_by_kind', 'text', (c) => c.notNull())
      .addColumn('created_by_employee', t.bigint)
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('shipping_rule_versions_pk', ['account_id', 'shop_id', 'version'])
      .execute();
  },
};
