import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/** Reference data of delivery companies (localities, pickup points, loaded version) and shops' widget settings. */
export const carriers: SchemaMigration = {
  name: '0002_carriers',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('localities')
      .addColumn('id', t.bigint, (c) => c.primaryKey())
      .addColumn('country_code', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_en', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('region_code', 'text', (c) => c.notNull())
      .addColumn('latitude', t.real, (c) => c.notNull())
      .addColumn('longitude', t.real, (c) => c.notNull())
      .addColumn('population', 'integer', (c) => c.notNull())
      .addColumn('fias', 'text')
      .addColumn('zip', 'text')
      .execute();
    await db.schema.createIndex('localities_fias').on('localities').column('fias').execute();

    await db.schema
      .createTable('delivery_points')
      .addColumn('id', t.bigint, (c) => c.primaryKey())
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('locality_id', t.bigint, (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('country_code', 'text', (c) => c.notNull())
      .addColumn('data', t.json, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('delivery_points_company')
      .on('delivery_points')
      .columns(['company_id', 'id'])
      .execute();
    await db.schema
      .createIndex('delivery_points_locality')
      .on('delivery_points')
      .columns(['locality_id', 'id'])
      .execute();

    await db.schema
      .createTable('reference_versions')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('loaded_at', t.instant, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('widget_settings')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull().references('shops.id').onDelete('cascade'))
      .addColumn('settings', t.json, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('widget_settings_pk', ['account_id', 'shop_id'])
      .execute();
  },
};
