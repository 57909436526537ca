/** Accounts, employees and the tokens they authenticate with. */
import { randomBytes } from 'node:crypto';
import { hashPassword, hashToken, newToken, verifyPassword } from '../../platform/crypto.js';
import { AppError, conflict, fieldError } from '../../platform/errors.js';
import { isValidTimeZone } from '../../config.js';
import { nowIso } from '../../platform/db/values.js';
import type { Scope } from '../../platform/auth.js';
import { BoundedMap } from '../../platform/cache.js';
import type { AccountStore } from './store.js';

export interface NewAccount {
  name: string;
  timeZone?: string;
  /** With email and password, the account gets an employee who can log in. */
  employee?: { name?: string; email: string; password: string };
}

export interface CreatedAccount {
  accountId: number;
  /** Shown once: only its hash is stored. */
  token: string;
  employeeId: number | null;
}

export const MIN_PASSWORD_LENGTH = 8;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class AccountService {
  /** Zones by account: set at creation and never changed, so remembered for good. */
  private readonly zones = new BoundedMap<number, string>(10_000);

  constructor(
    private readonly store: AccountStore,
    private readonly defaults: { timeZone: string; loginTokenDays: number },
  ) {}

  /**
   * The account's time zone, for work done outside a request (jobs, company events), where
   * no Scope carries it. An account that no longer exists gets the default zone.
   */
  async timeZoneOf(accountId: number): Promise<string> {
    const known = this.zones.get(accountId);
    if (known) return known;
    const zone = await this.store.timeZoneOf(accountId);
    if (zone === undefined) return this.defaults.timeZone;
    this.zones.set(accountId, zone);
    return zone;
  }

  /** Every account made before the instant, page by page (the billing period job walks them). */
  async *accountsCreatedBefore(
    createdBefore: string,
    pageSize = 1000,
  ): AsyncGenerator<{ id: number; name: string; timeZone: string; createdAt: string }> {
    for (let afterId = 0; ; ) {
      const page = await this.store.accountsCreatedBefore(createdBefore, afterId, pageSize);
      yield* page;
      if (page.length < pageSize) return;
      afterId = page[page.length - 1].id;
    }
  }

  /** The account's name (documents print it); empty for an account that no longer exists. */
  async nameOf(accountId: number): Promise<string> {
    return (await this.store.nameOf(accountId)) ?? '';
  }

  async hasAnyAccount(): Promise<boolean> {
    return (await this.store.countAccounts()) > 0;
  }

  async createAccount(input: NewAccount): Promise<CreatedAccount> {
    const name = input.name.trim();
    if (name === '') throw fieldError('name', 'must not be empty');
    const timeZone = input.timeZone ?? this.defaults.timeZone;
    if (!isValidTimeZone(timeZone)) throw fieldError('timeZone', 'must be an IANA time zone such as Europe/Moscow');
    if (input.employee) await this.checkEmployee(input.employee.email, input.employee.password);

    const createdAt = nowIso();
    const accountId = await this.store.insertAccount(name, timeZone, createdAt);
    const token = await this.issueAccountToken(accountId, 'created with the account');
    let employeeId: number | null = null;
    if (input.employee)
      employeeId = await this.addEmployee(accountId, { name: input.employee.name ?? name, ...input.employee });
    return { accountId, token, employeeId };
  }

  /** A new long-lived account token; returned once. */
  async issueAccountToken(accountId: number, label: string): Promise<string> {
    if (!(await this.store.accountExists(accountId)))
      throw new AppError(404, 'not_found', `Account ${accountId} was not found.`);
    const token = newToken('acc');
    await this.store.insertToken(accountId, {
      employeeId: null,
      hash: hashToken(token),
      label,
      createdAt: nowIso(),
      expiresAt: null,
    });
    return token;
  }

  /**
   * An owner's invitation: an e-mail already used in this account is a 409; one that signs in
   * to another account is accepted all the same (the answer tells nothing of other accounts),
   * kept under a login e-mail no one can type, so it signs no one in and their sign-in is untouched.
   */
  async inviteEmployee(
    accountId: number,
    employee: { name: string; email: string; password: string },
  ): Promise<number> {
    const email = employee.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw fieldError('email', 'must be an e-mail address');
    checkPassword('password', employee.password);
    if (await this.store.emailInAccount(accountId, email))
      throw conflict('email_taken', `An employee of this account already has the e-mail ${email}.`);
    const passwordHash = await hashPassword(employee.password);
    const elsewhere = await this.store.emailTaken(email);
    return this.store.insertEmployee(accountId, {
      name: employee.name.trim() || email,
      email: elsewhere ? `${randomBytes(16).toString('hex')}@invited.invalid` : email,
      passwordHash,
      createdAt: nowIso(),
      ...(elsewhere ? { invitedEmail: email } : {}),
    });
  }

  async addEmployee(accountId: number, employee: { name: string; email: string; password: string }): Promise<number> {
    const email = await this.checkEmployee(employee.email, employee.password);
    return this.store.insertEmployee(accountId, {
      name: employee.name.trim() || email,
      email,
      passwordHash: await hashPassword(employee.password),
      createdAt: nowIso(),
    });
  }

  /**
   * The signed-in employee chooses a new password, knowing the current one: every other sign-in
   * of theirs ends (a stolen session or token with it); the one making the change stays. Call
   * TokenResolver.revoke after it so no process remembers the ended ones.
   */
  async changePassword(scope: Scope, currentToken: string | null, current: string, next: string): Promise<void> {
    if (scope.kind !== 'employee' || scope.employeeId === null)
      throw conflict('not_a_login', 'Only an employee signed in with a password can change it.');
    checkPassword('newPassword', next);
    const hash = await this.store.passwordHashOf(scope.accountId, scope.employeeId);
    if (!hash || !(await verifyPassword(current, hash)))
      throw new AppError(403, 'invalid_credentials', 'The current password is wrong.', [
        { field: 'currentPassword', message: 'is not the current password' },
      ]);
    await this.store.replacePassword(
      scope.accountId,
      scope.employeeId,
      await hashPassword(next),
      currentToken ? hashToken(currentToken) : null,
    );
  }

  /** The operator sets an employee's password (`account password`, no SMTP): every sign-in of theirs ends. */
  async setPassword(rawEmail: string, password: string): Promise<{ accountId: number; employeeId: number }> {
    checkPassword('password', password);
    const employee = await this.store.findEmployeeByEmail(rawEmail.trim().toLowerCase());
    if (!employee) throw fieldError('email', 'is not the e-mail of an employee');
    await this.store.replacePassword(employee.accountId, employee.id, await hashPassword(password), null);
    return { accountId: employee.accountId, employeeId: employee.id };
  }

  private async checkEmployee(rawEmail: string, password: string): Promise<string> {
    const email = rawEmail.trim().toLowerCase();
    if (!EMAIL.test(email)) throw fieldError('email', 'must be an e-mail address');
    checkPassword('password', password);
    if (await this.store.emailTaken(email))
      throw conflict('email_taken', `An employee with the e-mail ${email} already exists.`);
    return email;
  }

  /** Exchanges an employee's e-mail and password for a token valid `loginTokenDays`. */
  async login(rawEmail: string, password: string): Promise<{ token: string; expiresAt: string }> {
    const email = rawEmail.trim().toLowerCase();
    const employee = await this.store.findEmployeeByEmail(email);
    // Verify against a dummy hash when the e-mail is unknown, so timing does not reveal it.
    const valid = await verifyPassword(password, employee?.passwordHash ?? DUMMY_HASH);
    if (!employee || !valid) throw new AppError(401, 'invalid_credentials', 'The e-mail or password is wrong.');
    const token = newToken('emp');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.defaults.loginTokenDays * 86_400_000).toISOString();
    await this.store.insertToken(employee.accountId, {
      employeeId: employee.id,
      hash: hashToken(token),
      label: 'login',
      createdAt: now.toISOString(),
      expiresAt,
    });
    await this.store.deleteExpiredTokens(now.toISOString());
    return { token, expiresAt };
  }

  /**
   * Ends an employee's login (the dashboard's sign-out): the token stops working. Call
   * TokenResolver.revoke after it so no process remembers the token.
   */
  async revokeLoginToken(scope: Scope, token: string): Promise<void> {
    if (scope.kind !== 'employee')
      throw conflict('not_a_login', 'Only an employee login ends by signing out; account tokens and shop keys stay.');
    await this.store.deleteLoginToken(scope.accountId, hashToken(token));
  }

  /**
   * The account's employees with their e-mails, oldest first, for work outside a request
   * (notifications): owners first, then managers with the shops they may see (null: every shop).
   */
  async employeesOf(
    accountId: number,
  ): Promise<Array<{ id: number; name: string; email: string; shopIds: number[] | null }>> {
    const records = await this.store.employeeRecords(accountId);
    // an invitation to an e-mail that signs in elsewhere reaches no inbox of this account
    const active = records.filter((record) => !record.invited);
    const view = (record: (typeof records)[number]) => ({
      id: record.id,
      name: record.name,
      email: record.email,
      shopIds: record.role === 'owner' ? null : record.shopIds,
    });
    return [
      ...active.filter((record) => record.role === 'owner'),
      ...active.filter((record) => record.role !== 'owner'),
    ].map(view);
  }

  /** The ids of `ids` that are not employees of the caller's account. */
  async unknownEmployeeIds(scope: Scope, ids: number[]): Promise<number[]> {
    const known = await this.store.existingEmployeeIds(scope.accountId, ids);
    return ids.filter((id) => !known.has(id));
  }
}

function checkPassword(field: string, password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw fieldError(field, `must be at least ${MIN_PASSWORD_LENGTH} characters long`);
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
