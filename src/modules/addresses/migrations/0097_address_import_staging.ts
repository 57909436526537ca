import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * The import's staging tables: a region's files are read into them first (by object id, the later
 * change winning), then moved into the register's tables in one short transaction with the joins
 * that give each row its parent and parameters, so a region is visible only once whole and the
 * service's own writes wait only for that move. Empty between imports. Also the indexes a region's
 * replacement and the locality matching read by.
 */
export const addressImportStaging: SchemaMigration = {
  name: '0097_address_import_staging',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('address_stage_objects')
      .addColumn('object_id', t.bigint, (c) => c.primaryKey())
      .addColumn('guid', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type_short', 'text', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('search_key', 'text', (c) => c.notNull())
      .addColumn('change_id', t.bigint, (c) => c.notNull())
      .addColumn('alive', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('address_stage_houses')
      .addColumn('object_id', t.bigint, (c) => c.primaryKey())
      .addColumn('guid', 'text', (c) => c.notNull())
      .addColumn('house_num', 'text')
      .addColumn('add_num1', 'text')
      .addColumn('add_num2', 'text')
      .addColumn('house_type', 'integer')
      .addColumn('add_type1', 'integer')
      .addColumn('add_type2', 'integer')
      .addColumn('search_key', 'text', (c) => c.notNull())
      .addColumn('change_id', t.bigint, (c) => c.notNull())
      .addColumn('alive', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('address_stage_flats')
      .addColumn('object_id', t.bigint, (c) => c.primaryKey())
      .addColumn('guid', 'text', (c) => c.notNull())
      .addColumn('number', 'text', (c) => c.notNull())
      .addColumn('apart_type', 'integer')
      .addColumn('change_id', t.bigint, (c) => c.notNull())
      .addColumn('alive', 'integer', (c) => c.notNull())
      .execute();
    // 'adm' and 'mun' items of the two hierarchies
    await db.schema
      .createTable('address_stage_hierarchy')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('object_id', t.bigint, (c) => c.notNull())
      .addColumn('parent_id', t.bigint)
      .addColumn('change_id', t.bigint, (c) => c.notNull())
      .addColumn('alive', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('address_stage_hierarchy_pk', ['object_id', 'kind'])
      .execute();
    await db.schema
      .createTable('address_stage_params')
      .addColumn('object_id', t.bigint, (c) => c.notNull())
      .addColumn('type_id', 'integer', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('change_id', t.bigint, (c) => c.notNull())
      .addPrimaryKeyConstraint('address_stage_params_pk', ['object_id', 'type_id'])
      .execute();

    await db.schema
      .createIndex('address_objects_region')
      .on('address_objects')
      .columns(['region_code', 'level'])
      .execute();
    await db.schema.createIndex('address_houses_region').on('address_houses').column('region_code').execute();
    await db.schema.createIndex('address_flats_region').on('address_flats').column('region_code').execute();
  },
};
