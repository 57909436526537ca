import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Reports: the billing periods closed per account, the bills with their lines and
 * payments, the agent reports, the analytical reports, and the tokens of the service's billing
 * operators. The unique indexes on (account, period_start) are what makes a period closed once
 * even when two processes run its job at the same time.
 */
export const reports: SchemaMigration = {
  name: '0014_reports',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('billing_periods'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('period_start', t.date, (c) => c.notNull())
      .addColumn('period_end', t.date, (c) => c.notNull())
      .addColumn('closed_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('billing_periods_account_start')
      .on('billing_periods')
      .columns(['account_id', 'period_start'])
      .unique()
      .execute();

    await kit
      .withId(db.schema.createTable('bills'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('period_start', t.date, (c) => c.notNull())
      .addColumn('period_end', t.date, (c) => c.notNull())
      .addColumn('date', t.date, (c) => c.notNull())
      .addColumn('sum', t.bigint, (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('bills_account_start')
      .on('bills')
      .columns(['account_id', 'period_start'])
      .unique()
      .execute();
    await db.schema.createIndex('bills_account_date').on('bills').columns(['account_id', 'date', 'id']).execute();

    await kit
      .withId(db.schema.createTable('bill_lines'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('bill_id', t.bigint, (c) => c.notNull().references('bills.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('order_id', t.bigint)
      .addColumn('quantity', t.bigint, (c) => c.notNull())
      .addColumn('amount', t.bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('bill_lines_bill').on('bill_lines').columns(['bill_id', 'position']).execute();

    await kit
      .withId(db.schema.createTable('bill_payments'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('bill_id', t.bigint, (c) => c.notNull().references('bills.id').onDelete('cascade'))
      .addColumn('sum', t.bigint, (c) => c.notNull())
      .addColumn('date', t.date, (c) => c.notNull())
      .addColumn('operator_id', t.bigint, (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('bill_payments_bill').on('bill_payments').columns(['bill_id']).execute();

    await kit
      .withId(db.schema.createTable('agent_reports'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('period_start', t.date, (c) => c.notNull())
      .addColumn('period_end', t.date, (c) => c.notNull())
      .addColumn('date', t.date, (c) => c.notNull())
      .addColumn('sum', t.bigint, (c) => c.notNull())
      .addColumn('accepted', 'boolean', (c) => kit.flagDefaultFalse(c))
      .addColumn('accepted_at', t.instant)
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('agent_reports_account_type_start')
      .on('agent_reports')
      .columns(['account_id', 'type', 'period_start'])
      .unique()
      .execute();
    await db.schema
      .createIndex('agent_reports_account_date')
      .on('agent_reports')
      .columns(['account_id', 'date', 'id'])
      .execute();

    await kit
      .withId(db.schema.createTable('analytical_reports'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('date_from', t.date, (c) => c.notNull())
      .addColumn('date_to', t.date, (c) => c.notNull())
      .addColumn('filters', t.json, (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull().unique())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('analytical_reports_account')
      .on('analytical_reports')
      .columns(['account_id', 'id'])
      .execute();

    await kit
      .withId(db.schema.createTable('billing_operator_tokens'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
  },
};
