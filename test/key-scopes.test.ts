/**
 * Scoped API keys. Every operation of the published document is called with a key of each scope:
 * refused (403 key_scope_missing) exactly where the operation's derived needs leave that scope
 * out, and never refused where they include it. Then what the keys themselves promise: made and
 * revoked by owners only, shown once, expiry, the IP allow-list, shops, revocation on another
 * process (PostgreSQL), and the refusal in Russian.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAG_AREAS, KEY_SCOPES, deriveAccess, scopesNeeded, type KeyScope } from '../src/platform/key-scopes.js';
import { createTestApp, usingPostgres, type TestApp } from './support/app.js';
import type { ApiClient } from './support/client.js';
import { shopBody, warehouseBody } from './support/fixtures.js';
import { isPublic, operationsOf, type OpenApiDocument } from './support/security.js';

let t: TestApp;
let owner: ApiClient;
let accountId: number;
let document: OpenApiDocument;

beforeAll(async () => {
  t = await createTestApp();
  const account = await t.newAccount('Keys');
  owner = account.client;
  accountId = account.accountId;
  document = (await t.client().get('/openapi.json')).body;
  const warehouse = await owner.post('/v2/warehouses', warehouseBody());
  warehouseId = warehouse.body.id;
});

let warehouseId: number;

async function newShop(name: string): Promise<number> {
  const answer = await owner.post('/v2/shops', shopBody(warehouseId, { name }));
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id;
}
afterAll(async () => t.close());

async function makeKey(body: Record<string, unknown>, by: ApiClient = owner) {
  const answer = await by.post('/v2/api-keys', { name: 'test', ...body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: number; key: string; scopes: KeyScope[] };
}

/** `/v2/orders/{id}` → `/v2/orders/:id`, as Fastify names the route. */
const routeUrl = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

describe('every operation with a key of each scope', () => {
  it('is refused exactly where the scope is not among what the operation needs', async () => {
    const keys = new Map<KeyScope, string>();
    for (const scope of KEY_SCOPES) keys.set(scope, (await makeKey({ scopes: [scope] })).key);
    const wrong: string[] = [];
    let checked = 0;
    for (const operation of operationsOf(document)) {
      // public ones, and the operators' (their own tokens, never an account's: any key is a 401 there)
      if (isPublic(operation.operation) || !operation.path.startsWith('/v2/') || operation.path.includes('/operator/'))
        continue;
      // what the published document says each operation needs (x-key-scopes, derived when the route registered)
      const needs = (operation.operation as { 'x-key-scopes'?: KeyScope[] })['x-key-scopes'] ?? [];
      expect(needs, operation.key).toEqual(scopesNeeded(operation.method, routeUrl(operation.path)));
      const url = operation.path.replace(/\{(\w+)\}/g, '999999');
      for (const scope of KEY_SCOPES) {
        const answer = await t.app.inject({
          method: operation.method,
          url,
          headers: { authorization: `Bearer ${keys.get(scope)}` },
        });
        const refused = answer.statusCode === 403 && answer.body.includes('"key_scope_missing"');
        checked++;
        if (refused === needs.includes(scope))
          wrong.push(`${operation.key} with ${scope}: ${answer.statusCode} (needs ${needs.join('|') || 'no key'})`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  }, 60_000);

  it('classifies every tag of the document (a new area is given its scope, not guessed)', () => {
    const tags = new Set(
      operationsOf(document).flatMap((operation) => (operation.operation as { tags?: string[] }).tags ?? []),
    );
    expect([...tags].filter((tag) => !(tag in TAG_AREAS))).toEqual([]);
  });

  it('derives what an operation needs from its method, tag and answer', () => {
    const facts = { methods: ['GET'], readOnly: false, answers: [], operationId: null };
    expect(deriveAccess({ ...facts, method: 'GET', tags: ['Orders'] }).needs).toEqual(['read', 'orders']);
    expect(deriveAccess({ ...facts, method: 'POST', methods: ['POST'], tags: ['Orders'] }).needs).toEqual(['orders']);
    expect(
      deriveAccess({ ...facts, method: 'POST', methods: ['GET', 'POST'], tags: ['Reference lists'] }).needs,
    ).toEqual(['read']);
    expect(
      deriveAccess({ ...facts, method: 'POST', methods: ['POST'], readOnly: true, tags: ['Calculator'] }).needs,
    ).toEqual(['read']);
    // an answer carrying a credential is a settings operation, a read or not
    const withKey = {
      type: 'object',
      properties: { shop: { type: 'object', properties: { apiKey: { type: 'string' } } } },
    };
    expect(deriveAccess({ ...facts, method: 'GET', tags: ['Orders'], answers: [withKey] }).needs).toEqual(['settings']);
    expect(deriveAccess({ ...facts, method: 'GET', tags: ['Employees (extension)'] }).needs).toEqual([]);
    expect(
      deriveAccess({ ...facts, method: 'PUT', methods: ['PUT'], tags: ['A tag no one classified'] }).needs,
    ).toEqual(['settings']);
    // the real routes
    expect(scopesNeeded('POST', '/v2/calculator')).toEqual(['read']);
    expect(scopesNeeded('GET', '/v2/shops/:id')).toEqual(['settings']);
    expect(scopesNeeded('POST', '/v2/orders/stickers')).toEqual(['documents']);
    expect(scopesNeeded('POST', '/v2/pickups')).toEqual(['pickups']);
    expect(scopesNeeded('POST', '/v2/api-keys')).toEqual([]);
  });
});

describe('keys', () => {
  it('are made by owners, shown once, listed with their hint, and refused to scoped keys and shop keys', async () => {
    const made = await makeKey({ scopes: ['read', 'orders'] });
    expect(made.key).toMatch(/^key_[A-Za-z0-9_-]{43}$/);
    const list = await owner.get('/v2/api-keys');
    const listed = list.body.find((key: { id: number }) => key.id === made.id);
    expect(listed).toMatchObject({ scopes: ['read', 'orders'], state: 'active', createdBy: 'account-token' });
    expect(JSON.stringify(list.body)).not.toContain(made.key);
    const settingsKey = t.client((await makeKey({ scopes: ['settings'] })).key);
    const escalation = await settingsKey.post('/v2/api-keys', { name: 'wider', scopes: ['settings', 'orders'] });
    expect(escalation.status).toBe(403);
    expect(escalation.body.code).toBe('key_scope_missing');
    const shopKey = t.client((await owner.get(`/v2/shops/${await newShop('Shop')}`)).body.apiKey);
    expect((await shopKey.post('/v2/api-keys', { name: 'x', scopes: ['read'] })).status).toBe(403);
    const stranger = (await t.newAccount('Stranger')).client;
    expect((await stranger.delete(`/v2/api-keys/${made.id}`)).status).toBe(404);
    expect((await t.client().get('/v2/api-keys')).status).toBe(401);
  });

  it('refuse bad input naming the field, and write nothing', async () => {
    const before = (await owner.get('/v2/api-keys')).body.length;
    const bad = await owner.post('/v2/api-keys', {
      name: 'bad',
      scopes: ['read'],
      allowedIps: ['10.0.0.0/40'],
      shopIds: [999999],
      expiresAt: '2001-01-01T00:00:00Z',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'allowedIps[0]',
      'expiresAt',
      'shopIds[0]',
    ]);
    expect((await owner.post('/v2/api-keys', { name: 'x', scopes: ['everything'] })).status).toBe(400);
    expect((await owner.post('/v2/api-keys', { name: 'x', scopes: [] })).status).toBe(400);
    expect((await owner.get('/v2/api-keys')).body.length).toBe(before);
  });

  it('name the scope an operation needs, in English and in Russian', async () => {
    const reader = t.client((await makeKey({ scopes: ['read'] })).key);
    const english = await reader.post('/v2/products', {});
    expect(english.status).toBe(403);
    expect(english.body.message).toContain('it needs the catalogue scope');
    const russian = await reader.call('POST', '/v2/products', {}, { headers: { 'accept-language': 'ru' } });
    expect(russian.body.message).toContain('нужна область доступа catalogue');
    // reads work
    expect((await reader.get('/v2/orders')).status).toBe(200);
    expect((await reader.post('/v2/calculator', {})).body.code).not.toBe('key_scope_missing');
  });

  it('stop at their expiry', async () => {
    const made = await makeKey({ scopes: ['read'], expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const client = t.client(made.key);
    expect((await client.get('/v2/orders')).status).toBe(200);
    await t.runtime.database.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', made.id)
      .execute();
    t.runtime.services.tokens.forgetAll();
    expect((await client.get('/v2/orders')).status).toBe(401);
    const listed = (await owner.get('/v2/api-keys')).body.find((key: { id: number }) => key.id === made.id);
    expect(listed.state).toBe('expired');
  });

  it('work only from their IP allow-list', async () => {
    const made = await makeKey({ scopes: ['read'], allowedIps: ['203.0.113.0/24', '2001:db8::/32'] });
    const from = (remoteAddress: string) =>
      t.app.inject({
        method: 'GET',
        url: '/v2/orders',
        remoteAddress,
        headers: { authorization: `Bearer ${made.key}` },
      });
    expect((await from('203.0.113.9')).statusCode).toBe(200);
    expect((await from('::ffff:203.0.113.10')).statusCode).toBe(200);
    expect((await from('2001:db8::1')).statusCode).toBe(200);
    const outside = await from('198.51.100.1');
    expect(outside.statusCode).toBe(403);
    expect(outside.json().code).toBe('key_address_refused');
  });

  it('limited to shops act only for them', async () => {
    const first = await newShop('First');
    const second = await newShop('Second');
    const key = t.client((await makeKey({ scopes: ['read', 'settings'], shopIds: [first] })).key);
    expect((await key.get(`/v2/shops/${first}`)).status).toBe(200);
    expect((await key.get(`/v2/shops/${second}`)).status).toBe(403);
    const named = await key.call('GET', '/v2/orders', undefined, { headers: { 'Shop-Id': String(second) } });
    expect(named.status).toBe(403);
    // an account-wide operation is refused to a key limited to shops, as to a shop key
    expect((await key.post('/v2/warehouses', warehouseBody())).status).toBe(403);
  });

  it('revoked stop at once, though remembered, and the last use is kept', async () => {
    const made = await makeKey({ scopes: ['read'] });
    const client = t.client(made.key);
    expect((await client.get('/v2/orders')).status).toBe(200);
    const used = (await owner.get('/v2/api-keys')).body.find((key: { id: number }) => key.id === made.id);
    expect(used.lastUsedAt).not.toBeNull();
    expect((await owner.delete(`/v2/api-keys/${made.id}`)).status).toBe(204);
    expect((await client.get('/v2/orders')).status).toBe(401);
    const listed = (await owner.get('/v2/api-keys')).body.find((key: { id: number }) => key.id === made.id);
    expect(listed.state).toBe('revoked');
    expect(accountId).toBeGreaterThan(0);
  });

  it.runIf(usingPostgres)('revoked on one process stop on another at once', async () => {
    const other = await createTestApp({ beside: t, env: { AUTH_CACHE_SECONDS: '60' } });
    try {
      const made = await makeKey({ scopes: ['read'] });
      const there = other.client(made.key);
      expect((await there.get('/v2/orders')).status).toBe(200);
      expect((await owner.delete(`/v2/api-keys/${made.id}`)).status).toBe(204);
      let status = 200;
      for (let attempt = 0; attempt < 50 && status === 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await there.get('/v2/orders')).status;
      }
      expect(status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
