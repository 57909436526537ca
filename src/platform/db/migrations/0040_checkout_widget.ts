import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * The checkout widget: a shop's publishable widget key with the origins whose pages
 * may use it, and the buyers' selections the shop's server turns into orders.
 */
export const checkoutWidget: SchemaMigration = {
  name: '0040_checkout_widget',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('widget_keys')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull().references('shops.id').onDelete('cascade'))
      // publishable: it is in every page of the shop, so it is kept as it is and shown again
      .addColumn('public_key', 'text', (c) => c.notNull().unique())
      .addColumn('allowed_origins', t.json, (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('widget_keys_pk', ['account_id', 'shop_id'])
      .execute();

    await kit
      .withId(db.schema.createTable('widget_selections'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull().references('shops.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('selection', t.json, (c) => c.notNull())
      .addColumn('expires_at', t.instant, (c) => c.notNull())
      .addColumn('used_at', t.instant)
      .addColumn('order_id', t.bigint)
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('widget_selections_expiry').on('widget_selections').columns(['expires_at']).execute();
  },
};
