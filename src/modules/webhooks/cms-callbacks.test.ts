/**
 * The shop plugins' callbacks replayed against small fakes of each plugin's endpoints
 * (field names, form encoding, headers as the plugin reads them), and the CMS callback
 * settings through HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { startFakeCms, type FakeCms, type FakePlatform } from '../../../test/support/fake-cms.js';
import { shopBody } from '../../../test/support/fixtures.js';
import {
  fulfilmentAccount,
  fulfilmentOrder,
  newProduct,
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { WebhookPump } from './pump.js';

const quiet = { error: () => undefined, warn: () => undefined };
let t: TestApp;
let a: OrderingAccount;
let owner: ApiClient;
let pump: WebhookPump;
const fakes: FakeCms[] = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { SIMULATION_STEP_SECONDS: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', FULFILMENT_ACCEPT_SECONDS: '60' },
  });
  a = await orderingAccount(t);
  owner = a.owner;
  pump = new WebhookPump(t.runtime.services.webhooks, t.runtime.services.jobs, quiet, { concurrency: 4, pollMs: 20 });
});

afterAll(async () => {
  for (const fake of fakes) await fake.close();
  await t.close();
});

async function shopWith(
  platform: FakePlatform,
  client: ApiClient = owner,
  warehouseId = a.warehouseId,
  extra: Record<string, unknown> = {},
): Promise<{ shopId: number; apiKey: string; cms: FakeCms }> {
  const shopId = (await client.post('/v2/shops', shopBody(warehouseId, { name: `Магазин ${platform}`, ...extra }))).body
    .id as number;
  const apiKey = (await client.get(`/v2/shops/${shopId}`)).body.apiKey as string;
  const cms = await startFakeCms(platform, apiKey, String(shopId), 'diafan-integration-key');
  fakes.push(cms);
  return { shopId, apiKey, cms };
}

const STATUS_MAPS: Record<FakePlatform, Record<string, string>> = {
  woocommerce: { '12': 'wc-processing', '44': 'wc-completed' },
  bitrix: { '12': 'P', '13': 'P', '41': 'P', '44': 'F' },
  opencart: { '12': '2', '13': '2', '41': '2', '44': '5' },
  diafan: { '12': '1', '13': '1', '41': '1', '44': '3' },
};

const push = (trackNumber: string, statusCode: number) =>
  t
    .client()
    .post(
      '/v2/tracking/events/1',
      { events: [{ trackNumber, statusCode }] },
      { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
    );

describe.each(['woocommerce', 'bitrix', 'opencart', 'diafan'] as const)('%s plugin', (platform) => {
  it('offers its statuses and payment methods, then hears every status change in its wire format', async () => {
    const { shopId, apiKey, cms } = await shopWith(platform);
    const set = await owner.put(`/v2/shops/${shopId}/cms-callbacks`, {
      platform,
      apiUrl: cms.apiUrl,
      statusMap: STATUS_MAPS[platform],
      ...(platform === 'diafan' ? { apiKey: 'diafan-integration-key' } : {}),
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({
      platform,
      apiUrl: cms.apiUrl,
      statusMap: STATUS_MAPS[platform],
      enabled: true,
      apiKey: platform === 'diafan' ? '****-key' : null,
    });

    const options = await owner.get(`/v2/shops/${shopId}/cms-callbacks/options`);
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    expect(Object.keys(options.body.statuses).length).toBeGreaterThan(1);
    expect(Object.keys(options.body.paymentMethods).length).toBeGreaterThan(0);
    expect(cms.calls.map((call) => [call.method, call.resource])).toEqual([
      ['GET', 'statuses.json'],
      ['GET', 'payment-methods.json'],
    ]);

    const { id, trackNumber } = await preparedOrder(owner, a.worker, orderBody({ shopId, pointId: a.pointId }));
    // the plugin stored our order id when it created the order (POST v2/orders answered it)
    cms.orders.set(String(id), 'new');
    await push(trackNumber, 41);
    await push(trackNumber, 44);
    await pump.drain();

    const updates = cms.calls.filter((call) => call.resource === 'order-status-update');
    expect(
      updates.every((call) => call.method === 'POST' && call.contentType === 'application/x-www-form-urlencoded'),
    ).toBe(true);
    expect(updates.every((call) => call.headers.token === apiKey)).toBe(true);
    if (platform === 'diafan')
      expect(
        updates.every(
          (call) => call.headers['shop-id'] === String(shopId) && call.headers['api-key'] === 'diafan-integration-key',
        ),
      ).toBe(true);
    // every change in order; WooCommerce maps statusSR itself and hears unmapped ones too, the others only mapped ones
    const expected =
      platform === 'woocommerce'
        ? [
            [12, 'wc-processing'],
            [13, ''],
            [41, ''],
            [44, 'wc-completed'],
          ]
        : [12, 13, 41, 44].map((code) => [code, STATUS_MAPS[platform][String(code)]]);
    expect(updates.map((call) => [Number(call.post.statusSR), call.post.statusCMS])).toEqual(expected);
    expect(updates.every((call) => call.post.id === String(id) && call.status === 200)).toBe(true);
    const last = updates[updates.length - 1].post;
    expect(last).toMatchObject({ trackNumber, trackUrl: expect.stringMatching(/^https?:\/\//) });
    expect(Object.keys(last).sort()).toEqual(['id', 'statusCMS', 'statusSR', 'trackNumber', 'trackUrl']);
    expect(cms.orders.get(String(id))).toBe(STATUS_MAPS[platform]['44']);

    // logged like webhooks, under the endpoint the settings name
    const deliveries = (await owner.get(`/v2/webhooks/${set.body.webhookId}/deliveries?perPage=100`)).body;
    expect(
      deliveries.every(
        (delivery: { status: string; resource: string }) =>
          delivery.status === 'delivered' && delivery.resource === 'order-status-update',
      ),
    ).toBe(true);
    expect((await owner.get(`/v2/webhooks/${set.body.webhookId}`)).body).toMatchObject({ kind: 'cms', shopId });
  });
});

describe('CMS callbacks', () => {
  it('retry an update the plugin refused (wrong token), and use the shop key as it is when sending', async () => {
    const { shopId, cms } = await shopWith('bitrix');
    const set = await owner.put(`/v2/shops/${shopId}/cms-callbacks`, {
      platform: 'bitrix',
      apiUrl: cms.apiUrl,
      statusMap: STATUS_MAPS.bitrix,
    });
    cms.token = 'the plugin still has an old token';
    const orderId = (await owner.post('/v2/orders', orderBody({ shopId, pointId: a.pointId }))).body.id as number;
    expect((await owner.post('/v2/orders/confirm', { ids: [orderId] })).status).toBe(204);
    await pump.drain();
    const attempts = (await owner.get(`/v2/webhooks/${set.body.webhookId}/attempts`)).body;
    expect(attempts[0]).toMatchObject({ httpStatus: 401, error: 'HTTP 401' });
    // the owner puts the shop's key into the plugin; the retry goes through
    cms.token = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey;
    await pump.drain(new Date(Date.now() + 3_600_000));
    const accepted = cms.calls.filter((call) => call.status === 200 && call.resource === 'order-status-update');
    expect(accepted.map((call) => call.post)).toMatchObject([{ id: String(orderId), statusSR: '12', statusCMS: 'P' }]);
  });

  it('tell WooCommerce the quantity of a fulfilment product whenever its stock changes, when the shop sends quantity to its CMS', async () => {
    const f: FulfilmentAccount = await fulfilmentAccount(t, { name: 'Fulfilment CMS' });
    const { shopId, cms } = await shopWith('woocommerce', f.owner, f.warehouseId, {
      sendQuantityToCMS: 1,
      notifications: {
        events: { productEndsInFulfilment: { enabled: true, border: 2 } },
        currentAccount: { enabled: true },
      },
    });
    expect(
      (await f.owner.put(`/v2/shops/${shopId}/cms-callbacks`, { platform: 'woocommerce', apiUrl: cms.apiUrl })).status,
    ).toBe(200);
    const lamp = await newProduct(f.owner, { vendorCode: 'CMS-LAMP' });
    cms.stock.set('CMS-LAMP', 5);
    const supply = (
      await f.owner.post('/v2/products/shipments', {
        date: '2026-12-01',
        fulfilmentWarehouseId: 101,
        places: 1,
        type: 'boxes',
        products: [{ id: lamp, count: 5 }],
      })
    ).body.id;
    expect((await f.owner.post('/v2/products/shipments/confirm', { id: supply })).status).toBe(204);
    await f.worker.runDue(new Date(Date.now() + 3_600_000));
    // told as the pump reads the change: the quantity as it is then (several changes read together all tell the latest)
    await pump.drain();
    const first = (await f.owner.post('/v2/orders', fulfilmentOrder(t, f, [[lamp, 3]], { shopId }))).body.id;
    // the plugin stored the order (its status updates are answered 404 otherwise, and a receiver's deliveries go in order)
    cms.orders.set(String(first), 'wc-pending');
    expect((await f.owner.post('/v2/orders/confirm', { ids: [first] })).status).toBe(204);
    await pump.drain();
    const quantity = () =>
      cms.calls
        .filter((call) => call.resource === 'product-quantity-update')
        .map((call) => [call.contentType, call.post, call.status]);
    // accepted (5 on hand), then 3 reserved by the order (2 left)
    expect(quantity()).toEqual([
      ['application/x-www-form-urlencoded', { vendorCode: 'CMS-LAMP', quantity: '5' }, 200],
      ['application/x-www-form-urlencoded', { vendorCode: 'CMS-LAMP', quantity: '2' }, 200],
    ]);
    expect(cms.stock.get('CMS-LAMP')).toBe(2);
    // the order canceled: its goods are available again, and the CMS is told
    expect((await f.owner.post('/v2/orders/cancel', { ids: [first] })).status).toBe(204);
    await pump.drain();
    expect(quantity().slice(2)).toEqual([
      ['application/x-www-form-urlencoded', { vendorCode: 'CMS-LAMP', quantity: '5' }, 200],
    ]);
    expect(cms.stock.get('CMS-LAMP')).toBe(5);
    // a shop that does not send quantity to its CMS is told nothing of stock
    const quiet = await shopWith('woocommerce', f.owner, f.warehouseId, { sendQuantityToCMS: 0 });
    expect(
      (
        await f.owner.put(`/v2/shops/${quiet.shopId}/cms-callbacks`, {
          platform: 'woocommerce',
          apiUrl: quiet.cms.apiUrl,
        })
      ).status,
    ).toBe(200);
    const second = (await f.owner.post('/v2/orders', fulfilmentOrder(t, f, [[lamp, 1]], { shopId }))).body.id;
    cms.orders.set(String(second), 'wc-pending');
    expect((await f.owner.post('/v2/orders/confirm', { ids: [second] })).status).toBe(204);
    await pump.drain();
    expect(quiet.cms.calls.filter((call) => call.resource === 'product-quantity-update')).toEqual([]);
    expect(quantity().slice(3)).toEqual([
      ['application/x-www-form-urlencoded', { vendorCode: 'CMS-LAMP', quantity: '4' }, 200],
    ]);
  });

  it('refuses bad settings with field errors and writes nothing', async () => {
    const { shopId } = await shopWith('woocommerce');
    for (const [body, field] of [
      [{ platform: 'joomla', apiUrl: 'https://shop.example.com/api/' }, 'platform'],
      [{ platform: 'woocommerce', apiUrl: 'mailto:x@y' }, 'apiUrl'],
      [{ platform: 'woocommerce' }, 'apiUrl'],
      [{ platform: 'diafan', apiUrl: 'https://shop.example.com/delivery/get/saferoute/api/' }, 'apiKey'],
      [{ platform: 'woocommerce', apiUrl: 'https://shop.example.com/', statusMap: { abc: 'x' } }, 'statusMap'],
    ] as const) {
      const response = await owner.put(`/v2/shops/${shopId}/cms-callbacks`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({
        code: 'validation_failed',
        errors: [expect.objectContaining({ field: expect.stringContaining(field) })],
      });
    }
    expect((await owner.get(`/v2/shops/${shopId}/cms-callbacks`)).status).toBe(404);
  });

  it('answers 422 when the CMS does not give its lists', async () => {
    const { shopId, cms } = await shopWith('opencart');
    await owner.put(`/v2/shops/${shopId}/cms-callbacks`, { platform: 'opencart', apiUrl: cms.apiUrl });
    cms.token = 'another';
    const response = await owner.get(`/v2/shops/${shopId}/cms-callbacks/options`);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'cms_not_answering', message: expect.stringContaining('HTTP 401') });
  });

  it('keep other accounts and other shops out, and are removed', async () => {
    const { shopId, cms } = await shopWith('woocommerce');
    const set = await owner.put(`/v2/shops/${shopId}/cms-callbacks`, { platform: 'woocommerce', apiUrl: cms.apiUrl });
    expect((await t.client().get(`/v2/shops/${shopId}/cms-callbacks`)).status).toBe(401);
    const stranger = (await t.newAccount('CMS stranger')).client;
    expect((await stranger.get(`/v2/shops/${shopId}/cms-callbacks`)).status).toBe(404);
    expect(
      (
        await stranger.put(`/v2/shops/${shopId}/cms-callbacks`, {
          platform: 'woocommerce',
          apiUrl: 'https://evil.example.com/',
        })
      ).status,
    ).toBe(404);
    expect((await stranger.delete(`/v2/shops/${shopId}/cms-callbacks`)).status).toBe(404);
    expect((await stranger.get(`/v2/shops/${shopId}/cms-callbacks/options`)).status).toBe(404);
    expect((await t.client().get(`/v2/shops/${shopId}/cms-callbacks/options`)).status).toBe(401);
    expect((await stranger.get(`/v2/webhooks/${set.body.webhookId}/deliveries`)).status).toBe(404);
    const otherKey = owner.withToken(a.shopKey);
    expect((await otherKey.get(`/v2/shops/${shopId}/cms-callbacks`)).status).toBe(403);
    expect(
      (
        await otherKey.put(`/v2/shops/${shopId}/cms-callbacks`, {
          platform: 'woocommerce',
          apiUrl: 'https://evil.example.com/',
        })
      ).status,
    ).toBe(403);
    expect((await otherKey.get(`/v2/shops/${shopId}/cms-callbacks/options`)).status).toBe(403);
    expect((await otherKey.delete(`/v2/shops/${shopId}/cms-callbacks`)).status).toBe(403);
    expect((await otherKey.get(`/v2/webhooks/${set.body.webhookId}/deliveries`)).status).toBe(403);
    expect(cms.calls).toEqual([]);
    // its own shop's key may read them; the webhook routes leave them to this one
    const ownKey = owner.withToken((await owner.get(`/v2/shops/${shopId}`)).body.apiKey);
    expect((await ownKey.get(`/v2/shops/${shopId}/cms-callbacks`)).body.apiUrl).toBe(cms.apiUrl);
    expect((await owner.put(`/v2/webhooks/${set.body.webhookId}`, { url: 'https://x.example.com/' })).status).toBe(409);
    expect((await owner.get(`/v2/shops/${shopId}/cms-callbacks`)).body.apiUrl).toBe(cms.apiUrl);
    expect((await owner.delete(`/v2/shops/${shopId}/cms-callbacks`)).status).toBe(204);
    expect((await owner.get(`/v2/shops/${shopId}/cms-callbacks`)).status).toBe(404);
    expect((await owner.get(`/v2/webhooks/${set.body.webhookId}`)).status).toBe(404);
  });
});
