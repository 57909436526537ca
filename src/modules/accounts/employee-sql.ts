/**
 * SQL that the account store and the access store (links, sessions, second factors) both run:
 * an employee's e-mail, whether an e-mail is taken, a new account, an employee's password and
 * login tokens, a manager's shops. Each takes the database or the transaction it runs in.
 */
import type { Kysely, Transaction } from 'kysely';
import type { EmployeeRole } from '../../platform/auth.js';
import type { Tables } from '../../platform/db/tables.js';

export type Db = Kysely<Tables> | Transaction<Tables>;

export async function employeeEmail(db: Db, accountId: number, employeeId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('employees')
    .select('email')
    .where('account_id', '=', accountId)
    .where('id', '=', employeeId)
    .executeTakeFirst();
  return row?.email;
}

/** Whether an employee of any account signs in with `email` (a login names no account). */
export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('employees').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

export async function insertAccount(db: Db, name: string, timeZone: string, createdAt: string): Promise<number> {
  const row = await db
    .insertInto('accounts')
    .values({ name, time_zone: timeZone, created_at: createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A new employee (without a role: the table's default, an owner); their id. */
export async function insertEmployeeRow(
  db: Db,
  accountId: number,
  employee: { name: string; email: string; passwordHash: string; createdAt: string; role?: EmployeeRole },
): Promise<number> {
  const row = await db
    .insertInto('employees')
    .values({
      account_id: accountId,
      name: employee.name,
      email: employee.email,
      password_hash: employee.passwordHash,
      created_at: employee.createdAt,
      ...(employee.role ? { role: employee.role } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The ids among `ids` that are shops of the account. */
export async function accountShopIds(db: Db, accountId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('shops')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => Number(row.id)));
}

/** Ends every login token of the employee but `keepTokenHash` (the caller's) when given. */
export async function endLoginTokens(
  db: Db,
  accountId: number,
  employeeId: number,
  keepTokenHash: string | null,
): Promise<void> {
  let query = db.deleteFrom('access_tokens').where('account_id', '=', accountId).where('employee_id', '=', employeeId);
  if (keepTokenHash) query = query.where('token_hash', '<>', keepTokenHash);
  await query.execute();
}

/** A new password; every login token of the employee but `keepTokenHash` ends. */
export async function setPassword(
  db: Db,
  accountId: number,
  employeeId: number,
  passwordHash: string,
  keepTokenHash: string | null,
): Promise<void> {
  await db
    .updateTable('employees')
    .set({ password_hash: passwordHash })
    .where('account_id', '=', accountId)
    .where('id', '=', employeeId)
    .execute();
  await endLoginTokens(db, accountId, employeeId, keepTokenHash);
}

/** A manager's shops, in the order given (none for an empty list). */
export async function insertEmployeeShops(
  db: Db,
  accountId: number,
  employeeId: number,
  shopIds: number[],
): Promise<void> {
  if (shopIds.length === 0) return;
  await db
    .insertInto('employee_shops')
    .values(
      shopIds.map((shopId, position) => ({
        account_id: accountId,
        employee_id: employeeId,
        shop_id: shopId,
        position,
      })),
    )
    .execute();
}
