import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * An account's own delivery methods (convention 12: answered as '{accountId}_{methodId}'),
 * their own pickup points, and the order column naming the method an order travels by
 * (`company_id` stays 0 for those: no company of the service delivers them).
 */
export const ownDeliveryMethods: SchemaMigration = {
  name: '0017_own_delivery_methods',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('delivery_methods'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('localities', t.json, (c) => c.notNull())
      .addColumn('radius_km', t.real)
      .addColumn('price_rules', t.json, (c) => c.notNull())
      .addColumn('free_from_kopecks', t.bigint)
      .addColumn('days_min', 'integer', (c) => c.notNull())
      .addColumn('days_max', 'integer', (c) => c.notNull())
      .addColumn('cash_payment', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('card_payment', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('delivery_methods_account')
      .on('delivery_methods')
      .columns(['account_id', 'id'])
      .execute();

    await kit
      .withId(db.schema.createTable('delivery_method_points'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('method_id', t.bigint, (c) => c.notNull().references('delivery_methods.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('latitude', t.real, (c) => c.notNull())
      .addColumn('longitude', t.real, (c) => c.notNull())
      .addColumn('schedule', t.json)
      .addColumn('description', 'text')
      .addColumn('zip_code', 'text')
      .execute();
    await db.schema
      .createIndex('delivery_method_points_method')
      .on('delivery_method_points')
      .columns(['account_id', 'method_id', 'id'])
      .execute();

    await db.schema.alterTable('orders').addColumn('own_method_id', t.bigint).execute();
    await db.schema
      .createIndex('orders_account_own_method')
      .on('orders')
      .columns(['account_id', 'own_method_id', 'id'])
      .execute();
  },
};
