import { sql, type Kysely } from 'kysely';
import { randomBytes, createHash } from 'node:crypto';
import type { MigrationKit, SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * One-time links (set-up, invitation, password reset, sign-up): only the SHA-256 of the token is
 * kept, with its purpose and expiry; a link is deleted when used. Sessions remember when they were
 * last seen, from which browser and address. Employees may add a TOTP second factor (its secret
 * sealed with the instance secret) with one-time recovery codes; an account may require it.
 *
 * The placeholder employees of invitations to an e-mail that signs in to another account (a login
 * e-mail no one can type, the typed one in `invited_email`) become pending invitations, expired
 * so the owner re-sends them: the person now accepts by a link sent to that e-mail.
 */
export const accountLinks: SchemaMigration = {
  name: '0095_account_links',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const t = kit.types;
    await kit
      .withId(db.schema.createTable('account_links'))
      .addColumn('account_id', t.bigint, (c) => c.references('accounts.id').onDelete('cascade'))
      .addColumn('employee_id', t.bigint, (c) => c.references('employees.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('email', 'text')
      .addColumn('data', t.json)
      .addColumn('created_at', t.instant, (c) => c.notNull())
      .addColumn('expires_at', t.instant, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('account_links_account')
      .on('account_links')
      .columns(['account_id', 'purpose'])
      .execute();
    await db.schema.createIndex('account_links_expiry').on('account_links').columns(['expires_at']).execute();

    await db.schema.alterTable('access_tokens').addColumn('last_seen_at', t.instant).execute();
    await db.schema.alterTable('access_tokens').addColumn('user_agent', 'text').execute();
    await db.schema.alterTable('access_tokens').addColumn('address', 'text').execute();

    await db.schema.alterTable('employees').addColumn('totp_secret', 'text').execute();
    await db.schema.alterTable('employees').addColumn('totp_pending', 'text').execute();
    await db.schema.alterTable('employees').addColumn('totp_last_step', t.bigint).execute();
    await db.schema
      .alterTable('accounts')
      .addColumn('second_factor_required', t.flag, (c) => kit.flagDefaultFalse(c))
      .execute();
    await db.schema
      .createTable('employee_recovery_codes')
      .addColumn('account_id', t.bigint, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('employee_id', t.bigint, (c) => c.notNull().references('employees.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('employee_recovery_codes_pk', ['employee_id', 'code_hash'])
      .execute();

    // the placeholders become pending invitations (expired: the owner re-sends them by e-mail)
    const placeholders = await sql<{
      id: number | string;
      account_id: number | string;
      name: string;
      invited_email: string;
      role: string;
      created_at: string | Date;
    }>`select id, account_id, name, invited_email, role, created_at from employees where invited_email is not null`.execute(
      db,
    );
    for (const row of placeholders.rows) {
      const shops = await sql<{
        shop_id: number | string;
      }>`select shop_id from employee_shops where employee_id = ${row.id} order by position`.execute(db);
      const createdAt = row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at;
      const data = JSON.stringify({
        name: row.name === row.invited_email ? '' : row.name,
        role: row.role === 'manager' ? 'manager' : 'owner',
        shopIds: shops.rows.map((shop) => Number(shop.shop_id)),
      });
      const unusable = createHash('sha256').update(randomBytes(32)).digest('hex');
      await sql`insert into account_links (account_id, purpose, token_hash, email, data, created_at, expires_at)
        values (${row.account_id}, 'invitation', ${unusable}, ${row.invited_email}, ${data}, ${createdAt}, ${createdAt})`.execute(
        db,
      );
      await sql`delete from employee_shops where employee_id = ${row.id}`.execute(db);
      await sql`delete from access_tokens where employee_id = ${row.id}`.execute(db);
      await sql`delete from employees where id = ${row.id}`.execute(db);
    }
    await db.schema.alterTable('employees').dropColumn('invited_email').execute();
  },
};
