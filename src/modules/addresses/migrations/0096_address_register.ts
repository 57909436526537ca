import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * The federal address register's objects, houses, flats and type lists (reference data, no
 * account), and the imports that fill them. Indexes serve the suggestions' walk: a parent's
 * children by search key, a name by its key across the country.
 */
export const addressRegister: SchemaMigration = {
  name: '0096_address_register',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('address_objects')
      .addColumn('object_id', t.bigint, (c) => c.primaryKey())
      .addColumn('guid', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type_short', 'text', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('parent_id', t.bigint)
      .addColumn('mun_parent_id', t.bigint)
      .addColumn('region_code', 'integer', (c) => c.notNull())
      .addColumn('postcode', 'text')
      .addColumn('okato', 'text')
      .addColumn('oktmo', 'text')
      .addColumn('kladr', 'text')
      .addColumn('lat', t.real)
      .addColumn('lon', t.real)
      .addColumn('geo_precision', 'text')
      .addColumn('popularity', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('search_key', 'text', (c) => c.notNull())
      .addColumn('change_id', t.bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('address_objects_guid').on('address_objects').column('guid').unique().execute();
    await db.schema
      .createIndex('address_objects_parent')
      .on('address_objects')
      .columns(['parent_id', 'search_key'])
      .execute();
    await db.schema.createIndex('address_objects_key').on('address_objects').columns(['search_key', 'level']).execute();

    await db.schema
      .createTable('address_houses')
      .addColumn('object_id', t.bigint, (c) => c.primaryKey())
      .addColumn('guid', 'text', (c) => c.notNull())
      .addColumn('parent_id', t.bigint, (c) => c.notNull())
      .addColumn('house_num', 'text')
      .addColumn('add_num1', 'text')
      .addColumn('add_num2', 'text')
      .addColumn('house_type', 'integer')
      .addColumn('add_type1', 'integer')
      .addColumn('add_type2', 'integer')
      .addColumn('region_code', 'integer', (c) => c.notNull())
      .addColumn('postcode', 'text')
      .addColumn('okato', 'text')
      .addColumn('oktmo', 'text')
      .addColumn('lat', t.real)
      .addColumn('lon', t.real)
      .addColumn('geo_precision', 'text')
      .addColumn('search_key', 'text', (c) => c.notNull())
      .addColumn('change_id', t.bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('address_houses_guid').on('address_houses').column('guid').unique().execute();
    await db.schema
      .createIndex('address_houses_parent')
      .on('address_houses')
      .columns(['parent_id', 'search_key'])
      .execute();

    await db.schema
      .createTable('address_flats')
      .addColumn('object_id', t.bigint, (c) => c.primaryKey())
      .addColumn('guid', 'text', (c) => c.notNull())
      .addColumn('house_id', t.bigint, (c) => c.notNull())
      .addColumn('number', 'text', (c) => c.notNull())
      .addColumn('apart_type', 'integer')
      .addColumn('region_code', 'integer', (c) => c.notNull())
      .addColumn('postcode', 'text')
      .addColumn('change_id', t.bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('address_flats_guid').on('address_flats').column('guid').unique().execute();
    await db.schema.createIndex('address_flats_house').on('address_flats').columns(['house_id', 'number']).execute();

    await db.schema
      .createTable('address_types')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('level', 'integer')
      .addColumn('short_name', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('address_types_pk', ['kind', 'code'])
      .execute();

    await kit
      .withId(db.schema.createTable('address_imports'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('version', 'text')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('progress', 'text', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('started_at', t.instant, (c) => c.notNull())
      .addColumn('finished_at', t.instant)
      .execute();
  },
};
