import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * Buyers' messages: each shop's settings (channels, moments, templates; the gateways' and the
 * bot's credentials sealed), every message made (one per order, moment and channel: the unique
 * key is what keeps a repeated status from sending twice), the buyers who unsubscribed from a
 * channel, and the Telegram chats buyers started with a shop's bot (by their phone).
 */
export const buyerMessages: SchemaMigration = {
  name: '0102_buyer_messages',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await db.schema
      .createTable('buyer_message_settings')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull().references('shops.id').onDelete('cascade'))
      .addColumn('settings', t.json, (c) => c.notNull())
      .addColumn('templates', t.json, (c) => c.notNull())
      .addColumn('secrets', 'text')
      .addColumn('webhook_key', 'text')
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('buyer_message_settings_pk', ['account_id', 'shop_id'])
      .execute();
    await db.schema
      .createIndex('buyer_message_settings_webhook')
      .unique()
      .on('buyer_message_settings')
      .column('webhook_key')
      .execute();
    await kit
      .withId(db.schema.createTable('buyer_messages'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull())
      .addColumn('order_id', t.bigint, (c) => c.notNull())
      .addColumn('moment', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('subject', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('link', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('gateway', 'text')
      .addColumn('gateway_id', 'text')
      .addColumn('segments', 'integer')
      .addColumn('cost_kopecks', t.bigint)
      .addColumn('send_after', t.instant, (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('sent_at', t.instant)
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('buyer_messages_once')
      .unique()
      .on('buyer_messages')
      .columns(['account_id', 'order_id', 'moment', 'channel'])
      .execute();
    await db.schema
      .createIndex('buyer_messages_account_created')
      .on('buyer_messages')
      .columns(['account_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('buyer_unsubscribes')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('buyer_unsubscribes_pk', ['account_id', 'shop_id', 'channel', 'address'])
      .execute();
    await db.schema
      .createTable('telegram_chats')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint, (c) => c.notNull())
      .addColumn('phone', 'text', (c) => c.notNull())
      .addColumn('chat_id', 'text', (c) => c.notNull())
      .addColumn('language', 'text')
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('telegram_chats_pk', ['account_id', 'shop_id', 'phone'])
      .execute();
    // an instance that already has events: its buyers hear of what happens from now on, not of last month's
    await sql`insert into event_consumers (name, position, updated_at)
      select 'buyer-messages', coalesce((select max(seq) from order_events), (select max(id) from order_events), 0), ${new Date().toISOString()}`.execute(
      db,
    );
  },
};
