/**
 * Rate limits of /v2 with @fastify/rate-limit's counters: per token (per IP address for calls
 * without one), and per IP address and e-mail (or link) on the routes that take a credential
 * (sign-in, login, a change of password, the one-time links, the second factor), where secrets
 * are guessed; wrong passwords, codes and links per IP address over all e-mails (a spray: one
 * password tried on many e-mails); and e-mails a request may send (a reset, a sign-up) per
 * address an hour, so no one is flooded with them. Counters live in each process: N processes on
 * one PostgreSQL allow N times the limit.
 */
import rateLimit from '@fastify/rate-limit';
import { LRUCache } from 'lru-cache';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashToken, sha256 } from './crypto.js';
import { AppError } from './errors.js';
import { sessionTokenOf } from './session.js';

const WINDOW_MS = 60_000;
const HOUR_MS = 60 * WINDOW_MS;
/** Link e-mails one IP address may ask for an hour, as a multiple of those to one e-mail address (an office resets several). */
const MAILS_PER_SENDER_FACTOR = 4;
export const LOGIN_ROUTE = '/v2/auth/login';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes a credential (a password, a second-factor code, a one-time link): limited
     * per IP address and e-mail or link, and its refusals count as wrong guesses of the address.
     */
    credentials?: boolean;
    /** The route may e-mail a link to the address in its body: limited per address an hour. */
    sendsMail?: boolean;
  }
}

/** Refusals that mean a wrong guess (a password, a code, a link), counted per IP address. */
const WRONG_GUESSES = new Set(['invalid_credentials', 'second_factor_invalid', 'link_invalid']);

function takesCredentials(request: FastifyRequest): boolean {
  return request.method === 'POST' && request.routeOptions.config?.credentials === true;
}

export interface RateLimits {
  /** Requests a minute per token on /v2 (0: none). */
  perMinute: number;
  /** Login attempts a minute per IP address and e-mail (0: none). */
  loginPerMinute: number;
  /** Wrong passwords a minute per IP address, whatever the e-mail (0: none). */
  loginFailuresPerAddressPerMinute: number;
  /** Link e-mails (a reset, a sign-up) an hour per e-mail address (0: none). */
  linkMailsPerAddressPerHour: number;
}

/** Addresses whose wrong passwords are counted at once; the oldest are forgotten past it (bounded memory). */
const TRACKED_ADDRESSES = 100_000;

type Verdict = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;

function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match ? match[1] : null;
}

/**
 * The key of the caller's budget: a digest of its bearer token (never the token itself), else
 * its IP address. Counted before authentication, so a flood of wrong or missing tokens is
 * limited too, and shops sharing one hosting address keep a budget each.
 */
function callerKey(request: FastifyRequest): string {
  // the dashboard's session counts as its token: an office behind one address keeps a budget per person
  const token = bearerToken(request) ?? sessionTokenOf(request);
  return token ? `token:${hashToken(token)}` : `ip:${request.ip}`;
}

/** The e-mail of the body, else its link token, else nothing: what one guesser keeps trying. */
function guessedKey(request: FastifyRequest): string {
  const body = request.body as { email?: unknown; token?: unknown } | undefined;
  if (typeof body?.email === 'string') return `email:${body.email.trim().toLowerCase()}`;
  if (typeof body?.token === 'string') return `token:${body.token}`;
  return '';
}

function loginKey(request: FastifyRequest): string {
  return `login:${request.ip}:${sha256(guessedKey(request))}`;
}

function mailKey(request: FastifyRequest): string {
  return `mail:${sha256(guessedKey(request))}`;
}

function refuse(reply: FastifyReply, verdict: Verdict, what: string): void {
  if (verdict.isAllowed || !verdict.isExceeded) return;
  const seconds = Math.max(1, verdict.ttlInSeconds);
  reply.header('retry-after', String(seconds));
  throw new AppError(
    429,
    'rate_limited',
    `Too many requests: at most ${verdict.max} a minute ${what}. Retry in ${seconds} s.`,
  );
}

/** Installs the limits; call before authentication. */
export async function installRateLimits(app: FastifyInstance, limits: RateLimits): Promise<void> {
  installLoginFailureLimit(app, limits.loginFailuresPerAddressPerMinute);
  if (limits.perMinute <= 0 && limits.loginPerMinute <= 0 && limits.linkMailsPerAddressPerHour <= 0) return;
  // global: false: the plugin adds no hook of its own; ours below decide which calls count.
  await app.register(rateLimit, { global: false });

  if (limits.perMinute > 0) {
    const perCaller = app.createRateLimit({ max: limits.perMinute, timeWindow: WINDOW_MS, keyGenerator: callerKey });
    app.addHook('onRequest', async (request, reply) => {
      // Health, metrics, docs, files and the tracking page are not the API a plugin loops over.
      if (request.is404 || !request.routeOptions.url?.startsWith('/v2/')) return;
      const verdict = await perCaller(request);
      if (!verdict.isAllowed) {
        reply.header('x-ratelimit-limit', String(verdict.max));
        reply.header('x-ratelimit-remaining', String(verdict.remaining));
        reply.header('x-ratelimit-reset', String(verdict.ttlInSeconds));
      }
      refuse(reply, verdict, bearerToken(request) ? 'for one token' : 'from one address without a token');
    });
  }

  if (limits.loginPerMinute > 0) {
    const perLogin = app.createRateLimit({ max: limits.loginPerMinute, timeWindow: WINDOW_MS, keyGenerator: loginKey });
    // preHandler: the e-mail is in the body, read and validated by then.
    app.addHook('preHandler', async (request, reply) => {
      if (!takesCredentials(request)) return;
      refuse(reply, await perLogin(request), 'for one e-mail or link from one address');
    });
  }

  if (limits.linkMailsPerAddressPerHour > 0) {
    const perAddress = app.createRateLimit({
      max: limits.linkMailsPerAddressPerHour,
      timeWindow: HOUR_MS,
      keyGenerator: mailKey,
    });
    // and per sender: one address asking for resets or sign-ups of ever new e-mails would
    // otherwise be limited by nothing but the per-IP limit, each sign-up hashing a password
    const perSender = app.createRateLimit({
      max: limits.linkMailsPerAddressPerHour * MAILS_PER_SENDER_FACTOR,
      timeWindow: HOUR_MS,
      keyGenerator: (request) => `mail-from:${request.ip}`,
    });
    // whether the e-mail is known or not: the limit says nothing of it
    app.addHook('preHandler', async (request, reply) => {
      if (request.method !== 'POST' || request.routeOptions.config?.sendsMail !== true) return;
      for (const [limit, what] of [
        [perSender, 'from one IP address'],
        [perAddress, 'to one address'],
      ] as const) {
        const verdict = await limit(request);
        if (verdict.isAllowed || !verdict.isExceeded) continue;
        const seconds = Math.max(1, verdict.ttlInSeconds);
        reply.header('retry-after', String(seconds));
        throw new AppError(
          429,
          'rate_limited',
          `Too many requests: at most ${verdict.max} e-mails an hour ${what}. Retry in ${seconds} s.`,
        );
      }
    });
  }
}

/**
 * Wrong passwords (codes, links) per IP address over every e-mail: only wrong guesses count, so
 * an office behind one address signing in at nine is never refused, while a spray meets the
 * limit. Checked on the request's arrival, before its body is read or any password hashed.
 */
function installLoginFailureLimit(app: FastifyInstance, perMinute: number): void {
  if (perMinute <= 0) return;
  const failures = new LRUCache<string, { count: number; since: number }>({ max: TRACKED_ADDRESSES });
  const current = (ip: string, now: number) => {
    const entry = failures.get(ip);
    return entry && now - entry.since < WINDOW_MS ? entry : null;
  };
  app.addHook('onRequest', async (request, reply) => {
    if (!takesCredentials(request)) return;
    const now = Date.now();
    const entry = current(request.ip, now);
    if (!entry || entry.count < perMinute) return;
    const seconds = Math.max(1, Math.ceil((entry.since + WINDOW_MS - now) / 1000));
    reply.header('retry-after', String(seconds));
    throw new AppError(
      429,
      'rate_limited',
      `Too many wrong passwords from this address: at most ${perMinute} a minute. Retry in ${seconds} s.`,
    );
  });
  app.addHook('onError', async (request, _reply, error) => {
    // a wrong password (401 at sign-in, 403 at a change of password), a wrong code, an unknown link;
    // not "the code is needed now", which follows a right password
    if (!takesCredentials(request) || !WRONG_GUESSES.has((error as { code?: string }).code ?? '')) return;
    const now = Date.now();
    const entry = current(request.ip, now);
    if (entry) entry.count += 1;
    else failures.set(request.ip, { count: 1, since: now });
  });
}

/**
 * A budget per publishable key and IP address (the checkout widget): the key is public, so a
 * budget per key alone would let one scraper starve every buyer of the shop. Call inside the
 * plugin of the routes it guards.
 */
export async function installKeyAndAddressLimit(
  app: FastifyInstance,
  perMinute: number,
  keyOf: (request: FastifyRequest) => string,
): Promise<void> {
  if (perMinute <= 0) return;
  if (!app.hasDecorator('createRateLimit')) await app.register(rateLimit, { global: false });
  const limiter = app.createRateLimit({
    max: perMinute,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => `key:${sha256(keyOf(request))}:${request.ip}`,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return;
    refuse(reply, await limiter(request), 'for one key from one address');
  });
}
