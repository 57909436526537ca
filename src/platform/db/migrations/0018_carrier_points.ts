import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Pickup points imported from real companies' directories live beside the generated ones:
 * `code` is the company's own code (null for generated points), `hidden` marks a point gone
 * from the directory (kept, since orders name it). One row per (company, code).
 */
export const carrierPoints: SchemaMigration = {
  name: '0018_carrier_points',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    await db.schema.alterTable('delivery_points').addColumn('code', 'text').execute();
    await db.schema
      .alterTable('delivery_points')
      .addColumn('hidden', kit.types.flag, (c) => kit.flagDefaultFalse(c))
      .execute();
    await db.schema
      .createIndex('delivery_points_code')
      .on('delivery_points')
      .columns(['company_id', 'code'])
      .unique()
      .execute();
  },
};
