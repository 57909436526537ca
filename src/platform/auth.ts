/**
 * Who is calling. Every /v2 route needs `Authorization: Bearer <token>` unless it is
 * declared public; the token resolves to a Scope that every service and store takes
 * first. Account tokens and owners' login tokens see the whole account; a shop's
 * `apiKey` is limited to that shop, and so is each request of a shop manager: it
 * acts as the key of one of the manager's shops, chosen by the Shop-Id header (default the
 * first given), so every shop-key rule applies to managers unchanged.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BoundedMap, type AccountReadCache } from './cache.js';
import { AppError, forbidden, unauthorized } from './errors.js';
import { checkCsrf, sessionTokenOf } from './session.js';
import type { KeyScope } from './key-scopes.js';

/** An owner sees the whole account; a manager only the shops given to them. */
export type EmployeeRole = 'owner' | 'manager';

export interface Scope {
  accountId: number;
  /** The account's time zone: "today" and business days are counted in it. */
  timeZone: string;
  kind: 'account' | 'employee' | 'shop';
  /** Set when the caller used a shop's API key: it may act only for this shop. */
  shopKeyShopId: number | null;
  employeeId: number | null;
  /** An employee's role; null for account tokens and shop keys. */
  role?: EmployeeRole | null;
  /** A manager's shops, in the order given (the first is the default); absent when not a manager. */
  managedShopIds?: number[];
  /** When the token stops working (login tokens), ms since the epoch. */
  expiresAtMs?: number;
  /** A scoped key's scopes; absent: full access (account tokens, shop keys, employees). */
  keyScopes?: readonly KeyScope[]; // stub: the keys branch owns this
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard's session token when the caller authenticated by its cookie (no Authorization header). */
    sessionToken: string | null;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authentication on every non-public route. */
    scope: Scope;
  }
  interface FastifyContextConfig {
    /** A route anyone may call without a token (health, login, docs, files). */
    public?: boolean;
  }
}

/** A process (a job, the CLI) acting on an account: it sees the whole account, as its owner would. */
export function processScope(accountId: number, timeZone = 'UTC'): Scope {
  return { accountId, timeZone, kind: 'account', shopKeyShopId: null, employeeId: null };
}

/** Finds the Scope of a bearer token, or null when the token is unknown or expired (the accounts area knows how). */
export type TokenLookup = (token: string) => Promise<Scope | null>;

/**
 * A manager's request acts as the key of one of their shops: the one the Shop-Id header names
 * (403 when it is not theirs), else their first. The session routes work without a shop, so
 * that a manager left with none can still see who is signed in and sign out.
 */
export function managerRequestScope(scope: Scope, shopHeader: string | string[] | undefined, url: string): Scope {
  const shops = scope.managedShopIds;
  if (shops === undefined) return scope;
  const named = typeof shopHeader === 'string' && shopHeader !== '' ? Number(shopHeader) : null;
  if (named !== null && !shops.includes(named)) {
    throw forbidden(
      Number.isSafeInteger(named)
        ? `Shop ${shopHeader} is not one of the shops you manage.`
        : 'The Shop-Id header must name one of the shops you manage.',
    );
  }
  const shopId = named ?? shops[0];
  if (shopId === undefined) {
    if (url.startsWith('/v2/auth/')) return { ...scope, shopKeyShopId: 0 };
    throw forbidden('You manage no shop yet: ask an owner of the account to give you one.');
  }
  return { ...scope, shopKeyShopId: shopId };
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** Topic of the read cache's messages that says an account's tokens or keys were revoked. */
export const REVOKED_TOKENS_TOPIC = 'revoked-tokens';

/**
 * Resolves tokens, remembering each answer for a few seconds: every request authenticates,
 * and most come from a handful of plugin keys. A revocation (shop key replaced, shop
 * deleted; any later one: employee deleted, token revoked) goes through `revoke`: this
 * process forgets at once, and with PostgreSQL the read cache's LISTEN/NOTIFY carries it to
 * every other process within milliseconds. While those messages may be missed (the listening
 * connection is down) nothing is remembered, as for the read cache.
 */
export class TokenResolver {
  private readonly remembered = new BoundedMap<string, { scope: Scope | null; until: number }>(50_000);
  /** Bumped by every revocation: an answer read before it is not remembered after it. */
  private generation = 0;
  /**
   * @param shared the read cache whose invalidations carry revocations to and from other
   *   processes; without one (a test's resolver) a revocation is this process's alone.
   */
  constructor(
    private readonly lookUp: TokenLookup,
    private readonly ttlMs: number,
    private readonly shared: AccountReadCache | null = null,
  ) {
    shared?.watch(REVOKED_TOKENS_TOPIC, () => this.forgetAll());
  }

  private remembering(): boolean {
    return this.ttlMs > 0 && (this.shared === null || this.shared.enabled);
  }

  async resolve(token: string): Promise<Scope | null> {
    if (!this.remembering()) return this.lookUp(token);
    const now = Date.now();
    const hit = this.remembered.get(token);
    if (hit && hit.until > now) return hit.scope;
    const generation = this.generation;
    const scope = await this.lookUp(token);
    // Unknown tokens are not remembered: a key created a moment ago must work at once.
    if (scope && generation === this.generation && this.remembering())
      this.remembered.set(token, { scope, until: Math.min(now + this.ttlMs, scope.expiresAtMs ?? Infinity) });
    return scope;
  }

  /** Call after the commit that makes any token or key of the account stop working: every process forgets. */
  revoke(accountId: number): void {
    if (this.shared) this.shared.invalidate(accountId, REVOKED_TOKENS_TOPIC);
    else this.forgetAll();
  }

  /** Forgets every remembered token in this process (a revocation here or in another process). */
  forgetAll(): void {
    this.generation++;
    this.remembered.clear();
  }
}

/**
 * Installs the authentication hook; it runs before the body is read. The dashboard's session
 * cookie (session.ts) is taken only without an Authorization header, and its unsafe calls need
 * the session's CSRF token: the same tokens, the same Scope, every /v2 route.
 */
export function installAuthentication(app: FastifyInstance, tokens: TokenResolver): void {
  app.decorateRequest('scope', null as unknown as Scope);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', async (request) => {
    // Only the /v2 API needs a token; health, docs and file links are public by design.
    if (request.is404 || request.routeOptions.config.public || !request.routeOptions.url?.startsWith('/v2/')) return;
    const header = request.headers.authorization;
    const session = header === undefined ? sessionTokenOf(request) : null;
    const token = session ?? bearerToken(request);
    if (!token) {
      throw header ? unauthorized('The Authorization header must be "Bearer <token>".') : unauthorized();
    }
    const scope = await tokens.resolve(token);
    if (!scope)
      throw new AppError(
        401,
        session ? 'session_expired' : 'invalid_token',
        session ? 'The session has ended: sign in again.' : 'The token is unknown, revoked or expired.',
      );
    if (session) {
      await checkCsrf(app, request);
      request.sessionToken = session;
    }
    request.scope = managerRequestScope(scope, request.headers['shop-id'], request.routeOptions.url ?? '');
  });
}

/** Refuses a shop API key for operations that concern the whole account. */
export function requireAccountWide(scope: Scope, action: string): void {
  if (scope.role === 'manager') throw forbidden(`A shop manager cannot ${action}; ask an owner of the account.`);
  if (scope.shopKeyShopId !== null) {
    throw forbidden(`A shop API key cannot ${action}; use an account token.`);
  }
}

/** Only the account's token and its owners may manage employees and the account's tokens. */
export function requireOwner(scope: Scope, action: string): void {
  requireAccountWide(scope, action);
  if (scope.kind === 'employee' && scope.role !== 'owner')
    throw forbidden(`Only an owner of the account can ${action}.`);
}

/** Refuses a shop API key reaching a shop other than its own. */
export function requireShopAccess(scope: Scope, shopId: number): void {
  if (scope.shopKeyShopId !== null && scope.shopKeyShopId !== shopId) {
    if (scope.role === 'manager')
      throw forbidden(
        `This request acts for shop ${scope.shopKeyShopId}: name shop ${shopId} in the Shop-Id header if you manage it.`,
      );
    throw forbidden(`This API key belongs to shop ${scope.shopKeyShopId} and cannot act for shop ${shopId}.`);
  }
}
