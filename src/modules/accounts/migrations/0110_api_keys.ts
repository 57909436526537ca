import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * Scoped API keys (extension): an owner's key limited to scopes (platform/key-scopes.ts), and
 * optionally to shops, an expiry and an IP allow-list. Only the SHA-256 of the key is kept; a
 * revoked key stays listed (who made it, when it was last used) but never resolves again.
 */
export const apiKeys: SchemaMigration = {
  name: '0110_api_keys',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('api_keys'))
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_hint', 'text', (c) => c.notNull())
      .addColumn('scopes', t.json, (c) => c.notNull())
      .addColumn('shop_ids', t.json)
      .addColumn('allowed_ips', t.json)
      .addColumn('expires_at', t.instant)
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('last_used_at', t.instant)
      .addColumn('revoked_at', t.instant)
      .execute();
    await db.schema.createIndex('api_keys_account').on('api_keys').columns(['account_id', 'id']).execute();
  },
};
