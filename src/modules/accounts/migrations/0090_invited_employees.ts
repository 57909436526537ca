import type { Kysely } from 'kysely';
import type { SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * An employee invited with an e-mail that already signs in to another account: the invitation
 * is kept (the owner sees the e-mail they typed, in `invited_email`) under a login e-mail no one
 * can type, so the owner learns nothing of other accounts and the person's own sign-in is untouched.
 */
export const invitedEmployees: SchemaMigration = {
  name: '0090_invited_employees',
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('employees').addColumn('invited_email', 'text').execute();
  },
};
