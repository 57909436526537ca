import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Marketplaces: an account's integration with each (sealed credentials, shipment settings,
 * the polling cursor), the orders read from them, and the products' bindings as rows, so a
 * binding identifier is unique per marketplace within the account by an index rather than
 * by a read before the write.
 */
export const marketplaces: SchemaMigration = {
  name: '0015_marketplaces',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('marketplace_integrations'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('marketplace_id', 'integer', (c) => c.notNull())
      .addColumn('shop_id', t.bigint)
      .addColumn('credentials', 'text', (c) => c.notNull())
      .addColumn('masked', t.json, (c) => c.notNull())
      .addColumn('fbs_enabled', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('fbo_enabled', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('dbs_enabled', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('cursor', t.json)
      .addColumn('connected_at', t.instant, (c) => c.notNull())
      .addColumn('last_poll_at', t.instant)
      .addColumn('last_error', 'text')
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('marketplace_integrations_account')
      .on('marketplace_integrations')
      .columns(['account_id', 'marketplace_id'])
      .unique()
      .execute();

    await kit
      .withId(db.schema.createTable('marketplace_orders'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('marketplace_id', 'integer', (c) => c.notNull())
      .addColumn('shop_id', t.bigint)
      .addColumn('marketplace_order_number', 'text', (c) => c.notNull())
      .addColumn('marketplace_created_at', t.instant)
      .addColumn('shipping_mode', 'integer')
      .addColumn('status_code', 'integer', (c) => c.notNull())
      .addColumn('status_name', 'text', (c) => c.notNull())
      .addColumn('status_history', t.json, (c) => c.notNull())
      .addColumn('accept_planned_at', t.instant)
      .addColumn('accepted_at', t.instant)
      .addColumn('delivery_price', t.bigint, (c) => c.notNull())
      .addColumn('delivery_price_fact', t.bigint)
      .addColumn('price_declared', t.bigint, (c) => c.notNull())
      .addColumn('products', t.json, (c) => c.notNull())
      .addColumn('dimensions', t.json, (c) => c.notNull())
      .addColumn('shipping_warehouse_id', t.bigint)
      .addColumn('shipping_warehouse', t.json)
      .addColumn('delivery_address', t.json, (c) => c.notNull())
      .addColumn('bundle_key', 'text')
      .addColumn('is_fulfilment', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('errors', t.json)
      .addColumn('search_text', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    // the guard against storing one order twice, whatever the polls fetch
    await db.schema
      .createIndex('marketplace_orders_number')
      .on('marketplace_orders')
      .columns(['account_id', 'marketplace_id', 'marketplace_order_number'])
      .unique()
      .execute();
    await db.schema
      .createIndex('marketplace_orders_list')
      .on('marketplace_orders')
      .columns(['account_id', 'id'])
      .execute();
    await db.schema
      .createIndex('marketplace_orders_bundle')
      .on('marketplace_orders')
      .columns(['account_id', 'bundle_key'])
      .execute();

    await db.schema
      .createTable('product_bindings')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('marketplace_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('product_id', t.bigint, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('product_bindings_identifier')
      .on('product_bindings')
      .columns(['account_id', 'marketplace_id', 'name', 'value'])
      .unique()
      .execute();
    await db.schema
      .createIndex('product_bindings_product')
      .on('product_bindings')
      .columns(['account_id', 'product_id'])
      .execute();
  },
};
