/** Accounts, employees and the tokens they authenticate with. */
import { hashPassword, hashToken, newToken, verifyPassword } from '../../platform/crypto.js';
import { AppError, conflict, fieldError } from '../../platform/errors.js';
import { isValidTimeZone } from '../../config.js';
import { nowIso } from '../../platform/db/values.js';
import type { Scope } from '../../platform/auth.js';
import { BoundedMap } from '../../platform/cache.js';
import { checkPassword } from './password-policy.js';
import type { SecondFactorService } from './second-factor.js';
import type { AccountStore } from './store.js';

/** What a sign-in knows of itself: the second factor's code, and what the sessions list shows. */
export interface LoginMeta {
  /** The authenticator app's code (or a recovery code), for an employee with a second factor. */
  code?: string;
  /** `dashboard` for a cookie session, `login` for an API login token. */
  label?: string;
  userAgent?: string | null;
  address?: string | null;
}

export interface LoginResult {
  token: string;
  expiresAt: string;
  accountId: number;
  employeeId: number;
  /** Shown once, when this sign-in turned on a second factor the owners require. */
  recoveryCodes: string[] | null;
}

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

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class AccountService {
  /** Zones by account: set at creation and never changed, so remembered for good. */
  private readonly zones = new BoundedMap<number, string>(10_000);

  constructor(
    private readonly store: AccountStore,
    private readonly defaults: { timeZone: string; loginTokenDays: number },
    private readonly secondFactor: SecondFactorService,
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
    checkPassword('newPassword', next, await this.store.emailOf(scope.accountId, scope.employeeId));
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

  /** The signed-in employee's own password, asked again before a change of their security: 403 when wrong. */
  async confirmOwnPassword(scope: Scope, password: string): Promise<void> {
    if (scope.kind !== 'employee' || scope.employeeId === null)
      throw conflict('not_a_login', 'Only an employee signed in with a password can do this.');
    const hash = await this.store.passwordHashOf(scope.accountId, scope.employeeId);
    if (!hash || !(await verifyPassword(password, hash)))
      throw new AppError(403, 'invalid_credentials', 'The password is wrong.', [
        { field: 'password', message: 'is not the current password' },
      ]);
  }

  /** The operator sets an employee's password (`account password`, no SMTP): every sign-in of theirs ends. */
  async setPassword(rawEmail: string, password: string): Promise<{ accountId: number; employeeId: number }> {
    checkPassword('password', password, rawEmail);
    const employee = await this.store.findEmployeeByEmail(rawEmail.trim().toLowerCase());
    if (!employee) throw fieldError('email', 'is not the e-mail of an employee');
    await this.store.replacePassword(employee.accountId, employee.id, await hashPassword(password), null);
    return { accountId: employee.accountId, employeeId: employee.id };
  }

  private async checkEmployee(rawEmail: string, password: string): Promise<string> {
    const email = rawEmail.trim().toLowerCase();
    if (!EMAIL.test(email)) throw fieldError('email', 'must be an e-mail address');
    checkPassword('password', password, email);
    if (await this.store.emailTaken(email))
      throw conflict('email_taken', `An employee with the e-mail ${email} already exists.`);
    return email;
  }

  /**
   * Exchanges an employee's e-mail and password (and second-factor code, when they have one or
   * the owners require one) for a token valid `loginTokenDays`.
   */
  async login(rawEmail: string, password: string, meta: LoginMeta = {}): Promise<LoginResult> {
    const employee = await this.verifyPassword(rawEmail, password);
    const recoveryCodes = await this.secondFactor.atSignIn(employee.accountId, employee.id, meta.code || undefined);
    const issued = await this.issueLoginToken(employee.accountId, employee.id, meta);
    return { ...issued, accountId: employee.accountId, employeeId: employee.id, recoveryCodes };
  }

  /** The employee whose e-mail and password these are, or 401 invalid_credentials. */
  async verifyPassword(rawEmail: string, password: string): Promise<{ id: number; accountId: number }> {
    const email = rawEmail.trim().toLowerCase();
    const employee = await this.store.findEmployeeByEmail(email);
    // Verify against a dummy hash when the e-mail is unknown, so timing does not reveal it.
    const valid = await verifyPassword(password, employee?.passwordHash ?? DUMMY_HASH);
    if (!employee || !valid) throw new AppError(401, 'invalid_credentials', 'The e-mail or password is wrong.');
    return { id: employee.id, accountId: employee.accountId };
  }

  /** A new login token of the employee (a sign-in, or a link that signs in). */
  async issueLoginToken(
    accountId: number,
    employeeId: number,
    meta: LoginMeta = {},
  ): Promise<{ token: string; expiresAt: string }> {
    const token = newToken('emp');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.defaults.loginTokenDays * 86_400_000).toISOString();
    await this.store.insertToken(accountId, {
      employeeId,
      hash: hashToken(token),
      label: meta.label ?? 'login',
      createdAt: now.toISOString(),
      expiresAt,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
      address: meta.address?.slice(0, 100) ?? null,
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
    const active = await this.store.employeeRecords(accountId);
    const view = (record: (typeof active)[number]) => ({
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

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
