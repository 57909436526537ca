import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * Order events (the outbox written with every order change), the positions of their
 * consumers, and the notifications made from them.
 */
export const events: SchemaMigration = {
  name: '0008_events',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    const postgres = kit.kind === 'postgres';
    await kit
      .withId(db.schema.createTable('order_events'))
      // PostgreSQL: the public, gap-free position, given after commit by the sequencer (SQLite: the id is it)
      .addColumn('seq', t.bigint)
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint)
      .addColumn('order_id', t.bigint, (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('status_from', 'integer')
      .addColumn('status_to', 'integer')
      .addColumn('at', t.instant, (c) => c.notNull())
      .addColumn('payload', t.json, (c) => c.notNull())
      .execute();
    const index = (name: string, columns: string[]) =>
      db.schema.createIndex(name).on('order_events').columns(columns).execute();
    if (postgres) {
      await sql`create sequence order_events_seq`.execute(db);
      await db.schema.createIndex('order_events_seq_unique').on('order_events').column('seq').unique().execute();
      await index('order_events_account_seq', ['account_id', 'seq']);
      await index('order_events_account_shop_seq', ['account_id', 'shop_id', 'seq']);
      await sql`create index order_events_unsequenced on order_events (id) where seq is null`.execute(db);
    } else {
      await index('order_events_account_id', ['account_id', 'id']);
      await index('order_events_account_shop_id', ['account_id', 'shop_id', 'id']);
    }
    await index('order_events_at', ['at']);

    await db.schema
      .createTable('event_consumers')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('position', t.bigint, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();

    await kit
      .withId(db.schema.createTable('notifications'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      // "account" (the account owner) or "employee:<id>"
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('employee_id', t.bigint)
      .addColumn('event_id', t.bigint, (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('order_id', t.bigint)
      .addColumn('shop_id', t.bigint)
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('email_to', 'text')
      .addColumn('email_status', 'text', (c) => c.notNull())
      .addColumn('emailed_at', t.instant)
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('read_at', t.instant)
      .execute();
    await db.schema
      .createIndex('notifications_recipient')
      .on('notifications')
      .columns(['account_id', 'recipient', 'id'])
      .execute();
    // one notification per event, type and person, however often the dispatcher is retried
    await db.schema
      .createIndex('notifications_once')
      .on('notifications')
      .columns(['event_id', 'type', 'recipient'])
      .unique()
      .execute();
    await db.schema.createIndex('notifications_created').on('notifications').columns(['created_at']).execute();
  },
};
