import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * How long a file's link works without a token: `files.public_until` (null for files made before,
 * public for their whole life as they were promised), and an account's choice of token-only
 * downloads (`file_settings`).
 */
export const fileLinks: SchemaMigration = {
  name: '0091_file_links',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema.alterTable('files').addColumn('public_until', t.instant).execute();
    await db.schema
      .createTable('file_settings')
      .addColumn('account_id', t.bigint, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('token_only', t.flag, (c) => c.notNull())
      .execute();
  },
};
