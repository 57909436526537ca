import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * A warehouse's own drop-off point per delivery company (Warehouse `dropOffPoints`, extension):
 * what an order names when it gives no `pickup.pointId` for a company that takes parcels only at
 * a point chosen in advance. Existing warehouses have none.
 */
export const warehouseDropOffPoints: SchemaMigration = {
  name: '0022_warehouse_drop_off_points',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    await db.schema
      .alterTable('warehouses')
      .addColumn('drop_off_points', kit.types.json, (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};
