/**
 * The dashboard's preview key (POST /v2/shops/{id}/widget-preview-key): it prices and previews
 * only from the service's own origin (the dashboard's), records selections that can never become
 * orders, and is no bearer token: it can neither create nor read orders. Owners only; the shop's
 * publishable key is untouched. Also the origins of a publishable key changed without a new key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';

/** The host the test calls are sent to (fastify.inject's default): the dashboard's own origin. */
const OWN = 'http://localhost:80';
const CART = { city: { name: 'Москва' }, products: [{ name: 'Кружка', price: 1000, count: 1, weight: 0.5 }] };

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let shopId: number;
let previewKey: string;

function page(
  method: 'GET' | 'POST',
  path: string,
  key: string,
  origin: string | null,
  body?: unknown,
  fetchSite?: string,
) {
  const headers: Record<string, string> = {
    host: 'localhost:80',
    ...(fetchSite ? { 'sec-fetch-site': fetchSite } : {}),
  };
  if (origin) headers.origin = origin;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return t.app
    .inject({
      method,
      url: `/widget/v1/api${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`,
      headers,
      payload: body === undefined ? undefined : JSON.stringify(body),
    })
    .then((answer) => ({ status: answer.statusCode, body: answer.body ? JSON.parse(answer.body) : undefined }));
}

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Витрина')).client;
  stranger = (await t.newAccount('Чужой')).client;
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
});
afterAll(async () => t?.close());

describe('the preview key', () => {
  it('is minted for an owner, kept while it has time left, and leaves the publishable key alone', async () => {
    const issued = await owner.post(`/v2/shops/${shopId}/widget-key`, { allowedOrigins: ['https://shop.example'] });
    const first = await owner.post(`/v2/shops/${shopId}/widget-preview-key`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.previewKey).toMatch(/^pv_[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(first.body.expiresAt) - Date.now()).toBeGreaterThan(110 * 60_000);
    previewKey = first.body.previewKey;
    expect((await owner.post(`/v2/shops/${shopId}/widget-preview-key`)).body.previewKey).toBe(previewKey);
    expect((await owner.get(`/v2/shops/${shopId}/widget-key`)).body).toEqual(issued.body);
  });

  it("prices from the dashboard's origin; refused from any other origin and without one", async () => {
    const quotes = await page('POST', '/quotes', previewKey, OWN, CART);
    expect(quotes.status).toBe(200);
    expect(quotes.body.options.length).toBeGreaterThan(0);
    expect((await page('GET', '/localities?q=Моск', previewKey, OWN)).status).toBe(200);
    for (const origin of ['https://shop.example', 'http://localhost:81', 'https://evil.example']) {
      const refused = await page('POST', '/quotes', previewKey, origin, CART);
      expect(refused.status, origin).toBe(403);
      expect(refused.body.code).toBe('origin_not_allowed');
    }
    expect((await page('POST', '/quotes', previewKey, null, CART)).status).toBe(403);
    // a same-origin GET carries no Origin: the browser's Sec-Fetch-Site (which no page can set) says whose page it is
    expect((await page('GET', '/localities?q=Моск', previewKey, null, undefined, 'same-origin')).status).toBe(200);
    expect((await page('GET', '/localities?q=Моск', previewKey, null, undefined, 'cross-site')).status).toBe(403);
    expect((await page('GET', '/localities?q=Моск', previewKey, null, undefined, 'same-site')).status).toBe(403);
    expect((await page('POST', '/quotes', 'pv_unknown', OWN, CART)).body.code).toBe('invalid_widget_key');
  });

  it('cannot create orders: its selection is refused by the confirm (422), nothing is made', async () => {
    const selected = await page('POST', '/selections', previewKey, OWN, {
      ...CART,
      mode: 2,
      companyId: 1,
      address: { street: 'Тверская улица', house: '1' },
    });
    expect(selected.status).toBe(201);
    const confirm = await owner.post('/v2/widget/orders', {
      selectionToken: selected.body.token,
      recipient: { fullName: 'Проверка', phone: '+79990001122' },
    });
    expect(confirm.status).toBe(422);
    expect(confirm.body.code).toBe('preview_selection');
    const eraPlugin = await owner.post('/v2/widgets/update-order', { id: selected.body.token, cmsId: 'X-1' });
    expect(eraPlugin.status).toBe(422);
    expect((await owner.get('/v2/orders')).headers['x-total-count']).toBe('0');
  });

  it('is no bearer token: it can neither create nor read orders', async () => {
    const asBearer = t.client(previewKey);
    expect((await asBearer.get('/v2/orders')).status).toBe(401);
    expect((await asBearer.get('/v2/orders/1')).status).toBe(401);
    expect((await asBearer.post('/v2/orders', { shopId })).status).toBe(401);
    expect((await asBearer.post('/v2/widget/orders', { selectionToken: 'sel_x', recipient: {} })).status).toBe(401);
  });

  it('is refused to a shop key (403), a stranger (404) and without a token (401)', async () => {
    const key = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey as string;
    expect((await t.client(key).post(`/v2/shops/${shopId}/widget-preview-key`)).status).toBe(403);
    expect((await stranger.post(`/v2/shops/${shopId}/widget-preview-key`)).status).toBe(404);
    expect((await t.client().post(`/v2/shops/${shopId}/widget-preview-key`)).status).toBe(401);
  });
});

describe("a publishable key's origins", () => {
  it('change without a new key; a shop without a key is a 404', async () => {
    const before = (await owner.get(`/v2/shops/${shopId}/widget-key`)).body;
    const changed = await owner.put(`/v2/shops/${shopId}/widget-key`, {
      allowedOrigins: ['https://shop.example', 'https://www.shop.example'],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.publicKey).toBe(before.publicKey);
    expect(changed.body.allowedOrigins).toEqual(['https://shop.example', 'https://www.shop.example']);
    const quotes = await page('POST', '/quotes', before.publicKey, 'https://www.shop.example', CART);
    expect(quotes.status).toBe(200);
    const warehouseId = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Второй' }))).body.id;
    const bare = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Без ключа' }))).body.id;
    expect((await owner.put(`/v2/shops/${bare}/widget-key`, { allowedOrigins: ['https://a.example'] })).status).toBe(
      404,
    );
  });
});
