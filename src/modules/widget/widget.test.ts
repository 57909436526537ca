import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distanceKm } from '../../carriers/geo.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { decodedBytes, expectedEncoding } from '../../../test/support/encodings.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';

const PAGE = 'https://shop.example';
const SPB = { name: 'Санкт-Петербург' };
const SPB_VIEW = '30.1,59.85,30.5,60.05';
const CART = {
  city: SPB,
  products: [{ name: 'Кружка', price: 1000, count: 2, weight: 0.5, width: 10, height: 10, length: 15 }],
};

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let shopId: number;
let otherShopId: number;
let publicKey: string;
let shopApiKey: string;
let otherShopApiKey: string;

/** A page's call: the key in the URL, the page's Origin. */
function page(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options: { key?: string | null; origin?: string | null; headers?: Record<string, string> } = {},
) {
  const key = options.key === undefined ? publicKey : options.key;
  const url = `/widget/v1/api${path}${key === null ? '' : `${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`}`;
  const headers: Record<string, string> = { ...options.headers };
  if (options.origin !== null) headers.origin = options.origin ?? PAGE;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return t.app
    .inject({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) })
    .then((response) => ({
      status: response.statusCode,
      headers: response.headers,
      body: response.body ? JSON.parse(response.body) : undefined,
    }));
}

async function selectionCount(): Promise<number> {
  const row = await t.runtime.database.db
    .selectFrom('widget_selections')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function firstPoint(): Promise<{ id: number; companyId: number }> {
  const answer = await page('GET', `/points?bbox=${SPB_VIEW}&zoom=13&weight=1`);
  expect(answer.status).toBe(200);
  expect(answer.body.points.length).toBeGreaterThan(0);
  return answer.body.points[0];
}

beforeAll(async () => {
  t = await createTestApp({ env: { WIDGET_RATE_LIMIT_PER_MINUTE: '1000' } });
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
  otherShopId = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Второй' }))).body.id;
  shopApiKey = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey;
  otherShopApiKey = (await owner.get(`/v2/shops/${otherShopId}`)).body.apiKey;
  const issued = await owner.post(`/v2/shops/${shopId}/widget-key`, { allowedOrigins: [PAGE] });
  expect(issued.status).toBe(200);
  publicKey = issued.body.publicKey;
});
afterAll(async () => t.close());

describe('widget key', () => {
  it('is issued by the owner, shown again, replaced on the next issue', async () => {
    expect(publicKey).toMatch(/^pk_/);
    const shown = await owner.get(`/v2/shops/${shopId}/widget-key`);
    expect(shown.body).toMatchObject({ publicKey, allowedOrigins: [PAGE] });
    const replaced = await owner.post(`/v2/shops/${otherShopId}/widget-key`, {
      allowedOrigins: ['http://127.0.0.1:8080'],
    });
    const again = await owner.post(`/v2/shops/${otherShopId}/widget-key`, {
      allowedOrigins: ['http://127.0.0.1:8080'],
    });
    expect(again.body.publicKey).not.toBe(replaced.body.publicKey);
    expect(
      (
        await page('GET', '/localities?q=Моск', undefined, {
          key: replaced.body.publicKey,
          origin: 'http://127.0.0.1:8080',
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await page('GET', '/localities?q=Моск', undefined, {
          key: again.body.publicKey,
          origin: 'http://127.0.0.1:8080',
        })
      ).status,
    ).toBe(200);
  });

  it('refuses bad origins, shop keys, strangers and callers without a token', async () => {
    const bad = await owner.post(`/v2/shops/${shopId}/widget-key`, {
      allowedOrigins: ['https://shop.example/checkout', 'nope'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'allowedOrigins[0]',
      'allowedOrigins[1]',
    ]);
    expect((await owner.post(`/v2/shops/${shopId}/widget-key`, {})).status).toBe(400);
    expect(
      (await owner.withToken(shopApiKey).post(`/v2/shops/${shopId}/widget-key`, { allowedOrigins: [PAGE] })).status,
    ).toBe(403);
    expect((await stranger.post(`/v2/shops/${shopId}/widget-key`, { allowedOrigins: [PAGE] })).status).toBe(404);
    expect((await stranger.get(`/v2/shops/${shopId}/widget-key`)).status).toBe(404);
    expect((await t.client().get(`/v2/shops/${shopId}/widget-key`)).status).toBe(401);
    // nothing of the refused calls was written: the key is the same
    expect((await owner.get(`/v2/shops/${shopId}/widget-key`)).body.publicKey).toBe(publicKey);
  });
});

describe('widget API: trust', () => {
  it('answers 401 without a key or with an unknown one, 403 to a page of another origin', async () => {
    const none = await page('GET', '/localities?q=Моск', undefined, { key: null });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'unauthorized' });
    const unknown = await page('GET', '/localities?q=Моск', undefined, { key: 'pk_nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('invalid_widget_key');
    const foreign = await page('GET', '/localities?q=Моск', undefined, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('origin_not_allowed');
  });

  it('answers CORS to any page, so a refused page reads why; the data stays behind the Origin check', async () => {
    const ok = await page('GET', '/localities?q=Моск');
    expect(ok.headers['access-control-allow-origin']).toBe(PAGE);
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `/widget/v1/api/selections?key=${publicKey}`,
      headers: {
        origin: PAGE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(PAGE);
    const foreign = await page(
      'POST',
      '/selections',
      { ...CART, mode: 1, companyId: 1, pointId: 1 },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('origin_not_allowed');
    expect(foreign.headers['access-control-allow-origin']).toBe('https://evil.example');
    const wrongKey = await page('GET', '/localities?q=Моск', undefined, { key: 'pk_wrong' });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.headers['access-control-allow-origin']).toBe(PAGE);
  });

  it('never takes an account token in place of the key, and the key opens nothing of /v2', async () => {
    expect((await t.client(publicKey).get('/v2/orders')).status).toBe(401);
  });
});

describe('widget API: localities and points', () => {
  it('finds localities as the buyer types, with region and type', async () => {
    const found = await page('GET', '/localities?q=санкт-п');
    expect(found.status).toBe(200);
    expect(found.body[0]).toMatchObject({ name: 'Санкт-Петербург', type: 'г', countryCode: 'RU' });
    expect(found.body[0].region).toBeTruthy();
    expect((await page('GET', '/localities?q=')).status).toBe(400);
  });

  it('answers points of a viewport, clusters when zoomed out, 304 for an unchanged answer', async () => {
    const near = await page('GET', `/points?bbox=${SPB_VIEW}&zoom=13`);
    expect(near.status).toBe(200);
    expect(near.body.clusters).toEqual([]);
    for (const point of near.body.points) {
      expect(point.longitude).toBeGreaterThanOrEqual(30.1);
      expect(point.latitude).toBeLessThanOrEqual(60.05);
    }
    const far = await page('GET', '/points?bbox=20,40,180,80&zoom=4');
    expect(far.body.points).toEqual([]);
    expect(far.body.clusters.length).toBeGreaterThan(1);
    expect(far.body.clusters.length).toBeLessThanOrEqual(64);
    const again = await page('GET', `/points?bbox=${SPB_VIEW}&zoom=13`, undefined, {
      headers: { 'if-none-match': String(near.headers.etag) },
    });
    expect(again.status).toBe(304);
    // a big city's view goes compressed to a browser that takes it (Brotli when it does), and is the same JSON, asked either way in any order
    expect(JSON.stringify(near.body).length).toBeGreaterThan(16 * 1024);
    for (const encoding of ['gzip, deflate, br', 'identity', 'gzip', 'identity', 'gzip, deflate, br, zstd']) {
      const raw = await t.app.inject({
        method: 'GET',
        url: `/widget/v1/api/points?bbox=${SPB_VIEW}&zoom=13&key=${encodeURIComponent(publicKey)}`,
        headers: { origin: PAGE, 'accept-encoding': encoding },
      });
      expect(raw.statusCode).toBe(200);
      expect(raw.headers['content-encoding']).toBe(expectedEncoding(encoding));
      expect(JSON.parse(decodedBytes(raw).toString('utf8'))).toEqual(near.body);
    }
  });

  it('filters by what the parcel needs: weight, payment, fitting, type, hidden companies', async () => {
    const all = (await page('GET', `/points?bbox=${SPB_VIEW}&zoom=13`)).body.points as Array<{
      companyId: number;
      type: number;
      cardPaymentAvailable: boolean;
      fittingAvailable: boolean;
    }>;
    const heavy = (await page('GET', `/points?bbox=${SPB_VIEW}&zoom=13&weight=40`)).body.points;
    expect(heavy.length).toBeLessThan(all.length);
    const card = (await page('GET', `/points?bbox=${SPB_VIEW}&zoom=13&card=1`)).body.points as typeof all;
    expect(card.every((point) => point.cardPaymentAvailable)).toBe(true);
    const fitting = (await page('GET', `/points?bbox=${SPB_VIEW}&zoom=13&fitting=1`)).body.points as typeof all;
    expect(fitting.every((point) => point.fittingAvailable)).toBe(true);
    const lockers = (await page('GET', `/points?bbox=${SPB_VIEW}&zoom=13&types=2`)).body.points as typeof all;
    expect(lockers.every((point) => point.type === 2)).toBe(true);
    const hiddenId = all[0].companyId;
    await owner.put(`/v2/shops/${shopId}/widget-settings`, { hiddenCompanyIds: [hiddenId] });
    const shown = (await page('GET', `/points?bbox=${SPB_VIEW}&zoom=13`)).body.points as typeof all;
    expect(shown.some((point) => point.companyId === hiddenId)).toBe(false);
    await owner.put(`/v2/shops/${shopId}/widget-settings`, {});
  });

  it("lists a city's post offices nearest its centre first, not the villages' around it", async () => {
    const kazan = (await page('GET', `/localities?q=${encodeURIComponent('Казань')}&limit=1`)).body[0];
    expect(kazan.name).toBe('Казань');
    // the view the widget asks first: about a district around the locality's centre
    const view = [kazan.longitude - 0.18, kazan.latitude - 0.09, kazan.longitude + 0.18, kazan.latitude + 0.09]
      .map((value) => value.toFixed(5))
      .join(',');
    const offices = (await page('GET', `/points?bbox=${view}&zoom=13&types=3`)).body.points as Array<{
      address: string;
      latitude: number;
      longitude: number;
    }>;
    expect(offices.some((office) => !office.address.startsWith('Казань,'))).toBe(true);
    const distances = offices.map((office) =>
      distanceKm(kazan.latitude, kazan.longitude, office.latitude, office.longitude),
    );
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(offices.slice(0, 5).every((office) => office.address.startsWith('Казань,'))).toBe(true);
  });

  it('refuses a bad viewport with a field error', async () => {
    const bad = await page('GET', '/points?bbox=30.5,59.8,30.1,60&zoom=13');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('bbox');
    const words = await page('GET', '/points?bbox=spb&zoom=99');
    expect(words.status).toBe(400);
    expect(words.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['bbox', 'zoom']);
  });
});

describe('widget API: quotes at the shop prices', () => {
  it("prices the cart with the shop's widget settings", async () => {
    const plain = await page('POST', '/quotes', CART);
    expect(plain.status).toBe(200);
    expect(plain.body.city.name).toBe('Санкт-Петербург');
    expect(new Set(plain.body.options.map((option: { mode: number }) => option.mode))).toEqual(new Set([1, 2, 3]));
    await owner.put(`/v2/shops/${shopId}/widget-settings`, { priceRules: [{ kind: 'fixed', amount: 199 }] });
    const fixed = await page('POST', '/quotes', { ...CART, modes: [2] });
    expect(fixed.body.options.length).toBeGreaterThan(0);
    expect(
      fixed.body.options.every(
        (option: { mode: number; totalPrice: number }) => option.mode === 2 && option.totalPrice === 199,
      ),
    ).toBe(true);
    expect(fixed.body.options[0].courierIntervals.length).toBeGreaterThan(0);
    await owner.put(`/v2/shops/${shopId}/widget-settings`, {});
  });

  it('refuses a cart without products or an unknown city', async () => {
    const empty = await page('POST', '/quotes', { city: SPB, products: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].field).toBe('products');
    const nowhere = await page('POST', '/quotes', { ...CART, city: { name: 'Нигдеград' } });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.code).toBe('unknown_locality');
  });
});

describe('selection and confirm', () => {
  it('a pickup point chosen in the page becomes an order on the shop server, once', async () => {
    const point = await firstPoint();
    const selected = await page('POST', '/selections', {
      ...CART,
      mode: 1,
      companyId: point.companyId,
      pointId: point.id,
    });
    expect(selected.status).toBe(201);
    expect(selected.body.token).toMatch(/^sel_/);
    expect(selected.body.quote).toMatchObject({ mode: 1, companyId: point.companyId, point: { id: point.id } });

    const confirm = {
      selectionToken: selected.body.token,
      cmsId: 'A-1001',
      recipient: { fullName: 'Анна Покупатель', phone: '+79990001122' },
    };
    const made = await owner.post('/v2/widget/orders', confirm, { headers: { 'idempotency-key': 'A-1001' } });
    expect(made.status).toBe(201);
    expect(made.body.quote.totalPrice).toBe(selected.body.quote.totalPrice);
    const order = await owner.get(`/v2/orders/${made.body.id}`);
    expect(order.body).toMatchObject({ cmsId: 'A-1001', shopId, delivery: { type: 1, point: { id: point.id } } });
    // the Idempotency-Key replays the first answer; a new call with the used token is a 409
    const replay = await owner.post('/v2/widget/orders', confirm, { headers: { 'idempotency-key': 'A-1001' } });
    expect(replay.body.id).toBe(made.body.id);
    const reused = await owner.post('/v2/widget/orders', confirm);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('selection_used');
  });

  it('courier: the address and the slot are kept; the shop key of the shop may confirm', async () => {
    const quotes = await page('POST', '/quotes', { ...CART, modes: [2] });
    const option = quotes.body.options[0];
    const interval = option.courierIntervals[0];
    const selected = await page('POST', '/selections', {
      ...CART,
      mode: 2,
      companyId: option.companyId,
      address: { street: 'Невский проспект', house: '1', flat: '5' },
      courier: { date: option.deliveryDate.to, intervalId: interval.id },
    });
    expect(selected.status).toBe(201);
    const made = await owner.withToken(shopApiKey).post('/v2/widget/orders', {
      selectionToken: selected.body.token,
      recipient: { fullName: 'Борис', phone: '+79990001123' },
    });
    expect(made.status).toBe(201);
    const order = await owner.get(`/v2/orders/${made.body.id}`);
    expect(order.body.deliveryAddress).toMatchObject({ street: 'Невский проспект', house: '1', flat: '5' });
    expect(order.body.delivery.type).toBe(2);
  });

  it('post: the buyer picks a post office; the order waits there, at its index', async () => {
    const quotes = await page('POST', '/quotes', { ...CART, modes: [3] });
    const option = quotes.body.options[0];
    expect(option).toMatchObject({ mode: 3 });
    const offices = await page(
      'GET',
      `/points?bbox=${SPB_VIEW}&zoom=13&weight=1&types=3&companyIds=${option.companyId}`,
    );
    expect(offices.body.points.length).toBeGreaterThan(0);
    expect(
      offices.body.points.every(
        (point: { type: number; companyId: number }) => point.type === 3 && point.companyId === option.companyId,
      ),
    ).toBe(true);
    const office = offices.body.points[0];
    expect(office.zipCode).toMatch(/^\d{6}$/);

    const selected = await page('POST', '/selections', {
      ...CART,
      mode: 3,
      companyId: option.companyId,
      pointId: office.id,
    });
    expect(selected.status).toBe(201);
    expect(selected.body.quote).toMatchObject({
      mode: 3,
      companyId: option.companyId,
      point: { id: office.id, zipCode: office.zipCode },
    });
    const made = await owner.post('/v2/widget/orders', {
      selectionToken: selected.body.token,
      recipient: { fullName: 'Вера Почтовая', phone: '+79990001124' },
    });
    expect(made.status).toBe(201);
    const order = await owner.get(`/v2/orders/${made.body.id}`);
    expect(order.body).toMatchObject({
      delivery: { type: 3, point: { id: office.id, isPost: true } },
      deliveryAddress: { zipCode: office.zipCode },
    });

    // without an office the post still delivers to the locality, as before
    expect((await page('POST', '/selections', { ...CART, mode: 3, companyId: option.companyId })).status).toBe(201);
    // a pickup point is no post office, and an office too small for the parcel cannot take it: nothing stored
    const before = await selectionCount();
    const pickupPoint = await firstPoint();
    expect(
      (await page('POST', '/selections', { ...CART, mode: 3, companyId: option.companyId, pointId: pickupPoint.id }))
        .body.code,
    ).toBe('option_unavailable');
    const heavy = {
      ...CART,
      products: [
        { price: 1000, weight: 19.5, width: 10, height: 10, length: 15 },
        { price: 10, weight: 1 },
      ],
    };
    expect(
      (await page('POST', '/selections', { ...heavy, mode: 3, companyId: option.companyId, pointId: office.id }))
        .status,
    ).toBe(422);
    expect(await selectionCount()).toBe(before);
  });

  it('a changed price is a 409 with the new quote, and nothing is made', async () => {
    const point = await firstPoint();
    const selected = await page('POST', '/selections', {
      ...CART,
      mode: 1,
      companyId: point.companyId,
      pointId: point.id,
    });
    await owner.put(`/v2/shops/${shopId}/widget-settings`, { priceRules: [{ kind: 'fixed', amount: 777 }] });
    const before = Number((await owner.get('/v2/orders?perPage=1')).headers['x-total-count']);
    const changed = await owner.post('/v2/widget/orders', {
      selectionToken: selected.body.token,
      recipient: { fullName: 'Анна', phone: '+79990001122' },
    });
    await owner.put(`/v2/shops/${shopId}/widget-settings`, {});
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ code: 'price_changed', quote: { totalPrice: 777 } });
    expect(changed.body.logId).toBeTruthy();
    expect(Number((await owner.get('/v2/orders?perPage=1')).headers['x-total-count'])).toBe(before);
  });

  it('refuses a bad selection with field errors, writing nothing', async () => {
    const before = await selectionCount();
    const noPoint = await page('POST', '/selections', { ...CART, mode: 1, companyId: 1 });
    expect(noPoint.status).toBe(400);
    expect(noPoint.body.errors[0].field).toBe('pointId');
    const noStreet = await page('POST', '/selections', { ...CART, mode: 2, companyId: 1 });
    expect(noStreet.body.errors[0].field).toBe('address.street');
    const badMode = await page('POST', '/selections', { ...CART, mode: 7, companyId: 'x' });
    expect(badMode.status).toBe(400);
    expect(badMode.body.errors.map((error: { field: string }) => error.field)).toEqual(
      expect.arrayContaining(['mode', 'companyId']),
    );
    const wrongPoint = await page('POST', '/selections', { ...CART, mode: 1, companyId: 1, pointId: 999999999 });
    expect(wrongPoint.status).toBe(422);
    expect(await selectionCount()).toBe(before);
  });

  it('a token of another shop, account or an expired one is refused', async () => {
    const point = await firstPoint();
    const selected = await page('POST', '/selections', {
      ...CART,
      mode: 1,
      companyId: point.companyId,
      pointId: point.id,
    });
    const confirm = { selectionToken: selected.body.token, recipient: { fullName: 'Анна', phone: '+79990001122' } };
    expect((await owner.withToken(otherShopApiKey).post('/v2/widget/orders', confirm)).status).toBe(403);
    expect((await stranger.post('/v2/widget/orders', confirm)).status).toBe(404);
    expect((await t.client().post('/v2/widget/orders', confirm)).status).toBe(401);
    expect((await owner.post('/v2/widget/orders', { ...confirm, selectionToken: 'sel_unknown' })).status).toBe(404);
    const badBody = await owner.post('/v2/widget/orders', {
      selectionToken: selected.body.token,
      recipient: { fullName: '', phone: 'abc' },
    });
    expect(badBody.status).toBe(400);
    expect(badBody.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'recipient.fullName',
      'recipient.phone',
    ]);
    await t.runtime.database.db
      .updateTable('widget_selections')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .execute();
    const expired = await owner.post('/v2/widget/orders', confirm);
    expect(expired.status).toBe(409);
    expect(expired.body.code).toBe('selection_expired');
    // the hourly maintenance forgets selections a day past their expiry that never became orders
    const before = await selectionCount();
    expect(await t.runtime.services.widget.purgeExpiredSelections()).toBeGreaterThan(0);
    expect(await selectionCount()).toBeLessThan(before);
    expect((await owner.post('/v2/widget/orders', confirm)).status).toBe(404);
  });
});

describe('widget API: rate limit', () => {
  it('limits calls per key and address with a 429 in the house body', async () => {
    const limited = await createTestApp({ env: { WIDGET_RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const account = await limited.newAccount();
      const warehouseId = (await account.client.post('/v2/warehouses', warehouseBody())).body.id;
      const id = (await account.client.post('/v2/shops', shopBody(warehouseId))).body.id;
      const key = (await account.client.post(`/v2/shops/${id}/widget-key`, { allowedOrigins: [PAGE] })).body.publicKey;
      const call = () =>
        limited.app.inject({
          method: 'GET',
          url: `/widget/v1/api/localities?q=Мос&key=${key}`,
          headers: { origin: PAGE },
        });
      expect((await call()).statusCode).toBe(200);
      expect((await call()).statusCode).toBe(200);
      const refused = await call();
      expect(refused.statusCode).toBe(429);
      expect(JSON.parse(refused.body).code).toBe('rate_limited');
      expect(refused.headers['access-control-allow-origin']).toBe(PAGE);
    } finally {
      await limited.close();
    }
  });
});

describe('widget-era plugins: update-order and confirm-order', () => {
  const contacts = { fullName: 'Вера Плагинова', phone: '+79990002233', email: 'vera@example.com' };

  async function selection(withContacts: boolean): Promise<string> {
    const point = await firstPoint();
    const selected = await page('POST', '/selections', {
      ...CART,
      mode: 1,
      companyId: point.companyId,
      pointId: point.id,
      ...(withContacts ? { contacts } : {}),
    });
    expect(selected.status).toBe(201);
    return selected.body.token;
  }

  it('makes the order once, as WooCommerce (form, shop-id) and Bitrix (JSON, Shop-Id, From-Widget) send it, and answers cabinetId', async () => {
    const token = await selection(true);
    const woo = await owner.post(
      '/v2/widgets/update-order',
      { id: token, cmsId: '1055', status: 'wc-on-hold', paymentMethod: 'cod' },
      { form: true, headers: { 'shop-id': String(shopId) } },
    );
    expect(woo.status).toBe(200);
    const cabinetId = woo.body.cabinetId;
    expect(Number.isInteger(cabinetId)).toBe(true);
    const order = await owner.get(`/v2/orders/${cabinetId}`);
    expect(order.body).toMatchObject({
      cmsId: '1055',
      recipient: { fullName: contacts.fullName, phone: contacts.phone },
    });
    const bitrix = await owner.post(
      '/v2/widgets/update-order',
      { id: token, cmsId: 1055, status: 'N' },
      { headers: { 'Shop-Id': String(shopId), 'From-Widget': '1' } },
    );
    expect(bitrix.body).toEqual({ cabinetId });
    expect((await owner.post('/v2/widgets/update-order', { id: cabinetId, status: 'P' })).body).toEqual({ cabinetId });
    const confirmed = await owner.post(
      '/v2/widgets/confirm-order',
      { checkoutSessId: token },
      { form: true, headers: { 'shop-id': String(shopId) } },
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ cabinetId });
  });

  it('refuses what it cannot do, in the house body', async () => {
    const bare = await selection(false);
    const noContacts = await owner.post('/v2/widgets/update-order', { id: bare, cmsId: '7' });
    expect(noContacts.status).toBe(422);
    expect(noContacts.body.code).toBe('contacts_missing');
    expect((await owner.post('/v2/widgets/confirm-order', { checkoutSessId: bare })).status).toBe(409);
    expect((await owner.post('/v2/widgets/update-order', { cmsId: '7' })).status).toBe(400);
    expect((await owner.post('/v2/widgets/update-order', { id: 'sel_unknown' })).status).toBe(404);
    expect((await owner.post('/v2/widgets/update-order', { id: 99999999 })).status).toBe(404);
    const token = await selection(true);
    expect((await stranger.post('/v2/widgets/update-order', { id: token })).status).toBe(404);
    expect((await t.client().post('/v2/widgets/update-order', { id: token })).status).toBe(401);
    expect((await owner.withToken(otherShopApiKey).post('/v2/widgets/update-order', { id: token })).status).toBe(403);
    expect(
      (await owner.post('/v2/widgets/update-order', { id: token }, { headers: { 'shop-id': '999999' } })).status,
    ).toBe(400);
  });
});
