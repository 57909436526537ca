import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/** The job table shared by every process (see src/platform/jobs.ts). */
export const jobs: SchemaMigration = {
  name: '0005_jobs',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('jobs'))
      .addColumn('account_id', t.bigint, (c) => c.references('accounts.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('payload', t.json, (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('run_at', t.instant, (c) => c.notNull())
      .addColumn('unique_key', 'text')
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', t.instant)
      .addColumn('last_error', 'text')
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();
    await db.schema.createIndex('jobs_unique').on('jobs').columns(['kind', 'unique_key']).execute();
  },
};
