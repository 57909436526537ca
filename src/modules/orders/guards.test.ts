/**
 * The guards every orders endpoint keeps (DESIGN.md 5 and 7), table-driven: no token or a bad
 * one is 401, another account's order 404 (never 403), a shop key reaching another shop's order
 * of its account 403, bad input 400 naming the field; in every case nothing is written. Each
 * call is aimed at an order it could change: the last test makes the same calls as the owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient, ApiResponse, CallOptions } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

interface ErrorBody {
  code: string;
  message: string;
  errors: Array<{ field?: string; id?: number; message: string }>;
  logId: string;
}

/** One call of an endpoint aimed at one order of the owner's second shop (or its fulfilment shop). */
interface Aimed {
  name: string;
  method: Method;
  url: string;
  body?: unknown;
  /** The order it is aimed at. */
  id: number;
  /** A batch answers the failing ids in `errors`. */
  batch: boolean;
  /** The owner's answer: the call would have changed (or read) the order. */
  ok: number;
  /** A shop key's answer: 403, except tracking, a lookup among the key's own orders (404). */
  shopKey: number;
}

const HUGE_ID = '99999999999999999999';
const BATCH_PATHS = [
  'confirm',
  'cancel',
  'duplicate',
  'duplicate-back',
  'return',
  'extend-hold',
  'pack',
  'unpack',
  'check-rests',
] as const;
type BatchPath = (typeof BATCH_PATHS)[number];

let t: TestApp;
let a: OrderingAccount;
let stranger: OrderingAccount;
let strangerDraft: number;
let ownShopDraft: number;
let fulfilmentShopId: number;
/** The order each batch path is aimed at. */
const batchTarget = {} as Record<BatchPath, number>;
let single: {
  get: number;
  put: number;
  patch: number;
  reserve: number;
  release: number;
  tracked: { id: number; trackNumber: string; cmsId: string };
};
let calls: Aimed[];

async function draft(client: ApiClient, body: Record<string, unknown>): Promise<number> {
  const created = await client.post('/v2/orders', body);
  expect(created.status, created.text).toBe(201);
  return created.body.id as number;
}

/** A registered order of the second shop, pushed by its company to the pickup point (42). */
async function atPoint(cmsId: string): Promise<{ id: number; trackNumber: string; cmsId: string }> {
  const order = await preparedOrder(
    a.owner,
    a.worker,
    orderBody({ shopId: a.otherShopId, pointId: a.pointId }, { cmsId }),
  );
  const events = [41, 42].map((statusCode) => ({ trackNumber: order.trackNumber, statusCode }));
  const pushed = await t
    .client()
    .post(
      '/v2/tracking/events/1',
      { events },
      { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
    );
  expect(pushed.body.applied, pushed.text).toBe(2);
  return { ...order, cmsId };
}

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0' } });
  a = await orderingAccount(t, { name: 'Owner' });
  stranger = await orderingAccount(t, { name: 'Stranger' });
  strangerDraft = await draft(stranger.owner, orderBody(stranger));
  ownShopDraft = await draft(a.owner, orderBody(a));
  const fulfilmentWarehouse = (
    await a.owner.post('/v2/warehouses', warehouseBody({ name: 'Фулфилмент', type: 2, fulfilmentWarehouseId: 101 }))
  ).body.id as number;
  fulfilmentShopId = (await a.owner.post('/v2/shops', shopBody(fulfilmentWarehouse, { name: 'Фулфилмент-магазин' })))
    .body.id as number;

  const other = () => draft(a.owner, orderBody({ shopId: a.otherShopId, pointId: a.pointId }));
  const fulfilment = () => draft(a.owner, orderBody({ shopId: fulfilmentShopId, pointId: a.pointId }));
  for (const path of ['confirm', 'cancel', 'duplicate', 'duplicate-back', 'pack', 'unpack'] as const)
    batchTarget[path] = await other();
  expect((await a.owner.post('/v2/orders/pack', { ids: [batchTarget.unpack] })).status).toBe(204);
  batchTarget['check-rests'] = await fulfilment();
  batchTarget.return = (await atPoint('GUARD-RETURN')).id;
  batchTarget['extend-hold'] = (await atPoint('GUARD-HOLD')).id;
  single = {
    get: await other(),
    put: await other(),
    patch: await other(),
    reserve: await fulfilment(),
    release: await fulfilment(),
    tracked: await atPoint('GUARD-TRACK'),
  };
  expect((await a.owner.put(`/v2/orders/reservation/${single.release}`)).status).toBe(204);

  const batch = (path: BatchPath): Aimed => ({
    name: `POST /v2/orders/${path}`,
    method: 'POST',
    url: `/v2/orders/${path}`,
    body: { ids: [batchTarget[path]], ...(path === 'extend-hold' ? { days: 3 } : {}) },
    id: batchTarget[path],
    batch: true,
    ok: path.startsWith('duplicate') || path === 'check-rests' ? 200 : 204,
    shopKey: 403,
  });
  const one = (method: Method, path: string, id: number, ok: number, body?: unknown): Aimed => ({
    name: `${method} ${path}`,
    method,
    url: path.replace('{id}', String(id)),
    body,
    id,
    batch: false,
    ok,
    shopKey: 403,
  });
  const { tracked } = single;
  calls = [
    one('GET', '/v2/orders/{id}', single.get, 200),
    one(
      'PUT',
      '/v2/orders/{id}',
      single.put,
      204,
      orderBody({ shopId: a.otherShopId, pointId: a.pointId }, { cmsId: 'REPLACED' }),
    ),
    one('PATCH', '/v2/orders/{id}', single.patch, 204, { cmsId: 'PATCHED' }),
    ...BATCH_PATHS.map(batch),
    one('PUT', '/v2/orders/reservation/{id}', single.reserve, 204),
    one('PUT', '/v2/orders/reservation-cancel/{id}', single.release, 204),
    ...[
      `id=${tracked.id}`,
      `orderId=${tracked.id}`,
      `trackNumber=${tracked.trackNumber}`,
      `cmsId=${tracked.cmsId}`,
    ].map((query) => ({ ...one('GET', `/v2/tracking?${query}`, tracked.id, 200), shopKey: 404 })),
  ];
});
afterAll(async () => t.close());

/** Everything a refused call must leave as it was: every order aimed at (as GET answers it) and both accounts' order counts. */
async function state(): Promise<unknown> {
  const ids = [...new Set([...calls.map((call) => call.id), strangerDraft, ownShopDraft])];
  const orders: unknown[] = [];
  for (const id of ids)
    orders.push((await (id === strangerDraft ? stranger.owner : a.owner).get(`/v2/orders/${id}`)).body);
  const total = async (client: ApiClient) =>
    Number((await client.get('/v2/orders?list=0&perPage=1')).headers['x-total-count']);
  return { orders, owner: await total(a.owner), stranger: await total(stranger.owner) };
}

function send(
  client: ApiClient,
  call: Pick<Aimed, 'method' | 'url' | 'body'>,
  options?: CallOptions,
): Promise<ApiResponse<ErrorBody>> {
  return client.call<ErrorBody>(call.method, call.url, call.body, options);
}

/** The house error body, the same log id in the header. */
function expectError(response: ApiResponse<ErrorBody>, status: number, label: string): ErrorBody {
  expect(response.status, `${label}: ${response.text}`).toBe(status);
  expect(response.body, label).toEqual({
    code: expect.stringMatching(/^[a-z]+(_[a-z]+)*$/),
    message: expect.stringMatching(/^\w.*\.$/),
    errors: expect.any(Array),
    logId: expect.any(String),
  });
  expect(response.headers['x-log-id'], label).toBe(response.body.logId);
  return response.body;
}

describe('orders guards: who may call', () => {
  it('answers 401 to no token, an unknown token and a malformed header, on every endpoint, and changes nothing', async () => {
    const before = await state();
    const callers: Array<{ label: string; client: ApiClient; options?: CallOptions; code: string }> = [
      { label: 'no token', client: t.client(), code: 'unauthorized' },
      { label: 'unknown token', client: t.client('not-a-token'), code: 'invalid_token' },
      {
        label: 'not Bearer',
        client: t.client(),
        options: { headers: { authorization: `Token ${a.owner.token}` } },
        code: 'unauthorized',
      },
    ];
    for (const { label, client, options, code } of callers) {
      for (const call of [...calls, { name: 'GET /v2/orders', method: 'GET' as const, url: '/v2/orders?list=0' }]) {
        expect(expectError(await send(client, call, options), 401, `${label}, ${call.name}`)).toMatchObject({
          code,
          errors: [],
        });
      }
    }
    expect(await state()).toEqual(before);
  });

  it("answers 404 to another account's order (never 403), by its token and its shop key, and changes nothing", async () => {
    const before = await state();
    for (const client of [stranger.owner, stranger.owner.withToken(stranger.shopKey)]) {
      for (const call of calls) {
        const error = expectError(await send(client, call), 404, call.name);
        expect(error.code, call.name).toBe('not_found');
        if (call.batch)
          expect(error.errors, call.name).toEqual([{ id: call.id, message: `Order ${call.id} was not found.` }]);
      }
    }
    // a batch mixing the caller's own order with another account's: all or nothing, only the foreign id listed
    const mixed = expectError(
      await stranger.owner.post('/v2/orders/cancel', { ids: [strangerDraft, single.get, batchTarget.cancel] }),
      404,
      'mixed cancel',
    );
    expect(mixed.errors).toEqual([
      { id: single.get, message: `Order ${single.get} was not found.` },
      { id: batchTarget.cancel, message: `Order ${batchTarget.cancel} was not found.` },
    ]);
    // a list never shows them; the owner's shop as a filter matches nothing of the caller's
    const list = await stranger.owner.get('/v2/orders?list=0&perPage=1000');
    expect(list.body.map((order: { id: number }) => order.id)).toEqual([strangerDraft]);
    const filtered = await stranger.owner.get(`/v2/orders?list=0&shopId=${a.otherShopId}`);
    expect([filtered.status, filtered.body, filtered.headers['x-total-count']]).toEqual([200, [], '0']);
    expect(await state()).toEqual(before);
  });

  it("answers 403 to a shop key reaching another shop's order of its account, lists every failing id, and changes nothing", async () => {
    const shopKey = a.owner.withToken(a.shopKey);
    const before = await state();
    for (const call of calls) {
      const error = expectError(await send(shopKey, call), call.shopKey, call.name);
      if (call.batch)
        expect(error.errors, call.name).toEqual([
          { id: call.id, message: `Order ${call.id} belongs to another shop.` },
        ]);
    }
    // its own order, another shop's and another account's in one batch: 403, each failing id with its reason
    const mixed = expectError(
      await shopKey.post('/v2/orders/pack', { ids: [ownShopDraft, batchTarget.pack, strangerDraft] }),
      403,
      'mixed pack',
    );
    expect(mixed.errors).toEqual([
      { id: batchTarget.pack, message: `Order ${batchTarget.pack} belongs to another shop.` },
      { id: strangerDraft, message: `Order ${strangerDraft} was not found.` },
    ]);
    expectError(await shopKey.get(`/v2/orders?list=0&shopId=${a.otherShopId}`), 403, 'list of another shop');
    const listed = (await shopKey.get('/v2/orders?list=0&perPage=1000')).body as Array<{ id: number; shopId: number }>;
    expect(listed.map((order) => order.id)).toEqual([ownShopDraft]);
    expect(await state()).toEqual(before);
  });
});

describe('orders guards: bad input', () => {
  interface Bad {
    name: string;
    method: Method;
    url: string;
    body?: unknown;
    form?: boolean;
    /** The fields `errors` names, in order. */
    fields: string[];
  }

  /** Each bad request answers 400 with a sentence naming the field, `errors` naming every field, and writes nothing. */
  async function expectRefused(rows: Bad[]): Promise<void> {
    const before = await state();
    for (const row of rows) {
      const label = `${row.name}: ${row.method} ${row.url} ${typeof row.body === 'string' ? row.body : JSON.stringify(row.body)}`;
      const error = expectError(await send(a.owner, row, { form: row.form }), 400, label);
      expect(error.code, label).toBe('validation_failed');
      expect(error.message, label).toContain(row.fields[0]);
      expect(error.errors, label).toEqual(row.fields.map((field) => ({ field, message: expect.stringMatching(/\w/) })));
    }
    expect(await state()).toEqual(before);
  }

  it('refuses missing, empty, non-numeric and out-of-range ids of every batch, JSON and form-encoded the PHP way', async () => {
    const rows: Bad[] = BATCH_PATHS.flatMap((path) => {
      const id = batchTarget[path];
      const days = path === 'extend-hold' ? { days: 3 } : {};
      const form = path === 'extend-hold' ? '&days=3' : '';
      const at = { method: 'POST' as const, url: `/v2/orders/${path}` };
      return [
        { ...at, name: 'ids missing', body: { ...days }, fields: ['ids'] },
        { ...at, name: 'ids empty', body: { ids: [], ...days }, fields: ['ids'] },
        { ...at, name: 'ids[1] not a number', body: { ids: [id, 'abc'], ...days }, fields: ['ids[1]'] },
        {
          ...at,
          name: 'ids not positive whole numbers',
          body: { ids: [0, id, -2, 1.5], ...days },
          fields: ['ids[0]', 'ids[2]', 'ids[3]'],
        },
        { ...at, name: 'id beyond any record', body: { ids: [id, Number(HUGE_ID)], ...days }, fields: ['ids[1]'] },
        { ...at, name: 'form: ids[0]=abc', body: `ids%5B0%5D=abc${form}`, form: true, fields: ['ids[0]'] },
        {
          ...at,
          name: 'form: ids[1]=abc',
          body: `ids%5B0%5D=${id}&ids%5B1%5D=abc${form}`,
          form: true,
          fields: ['ids[1]'],
        },
        { ...at, name: 'form: an empty array (PHP sends nothing)', body: form.slice(1), form: true, fields: ['ids'] },
      ];
    });
    await expectRefused(rows);
  });

  it('refuses a missing, zero, negative, fractional or too long extension, and a preOrder that is not a boolean', async () => {
    const id = batchTarget['extend-hold'];
    const hold = { method: 'POST' as const, url: '/v2/orders/extend-hold', fields: ['days'] };
    await expectRefused([
      { ...hold, name: 'days missing', body: { ids: [id] } },
      ...[0, -1, 1.5, 31, 365, 'abc'].map((days) => ({ ...hold, name: `days ${days}`, body: { ids: [id], days } })),
      ...['0', '-3', '31', 'abc', ''].map((days) => ({
        ...hold,
        name: `form: days=${days}`,
        body: `ids%5B0%5D=${id}&days=${days}`,
        form: true,
      })),
      {
        name: 'preOrder not a boolean',
        method: 'POST',
        url: '/v2/orders/confirm',
        body: { ids: [batchTarget.confirm], preOrder: 'maybe' },
        fields: ['preOrder'],
      },
    ]);
  });

  it('refuses a path id that is not a positive whole number within range', async () => {
    const paths: Array<{ method: Method; path: string; body?: unknown }> = [
      { method: 'GET', path: '/v2/orders/' },
      { method: 'PUT', path: '/v2/orders/', body: orderBody({ shopId: a.otherShopId, pointId: a.pointId }) },
      { method: 'PATCH', path: '/v2/orders/', body: { cmsId: 'PATCHED' } },
      { method: 'PUT', path: '/v2/orders/reservation/' },
      { method: 'PUT', path: '/v2/orders/reservation-cancel/' },
    ];
    await expectRefused(
      paths.flatMap(({ method, path, body }) =>
        ['abc', '0', '-1', '1.5', HUGE_ID].map((id) => ({
          name: `id ${id}`,
          method,
          url: `${path}${id}`,
          body,
          fields: ['id'],
        })),
      ),
    );
  });

  it('refuses a bad order body of PUT and PATCH, JSON and form-encoded', async () => {
    const put = { method: 'PUT' as const, url: `/v2/orders/${single.put}` };
    const patch = { method: 'PATCH' as const, url: `/v2/orders/${single.patch}` };
    const valid = orderBody({ shopId: a.otherShopId, pointId: a.pointId });
    await expectRefused([
      {
        ...put,
        name: 'no recipient phone',
        body: { ...valid, recipient: { fullName: 'Анна' } },
        fields: ['recipient.phone'],
      },
      { ...put, name: 'shopId beyond any record', body: { ...valid, shopId: Number(HUGE_ID) }, fields: ['shopId'] },
      {
        ...put,
        name: 'product id beyond any record',
        body: { ...valid, products: [{ id: Number(HUGE_ID) }] },
        fields: ['products[0].id'],
      },
      {
        ...put,
        name: 'form: empty recipient name',
        body: { ...valid, recipient: { fullName: '', phone: '+79215556677' } },
        form: true,
        fields: ['recipient.fullName'],
      },
      {
        ...patch,
        name: 'a field PATCH does not take',
        body: { cmsId: 'PATCHED', clientPrice: 1 },
        fields: ['clientPrice'],
      },
      {
        ...patch,
        name: 'a nested field PATCH does not take',
        body: { cmsId: 'PATCHED', recipient: { fullName: 'Анна', address: 'Казань' } },
        fields: ['recipient.address'],
      },
      {
        ...patch,
        name: 'form: an object PATCH does not take',
        body: 'cmsId=PATCHED&deliveryAddress%5Bcity%5D%5Bname%5D=Kazan',
        form: true,
        fields: ['deliveryAddress'],
      },
      {
        ...patch,
        name: 'form: an empty recipient phone',
        body: 'cmsId=PATCHED&recipient%5Bphone%5D=',
        form: true,
        fields: ['recipient.phone'],
      },
    ]);
  });

  it('refuses a Shop-Id header that is not a shop id, however large, and creates nothing', async () => {
    const before = await state();
    for (const header of ['abc', '0', HUGE_ID, String(Number.MAX_SAFE_INTEGER + 2)]) {
      const created = await a.owner.post(
        '/v2/orders',
        orderBody({ shopId: a.otherShopId, pointId: a.pointId }, { shopId: undefined }),
        { headers: { 'shop-id': header } },
      );
      expect(expectError(created, 400, `Shop-Id ${header}`)).toMatchObject({
        code: 'invalid_shop_id',
        errors: [{ field: 'Shop-Id', message: 'must be a shop id' }],
      });
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a list with a bad `list` or bad filters, and a tracking query without or with a bad id', async () => {
    const list = (query: string, fields: string[]): Bad => ({
      name: query,
      method: 'GET',
      url: `/v2/orders?${query}`,
      fields,
    });
    const tracking = (query: string, fields: string[]): Bad => ({
      name: query,
      method: 'GET',
      url: `/v2/tracking?${query}`,
      fields,
    });
    await expectRefused([
      list('list=abc', ['list']),
      list('list=0&shopId=-1', ['shopId']),
      list(`list=0&warehouseId=${HUGE_ID}`, ['warehouseId']),
      list('list=0&statuses%5B0%5D=abc', ['statuses[0]']),
      list('list=0&statuses%5B0%5D=99999999999', ['statuses[0]']),
      tracking('', ['id']),
      tracking('id=abc', ['id']),
      tracking('orderId=0', ['orderId']),
      tracking(`id=${HUGE_ID}`, ['id']),
    ]);
  });
});

describe('orders guards: the control', () => {
  it('lets the owner make every call above: each was aimed at an order it could change', async () => {
    for (const call of calls) expect((await send(a.owner, call)).status, call.name).toBe(call.ok);
  });
});
