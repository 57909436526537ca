import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Files' bytes in the database (FILE_STORE=database, the default with PostgreSQL): every
 * process sharing it serves every file. Chunks of 1 MiB, deleted with their row.
 */
export const fileContents: SchemaMigration = {
  name: '0025_file_contents',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const postgres = kit.kind === 'postgres';
    await db.schema
      .alterTable('files')
      .addColumn('in_database', kit.types.flag, (c) => kit.flagDefaultFalse(c))
      .execute();
    await db.schema
      .createTable('file_chunks')
      .addColumn('name', 'text', (c) => c.notNull().references('files.name').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('bytes', postgres ? 'bytea' : 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint('file_chunks_pk', ['name', 'seq'])
      .execute();
    // PDFs, ZIPs and xlsx are compressed already: PostgreSQL's attempt to compress each chunk
    // again costs CPU and saves nothing (bench/file-store.ts)
    if (postgres) await sql`alter table file_chunks alter column bytes set storage external`.execute(db);
  },
};
