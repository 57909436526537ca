import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Fulfilment: stock rows with their movements and the orders' allocations, supplies of
 * goods, and the tokens of the warehouses' staff. The CHECK on stock is the last guard of
 * "available never below zero"; the stores' guarded UPDATEs keep it in the first place.
 */
export const fulfilment: SchemaMigration = {
  name: '0012_fulfilment',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('stock'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('fulfilment_warehouse_id', t.bigint, (c) => c.notNull().references('fulfilment_warehouses.id'))
      .addColumn('product_id', t.bigint, (c) => c.notNull())
      .addColumn('batch', 'text', (c) => c.notNull())
      .addColumn('expires', t.date)
      .addColumn('quantity', t.bigint, (c) => c.notNull())
      .addColumn('reserved', t.bigint, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .addCheckConstraint('stock_within_bounds', sql`reserved >= 0 and reserved <= quantity`)
      .execute();
    await db.schema
      .createIndex('stock_goods')
      .on('stock')
      .columns(['account_id', 'fulfilment_warehouse_id', 'product_id', 'batch'])
      .unique()
      .execute();
    await db.schema.createIndex('stock_product').on('stock').columns(['account_id', 'product_id']).execute();

    await kit
      .withId(db.schema.createTable('stock_movements'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('stock_id', t.bigint, (c) => c.notNull())
      .addColumn('fulfilment_warehouse_id', t.bigint, (c) => c.notNull())
      .addColumn('product_id', t.bigint, (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('quantity_delta', t.bigint, (c) => c.notNull())
      .addColumn('reserved_delta', t.bigint, (c) => c.notNull())
      .addColumn('supply_id', t.bigint)
      .addColumn('order_id', t.bigint)
      .addColumn('employee_id', t.bigint)
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('stock_movements_product_at')
      .on('stock_movements')
      .columns(['account_id', 'product_id', 'at'])
      .execute();
    // the movement report reads a warehouse's goods product by product, in time order
    await db.schema
      .createIndex('stock_movements_report')
      .on('stock_movements')
      .columns(['account_id', 'fulfilment_warehouse_id', 'product_id', 'at', 'id'])
      .execute();
    await db.schema.createIndex('stock_movements_stock').on('stock_movements').columns(['stock_id']).execute();

    await kit
      .withId(db.schema.createTable('stock_allocations'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('order_id', t.bigint, (c) => c.notNull())
      .addColumn('stock_id', t.bigint, (c) => c.notNull())
      .addColumn('quantity', t.bigint, (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('stock_allocations_order')
      .on('stock_allocations')
      .columns(['account_id', 'order_id'])
      .execute();

    await kit
      .withId(db.schema.createTable('supplies'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('fulfilment_warehouse_id', t.bigint, (c) => c.notNull().references('fulfilment_warehouses.id'))
      .addColumn('date', t.date, (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('places', 'integer', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('status_history', t.json, (c) => c.notNull())
      .addColumn('products', t.json, (c) => c.notNull())
      .addColumn('employee_id', t.bigint)
      .addColumn('file', 'text')
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('supplies_account').on('supplies').columns(['account_id', 'id']).execute();
    await db.schema
      .createIndex('supplies_warehouse_status')
      .on('supplies')
      .columns(['fulfilment_warehouse_id', 'status'])
      .execute();

    await kit
      .withId(db.schema.createTable('operator_tokens'))
      .addColumn('fulfilment_warehouse_id', t.bigint, (c) => c.notNull().references('fulfilment_warehouses.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
  },
};
