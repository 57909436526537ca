import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * Measured journeys: one row per arrived parcel (the account's, for its report; a generated
 * history's rows have no order), and the instance's distributions of business days per key
 * (route, regions, distance band, company), a row per key and day count, incremented in the
 * arrival's transaction: a process starting reads these, not every journey.
 */
export const deliveryPromises: SchemaMigration = {
  name: '0100_delivery_promises',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('transit_observations'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('order_id', t.bigint)
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('delivery_type', 'integer', (c) => c.notNull())
      .addColumn('tariff', 'text')
      .addColumn('from_locality', t.bigint, (c) => c.notNull())
      .addColumn('to_locality', t.bigint, (c) => c.notNull())
      .addColumn('from_name', 'text', (c) => c.notNull())
      .addColumn('to_name', 'text', (c) => c.notNull())
      .addColumn('from_region', 'text', (c) => c.notNull())
      .addColumn('to_region', 'text', (c) => c.notNull())
      .addColumn('from_lat', t.real, (c) => c.notNull())
      .addColumn('from_lon', t.real, (c) => c.notNull())
      .addColumn('to_lat', t.real, (c) => c.notNull())
      .addColumn('to_lon', t.real, (c) => c.notNull())
      .addColumn('handed_over', t.date, (c) => c.notNull())
      .addColumn('arrived', t.date, (c) => c.notNull())
      .addColumn('days', 'integer', (c) => c.notNull())
      .addColumn('promised_days', 'integer')
      .addColumn('promised_by', t.date)
      .addColumn('promise_basis', 'text')
      .addColumn('declared_days', 'integer')
      .addColumn('generated', 'boolean', (c) => kit.flagDefaultFalse(c))
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('transit_observations_account_arrived')
      .on('transit_observations')
      .columns(['account_id', 'arrived'])
      .execute();
    await db.schema
      .createTable('transit_stats')
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('days', 'integer', (c) => c.notNull())
      .addColumn('parcels', t.bigint, (c) => c.notNull())
      .addPrimaryKeyConstraint('transit_stats_pk', ['key', 'days'])
      .execute();
  },
};
