import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/** Orders: filterable fields as indexed columns, the order document as JSON text. */
export const orders: SchemaMigration = {
  name: '0006_orders',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('orders'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint)
      .addColumn('warehouse_id', t.bigint)
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .addColumn('status_at', t.instant, (c) => c.notNull())
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('delivery_type', 'integer', (c) => c.notNull())
      .addColumn('point_id', t.bigint)
      .addColumn('cms_id', 'text')
      .addColumn('track_number', 'text')
      .addColumn('search_text', 'text', (c) => c.notNull())
      .addColumn('recipient_city', 'text', (c) => c.notNull())
      .addColumn('recipient_country', 'text', (c) => c.notNull())
      .addColumn('payment_type', 'integer', (c) => c.notNull())
      .addColumn('with_cod', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('cod_received', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('sticker_formed', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('was_in_act', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('is_packed', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('reservation_status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('auto_reserved', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('hold_until', t.date)
      .addColumn('journey_step', 'integer', (c) => c.notNull().defaultTo(-1))
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
      // UTF-8 bytes on SQLite: lists splice them without decoding and encoding again
      .addColumn('doc', kit.kind === 'postgres' ? 'text' : 'blob', (c) => c.notNull())
      .execute();
    const index = (name: string, columns: string[]) =>
      db.schema.createIndex(name).on('orders').columns(columns).execute();
    await index('orders_account', ['account_id', 'id']);
    await index('orders_account_status', ['account_id', 'status', 'id']);
    await index('orders_account_shop', ['account_id', 'shop_id', 'id']);
    await index('orders_account_warehouse', ['account_id', 'warehouse_id', 'id']);
    await index('orders_account_company', ['account_id', 'company_id', 'id']);
    await index('orders_account_type', ['account_id', 'delivery_type', 'id']);
    await index('orders_account_created', ['account_id', 'created_at']);
    await index('orders_account_cms', ['account_id', 'cms_id']);
    await index('orders_account_country_city', ['account_id', 'recipient_country', 'recipient_city']);
    await index('orders_account_reservation', ['account_id', 'reservation_status', 'id']);
    // Carriers push and are polled by track number, across accounts.
    await index('orders_track', ['track_number']);
  },
};
