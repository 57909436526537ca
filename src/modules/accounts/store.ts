import type { Kysely } from 'kysely';
import type { EmployeeRole } from '../../platform/auth.js';
import type { Tables } from '../../platform/db/tables.js';
import {
  accountShopIds,
  emailTaken,
  employeeEmail,
  endLoginTokens,
  insertAccount,
  insertEmployeeRow,
  insertEmployeeShops,
  setPassword,
} from './employee-sql.js';

export interface EmployeeRecord {
  id: number;
  name: string;
  /** The e-mail the employee signs in with. */
  email: string;
  /** Whether they sign in with a second factor (TOTP). */
  secondFactor: boolean;
  role: EmployeeRole;
  /** A manager's shops in the order given; empty for an owner. */
  shopIds: number[];
  createdAt: string;
}

export interface EmployeeRow {
  id: number;
  accountId: number;
  passwordHash: string;
}

/** SQL of accounts, employees and tokens. */
export class AccountStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async countAccounts(): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async accountExists(accountId: number): Promise<boolean> {
    const row = await this.db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    return row !== undefined;
  }

  /** Accounts made before `createdBefore`, by id after `afterId` (a page of `limit`). */
  async accountsCreatedBefore(
    createdBefore: string,
    afterId: number,
    limit: number,
  ): Promise<Array<{ id: number; name: string; timeZone: string; createdAt: string }>> {
    const rows = await this.db
      .selectFrom('accounts')
      .select(['id', 'name', 'time_zone', 'created_at'])
      .where('created_at', '<', createdBefore)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
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

  insertAccount(name: string, timeZone: string, createdAt: string): Promise<number> {
    return insertAccount(this.db, name, timeZone, createdAt);
  }

  async insertToken(
    accountId: number,
    token: {
      employeeId: number | null;
      hash: string;
      label: string;
      createdAt: string;
      expiresAt: string | null;
      userAgent?: string | null;
      address?: string | null;
    },
  ): Promise<void> {
    await this.db
      .insertInto('access_tokens')
      .values({
        account_id: accountId,
        employee_id: token.employeeId,
        token_hash: token.hash,
        label: token.label,
        created_at: token.createdAt,
        expires_at: token.expiresAt,
        last_seen_at: token.employeeId === null ? null : token.createdAt,
        user_agent: token.userAgent ?? null,
        address: token.address ?? null,
      })
      .execute();
  }

  insertEmployee(
    accountId: number,
    employee: { name: string; email: string; passwordHash: string; createdAt: string },
  ): Promise<number> {
    return insertEmployeeRow(this.db, accountId, employee);
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

  async passwordHashOf(accountId: number, employeeId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('employees')
      .select('password_hash')
      .where('account_id', '=', accountId)
      .where('id', '=', employeeId)
      .executeTakeFirst();
    return row?.password_hash;
  }

  /** A new password; every login token of the employee but `keepTokenHash` (the caller's) ends. */
  async replacePassword(
    accountId: number,
    employeeId: number,
    passwordHash: string,
    keepTokenHash: string | null,
  ): Promise<void> {
    await this.db.transaction().execute((trx) => setPassword(trx, accountId, employeeId, passwordHash, keepTokenHash));
  }

  /** Whether an employee of this account signs in with `email`. */
  async emailInAccount(accountId: number, email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('employees')
      .select('id')
      .where('account_id', '=', accountId)
      .where('email', '=', email)
      .executeTakeFirst();
    return row !== undefined;
  }

  emailOf(accountId: number, employeeId: number): Promise<string | undefined> {
    return employeeEmail(this.db, accountId, employeeId);
  }

  emailTaken(email: string): Promise<boolean> {
    return emailTaken(this.db, email);
  }

  /** The ids among `ids` that are employees of the account. */
  async existingEmployeeIds(accountId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('employees')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** The account's employees, oldest first (the first is the one created with the account). */
  async employees(accountId: number): Promise<Array<{ id: number; name: string; email: string }>> {
    return this.db
      .selectFrom('employees')
      .select(['id', 'name', 'email'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  }

  /** Deletes one employee's login token; answers whether it existed. */
  async deleteLoginToken(accountId: number, tokenHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('access_tokens')
      .where('account_id', '=', accountId)
      .where('token_hash', '=', tokenHash)
      .where('employee_id', 'is not', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteExpiredTokens(now: string): Promise<void> {
    await this.db
      .deleteFrom('access_tokens')
      .where('expires_at', 'is not', null)
      .where('expires_at', '<', now)
      .execute();
  }

  /** The account's employees with their roles and shops, oldest first. */
  async employeeRecords(accountId: number, onlyId?: number): Promise<EmployeeRecord[]> {
    let query = this.db
      .selectFrom('employees')
      .select(['id', 'name', 'email', 'totp_secret', 'role', 'created_at'])
      .where('account_id', '=', accountId)
      .orderBy('id');
    if (onlyId !== undefined) query = query.where('id', '=', onlyId);
    const rows = await query.execute();
    if (rows.length === 0) return [];
    const shops = await this.db
      .selectFrom('employee_shops')
      .select(['employee_id', 'shop_id'])
      .where('account_id', '=', accountId)
      .where(
        'employee_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('employee_id')
      .orderBy('position')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      secondFactor: row.totp_secret !== null,
      role: row.role === 'manager' ? 'manager' : 'owner',
      shopIds: shops.filter((shop) => Number(shop.employee_id) === row.id).map((shop) => Number(shop.shop_id)),
      createdAt: row.created_at,
    }));
  }

  /** The ids among `ids` that are shops of the account. */
  existingShopIds(accountId: number, ids: number[]): Promise<Set<number>> {
    return accountShopIds(this.db, accountId, ids);
  }

  /** Names of a manager's shops, in the order given. */
  async managedShops(accountId: number, employeeId: number): Promise<Array<{ id: number; name: string }>> {
    const rows = await this.db
      .selectFrom('employee_shops')
      .innerJoin('shops', 'shops.id', 'employee_shops.shop_id')
      .select(['shops.id as id', 'shops.name as name'])
      .where('employee_shops.account_id', '=', accountId)
      .where('employee_shops.employee_id', '=', employeeId)
      .orderBy('employee_shops.position')
      .execute();
    return rows.map((row) => ({ id: Number(row.id), name: row.name }));
  }

  async countOwners(accountId: number): Promise<number> {
    const row = await this.db
      .selectFrom('employees')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', accountId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Sets an employee's role and shops in one transaction (the shops replaced as a whole). */
  async setRole(
    accountId: number,
    employeeId: number,
    change: { name?: string; role: EmployeeRole; shopIds: number[] },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('employees')
        .set({ role: change.role, ...(change.name !== undefined ? { name: change.name } : {}) })
        .where('account_id', '=', accountId)
        .where('id', '=', employeeId)
        .execute();
      await trx
        .deleteFrom('employee_shops')
        .where('account_id', '=', accountId)
        .where('employee_id', '=', employeeId)
        .execute();
      await insertEmployeeShops(trx, accountId, employeeId, change.shopIds);
    });
  }

  /** Deletes an employee with their tokens and shops; answers whether they existed. */
  async deleteEmployee(accountId: number, employeeId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await endLoginTokens(trx, accountId, employeeId, null);
      await trx
        .deleteFrom('employee_shops')
        .where('account_id', '=', accountId)
        .where('employee_id', '=', employeeId)
        .execute();
      const result = await trx
        .deleteFrom('employees')
        .where('account_id', '=', accountId)
        .where('id', '=', employeeId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}
