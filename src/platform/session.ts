/**
 * The dashboard's browser session (/app/): the employee's login token in an HttpOnly,
 * SameSite=Strict cookie that page scripts cannot read, and a CSRF token
 * (@fastify/csrf-protection: a secret in its own HttpOnly cookie, the token bound to the
 * session by an HMAC of the session token's hash) that the page sends in `X-CSRF-Token` on every
 * unsafe call. The authentication hook (auth.ts) takes the cookie only when no Authorization
 * header is sent: API clients with Bearer tokens are untouched, and a cookie never overrides one.
 */
import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashToken } from './crypto.js';
import { AppError } from './errors.js';

export const SESSION_COOKIE = 'dashboard_session';
const CSRF_SECRET_COOKIE = 'dashboard_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SessionOptions {
  /** Key of the HMAC that binds a CSRF token to its session (derived from the instance secret). */
  csrfKey: string;
  /** Cookies marked Secure: the service is reached over https (PUBLIC_URL). */
  secure: boolean;
  /** The service's own public address (PUBLIC_URL): a browser's page there is same-site. */
  publicUrl: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route that starts, ends or sets up a cookie session: a browser may call it only from the
     * service's own pages. No CSRF token can guard a sign-in (there is no session yet), so another
     * site's page could sign the victim in as the attacker (login CSRF).
     */
    sameSiteOnly?: boolean;
  }
}

/**
 * Whether a browser made this request from another site's page. Browsers send
 * `Sec-Fetch-Site` (Chromium, Firefox, Safari since 2023) and `Origin` on every cross-origin
 * POST; a client that sends neither (curl, a plugin's PHP) is not a browser page and is let through.
 */
export function isCrossSiteBrowserRequest(request: FastifyRequest, ownOrigins: ReadonlySet<string>): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite !== 'same-origin' && fetchSite !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  let sender: URL;
  try {
    sender = new URL(origin);
  } catch {
    return true; // 'null' (a sandboxed or file page) and anything unreadable
  }
  if (ownOrigins.has(sender.origin)) return false;
  // the address the browser used: the Host header, with the sender's scheme (a proxy may end TLS before us)
  const host = request.headers.host;
  if (!host) return true;
  try {
    return new URL(`${sender.protocol}//${host}`).origin !== sender.origin;
  } catch {
    return true;
  }
}

/** Installs the cookie parser and the CSRF tokens; call before the rate limits and authentication, which read the cookie. */
export async function installSessions(app: FastifyInstance, options: SessionOptions): Promise<void> {
  await app.register(cookie);
  await app.register(csrfProtection, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_SECRET_COOKIE,
    cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true, secure: options.secure },
    // a token made for one session is worthless in another (a sign-out, another employee)
    getUserInfo: (request) => sessionBinding(request),
    getToken: (request) => {
      const value = request.headers[CSRF_HEADER];
      return typeof value === 'string' ? value : undefined;
    },
    csrfOpts: { hmacKey: options.csrfKey, userInfo: true },
  });
  app.decorate('sessionCookieSecure', options.secure);

  const ownOrigins = new Set([new URL(options.publicUrl).origin]);
  // onRequest: refused before the body is read, and before any password is checked
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config?.sameSiteOnly || !isCrossSiteBrowserRequest(request, ownOrigins)) return;
    throw new AppError(
      403,
      'cross_site_refused',
      'Signing in, out or setting up from another site is refused: open the dashboard at its own address.',
    );
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionCookieSecure: boolean;
  }
}

/** The session token the browser sent, or null. */
export function sessionTokenOf(request: FastifyRequest): string | null {
  const value = request.cookies?.[SESSION_COOKIE];
  return typeof value === 'string' && value.length > 0 && value.length <= 512 ? value : null;
}

function sessionBinding(request: FastifyRequest): string {
  const token = sessionTokenOf(request);
  return token ? hashToken(token) : '';
}

/**
 * Refuses an unsafe call made with the session cookie that lacks this session's CSRF token:
 * another site's page can make the browser send the cookie (older browsers, a sibling
 * subdomain), never read the token.
 */
export async function checkCsrf(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  if (SAFE_METHODS.has(request.method)) return;
  await new Promise<void>((resolve, reject) => {
    // The plugin answers a refusal itself (reply.send(error)); this stand-in turns it into the
    // house error instead, so the refusal has the usual body and log id.
    const refusal = {
      send: () =>
        reject(
          new AppError(
            403,
            'csrf_token_invalid',
            `The ${CSRF_HEADER} header is missing or not this session's: reload the page and sign in again if it persists.`,
          ),
        ),
    };
    app.csrfProtection(request, refusal as unknown as FastifyReply, () => resolve());
  });
}

/** Starts the session: the cookie, and the CSRF token for the page to keep in memory. */
export function startSession(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: string): string {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.server.sessionCookieSecure,
    expires: new Date(expiresAt),
  });
  // the new session's binding: the plugin reads the cookie from the request, which has the old one or none
  request.cookies[SESSION_COOKIE] = token;
  return csrfTokenFor(reply, token);
}

/** A CSRF token of the given session (the page asks again after a reload). */
export function csrfTokenFor(reply: FastifyReply, token: string): string {
  return reply.generateCsrf({ userInfo: hashToken(token) });
}

export function endSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
