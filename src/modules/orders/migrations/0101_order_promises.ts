import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * An order's promised delivery date (`delivery.promise.byDate`) and whether it was found late:
 * the hourly look for late orders is one index range of the dates gone by.
 */
export const orderPromises: SchemaMigration = {
  name: '0101_order_promises',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema.alterTable('orders').addColumn('promised_by', t.date).execute();
    await db.schema
      .alterTable('orders')
      .addColumn('late', 'boolean', (c) => kit.flagDefaultFalse(c))
      .execute();
    await db.schema.createIndex('orders_promised_by').on('orders').columns(['promised_by', 'late']).execute();
  },
};
