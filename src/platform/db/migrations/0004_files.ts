import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/** Generated files (labels, acts, reports): where they are, whose, and until when they are served. */
export const files: SchemaMigration = {
  name: '0004_files',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('files')
      // The unguessable name is the capability in the public URL, so it is the key.
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('download_name', 'text')
      .addColumn('size', t.bigint, (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('expires_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('files_expires').on('files').column('expires_at').execute();
    await db.schema.createIndex('files_account').on('files').columns(['account_id', 'created_at']).execute();
  },
};
