import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * A disconnected contract with a real delivery company whose sealed credentials are kept
 * until the work after disconnecting has run (its status webhook deleted with the company),
 * then erased. Gone with its account.
 */
export const carrierRetiredContracts: SchemaMigration = {
  name: '0021_carrier_retired_contracts',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('carrier_retired_contracts'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('credentials', 'text', (c) => c.notNull())
      .addColumn('test_mode', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('retired_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('carrier_retired_contracts_account')
      .on('carrier_retired_contracts')
      .column('account_id')
      .execute();
  },
};
