import type { Kysely } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';

export interface EmployeeRow {
  id: number;
  accountId: number;
  passwordHash: string;
}

/** SQL of accounts, employees and tokens. */
export class AccountStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async countAccounts(): Promise<number> {
    const row = await this.db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async accountExists(accountId: number): Promise<boolean> {
    const row = await this.db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    return row !== undefined;
  }

  /** Accounts made before `createdBefore`, by id after `afterId` (a page of `limit`). */
  async accountsCreatedBefore(createdBefore: string, afterId: number, limit: number): Promise<Array<{ id: number; name: string; timeZone: string; createdAt: string }>> {
    const rows = await this.db.selectFrom('accounts').select(['id', 'name', 'time_zone', 'created_at']).where('created_at', '<', createdBefore).where('id', '>', afterId).orderBy('id').limit(limit).execute();
    return rows.map((row) => ({ id: row.id, name: row.name, timeZone: row.time_zone, createdAt: row.created_at }));
  }

  async nameOf(accountId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
    return row?.name;
  }

  async timeZoneOf(accountId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('accounts').select('time_zone').where('id', '=', accountId).executeTakeFirst();
    return row?.time_zone;
  }

  async insertAccount(name: string, timeZone: string, createdAt: string): Promise<number> {
    const row = await this.db
      .insertInto('accounts')
      .values({ name, time_zone: timeZone, created_at: createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async insertToken(accountId: number, token: { employeeId: number | null; hash: string; label: string; createdAt: string; expiresAt: string | null }): Promise<void> {
    await this.db
      .insertInto('access_tokens')
      .values({ account_id: accountId, employee_id: token.employeeId, token_hash: token.hash, label: token.label, created_at: token.createdAt, expires_at: token.expiresAt })
      .execute();
  }

  async insertEmployee(accountId: number, employee: { name: string; email: string; passwordHash: string; createdAt: string }): Promise<number> {
    const row = await this.db
      .insertInto('employees')
      .values({ account_id: accountId, name: employee.name, email: employee.email, password_hash: employee.passwordHash, created_at: employee.createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Login names no account, so this one lookup is by e-mail across accounts. */
  async findEmployeeByEmail(email: string): Promise<EmployeeRow | undefined> {
    const row = await this.db
      .selectFrom('employees')
      .select(['id', 'account_id', 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirst();
    return row ? { id: row.id, accountId: row.account_id, passwordHash: row.password_hash } : undefined;
  }

  async emailTaken(email: string): Promise<boolean> {
    const row = await this.db.selectFrom('employees').select('id').where('email', '=', email).executeTakeFirst();
    return row !== undefined;
  }

  /** The ids among `ids` that are employees of the account. */
  async existingEmployeeIds(accountId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('employees').select('id').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }

  /** The account's employees, oldest first (the first is the one created with the account). */
  async employees(accountId: number): Promise<Array<{ id: number; name: string; email: string }>> {
    return this.db.selectFrom('employees').select(['id', 'name', 'email']).where('account_id', '=', accountId).orderBy('id').execute();
  }

  /** Deletes one employee's login token; answers whether it existed. */
  async deleteLoginToken(accountId: number, tokenHash: string): Promise<boolean> {
    const result = await this.db.deleteFrom('access_tokens').where('account_id', '=', accountId).where('token_hash', '=', tokenHash).where('employee_id', 'is not', null).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteExpiredTokens(now: string): Promise<void> {
    await this.db.deleteFrom('access_tokens').where('expires_at', 'is not', null).where('expires_at', '<', now).execute();
  }
}
