import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/** Accounts and access, shops, warehouses, boxes, idempotency keys. */
export const foundation: SchemaMigration = {
  name: '0001_foundation',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;

    await kit
      .withId(db.schema.createTable('accounts'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();

    await kit
      .withId(db.schema.createTable('employees'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('employees_account').on('employees').columns(['account_id', 'id']).execute();

    await kit
      .withId(db.schema.createTable('access_tokens'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('employee_id', t.bigint, (c) => c.references('employees.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('expires_at', t.instant)
      .execute();

    await db.schema
      .createTable('fulfilment_warehouses')
      .addColumn('id', t.bigint, (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('address', t.json, (c) => c.notNull())
      .addColumn('contact', t.json, (c) => c.notNull())
      .addColumn('schedule', t.json, (c) => c.notNull())
      .addColumn('holidays', t.json, (c) => c.notNull())
      .addColumn('auto_reserve_available', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('integration_marketplace_ids', t.json, (c) => c.notNull())
      .execute();

    await kit
      .withId(db.schema.createTable('warehouses'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('search_name', 'text', (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('pickup_type', 'integer', (c) => c.notNull())
      .addColumn('fulfilment_warehouse_id', t.bigint, (c) => c.references('fulfilment_warehouses.id'))
      .addColumn('fulfilment_auto_reserve', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('sender_other_entity', t.json, (c) => c.notNull())
      .addColumn('address', t.json, (c) => c.notNull())
      .addColumn('contact', t.json, (c) => c.notNull())
      .addColumn('holidays', t.json, (c) => c.notNull())
      .addColumn('schedule', t.json, (c) => c.notNull())
      .addColumn('mark_completed_orders', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('warehouses_account').on('warehouses').columns(['account_id', 'id']).execute();

    await kit
      .withId(db.schema.createTable('shops'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('brand', 'text', (c) => c.notNull())
      .addColumn('search_name', 'text', (c) => c.notNull())
      .addColumn('search_brand', 'text', (c) => c.notNull())
      .addColumn('platform', 'text')
      .addColumn('cms_products_autocomplete', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('email_notifications', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('carrier_a_calling', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('disable_quantity_control_in_checkout', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('send_quantity_to_cms', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('warehouse_id', t.bigint, (c) => c.notNull().references('warehouses.id'))
      .addColumn('notifications', t.json, (c) => c.notNull())
      .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('api_key_cipher', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('shops_account').on('shops').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('shops_warehouse').on('shops').columns(['account_id', 'warehouse_id']).execute();

    await kit
      .withId(db.schema.createTable('boxes'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text')
      .addColumn('search_name', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('length', 'integer', (c) => c.notNull())
      .addColumn('weight_grams', t.bigint)
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('boxes_account').on('boxes').columns(['account_id', 'id']).execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('idem_key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('response_type', 'text')
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'idem_key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
  },
};
