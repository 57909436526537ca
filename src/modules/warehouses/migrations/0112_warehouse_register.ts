import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * What the federal address register made of a warehouse's address (Warehouse `address.register`):
 * a column of its own beside `address`, which keeps the address as typed. Null for the
 * warehouses made before it (and for foreign ones): they are read as before.
 */
export const warehouseRegister: SchemaMigration = {
  name: '0112_warehouse_register',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    await db.schema.alterTable('warehouses').addColumn('address_register', kit.types.json).execute();
  },
};
