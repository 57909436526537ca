/**
 * For every operation of the published document (test/support/security.ts): 401 without a
 * token, 404 for another account's id, 403 for a shop key outside its shop. The owner's
 * records are made first (the docs page's examples, then one of each kind an id names), so
 * the stranger asks for ids that exist, in another account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import type { ApiClient } from './support/client.js';
import {
  call,
  isPublic,
  operationsOf,
  sweepRefusals,
  type DocumentedOperation,
  type OpenApiDocument,
} from './support/security.js';
import { hostileFormBodies } from '../bench/form-bodies.js';

let t: TestApp;
let document: OpenApiDocument;
let owner: ApiClient;
let stranger: ApiClient;
let shopKey: ApiClient;
let ownerAccountId: number;
/** Path prefix → an id of the owner's record there. */
const made: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  document = (await t.client().get('/openapi.json')).body as OpenApiDocument;
  const ownerAccount = await t.newAccount('Owner');
  owner = ownerAccount.client;
  ownerAccountId = ownerAccount.accountId;
  stranger = (await t.newAccount('Stranger')).client;
  const example = (path: string) =>
    (document.paths[path].post.requestBody?.content['application/json'].examples ?? {})[
      Object.keys(document.paths[path].post.requestBody?.content['application/json'].examples ?? {})[0]
    ].value;
  const create = async (path: string, body: unknown) => {
    const answer = await owner.post(path, body);
    expect(answer.status, `${path}: ${answer.text}`).toBe(201);
    return answer.body.id as number;
  };
  made['/v2/warehouses'] = await create('/v2/warehouses', example('/v2/warehouses'));
  made['/v2/shops'] = await create('/v2/shops', example('/v2/shops'));
  const secondShop = await create('/v2/shops', { ...(example('/v2/shops') as object), name: 'Второй магазин' });
  shopKey = t.client((await owner.get(`/v2/shops/${secondShop}`)).body.apiKey);
  made['/v2/orders'] = await create('/v2/orders', example('/v2/orders'));
  made['/v2/boxes'] = await create('/v2/boxes', BODIES['PUT /v2/boxes/{id}']);
  made['/v2/products'] = await create('/v2/products', {
    ...BODIES['PUT /v2/products/{id}'],
    shopId: made['/v2/shops'],
  });
  made['/v2/webhooks'] = await create('/v2/webhooks', BODIES['PUT /v2/webhooks/{id}']);
});
afterAll(async () => t.close());

/** The owner's id for each id of a path: the record made under the longest matching prefix, else 1. */
function ownerIds(operation: DocumentedOperation): Record<string, number> {
  const prefix = Object.keys(made)
    .filter((path) => operation.path.startsWith(path))
    .sort((a, b) => b.length - a.length)[0];
  return { id: prefix ? made[prefix] : 1, deliveryId: 1 };
}

/** Valid bodies of the operations that validate their body before looking up their record. */
const BODIES = {
  'PUT /v2/boxes/{id}': { name: 'Коробка', dimensions: { width: 10, height: 10, length: 10 }, weight: 0.1 },
  'PUT /v2/products/{id}': {
    shopId: 1,
    name: 'Книга',
    vendorCode: 'BOOK-1',
    price: 800,
    weight: 0.5,
    dimensions: { width: 15, height: 4, length: 22 },
  },
  'PUT /v2/webhooks/{id}': { url: 'https://receiver.example/hook', events: ['order.created'] },
  'PUT /v2/warehouses/{id}/label-printer': { dpi: 203 },
  'PUT /v2/employees/{id}': { role: 'owner' },
  'PUT /v2/shops/{id}/widget-key': { allowedOrigins: ['https://shop.example'] },
  'PUT /v2/shops/{id}/shipping-rules': { rules: [] },
  'POST /v2/shops/{id}/shipping-rules/revert': { version: 1 },
  'PUT /v2/shops/{id}/buyer-messages/templates': { templates: {} },
  'POST /v2/shops/{id}/buyer-messages/preview': { moment: 'delivered', channel: 'email' },
  'POST /v2/sandbox/orders/{id}/partial-buyout': { lines: [{ index: 0, count: 1 }] },
  'POST /v2/fulfilment/operator/return-inspections/{orderId}': {
    lines: [{ productId: 1, outcome: 'stock', count: 1, reason: 'цел' }],
  },
};

const BODY_FIRST = 'its body is validated before its record is looked up, and a valid one needs records of the caller:';

/** Where a rule cannot reach an operation, and why. */
const EXEMPTIONS = {
  '401': {
    'POST /v2/fulfilment/operator/supplies/{id}/accepted':
      'an operator token checked after the body (src/modules/fulfilment/supplies.test.ts proves its 401)',
    'POST /v2/operator/bills/{id}/payments':
      'a billing operator token checked after the body (src/modules/reports/reports.test.ts proves its 401)',
  },
  '403': {
    'GET /v2/fulfilment/operator/supplies':
      'an operator token (from the CLI), not a shop key: any other token is a 401',
    'POST /v2/fulfilment/operator/supplies/{id}/arrived': 'an operator token, not a shop key: any other token is a 401',
    'POST /v2/fulfilment/operator/supplies/{id}/accepted':
      'an operator token, not a shop key: any other token is a 401',
    'POST /v2/operator/bills/{id}/payments': 'a billing operator token, not a shop key: any other token is a 401',
    'GET /v2/fulfilment/operator/return-inspections': 'an operator token, not a shop key: any other token is a 401',
    'GET /v2/fulfilment/operator/return-inspections/{orderId}':
      'an operator token, not a shop key: any other token is a 401',
    'POST /v2/fulfilment/operator/return-inspections/{orderId}':
      'an operator token, not a shop key: any other token is a 401',
    'POST /mcp':
      "MCP reads only the Authorization header (a bearer token), never the session cookie: a cross-site page's cookie is a 401 (src/modules/mcp/mcp-http.test.ts)",
    ...Object.fromEntries(
      [
        'POST /dadata/suggestions/api/4_1/rs/suggest/address',
        'POST /dadata/suggestions/api/4_1/rs/findById/address',
        'POST /dadata/suggestions/api/4_1/rs/geolocate/address',
        'POST /dadata/api/v1/clean/address',
      ].map((key) => [
        key,
        "DaData's paths read only DaData's Authorization header (a key), never the session cookie: a cross-site page's cookie is a 401 (src/modules/addresses/addresses.test.ts)",
      ]),
    ),
  },
  '404': {
    'PUT /v2/kits/{id}': `${BODY_FIRST} src/modules/kits/kits.test.ts`,
    'POST /v2/orders/status/{id}': `${BODY_FIRST} src/modules/delivery-methods/delivery-methods.test.ts`,
    'PUT /v2/delivery-methods/{id}': `${BODY_FIRST} src/modules/delivery-methods/delivery-methods.test.ts`,
    'PUT /v2/shops/{id}/cms-callbacks': `${BODY_FIRST} src/modules/webhooks/cms-callbacks.test.ts`,
    'POST /v2/shops/{id}/widget-key': `${BODY_FIRST} src/modules/widget/widget.test.ts`,
    'POST /v2/fulfilment/operator/supplies/{id}/arrived':
      'an operator acts for a fulfilment warehouse of every account: no account of its own (supplies.test.ts)',
    'POST /v2/fulfilment/operator/supplies/{id}/accepted':
      'an operator acts for a fulfilment warehouse of every account: no account of its own (supplies.test.ts)',
    'POST /v2/operator/bills/{id}/payments': 'a billing operator records payments of every account (reports.test.ts)',
    'GET /v2/fulfilment/operator/return-inspections/{orderId}':
      "an operator acts for a fulfilment warehouse of every account; another warehouse's parcel is a 404 (return-inspections.test.ts)",
    'POST /v2/fulfilment/operator/return-inspections/{orderId}':
      "an operator acts for a fulfilment warehouse of every account; another warehouse's parcel is a 404 (return-inspections.test.ts)",
    'POST /v2/marketplaces/integration/{id}':
      "the id is a marketplace of the service's reference, not an account's record",
    'POST /v2/marketplaces/settings/{id}':
      "the id is a marketplace of the service's reference, not an account's record",
    'POST /v2/carrier-integrations/{companyId}':
      "the id is a delivery company of the service's reference, not an account's record",
    'GET /v2/addresses/{fiasId}':
      "the id is a FIAS id of the federal address register, shared reference data, not an account's record",
  },
} satisfies Record<'401' | '403' | '404', Record<string, string>>;

describe('every operation of the document', () => {
  it("refuses without a token (401), a shop key outside its shop (403), another account's id (404)", async () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(80);
    const broken = await sweepRefusals(operations, {
      anonymous: t.client(),
      stranger,
      shopKey,
      otherShopId: made['/v2/shops'],
      ownerIds,
      bodies: BODIES,
      exemptions: EXEMPTIONS,
    });
    expect(broken).toEqual({ '401': [], '403': [], '404': [] });
  });
});

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('every operation of the document, attacked from another site and with an oversized form', () => {
  it("refuses a cross-site page's unsafe call with the victim's session cookie (403) and a cross-site sign-in", async () => {
    const email = 'sweep-owner@shop.example';
    const password = 'sweep owner password';
    await t.runtime.services.accounts.addEmployee(ownerAccountId, { name: 'Owner', email, password });
    const signIn = await t.app.inject({ method: 'POST', url: '/v2/auth/session', payload: { email, password } });
    const cookie = ([] as string[])
      .concat(signIn.headers['set-cookie'] ?? [])
      .map((line) => line.split(';')[0])
      .join('; ');
    const crossSite = { cookie, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' };
    const accepted: string[] = [];
    for (const operation of operationsOf(document)) {
      if (!UNSAFE.has(operation.method)) continue;
      // what a page of another site can make a browser send: the cookie, no CSRF token (it cannot read one)
      const answer = await call(t.client(), operation, ownerIds(operation), crossSite, BODIES);
      const refused = isPublic(operation.operation)
        ? answer.status < 200 ||
          answer.status >= 300 ||
          !String(answer.headers['set-cookie'] ?? '').includes('dashboard_session')
        : operation.key in EXEMPTIONS['403']
          ? answer.status >= 400 && answer.status < 500 // an operator's token only: the cookie is not read
          : answer.status === 403;
      if (!refused) accepted.push(`${operation.key}: ${answer.status}`);
    }
    expect(accepted).toEqual([]);
    // the session itself still works from its own pages
    expect((await t.app.inject({ method: 'GET', url: '/v2/auth/session', headers: { cookie } })).statusCode).toBe(200);
  });

  it('answers an oversized hostile form body to every operation with a body with a 4xx, never a 5xx', async () => {
    const probe = hostileFormBodies()["the probe's: 4 lists of 10,000 indexes (425 KiB)"];
    const broken: string[] = [];
    for (const operation of operationsOf(document)) {
      if (!operation.operation.requestBody) continue;
      for (const client of [owner, t.client()]) {
        const answer = await call(client, operation, ownerIds(operation), {}, { [operation.key]: probe });
        // the call helper sends JSON: send the bytes form-encoded instead
        const url = operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
          String(ownerIds(operation)[name] ?? 1),
        );
        const form = await client.call(operation.method, url, probe, { form: true });
        for (const each of [answer, form]) {
          if (each.status < 400 || each.status >= 500)
            broken.push(`${operation.key}: ${each.status} ${each.text.slice(0, 80)}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
