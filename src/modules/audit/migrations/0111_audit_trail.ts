import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * The audit trail (extension): one entry per change, written in the change's transaction
 * (platform/audit.ts), sealed shortly after into a hash chain per account (modules/audit/service.ts).
 * `record_keys` (` orders:12 shops:3 `) is what the record filter searches, the same on both engines.
 */
export const auditTrail: SchemaMigration = {
  name: '0111_audit_trail',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('audit_entries'))
      .addColumn('account_id', t.bigint, (c) => c.notNull())
      .addColumn('at', t.instant, (c) => c.notNull())
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('records', t.json, (c) => c.notNull())
      .addColumn('record_keys', 'text', (c) => c.notNull().defaultTo(' '))
      .addColumn('changes', t.json)
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('seq', t.bigint)
      .addColumn('prev_hash', 'text')
      .addColumn('hash', 'text')
      .execute();
    await db.schema.createIndex('audit_entries_account').on('audit_entries').columns(['account_id', 'id']).execute();
    await db.schema
      .createIndex('audit_entries_chain')
      .on('audit_entries')
      .columns(['account_id', 'seq'])
      .unique()
      .execute();
    await db.schema.createIndex('audit_entries_at').on('audit_entries').columns(['account_id', 'at']).execute();
    await db.schema
      .createTable('audit_chains')
      .addColumn('account_id', t.bigint, (c) => c.primaryKey())
      .addColumn('last_seq', t.bigint, (c) => c.notNull())
      .addColumn('last_hash', 'text', (c) => c.notNull())
      .addColumn('start_seq', t.bigint, (c) => c.notNull())
      .addColumn('start_prev_hash', 'text', (c) => c.notNull())
      .addColumn('retention_days', 'integer')
      .execute();
  },
};
