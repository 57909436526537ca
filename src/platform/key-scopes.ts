/**
 * STUB (mcp branch): the keys branch owns this file and replaces it at merge. Same exports as
 * agreed between the areas: a Scope without `keyScopes` (account tokens, shop keys,
 * employees' sessions) may do everything; with `keyScopes` ['read'] only reads (GET, and the
 * calculator's POSTs, which price and write nothing). The stub treats any other non-empty list
 * like ['read'] (it knows no other scope); the real file derives each operation's scopes from
 * the operation itself.
 */
import type { Scope } from './auth.js';

export type KeyScope =
  | 'read'
  | 'orders'
  | 'documents'
  | 'catalogue'
  | 'fulfilment'
  | 'pickups'
  | 'billing'
  | 'settings';

/** Operations that only read although sent with POST (the calculator prices, it stores nothing). */
function readsOnly(method: string, routeUrl: string): boolean {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' || (upper === 'POST' && routeUrl.startsWith('/v2/calculator'));
}

/** The scopes any of which allows the operation (stub: 'read' for reads, none known otherwise). */
export function scopesNeeded(method: string, routeUrl: string): KeyScope[] {
  return readsOnly(method, routeUrl) ? ['read'] : [];
}

/** Whether the caller's key may call the operation (routeUrl: Fastify's pattern, e.g. '/v2/orders/:id'). */
export function keyAllows(scope: Scope, method: string, routeUrl: string): boolean {
  if (scope.keyScopes === undefined) return true;
  return readsOnly(method, routeUrl) && scope.keyScopes.length > 0;
}
