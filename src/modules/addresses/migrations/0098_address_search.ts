import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * What the search adds to the register (0096): the accounts' address settings (a shop's own DaData
 * keys, sealed), and an index on houses' latitude for geolocation (a band of latitude, then the
 * longitudes inside it: a few hundred rows for a 1 km radius in a city).
 */
export const addressSearch: SchemaMigration = {
  name: '0098_address_search',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('address_settings')
      .addColumn('account_id', t.bigint, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('dadata_keys', 'text')
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('address_houses_lat').on('address_houses').columns(['lat', 'lon']).execute();
  },
};
