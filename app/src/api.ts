/**
 * Every call of the dashboard goes through the typed client of clients/typescript (openapi-fetch
 * over the types generated from the service's OpenAPI document): when the API changes, the
 * dashboard stops compiling. Same origin, so the browser sends the HttpOnly session cookie by
 * itself; the CSRF token (kept in memory only) goes in X-CSRF-Token on unsafe calls. A 401 says
 * the session ended (the app shows sign-in over the page, keeping what was typed); a failed
 * fetch says the network is gone (said once, by one banner).
 */
import createClient, { type Middleware } from 'openapi-fetch';
import {
  DeliveryApiError,
  ok,
  type components,
  type operations,
  type paths,
  type RequestBody,
} from '../../clients/typescript/src/index';

export { DeliveryApiError, ok };
export type { RequestBody };
export type Schemas = components['schemas'];
/** The JSON an operation answers when it succeeds (200), by operationId: for answers the document does not name. */
export type Answer<Id extends keyof operations> = operations[Id] extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;
export type Order = Schemas['Order'];

let csrfToken: string | null = null;
const listeners = { sessionEnded: new Set<() => void>(), network: new Set<(down: boolean) => void>() };

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function onSessionEnded(listener: () => void): () => void {
  listeners.sessionEnded.add(listener);
  return () => listeners.sessionEnded.delete(listener);
}

export function onNetworkChange(listener: (down: boolean) => void): () => void {
  listeners.network.add(listener);
  return () => listeners.network.delete(listener);
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Calls made without a session (a sign-in, the one-time links): their 401 says a password or code is wrong. */
const SIGNED_OUT_CALLS =
  /\/v2\/auth\/(session|setup|invitation|password-reset(\/confirm)?|signup(\/confirm)?|links\/check|second-factor\/sign-in-setup)$/;

/** The network failed: a TypeError from fetch, not an answer of the service. */
export class NetworkError extends Error {
  constructor() {
    super('network');
    this.name = 'NetworkError';
  }
}

const session: Middleware = {
  onRequest({ request }) {
    if (csrfToken && UNSAFE.has(request.method)) request.headers.set('x-csrf-token', csrfToken);
    // the service's refusals in the language the page is shown in (main.tsx keeps <html lang> current)
    const language = globalThis.document?.documentElement.lang;
    if (language === 'ru' || language === 'en') request.headers.set('accept-language', language);
    return request;
  },
  onResponse({ request, response }) {
    for (const listener of listeners.network) listener(false);
    // the sign-in itself answers 401 for a wrong password: that is not a session ending
    if (response.status === 401 && !SIGNED_OUT_CALLS.test(new URL(request.url).pathname))
      for (const listener of listeners.sessionEnded) listener();
    return response;
  },
  onError() {
    for (const listener of listeners.network) listener(true);
    return new NetworkError();
  },
};

export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? 'http://localhost',
  credentials: 'same-origin',
});
api.use(session);

/** X-Total-Count of a list answer. */
export function totalOf(response: Response): number {
  return Number(response.headers.get('x-total-count') ?? 0);
}

/** A fresh Idempotency-Key: a create retried after a lost answer is made once. */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}
