import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Employee roles: an owner sees the whole account, a manager only the shops given
 * to them (employee_shops, in the order given: the first is the manager's default shop).
 * Employees made before this are owners, as they could see everything.
 */
export const employeeRoles: SchemaMigration = {
  name: '0080_employee_roles',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .alterTable('employees')
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('owner'))
      .execute();
    await db.schema
      .createTable('employee_shops')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('employee_id', t.bigint, (c) => c.notNull().references('employees.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull().references('shops.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('employee_shops_pk', ['employee_id', 'shop_id'])
      .execute();
    await db.schema.createIndex('employee_shops_shop').on('employee_shops').columns(['shop_id']).execute();
  },
};
