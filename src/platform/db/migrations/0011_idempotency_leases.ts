import type { Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * An idempotency key in progress belongs to a live process (`owner`, whose lease it renews),
 * and says whether the request's effect has committed (written in the effect's own
 * transaction, with the answer when it is known then). A crash then leaves either "nothing
 * happened" (the key is taken over by the retry as soon as the lease lapses) or "it happened"
 * (the retry is answered what the first request would have answered).
 */
export const idempotencyLeases: SchemaMigration = {
  name: '0011_idempotency_leases',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    await db.schema.alterTable('idempotency_keys').addColumn('owner', 'text').execute();
    await db.schema.alterTable('idempotency_keys').addColumn('lease_until', kit.types.instant).execute();
    await db.schema
      .alterTable('idempotency_keys')
      .addColumn('effect_committed', kit.types.flag, (c) => kit.flagDefaultFalse(c))
      .execute();
  },
};
