/**
 * SQL of one-time links, sessions and second factors. Each flow that uses a link deletes it in
 * the transaction of what it does: the delete's row count is what makes a link single-use (two
 * requests racing with one link: one deletes it, the other finds nothing), and a refusal later in
 * the flow rolls the delete back, so the link still works for a corrected try.
 */
import type { Kysely, Transaction } from 'kysely';
import type { EmployeeRole } from '../../platform/auth.js';
import type { Tables } from '../../platform/db/tables.js';
import { flag, fromJson, nowIso, toJson } from '../../platform/db/values.js';
import {
  accountShopIds,
  type Db,
  emailTaken,
  employeeEmail,
  insertAccount,
  insertEmployeeRow,
  insertEmployeeShops,
  setPassword,
} from './employee-sql.js';

export type LinkPurpose = 'setup' | 'invitation' | 'reset' | 'signup';

export interface LinkRecord {
  id: number;
  accountId: number | null;
  employeeId: number | null;
  purpose: LinkPurpose;
  email: string | null;
  data: Record<string, unknown>;
  createdAt: string;
  expiresAt: string;
}

export interface NewLink {
  accountId: number | null;
  employeeId: number | null;
  purpose: LinkPurpose;
  tokenHash: string;
  email: string | null;
  data: Record<string, unknown> | null;
  expiresAt: string;
}

export interface SessionRecord {
  id: number;
  tokenHash: string;
  label: string;
  createdAt: string;
  lastSeenAt: string | null;
  expiresAt: string | null;
  userAgent: string | null;
  address: string | null;
}

export interface SecondFactorRecord {
  accountId: number;
  employeeId: number;
  secret: string | null;
  pending: string | null;
  lastStep: number | null;
  required: boolean;
}

function linkOf(row: {
  id: number;
  account_id: number | null;
  employee_id: number | null;
  purpose: string;
  email: string | null;
  data: unknown;
  created_at: string;
  expires_at: string;
}): LinkRecord {
  return {
    id: Number(row.id),
    accountId: row.account_id === null ? null : Number(row.account_id),
    employeeId: row.employee_id === null ? null : Number(row.employee_id),
    purpose: row.purpose as LinkPurpose,
    email: row.email,
    data: (row.data === null ? {} : fromJson<Record<string, unknown>>(row.data)) ?? {},
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export class AccessStore {
  constructor(private readonly db: Kysely<Tables>) {}

  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insertLink(link: NewLink, db: Db = this.db): Promise<number> {
    const row = await db
      .insertInto('account_links')
      .values({
        account_id: link.accountId,
        employee_id: link.employeeId,
        purpose: link.purpose,
        token_hash: link.tokenHash,
        email: link.email,
        data: link.data === null ? null : toJson(link.data),
        created_at: nowIso(),
        expires_at: link.expiresAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** A link by its token's hash and purpose, unexpired at `now`. */
  async findLink(tokenHash: string, purpose: LinkPurpose, now: string, db: Db = this.db): Promise<LinkRecord | null> {
    const row = await db
      .selectFrom('account_links')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? linkOf(row) : null;
  }

  /** Deletes the link, unexpired at `now`: true when this call is the one that used it. */
  async useLink(db: Db, id: number, now: string): Promise<boolean> {
    const result = await db
      .deleteFrom('account_links')
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Deletes the account's links of a purpose (a fresh set-up link replaces the older ones). */
  async deleteLinks(accountId: number, purpose: LinkPurpose, db: Db = this.db): Promise<void> {
    await db.deleteFrom('account_links').where('account_id', '=', accountId).where('purpose', '=', purpose).execute();
  }

  /** The account's invitations (pending or expired), newest first. */
  async invitations(accountId: number, onlyId?: number): Promise<LinkRecord[]> {
    let query = this.db
      .selectFrom('account_links')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('purpose', '=', 'invitation')
      .orderBy('id', 'desc');
    if (onlyId !== undefined) query = query.where('id', '=', onlyId);
    return (await query.execute()).map(linkOf);
  }

  async invitationTo(accountId: number, email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('account_links')
      .select('id')
      .where('account_id', '=', accountId)
      .where('purpose', '=', 'invitation')
      .where('email', '=', email)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A new token and expiry for the invitation (a re-send): the link sent before stops working. */
  async renewInvitation(accountId: number, id: number, tokenHash: string, expiresAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('account_links')
      .set({ token_hash: tokenHash, expires_at: expiresAt })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('purpose', '=', 'invitation')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async deleteInvitation(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('account_links')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('purpose', '=', 'invitation')
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Links past their expiry, but invitations (the owner sees and re-sends them) for 30 days. */
  async purgeExpiredLinks(now: string): Promise<void> {
    const monthAgo = new Date(Date.parse(now) - 30 * 86_400_000).toISOString();
    await this.db
      .deleteFrom('account_links')
      .where((where) =>
        where.or([
          where.and([where('purpose', '<>', 'invitation'), where('expires_at', '<', now)]),
          where('expires_at', '<', monthAgo),
        ]),
      )
      .execute();
  }

  async employeeCount(accountId: number): Promise<number> {
    const row = await this.db
      .selectFrom('employees')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  emailTaken(email: string, db: Db = this.db): Promise<boolean> {
    return emailTaken(db, email);
  }

  insertAccount(db: Db, name: string, timeZone: string): Promise<number> {
    return insertAccount(db, name, timeZone, nowIso());
  }

  async insertEmployee(
    db: Db,
    accountId: number,
    employee: { name: string; email: string; passwordHash: string; role: EmployeeRole; shopIds: number[] },
  ): Promise<number> {
    const id = await insertEmployeeRow(db, accountId, { ...employee, createdAt: nowIso() });
    await insertEmployeeShops(db, accountId, id, employee.shopIds);
    return id;
  }

  /** The ids among `ids` that are shops of the account (an invitation's shops may have been deleted since). */
  async existingShopIds(db: Db, accountId: number, ids: number[]): Promise<number[]> {
    const known = await accountShopIds(db, accountId, ids);
    return ids.filter((id) => known.has(id));
  }

  /** A new password; every login token of the employee ends. */
  resetPassword(db: Db, accountId: number, employeeId: number, passwordHash: string): Promise<void> {
    return setPassword(db, accountId, employeeId, passwordHash, null);
  }

  employeeEmail(accountId: number, employeeId: number): Promise<string | undefined> {
    return employeeEmail(this.db, accountId, employeeId);
  }

  // sessions: an employee's login tokens

  async sessions(accountId: number, employeeId: number, now: string): Promise<SessionRecord[]> {
    const rows = await this.db
      .selectFrom('access_tokens')
      .select(['id', 'token_hash', 'label', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'address'])
      .where('account_id', '=', accountId)
      .where('employee_id', '=', employeeId)
      .where((where) => where.or([where('expires_at', 'is', null), where('expires_at', '>', now)]))
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      tokenHash: row.token_hash,
      label: row.label,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
      userAgent: row.user_agent,
      address: row.address,
    }));
  }

  /** Ends one session of the employee (by id) or all but `keepTokenHash`; the number ended. */
  async endSessions(
    accountId: number,
    employeeId: number,
    which: { id: number } | { allBut: string | null },
  ): Promise<number> {
    let query = this.db
      .deleteFrom('access_tokens')
      .where('account_id', '=', accountId)
      .where('employee_id', '=', employeeId);
    if ('id' in which) query = query.where('id', '=', which.id);
    else if (which.allBut) query = query.where('token_hash', '<>', which.allBut);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // second factor

  async secondFactorOf(accountId: number, employeeId: number): Promise<SecondFactorRecord | null> {
    const row = await this.db
      .selectFrom('employees')
      .innerJoin('accounts', 'accounts.id', 'employees.account_id')
      .select([
        'employees.totp_secret as secret',
        'employees.totp_pending as pending',
        'employees.totp_last_step as lastStep',
        'accounts.second_factor_required as required',
      ])
      .where('employees.account_id', '=', accountId)
      .where('employees.id', '=', employeeId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      accountId,
      employeeId,
      secret: row.secret,
      pending: row.pending,
      lastStep: row.lastStep === null ? null : Number(row.lastStep),
      required: flag(row.required),
    };
  }

  async setPendingSecret(accountId: number, employeeId: number, sealed: string): Promise<void> {
    await this.db
      .updateTable('employees')
      .set({ totp_pending: sealed })
      .where('account_id', '=', accountId)
      .where('id', '=', employeeId)
      .execute();
  }

  /**
   * Takes a code's step: only when it is later than the last one taken (a code is never taken
   * twice, even by two requests at once).
   */
  async takeStep(accountId: number, employeeId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('employees')
      .set({ totp_last_step: step })
      .where('account_id', '=', accountId)
      .where('id', '=', employeeId)
      .where((where) => where.or([where('totp_last_step', 'is', null), where('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The pending secret becomes the employee's, with new recovery codes (the old ones end). */
  async enableSecondFactor(
    accountId: number,
    employeeId: number,
    sealed: string,
    step: number,
    codeHashes: string[],
  ): Promise<void> {
    await this.transaction(async (trx) => {
      await trx
        .updateTable('employees')
        .set({ totp_secret: sealed, totp_pending: null, totp_last_step: step })
        .where('account_id', '=', accountId)
        .where('id', '=', employeeId)
        .execute();
      await trx.deleteFrom('employee_recovery_codes').where('employee_id', '=', employeeId).execute();
      await trx
        .insertInto('employee_recovery_codes')
        .values(codeHashes.map((code_hash) => ({ account_id: accountId, employee_id: employeeId, code_hash })))
        .execute();
    });
  }

  async disableSecondFactor(accountId: number, employeeId: number): Promise<void> {
    await this.transaction(async (trx) => {
      await trx
        .updateTable('employees')
        .set({ totp_secret: null, totp_pending: null, totp_last_step: null })
        .where('account_id', '=', accountId)
        .where('id', '=', employeeId)
        .execute();
      await trx.deleteFrom('employee_recovery_codes').where('employee_id', '=', employeeId).execute();
    });
  }

  /** Uses a recovery code: true when it was the employee's and unused (it is deleted). */
  async useRecoveryCode(accountId: number, employeeId: number, codeHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('employee_recovery_codes')
      .where('account_id', '=', accountId)
      .where('employee_id', '=', employeeId)
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async recoveryCodesLeft(accountId: number, employeeId: number): Promise<number> {
    const row = await this.db
      .selectFrom('employee_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', accountId)
      .where('employee_id', '=', employeeId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Which of the account's employees have a second factor. */
  async withSecondFactor(accountId: number): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('employees')
      .select('id')
      .where('account_id', '=', accountId)
      .where('totp_secret', 'is not', null)
      .execute();
    return new Set(rows.map((row) => Number(row.id)));
  }

  async setSecondFactorRequired(accountId: number, required: boolean): Promise<void> {
    await this.db
      .updateTable('accounts')
      .set({ second_factor_required: required })
      .where('id', '=', accountId)
      .execute();
  }

  async secondFactorRequired(accountId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('accounts')
      .select('second_factor_required')
      .where('id', '=', accountId)
      .executeTakeFirst();
    return flag(row?.second_factor_required);
  }
}
