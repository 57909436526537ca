import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * pg_trgm lets PostgreSQL answer `search_x LIKE '%needle%'` from a GIN index instead of
 * scanning every product of the account. It is installed into `public` (not the current
 * schema, which tests drop) and skipped, leaving plain scans, where it is not available.
 * Returns the qualified operator class, or null.
 */
async function trigramOpclass(db: Kysely<unknown>): Promise<string | null> {
  const installed = await sql<{
    schema: string;
  }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
    db,
  );
  if (installed.rows[0]) return `${installed.rows[0].schema}.gin_trgm_ops`;
  const available = await sql`select 1 from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (available.rows.length === 0) return null;
  // Inside the migration's transaction: a savepoint keeps a refusal (no privilege, or a
  // concurrent install) from aborting the whole migration.
  await sql`savepoint catalogue_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint catalogue_trgm`.execute(db);
    return 'public.gin_trgm_ops';
  } catch {
    await sql`rollback to savepoint catalogue_trgm`.execute(db);
    return null;
  }
}

/** Products (account-wide catalogue) and kits (per shop) with their goods. */
export const catalogue: SchemaMigration = {
  name: '0003_catalogue',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;

    await kit
      .withId(db.schema.createTable('products'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('vendor_code', 'text', (c) => c.notNull())
      .addColumn('search_vendor_code', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('search_name', 'text', (c) => c.notNull())
      .addColumn('name_en', 'text')
      .addColumn('vat', 'integer')
      .addColumn('price_declared_kopecks', t.bigint)
      .addColumn('price_cod_kopecks', t.bigint)
      .addColumn('weight_grams', t.bigint)
      .addColumn('volume', t.real)
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('length', 'integer')
      .addColumn('expirity_days', 'integer')
      .addColumn('photo', 'text')
      .addColumn('tnved', 'text')
      .addColumn('search_tnved', 'text', (c) => c.notNull())
      .addColumn('barcodes', t.json, (c) => c.notNull())
      .addColumn('search_barcodes', 'text', (c) => c.notNull())
      .addColumn('brand', 'text')
      .addColumn('producing_country', 'text')
      .addColumn('mark_code_required', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('batch_accounting', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('bindings', t.json, (c) => c.notNull())
      .addColumn('deleted_at', t.instant)
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('products_account').on('products').columns(['account_id', 'id']).execute();
    // vendorCode is unique among the live products of an account; the import upserts on it.
    await db.schema
      .createIndex('products_vendor_code')
      .on('products')
      .columns(['account_id', 'vendor_code'])
      .unique()
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();

    if (kit.kind === 'postgres') {
      const opclass = await trigramOpclass(db);
      if (opclass) {
        for (const column of ['search_name', 'search_vendor_code', 'search_tnved', 'search_barcodes']) {
          await sql`create index ${sql.id(`products_${column}_trgm`)} on products using gin (${sql.id(column)} ${sql.raw(opclass)})`.execute(
            db,
          );
        }
      }
    }

    await kit
      .withId(db.schema.createTable('kits'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull().references('shops.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('search_name', 'text', (c) => c.notNull())
      .addColumn('vendor_code', 'text', (c) => c.notNull())
      .addColumn('search_vendor_code', 'text', (c) => c.notNull())
      .addColumn('discount', t.real, (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('kits_account').on('kits').columns(['account_id', 'id']).execute();
    await db.schema
      .createIndex('kits_vendor_code')
      .on('kits')
      .columns(['account_id', 'shop_id', 'vendor_code'])
      .unique()
      .execute();

    await db.schema
      .createTable('kit_products')
      .addColumn('account_id', t.bigint, (c) => c.notNull())
      .addColumn('kit_id', t.bigint, (c) => c.notNull().references('kits.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      // No cascade: a deleted product is only marked deleted, so the kit keeps reading it.
      .addColumn('product_id', t.bigint, (c) => c.notNull().references('products.id'))
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('kit_products_pk', ['kit_id', 'position'])
      .execute();
    await db.schema
      .createIndex('kit_products_product')
      .on('kit_products')
      .columns(['account_id', 'product_id'])
      .execute();
  },
};
