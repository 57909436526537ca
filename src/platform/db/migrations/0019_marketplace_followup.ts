import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Fulfilment goods held by marketplace orders. An allocation or a
 * movement of a marketplace order names it in `marketplace_order_id` (its `order_id` is 0 /
 * null: the orders area has no such order); the marketplace order keeps where its
 * reservation stands and what goods it lacks.
 */
export const marketplaceFollowup: SchemaMigration = {
  name: '0019_marketplace_followup',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema.alterTable('stock_allocations').addColumn('marketplace_order_id', t.bigint).execute();
    await db.schema
      .createIndex('stock_allocations_marketplace_order')
      .on('stock_allocations')
      .columns(['account_id', 'marketplace_order_id'])
      .execute();
    await db.schema.alterTable('stock_movements').addColumn('marketplace_order_id', t.bigint).execute();
    // 0 nothing to hold, 1 waiting for goods, 2 held, 3 given back (canceled), 4 shipped
    await db.schema
      .alterTable('marketplace_orders')
      .addColumn('reservation_status', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('marketplace_orders').addColumn('reservation_errors', t.json).execute();
    await db.schema
      .createIndex('marketplace_orders_reservation')
      .on('marketplace_orders')
      .columns(['account_id', 'marketplace_id', 'reservation_status', 'id'])
      .execute();
    // the orders whose status may still change, oldest checked first
    await db.schema.alterTable('marketplace_orders').addColumn('status_checked_at', t.instant).execute();
    await db.schema
      .createIndex('marketplace_orders_open')
      .on('marketplace_orders')
      .columns(['account_id', 'marketplace_id', 'status_code', 'status_checked_at'])
      .execute();
  },
};
