import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * An account's own contracts with real delivery companies: the credentials sealed with the
 * instance secret, their masked form for GET, and whether they are the company's test
 * environment's.
 */
export const carrierAccounts: SchemaMigration = {
  name: '0016_carrier_accounts',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('carrier_integrations'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('company_id', 'integer', (c) => c.notNull())
      .addColumn('credentials', 'text', (c) => c.notNull())
      .addColumn('masked', t.json, (c) => c.notNull())
      .addColumn('test_mode', t.flag, (c) => kit.flagDefaultFalse(c))
      .addColumn('connected_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('carrier_integrations_account')
      .on('carrier_integrations')
      .columns(['account_id', 'company_id'])
      .unique()
      .execute();
  },
};
