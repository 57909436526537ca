/**
 * What a scoped API key may do, derived from each operation and never from a list of paths.
 *
 * An operation is a *read* when it is a GET (or HEAD), the POST of a read-only list that also
 * answers POST (`GET_OR_POST`), or a POST its route declares `readOnly` (the calculator, the
 * checks and previews that change nothing). Its *area* is the scope its OpenAPI tag belongs to
 * (`TAG_AREAS`: one line per tag, so a new area is classified once, and a tag left out is
 * treated as settings, the most guarded, and named by a test). An operation whose answer carries
 * a credential (a property named like a key, a secret, a token or a password, found by walking
 * its response schema) is a settings operation whatever its tag: a read-only key must not read a
 * shop's API key and so become that key.
 *
 * A key allows an operation when one of its scopes is among `scopesNeeded`:
 * - a read: `read`, or its area's scope (a key for orders reads orders);
 * - a change: its area's scope;
 * - managing who may call (employees, sessions, API keys, sign-in): no scope; only an account
 *   token or an owner's session.
 *
 * The answer is worked out once per route when it registers (`onRoute`), so the check on each
 * request is a property read and a search in a list of at most eight (see bench/audit.ts).
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Scope } from './auth.js';
import { AppError } from './errors.js';

export type KeyScope =
  | 'read'
  | 'orders'
  | 'documents'
  | 'catalogue'
  | 'fulfilment'
  | 'pickups'
  | 'billing'
  | 'settings';

export const KEY_SCOPES: readonly KeyScope[] = [
  'read',
  'orders',
  'documents',
  'catalogue',
  'fulfilment',
  'pickups',
  'billing',
  'settings',
];

/** What each scope lets a key do, for people (the dashboard, the OpenAPI document). */
export const KEY_SCOPE_TITLES: Record<KeyScope, { en: string; ru: string }> = {
  read: { en: 'read-only: every read but credentials', ru: 'только чтение: всё, кроме ключей и секретов' },
  orders: { en: 'orders: create, edit, confirm, cancel', ru: 'заказы: создание, правка, подтверждение, отмена' },
  documents: { en: 'documents: labels, waybills, acts', ru: 'документы: этикетки, накладные, акты' },
  catalogue: { en: 'catalogue: products, kits, boxes', ru: 'каталог: товары, комплекты, коробки' },
  fulfilment: { en: 'fulfilment: supplies to the warehouse', ru: 'фулфилмент: поставки на склад' },
  pickups: { en: 'pickups: book and cancel', ru: 'заборы: заказ и отмена' },
  billing: { en: 'billing and reports', ru: 'счета и отчёты' },
  settings: {
    en: 'settings and webhooks: shops, warehouses, rules, webhooks, integrations',
    ru: 'настройки и вебхуки: магазины, склады, правила, вебхуки, интеграции',
  },
};

/** Managing who may call: no scoped key reaches it. */
type Area = KeyScope | 'access';

/** The area of each OpenAPI tag. A tag not here is `settings` (and test/key-scopes.test.ts names it). */
export const TAG_AREAS: Readonly<Record<string, Area>> = {
  Service: 'read',
  'Reference lists': 'read',
  Calculator: 'read',
  Addresses: 'settings',
  Files: 'settings',
  Authentication: 'access',
  'Employees (extension)': 'access',
  'API keys (extension)': 'access',
  'Audit trail (extension)': 'settings',
  Warehouses: 'settings',
  Shops: 'settings',
  Boxes: 'catalogue',
  Products: 'catalogue',
  Kits: 'catalogue',
  'Delivery promises (extension)': 'billing',
  Orders: 'orders',
  Tracking: 'orders',
  Documents: 'documents',
  Events: 'orders',
  Notifications: 'orders',
  'Buyer messages (extension)': 'settings',
  'Fulfilment supplies': 'fulfilment',
  'Fulfilment warehouse staff (extension)': 'fulfilment',
  Pickups: 'pickups',
  Marketplaces: 'settings',
  Reports: 'billing',
  'Billing operators (extension)': 'billing',
  'Delivery methods': 'settings',
  'Delivery company contracts (extension)': 'settings',
  'Sandbox (extension)': 'orders',
  Webhooks: 'settings',
  'Checkout widget': 'orders',
  'First-run checklist (extension)': 'read',
  'Returns (extension)': 'orders',
  'Fulfilment returns inspection (extension)': 'fulfilment',
  // the door itself is a read; each tool behind it is checked as the operation it calls
  MCP: 'read',
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that changes nothing (a price, a check, a preview): a read as far as key scopes and the audit trail go. */
    readOnly?: boolean;
  }
}

/** What one method of one route needs, worked out when it registers. */
export interface OperationAccess {
  read: boolean;
  /** Any one of these scopes allows it; empty: no scoped key may call it. */
  needs: readonly KeyScope[];
  /** The operation's id in the OpenAPI document (the audit trail names changes by it). */
  operationId: string | null;
}

const CREDENTIAL_PROPERTY = /(api_?key|secret|token|password)$/i;

/** Whether an answer of this schema carries a credential (a property named like one), searched a few levels deep. */
export function carriesCredential(schema: unknown, depth = 0): boolean {
  if (depth > 8 || schema === null || typeof schema !== 'object') return false;
  const node = schema as Record<string, unknown>;
  const properties = node.properties as Record<string, unknown> | undefined;
  if (properties) {
    for (const [name, property] of Object.entries(properties)) {
      if (CREDENTIAL_PROPERTY.test(name)) return true;
      if (carriesCredential(property, depth + 1)) return true;
    }
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) {
    const inner = node[key];
    if (Array.isArray(inner)) {
      if (inner.some((part) => carriesCredential(part, depth + 1))) return true;
    } else if (inner && typeof inner === 'object' && carriesCredential(inner, depth + 1)) return true;
  }
  return false;
}

interface RouteFacts {
  method: string;
  /** All methods the route answers (a GET_OR_POST list's POST is a read). */
  methods: readonly string[];
  tags: readonly string[];
  readOnly: boolean;
  /** The success answers' schemas. */
  answers: readonly unknown[];
  operationId: string | null;
}

/** The derivation itself, pure: what one method of one route needs. */
export function deriveAccess(facts: RouteFacts): OperationAccess {
  const method = facts.method.toUpperCase();
  const read =
    method === 'GET' ||
    method === 'HEAD' ||
    method === 'OPTIONS' ||
    (method === 'POST' && (facts.readOnly || facts.methods.some((other) => other.toUpperCase() === 'GET')));
  const areas = facts.tags.map((tag) => TAG_AREAS[tag] ?? 'settings');
  const operationId = facts.operationId;
  if (areas.includes('access')) return { read, needs: [], operationId };
  const credential = facts.answers.some((answer) => carriesCredential(answer));
  const area: KeyScope = credential ? 'settings' : ((areas[0] as KeyScope | undefined) ?? 'settings');
  if (!read) return { read, needs: [area], operationId };
  if (credential) return { read, needs: ['settings'], operationId };
  return { read, needs: area === 'read' ? ['read'] : ['read', area], operationId };
}

/** route pattern → method → what it needs; filled as routes register (every app of the process derives the same). */
const registry = new Map<string, Map<string, OperationAccess>>();

function successAnswers(route: RouteOptions): unknown[] {
  const response = (route.schema?.response ?? {}) as Record<string, unknown>;
  return Object.entries(response)
    .filter(([status]) => status.startsWith('2'))
    .map(([, schema]) => schema);
}

/** What this method of this route needs (a route not registered: reads need `read`, changes `settings`). */
export function accessOf(method: string, routeUrl: string): OperationAccess {
  const known = registry.get(routeUrl)?.get(method) ?? registry.get(routeUrl)?.get(method.toUpperCase());
  if (known) return known;
  const read = method === 'GET' || method === 'HEAD';
  return { read, needs: read ? ['read'] : ['settings'], operationId: null };
}

export function scopesNeeded(method: string, routeUrl: string): KeyScope[] {
  return [...accessOf(method, routeUrl).needs];
}

/** Whether `scope` may call the operation (always, unless it is a scoped key's). */
export function keyAllows(scope: Scope, method: string, routeUrl: string): boolean {
  const held = scope.keyScopes;
  if (held === undefined) return true;
  const needs = accessOf(method, routeUrl).needs;
  for (const needed of needs) if (held.includes(needed)) return true;
  return false;
}

/** The 403 of an operation outside a key's scopes, naming what it needs. */
export function scopeRefusal(method: string, routeUrl: string): AppError {
  const needs = accessOf(method, routeUrl).needs;
  if (needs.length === 0)
    return new AppError(
      403,
      'key_scope_missing',
      `An API key cannot call ${method} ${routeUrl}: it needs an account token or an owner's session.`,
      [{ field: 'scope', message: 'needs an account token or an owner' }],
    );
  const names = needs.join(' or ');
  return new AppError(
    403,
    'key_scope_missing',
    `This API key cannot call ${method} ${routeUrl}: it needs the ${names} scope.`,
    [{ field: 'scope', message: `needs the ${names} scope` }],
  );
}

/**
 * Works out each route's needs as it registers, and checks them on each request of a scoped key
 * (an onRequest hook after authentication). Install before the routes.
 */
export function installKeyScopes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    const schema = route.schema as
      | { tags?: string[]; operation?: { id: string }; operationByMethod?: Record<string, { id: string }> }
      | undefined;
    let byMethod = registry.get(route.url);
    if (!byMethod) {
      byMethod = new Map();
      registry.set(route.url, byMethod);
    }
    for (const method of methods) {
      byMethod.set(
        method.toUpperCase(),
        deriveAccess({
          method,
          methods,
          tags: schema?.tags ?? [],
          readOnly: route.config?.readOnly === true,
          answers: successAnswers(route),
          operationId: schema?.operationByMethod?.[method.toUpperCase()]?.id ?? schema?.operation?.id ?? null,
        }),
      );
    }
  });
  app.addHook('onRequest', async (request) => {
    const scope = request.scope;
    if (!scope?.keyScopes) return;
    if (scope.keyAddresses && !addressAllowed(scope.keyAddresses, request.ip))
      throw new AppError(
        403,
        'key_address_refused',
        `This API key is not allowed from ${request.ip}: add the address to its IP allow-list.`,
      );
    const url = request.routeOptions.url ?? '';
    if (!keyAllows(scope, request.method, url)) throw scopeRefusal(request.method, url);
  });
}

/** The allow-list of CIDR blocks (`10.0.0.0/8`, `2001:db8::/32`) or single addresses; throws on a malformed one. */
export function addressList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.trim().split('/');
    const type = isIPv4(address ?? '') ? 'ipv4' : isIPv6(address ?? '') ? 'ipv6' : null;
    if (!type || address === undefined) throw new TypeError(`${entry} is not an IP address or CIDR block`);
    if (bits === undefined) list.addAddress(address, type);
    else {
      const prefix = Number(bits);
      if (!/^\d{1,3}$/.test(bits) || prefix > (type === 'ipv4' ? 32 : 128))
        throw new TypeError(`${entry} has a prefix length out of range`);
      list.addSubnet(address, prefix, type);
    }
  }
  return list;
}

/** Whether `address` (as Fastify gives it; an IPv4 address may come IPv6-mapped) is on the list. */
export function addressAllowed(list: BlockList, address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped ? (mapped[1] as string) : address;
  if (isIPv4(plain)) return list.check(plain, 'ipv4');
  return isIPv6(plain) && list.check(plain, 'ipv6');
}
