import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/** Webhook endpoints and CMS callback targets, their deliveries (in order) and attempts. */
export const webhooks: SchemaMigration = {
  name: '0030_webhooks',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('webhook_endpoints'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('shop_id', t.bigint)
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('event_types', t.json, (c) => c.notNull())
      .addColumn('enabled', t.flag, (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_until', t.instant)
      .addColumn('cms_platform', 'text')
      .addColumn('cms_api_key', 'text')
      .addColumn('status_map', t.json)
      .addColumn('failing_since', t.instant)
      .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('retry_at', t.instant)
      .addColumn('lease_until', t.instant)
      .addColumn('disabled_reason', 'text')
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('updated_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_endpoints_account')
      .on('webhook_endpoints')
      .columns(['account_id', 'id'])
      .execute();

    await kit
      .withId(db.schema.createTable('webhook_deliveries'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('endpoint_id', t.bigint, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('event_id', t.bigint)
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('order_id', t.bigint)
      .addColumn('resource', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', t.instant)
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .execute();
    // the sender walks an endpoint's pending deliveries in id order
    await db.schema
      .createIndex('webhook_deliveries_endpoint')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'status', 'id'])
      .execute();
    await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').column('created_at').execute();

    await kit
      .withId(db.schema.createTable('webhook_attempts'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('endpoint_id', t.bigint, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('delivery_id', t.bigint, (c) => c.notNull())
      .addColumn('at', t.instant, (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('http_status', 'integer')
      .addColumn('error', 'text')
      .addColumn('response_head', 'text')
      .execute();
    await db.schema
      .createIndex('webhook_attempts_endpoint')
      .on('webhook_attempts')
      .columns(['endpoint_id', 'id'])
      .execute();
  },
};
