/**
 * One-time links and what they do: the set-up of an account's first owner (first start, CLI),
 * an owner's invitation of an employee, a password reset, a sign-up's confirmation. A link's
 * token is 32 random bytes behind a prefix naming its purpose; only its SHA-256 is stored, with
 * the purpose, and a token is looked up by both, so a token of one purpose never works for
 * another. A link is used once (deleted in the transaction of what it does) and expires.
 * Requests that may send a link answer the same, and do the same work, whether or not the
 * e-mail is known: one lookup, one link row, one mail job (a decoy when there is nothing to send).
 */
import { randomBytes } from 'node:crypto';
import type { SignUpMode } from '../../config.js';
import { requireOwner, type EmployeeRole, type Scope } from '../../platform/auth.js';
import { hashPassword, hashToken } from '../../platform/crypto.js';
import { nowIso } from '../../platform/db/values.js';
import { AppError, conflict, fieldError, notFound } from '../../platform/errors.js';
import type { AccessStore, LinkPurpose, LinkRecord } from './access-store.js';
import type { LinkMailer, LinkMailKind } from './link-mail.js';
import { checkPassword } from './password-policy.js';
import type { SecondFactorService } from './second-factor.js';
import type { AccountStore } from './store.js';

export type { SignUpMode };

const DAY_MS = 86_400_000;
export const LINK_LIFETIME_MS: Record<LinkPurpose, number> = {
  setup: 7 * DAY_MS,
  invitation: 7 * DAY_MS,
  reset: 60 * 60_000,
  signup: DAY_MS,
};
const TOKEN_PREFIX: Record<LinkPurpose, string> = { setup: 'stp', invitation: 'inv', reset: 'rst', signup: 'sgn' };
/** The dashboard page each link opens (the token in the fragment, which no server and no Referer sees). */
export const LINK_PAGE: Record<LinkPurpose, string> = {
  setup: 'setup',
  invitation: 'invite',
  reset: 'reset',
  signup: 'signup',
};
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface LinkView {
  purpose: LinkPurpose;
  email: string | null;
  accountName: string | null;
  expiresAt: string;
  /** A sign-up link made by the operator (SIGNUP=invite) has no password yet: the page asks for one. */
  needsPassword: boolean;
}

export interface InvitationView {
  id: number;
  email: string;
  name: string;
  role: EmployeeRole;
  shopIds: number[];
  createdAt: string;
  expiresAt: string;
  expired: boolean;
}

export interface Invitation {
  email: string;
  name: string;
  role: EmployeeRole;
  shopIds: number[];
}

/** Who a used link signs in. */
export interface SignedUp {
  accountId: number;
  employeeId: number;
}

export interface AccessOptions {
  publicUrl: string;
  signup: SignUpMode;
  timeZone: string;
}

function linkInvalid(): AppError {
  return new AppError(404, 'link_invalid', 'The link is unknown, used or expired: ask for a new one.');
}

export function normalisedEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

function checkEmail(field: string, raw: string): string {
  const email = normalisedEmail(raw);
  if (!EMAIL.test(email)) throw fieldError(field, 'must be an e-mail address');
  return email;
}

export class AccessService {
  constructor(
    private readonly store: AccessStore,
    private readonly accountStore: AccountStore,
    private readonly secondFactor: SecondFactorService,
    private readonly mail: LinkMailer,
    private readonly options: AccessOptions,
  ) {}

  get signUpMode(): SignUpMode {
    return this.options.signup;
  }

  private newToken(purpose: LinkPurpose): { token: string; hash: string; expiresAt: string } {
    const token = `${TOKEN_PREFIX[purpose]}_${randomBytes(32).toString('base64url')}`;
    return { token, hash: hashToken(token), expiresAt: new Date(Date.now() + LINK_LIFETIME_MS[purpose]).toISOString() };
  }

  urlOf(purpose: LinkPurpose, token: string): string {
    return `${this.options.publicUrl}/app/${LINK_PAGE[purpose]}#${token}`;
  }

  private get signInUrl(): string {
    return `${this.options.publicUrl}/app/`;
  }

  /** An unexpired link of this purpose, or 404 link_invalid (unknown, used, expired, another purpose, forged). */
  private async find(token: string, purpose: LinkPurpose): Promise<LinkRecord> {
    if (!token.startsWith(`${TOKEN_PREFIX[purpose]}_`) || token.length > 200) throw linkInvalid();
    const link = await this.store.findLink(hashToken(token), purpose, nowIso());
    if (!link) throw linkInvalid();
    return link;
  }

  private refuseClosedSignUp(): void {
    if (this.options.signup === 'off')
      throw new AppError(404, 'signup_closed', 'Sign-up is off on this instance: its operator makes the accounts.');
  }

  /** What the page of a link shows before anything is typed (no link is used by looking). */
  async checkLink(token: string, purpose: LinkPurpose): Promise<LinkView> {
    if (purpose === 'signup') this.refuseClosedSignUp();
    const link = await this.find(token, purpose);
    const accountName =
      purpose === 'signup'
        ? String(link.data.accountName ?? '')
        : link.accountId === null
          ? null
          : ((await this.accountStore.nameOf(link.accountId)) ?? null);
    return {
      purpose,
      email: link.email,
      accountName,
      expiresAt: link.expiresAt,
      needsPassword: purpose !== 'signup' || typeof link.data.passwordHash !== 'string',
    };
  }

  // set-up of the first owner

  /**
   * A set-up link for an account without an employee (first start, `account setup-link`); a
   * fresh one replaces those given before.
   */
  async setupLink(accountId: number): Promise<{ url: string; expiresAt: string }> {
    if (!(await this.accountStore.accountExists(accountId)))
      throw new AppError(404, 'not_found', `Account ${accountId} was not found.`);
    if ((await this.store.employeeCount(accountId)) > 0)
      throw conflict(
        'account_set_up',
        `Account ${accountId} already has an employee who signs in: use "account password" or a password reset instead.`,
      );
    const { token, hash, expiresAt } = this.newToken('setup');
    await this.store.transaction(async (trx) => {
      await this.store.deleteLinks(accountId, 'setup', trx);
      await this.store.insertLink(
        { accountId, employeeId: null, purpose: 'setup', tokenHash: hash, email: null, data: null, expiresAt },
        trx,
      );
    });
    return { url: this.urlOf('setup', token), expiresAt };
  }

  async completeSetup(token: string, input: { email: string; password: string; name?: string }): Promise<SignedUp> {
    const link = await this.find(token, 'setup');
    const email = checkEmail('email', input.email);
    checkPassword('password', input.password, email);
    const passwordHash = await hashPassword(input.password);
    const accountId = link.accountId as number;
    return this.store.transaction(async (trx) => {
      if (!(await this.store.useLink(trx, link.id, nowIso()))) throw linkInvalid();
      if (await this.store.emailTaken(email, trx))
        throw conflict('email_taken', `An employee with the e-mail ${email} already exists: choose another.`, [
          { field: 'email', message: 'already signs in to an account' },
        ]);
      const employeeId = await this.store.insertEmployee(trx, accountId, {
        name: input.name?.trim() || email,
        email,
        passwordHash,
        role: 'owner',
        shopIds: [],
      });
      return { accountId, employeeId };
    });
  }

  // invitations

  /**
   * An owner's invitation, already checked (EmployeeService): an e-mail of this account's
   * employee or pending invitation is a 409; one that signs in to another account is invited all
   * the same (the owner learns nothing of other accounts; the person is told when accepting).
   */
  async invite(accountId: number, invitation: Invitation): Promise<number> {
    const email = checkEmail('email', invitation.email);
    if (await this.accountStore.emailInAccount(accountId, email))
      throw conflict('email_taken', `An employee of this account already has the e-mail ${email}.`);
    if (await this.store.invitationTo(accountId, email))
      throw conflict('already_invited', `${email} is already invited: re-send or withdraw that invitation.`);
    const { token, hash, expiresAt } = this.newToken('invitation');
    const accountName = (await this.accountStore.nameOf(accountId)) ?? '';
    return this.store.transaction(async (trx) => {
      const id = await this.store.insertLink(
        {
          accountId,
          employeeId: null,
          purpose: 'invitation',
          tokenHash: hash,
          email,
          data: { name: invitation.name.trim(), role: invitation.role, shopIds: invitation.shopIds },
          expiresAt,
        },
        trx,
      );
      await this.queueMail('invitation', email, token, accountName, expiresAt, trx);
      return id;
    });
  }

  async invitations(scope: Scope): Promise<InvitationView[]> {
    requireOwner(scope, 'see the invitations');
    const now = nowIso();
    return (await this.store.invitations(scope.accountId)).map((link) => invitationView(link, now));
  }

  /** A new link for the invitation, e-mailed again; the one sent before stops working. */
  async resendInvitation(scope: Scope, id: number): Promise<InvitationView> {
    requireOwner(scope, 'invite employees');
    const [link] = await this.store.invitations(scope.accountId, id);
    if (!link || !link.email) throw notFound('Invitation', id);
    const { token, hash, expiresAt } = this.newToken('invitation');
    if (!(await this.store.renewInvitation(scope.accountId, id, hash, expiresAt))) throw notFound('Invitation', id);
    await this.queueMail(
      'invitation',
      link.email,
      token,
      (await this.accountStore.nameOf(scope.accountId)) ?? '',
      expiresAt,
    );
    return invitationView({ ...link, expiresAt }, nowIso());
  }

  async withdrawInvitation(scope: Scope, id: number): Promise<void> {
    requireOwner(scope, 'invite employees');
    if (!(await this.store.deleteInvitation(scope.accountId, id))) throw notFound('Invitation', id);
  }

  async acceptInvitation(token: string, input: { password: string; name?: string }): Promise<SignedUp> {
    const link = await this.find(token, 'invitation');
    const email = link.email as string;
    checkPassword('password', input.password, email);
    const passwordHash = await hashPassword(input.password);
    const accountId = link.accountId as number;
    const role: EmployeeRole = link.data.role === 'manager' ? 'manager' : 'owner';
    return this.store.transaction(async (trx) => {
      if (!(await this.store.useLink(trx, link.id, nowIso()))) throw linkInvalid();
      // the invitee holds the e-mail: telling them it signs in elsewhere tells no one else
      if (await this.store.emailTaken(email, trx))
        throw conflict(
          'email_taken',
          `${email} already signs in to an account of this service, and one e-mail signs in to one account: ask the owner to invite another address.`,
        );
      const shopIds = await this.store.existingShopIds(
        trx,
        accountId,
        Array.isArray(link.data.shopIds) ? link.data.shopIds.map(Number) : [],
      );
      if (role === 'manager' && shopIds.length === 0)
        throw new AppError(
          404,
          'link_invalid',
          'The shops of this invitation are gone: ask the owner to invite you again.',
        );
      const employeeId = await this.store.insertEmployee(trx, accountId, {
        name: input.name?.trim() || String(link.data.name ?? '') || email,
        email,
        passwordHash,
        role,
        shopIds,
      });
      return { accountId, employeeId };
    });
  }

  // password reset

  /** Queues a reset link for an employee's e-mail; an unknown e-mail does the same work and sends nothing. */
  async requestReset(rawEmail: string): Promise<void> {
    const email = normalisedEmail(rawEmail);
    const employee = await this.accountStore.findEmployeeByEmail(email);
    const accountName = (await this.accountStore.nameOf(employee?.accountId ?? 0)) ?? '';
    const { token, hash, expiresAt } = this.newToken('reset');
    await this.store.transaction(async (trx) => {
      // an unknown e-mail's row names no employee: it can never be used, and the hourly purge takes it
      await this.store.insertLink(
        {
          accountId: employee?.accountId ?? null,
          employeeId: employee?.id ?? null,
          purpose: 'reset',
          tokenHash: hash,
          email,
          data: null,
          expiresAt,
        },
        trx,
      );
      await this.mail.queue(
        employee
          ? {
              kind: 'reset',
              to: email,
              url: this.urlOf('reset', token),
              accountName,
              expiresAt,
              signInUrl: this.signInUrl,
            }
          : null,
        trx,
      );
    });
  }

  /**
   * A new password by a reset link: every session and token of the employee ends. With a second
   * factor the code is needed as at sign-in (checked before the link is used).
   */
  async completeReset(token: string, password: string, code: string | undefined): Promise<SignedUp> {
    const link = await this.find(token, 'reset');
    if (link.employeeId === null || link.accountId === null) throw linkInvalid();
    const { accountId, employeeId } = { accountId: link.accountId, employeeId: link.employeeId };
    checkPassword('password', password, link.email);
    await this.secondFactor.atSignIn(accountId, employeeId, code);
    const passwordHash = await hashPassword(password);
    await this.store.transaction(async (trx) => {
      if (!(await this.store.useLink(trx, link.id, nowIso()))) throw linkInvalid();
      await this.store.resetPassword(trx, accountId, employeeId, passwordHash);
    });
    return { accountId, employeeId };
  }

  // sign-up

  /**
   * A public sign-up (SIGNUP=open): the account is made when the e-mail is confirmed by its link.
   * An e-mail that already signs in gets a mail saying so instead; the answer and the work are the same.
   */
  async signUp(input: { email: string; password: string; accountName: string }): Promise<void> {
    this.refuseClosedSignUp();
    if (this.options.signup === 'invite')
      throw new AppError(403, 'signup_invite_only', 'Sign-up is by invitation only on this instance.');
    const email = checkEmail('email', input.email);
    const accountName = input.accountName.trim();
    if (accountName === '') throw fieldError('accountName', 'must not be empty');
    checkPassword('password', input.password, email);
    const passwordHash = await hashPassword(input.password);
    const taken = await this.store.emailTaken(email);
    const { token, hash, expiresAt } = this.newToken('signup');
    await this.store.transaction(async (trx) => {
      await this.insertSignUpLink(email, { accountName, passwordHash }, hash, expiresAt, trx);
      if (taken) await this.queueMail('signup-existing', email, null, accountName, expiresAt, trx);
      else await this.queueMail('signup', email, token, accountName, expiresAt, trx);
    });
  }

  /** A sign-up link of no account yet: the account is made when it is followed. */
  private insertSignUpLink(
    email: string,
    data: { accountName: string; passwordHash?: string },
    tokenHash: string,
    expiresAt: string,
    trx: Parameters<AccessStore['insertLink']>[1],
  ): Promise<unknown> {
    return this.store.insertLink(
      { accountId: null, employeeId: null, purpose: 'signup', tokenHash, email, data, expiresAt },
      trx,
    );
  }

  /** An operator's invitation to make an account (SIGNUP=invite or open): the person chooses the password. */
  async inviteSignUp(rawEmail: string, rawName: string): Promise<{ url: string; expiresAt: string }> {
    this.refuseClosedSignUp();
    const email = checkEmail('email', rawEmail);
    const accountName = rawName.trim() || email;
    if (await this.store.emailTaken(email))
      throw conflict('email_taken', `An employee with the e-mail ${email} already exists.`);
    const { token, hash, expiresAt } = this.newToken('signup');
    await this.store.transaction(async (trx) => {
      await this.insertSignUpLink(email, { accountName }, hash, expiresAt, trx);
      await this.queueMail('signup', email, token, accountName, expiresAt, trx);
    });
    return { url: this.urlOf('signup', token), expiresAt };
  }

  /** Confirms a sign-up: the account (with the sandbox, as every new account) and its owner are made. */
  async confirmSignUp(token: string, password: string | undefined): Promise<SignedUp> {
    this.refuseClosedSignUp();
    const link = await this.find(token, 'signup');
    const email = link.email as string;
    let passwordHash = typeof link.data.passwordHash === 'string' ? link.data.passwordHash : null;
    if (passwordHash === null) {
      if (!password) throw fieldError('password', 'is required');
      checkPassword('password', password, email);
      passwordHash = await hashPassword(password);
    }
    const accountName = String(link.data.accountName ?? '') || email;
    const hash = passwordHash;
    return this.store.transaction(async (trx) => {
      if (!(await this.store.useLink(trx, link.id, nowIso()))) throw linkInvalid();
      if (await this.store.emailTaken(email, trx))
        throw conflict('email_taken', `${email} already signs in to an account: sign in, or reset its password.`);
      const accountId = await this.store.insertAccount(trx, accountName, this.options.timeZone);
      const employeeId = await this.store.insertEmployee(trx, accountId, {
        name: email,
        email,
        passwordHash: hash,
        role: 'owner',
        shopIds: [],
      });
      return { accountId, employeeId };
    });
  }

  // sessions and the sign-in policy (the routes check who may)

  sessions(accountId: number, employeeId: number) {
    return this.store.sessions(accountId, employeeId, nowIso());
  }

  /** Ends one session of the employee or all but one; call TokenResolver.revoke after it. */
  endSessions(accountId: number, employeeId: number, which: { id: number } | { allBut: string | null }) {
    return this.store.endSessions(accountId, employeeId, which);
  }

  emailOf(accountId: number, employeeId: number): Promise<string | undefined> {
    return this.store.employeeEmail(accountId, employeeId);
  }

  secondFactorRequired(accountId: number): Promise<boolean> {
    return this.store.secondFactorRequired(accountId);
  }

  setSecondFactorRequired(accountId: number, required: boolean): Promise<void> {
    return this.store.setSecondFactorRequired(accountId, required);
  }

  /** Hourly: expired links go (invitations after 30 days: the owner may still re-send them). */
  purgeExpired(): Promise<void> {
    return this.store.purgeExpiredLinks(nowIso());
  }

  private queueMail(
    kind: LinkMailKind,
    to: string,
    token: string | null,
    accountName: string,
    expiresAt: string,
    trx?: Parameters<LinkMailer['queue']>[1],
  ): Promise<void> {
    const purpose: LinkPurpose = kind === 'signup-existing' ? 'signup' : kind;
    return this.mail.queue(
      { kind, to, url: token ? this.urlOf(purpose, token) : null, accountName, expiresAt, signInUrl: this.signInUrl },
      trx,
    );
  }
}

function invitationView(link: LinkRecord, now: string): InvitationView {
  return {
    id: link.id,
    email: link.email ?? '',
    name: String(link.data.name ?? ''),
    role: link.data.role === 'manager' ? 'manager' : 'owner',
    shopIds: Array.isArray(link.data.shopIds) ? link.data.shopIds.map(Number) : [],
    createdAt: link.createdAt,
    expiresAt: link.expiresAt,
    expired: link.expiresAt <= now,
  };
}
