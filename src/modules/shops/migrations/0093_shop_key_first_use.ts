import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * When a shop's current API key first authenticated a call: a CMS plugin (or the shop's own
 * server) has been given it and calls. The first-run checklist reads it; a new key clears it.
 */
export const shopKeyFirstUse: SchemaMigration = {
  name: '0093_shop_key_first_use',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    await db.schema.alterTable('shops').addColumn('api_key_used_at', kit.types.instant).execute();
  },
};
