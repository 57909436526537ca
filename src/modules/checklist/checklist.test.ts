/**
 * The first-run checklist (GET /v2/account/checklist) through HTTP: an empty account has
 * nothing done, and each step done by the API flips exactly its own tick, in the order a
 * person goes through them; a step undone (a contract disconnected, a key replaced) shows
 * undone again. Who may read it: the account and owners, not a shop key, not without a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { realCarrierEnv, startFakeBoxberry, type FakeRealCarrier } from '../../../test/support/fake-real-carriers.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { orderJobWorker } from '../../../test/support/orders.js';

const PAGE = 'https://shop.example';
const STEPS = ['warehouse', 'shop', 'deliveryCompanies', 'widget', 'testOrder', 'cmsPlugin'] as const;
type Step = (typeof STEPS)[number];

let t: TestApp;
let boxberry: FakeRealCarrier;
let owner: ApiClient;

beforeAll(async () => {
  boxberry = await startFakeBoxberry();
  t = await createTestApp({ env: realCarrierEnv({ boxberry }) });
  owner = (await t.newAccount('Первый магазин')).client;
});
afterAll(async () => {
  await t?.close();
  await boxberry?.close();
});

async function ticks(): Promise<Record<Step, boolean>> {
  const answer = await owner.get('/v2/account/checklist');
  expect(answer.status, answer.text).toBe(200);
  return Object.fromEntries(STEPS.map((step) => [step, answer.body.steps[step].done])) as Record<Step, boolean>;
}

/** Runs `work` and checks that exactly `step` flipped to `to`. */
async function flips(step: Step, work: () => Promise<void>, to = true): Promise<void> {
  const before = await ticks();
  expect(before[step]).toBe(!to);
  await work();
  expect(await ticks()).toEqual({ ...before, [step]: to });
}

describe('GET /v2/account/checklist', () => {
  let warehouseId: number;
  let shopId: number;
  let shopKey: string;
  let publicKey: string;

  it('an empty account has nothing done', async () => {
    const answer = await owner.get('/v2/account/checklist');
    expect(answer.body).toEqual({
      complete: false,
      steps: {
        warehouse: { done: false, warehouseId: null },
        shop: { done: false, shopId: null },
        deliveryCompanies: { done: false, connected: [] },
        widget: { done: false, shopId: null },
        testOrder: { done: false, orderId: null, status: null, stickerFormed: false },
        cmsPlugin: { done: false, shopId: null },
      },
    });
  });

  it('a warehouse ticks the warehouse', async () => {
    await flips('warehouse', async () => {
      warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    });
    expect((await owner.get('/v2/account/checklist')).body.steps.warehouse.warehouseId).toBe(warehouseId);
  });

  it('a shop ticks the shop', async () => {
    await flips('shop', async () => {
      shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    });
    shopKey = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey;
  });

  it('a contract with a real company ticks the delivery companies; disconnecting unticks', async () => {
    const connect = () => owner.post('/v2/carrier-integrations/1002', { params: { token: 'good-token' } });
    await flips('deliveryCompanies', async () => {
      expect((await connect()).status).toBe(204);
    });
    expect((await owner.get('/v2/account/checklist')).body.steps.deliveryCompanies.connected).toEqual([1002]);
    await flips(
      'deliveryCompanies',
      async () => {
        expect((await owner.delete('/v2/carrier-integrations/1002')).status).toBe(204);
      },
      false,
    );
    await flips('deliveryCompanies', async () => {
      expect((await connect()).status).toBe(204);
    });
  });

  it("a widget key with the site's origin ticks the widget", async () => {
    await flips('widget', async () => {
      publicKey = (await owner.post(`/v2/shops/${shopId}/widget-key`, { allowedOrigins: [PAGE] })).body.publicKey;
    });
  });

  it('an order from a widget selection ticks the test order once its sticker is formed', async () => {
    const selected = await t.app.inject({
      method: 'POST',
      url: `/widget/v1/api/selections?key=${publicKey}`,
      headers: { origin: PAGE, 'content-type': 'application/json' },
      payload: JSON.stringify({
        city: { name: 'Москва' },
        products: [{ name: 'Кружка', price: 1000, count: 1, weight: 0.5 }],
        mode: 2,
        companyId: 1,
        address: { street: 'Тверская улица', house: '1' },
      }),
    });
    expect(selected.statusCode, selected.body).toBe(201);
    const token = JSON.parse(selected.body).token as string;
    const made = await owner.post('/v2/widget/orders', {
      selectionToken: token,
      cmsId: 'TEST-1',
      recipient: { fullName: 'Проверка Заказа', phone: '+79990001122' },
    });
    expect(made.status, made.text).toBe(201);
    const orderId = made.body.id as number;
    // made and registered, no sticker yet: not done, but the order is named
    expect((await owner.post('/v2/orders/confirm', { ids: [orderId] })).status).toBe(204);
    await orderJobWorker(t).runDue();
    const before = (await owner.get('/v2/account/checklist')).body.steps.testOrder;
    expect(before).toEqual({ done: false, orderId, status: 13, stickerFormed: false });
    await flips('testOrder', async () => {
      const stickers = await owner.post('/v2/orders/stickers', { ids: [orderId], type: 1 });
      expect(stickers.status, stickers.text).toBe(200);
    });
  });

  it("a call with the shop's API key ticks the CMS plugin; a new key unticks it", async () => {
    await flips('cmsPlugin', async () => {
      const plugin = t.client(shopKey);
      const statuses = await plugin.get('/v2/lists/order-statuses?lang=ru', { headers: { 'Shop-Id': String(shopId) } });
      expect(statuses.status).toBe(200);
    });
    const answer = (await owner.get('/v2/account/checklist')).body;
    expect(answer.complete).toBe(true);
    expect(answer.steps.cmsPlugin.shopId).toBe(shopId);
    await flips(
      'cmsPlugin',
      async () => {
        expect((await owner.post(`/v2/shops/${shopId}/api-key`)).status).toBe(200);
      },
      false,
    );
  });

  it('no token is a 401; a shop key is a 403', async () => {
    expect((await t.client().get('/v2/account/checklist')).status).toBe(401);
    const key = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey as string;
    const byShop = await t.client(key).get('/v2/account/checklist');
    expect(byShop.status).toBe(403);
  });
});
