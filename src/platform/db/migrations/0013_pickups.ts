import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Pickups (contract 2.9, 4.10), and the two order columns a pickup finds its orders by: the
 * pickup type the order names (null: its warehouse's default) and its pickup date.
 */
export const pickups: SchemaMigration = {
  name: '0013_pickups',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('pickups'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('warehouse_id', t.bigint, (c) => c.notNull())
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('company_key', 'integer', (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('date', t.date, (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('status_history', t.json, (c) => c.notNull())
      .addColumn('number', 'text')
      .addColumn('time_from', 'text')
      .addColumn('time_to', 'text')
      .addColumn('weight_grams', t.bigint, (c) => c.notNull())
      .addColumn('comment', 'text')
      .addColumn('error', 'text')
      .addColumn('file', 'text')
      .addColumn('act_orders', t.json)
      .addColumn('order_ids', t.json)
      // fixed when the courier collected (Done): the bill charges what the pickup cost then
      .addColumn('price_kopecks', t.bigint)
      .addColumn('done_at', t.instant)
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('pickups_account').on('pickups').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('pickups_account_done').on('pickups').columns(['account_id', 'done_at']).execute();
    // "two identical pickups for the same day cannot be created": the database decides, so racing requests get one row
    await db.schema
      .createIndex('pickups_same_day')
      .on('pickups')
      .columns(['account_id', 'warehouse_id', 'company_key', 'type', 'date'])
      .unique()
      .where(sql.ref('status'), '<>', 4)
      .execute();

    await db.schema.alterTable('orders').addColumn('pickup_type', 'integer').execute();
    await db.schema.alterTable('orders').addColumn('pickup_date', t.date).execute();
    await db.schema
      .createIndex('orders_account_pickup')
      .on('orders')
      .columns(['account_id', 'warehouse_id', 'status', 'pickup_date'])
      .execute();
  },
};
