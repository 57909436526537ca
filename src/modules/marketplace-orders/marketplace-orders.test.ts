import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  ozonPosting,
  startFakeMarketplaces,
  wildberriesOrder,
  yandexOrder,
  type FakeMarketplaces,
} from '../../../test/support/fake-marketplaces.js';
import { productBody, shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { JobWorker } from '../../platform/jobs.js';
import { POLL_JOB } from './service.js';

let t: TestApp;
let fake: FakeMarketplaces;
let owner: ApiClient;
let ownerAccount: number;
let stranger: ApiClient;
let shopId: number;
let otherShopKey: ApiClient;
let worker: JobWorker;
const quiet = { error: () => {}, warn: () => {} };

beforeAll(async () => {
  fake = await startFakeMarketplaces();
  t = await createTestApp({
    env: {
      MARKETPLACE_OZON_URL: fake.baseUrl,
      MARKETPLACE_WILDBERRIES_URL: fake.baseUrl,
      MARKETPLACE_YANDEX_URL: fake.baseUrl,
      MARKETPLACE_SANDBOX_ORDER_SECONDS: '60',
    },
  });
  const account = await t.newAccount('Owner');
  owner = account.client;
  ownerAccount = account.accountId;
  stranger = (await t.newAccount('Stranger')).client;
  const warehouse = await owner.post('/v2/warehouses', warehouseBody());
  shopId = (
    await owner.post(
      '/v2/shops',
      shopBody(warehouse.body.id, { notifications: { events: { newOrder: true }, currentAccount: { enabled: true } } }),
    )
  ).body.id;
  const other = (await owner.post('/v2/shops', shopBody(warehouse.body.id, { name: 'Other shop' }))).body.id;
  otherShopKey = t.client((await owner.get(`/v2/shops/${other}`)).body.apiKey);
  worker = new JobWorker(t.runtime.services.jobs, quiet);
  t.runtime.services.marketplaceOrders.registerJobs(worker);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const orders = async (client: ApiClient, query = '') =>
  (await client.get(`/v2/marketplace-orders?perPage=1000${query}`)).body as Array<Record<string, any>>;

describe('Ozon: poll, page boundary, no duplicates, bindings', () => {
  it('reads 150 postings over two pages at the first poll, then nothing new at the second', async () => {
    const bound = await owner.post(
      '/v2/products',
      productBody({ vendorCode: 'BOUND-1', bindings: [{ marketplaceId: 1, offerId: 'OFFER-1' }] }),
    );
    expect(bound.status).toBe(201);
    fake.ozon.postings = Array.from({ length: 150 }, (_, index) => ozonPosting(index + 1));
    fake.ozon.postings[1] = ozonPosting(2, { order_number: '01-0001' });
    expect(
      (
        await owner.post(
          '/v2/marketplaces/integration/1',
          { clientId: fake.ozon.clientId, apiKey: fake.ozon.apiKey },
          { headers: { 'Shop-Id': String(shopId) } },
        )
      ).status,
    ).toBe(204);
    await worker.runDue();
    const listCalls = fake.calls.filter((call) => call.url === '/v3/posting/fbs/list');
    expect(listCalls).toHaveLength(2);
    expect((await orders(owner)).length).toBe(150);

    // the second poll: the window starts where the first ended; the same postings answered again are not stored twice
    expect(await t.runtime.services.marketplaceOrders.poll(ownerAccount, 1)).toMatchObject({ stored: 0 });
    const all = await orders(owner);
    expect(all.length).toBe(150);
    expect(new Set(all.map((order) => order.marketplaceOrderNumber)).size).toBe(150);

    const first = all.find((order) => order.marketplaceOrderNumber === '01-0001-1');
    expect(first).toMatchObject({
      marketplace: { id: 1, name: 'Ozon' },
      shopId,
      shippingMode: 1,
      statusHistory: [{ code: 1, name: 'awaiting_packaging', date: expect.any(String) }],
      marketplaceAcceptDatePlanned: expect.stringMatching(/^2026-11-02/),
      priceDeclared: 1390,
      products: [
        {
          productId: bound.body.id,
          vendorCode: 'BOUND-1',
          count: 1,
          price: 1390,
          identifiers: { offerId: 'OFFER-1', sku: '500001' },
        },
      ],
      dimensions: { width: 20, height: 3, length: 25, weight: 0.25 },
      shippingWarehouse: { id: 1020000101, name: 'Подольск FBS' },
      isFulfilment: true,
      // shipped from the fulfilment warehouse, which holds none of it: waiting for goods
      errors: [
        {
          product: 0,
          message: expect.stringContaining('Not enough goods at the fulfilment warehouse: 0 available, 1 more needed'),
        },
      ],
      bundle: { id: '01-0001', count: 2 },
      marketplaceAcceptExpired: true,
    });
    const unbound = all.find((order) => order.marketplaceOrderNumber === '03-0001-1');
    expect(unbound?.errors).toEqual([{ product: 0, message: expect.stringContaining('offerId OFFER-3') }]);
    expect(unbound?.products[0].productId).toBeNull();
    expect(unbound?.bundle).toBeNull();

    const single = await owner.get(`/v2/marketplace-orders/${first?.id}`);
    expect(single.body).toEqual(first);
    const bundle = await owner.get('/v2/marketplace-orders/bundles?id=01-0001');
    expect(bundle.body.map((order: { marketplaceOrderNumber: string }) => order.marketplaceOrderNumber)).toEqual([
      '01-0001-1',
      '02-0001-1',
    ]);
  });

  it("raises the shop's newOrder notification for each new order", async () => {
    await t.runtime.services.notifications.dispatch();
    const notifications = (await owner.get('/v2/notifications?perPage=1000')).body as Array<{
      type: string;
      text: string;
    }>;
    expect(notifications.filter((item) => item.type === 'newOrder')).toHaveLength(150);
    expect(notifications[0]?.text).toMatch(/^New marketplace order \d+ \(\d+-0001-1\) in shop/);
  });
});

describe('Wildberries: 429 and 500 retried later, nothing lost', () => {
  it('keeps the cursor of the pages stored, waits Retry-After on a 429 and goes on', async () => {
    fake.wildberries.orders = Array.from({ length: 5 }, (_, index) => wildberriesOrder(index + 1));
    fake.failures.push({ status: 429, retryAfter: 120 });
    expect((await owner.post('/v2/marketplaces/integration/2', { token: fake.wildberries.token })).status).toBe(204);
    await worker.runDue();
    expect((await orders(owner, '&marketplaces[]=2')).length).toBe(0);
    const job = await t.runtime.database.db
      .selectFrom('jobs')
      .select(['id', 'status', 'run_at', 'last_error'])
      .where('kind', '=', POLL_JOB)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('pending');
    expect(new Date(job.run_at).getTime() - Date.now()).toBeGreaterThan(100_000);
    expect(job.last_error).toMatch(/429/);

    fake.failures.push({ status: 500 });
    await expect(t.runtime.services.marketplaceOrders.poll(ownerAccount, 2)).rejects.toThrow(/HTTP 500/);
    await t.runtime.services.marketplaceOrders.poll(ownerAccount, 2);
    expect((await orders(owner, '&marketplaces=2')).length).toBe(5);
    // an RFC 3339 time with an offset is stored as our UTC instant (the date filters compare instants)
    fake.wildberries.orders.push(wildberriesOrder(6, { createdAt: '2026-11-01T13:00:00+03:00' }));
    await t.runtime.services.marketplaceOrders.poll(ownerAccount, 2);
    const wb = await orders(owner, '&marketplaces=2');
    expect(wb.map((order) => order.marketplaceOrderNumber)).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(wb.map((order) => order.marketplaceCreationDate).slice(0, 2)).toEqual([
      '2026-11-01T10:00:00.000Z',
      '2026-11-01T10:00:00.000Z',
    ]);
    // WB's `next` cursor: the last poll asked only after order 5
    expect(fake.calls.filter((call) => call.url.startsWith('/api/v3/orders?')).at(-1)?.url).toContain('next=5');
    expect(fake.calls.filter((call) => call.url.startsWith('/api/v3/orders?')).at(-1)?.headers.authorization).toBe(
      fake.wildberries.token,
    );
  });
});

describe('Yandex Market: page_token paging', () => {
  it('reads 60 orders over two pages, then none twice', async () => {
    fake.yandex.orders = Array.from({ length: 60 }, (_, index) =>
      yandexOrder(
        9000 + index,
        index === 0 ? { delivery: { deliveryPartnerType: 'SHOP', address: { city: 'Казань' }, shipments: [] } } : {},
      ),
    );
    expect(
      (
        await owner.post('/v2/marketplaces/integration/3', {
          campaignId: fake.yandex.campaignId,
          apiKey: fake.yandex.apiKey,
        })
      ).status,
    ).toBe(204);
    await worker.runDue();
    await t.runtime.services.marketplaceOrders.poll(ownerAccount, 3);
    const ym = await orders(owner, '&marketplaces=3');
    expect(ym.length).toBe(60);
    expect(fake.calls.some((call) => call.url.includes('page_token=50'))).toBe(true);
    const dbs = ym.find((order) => order.marketplaceOrderNumber === '9000');
    expect(dbs).toMatchObject({
      shippingMode: 3,
      deliveryPrice: 99,
      deliveryAddress: { city: { name: 'Казань' } },
      marketplaceAcceptDatePlanned: null,
      marketplaceAcceptExpired: false,
    });
  });
});

describe('the list filters of 4.9', () => {
  it('filters by list, statuses, search, marketplaces, shipping mode, warehouse, dates and acceptance overdue', async () => {
    const total = (await orders(owner)).length;
    expect(total).toBe(216);
    expect((await orders(owner, '&list=1')).length).toBe(216);
    expect((await orders(owner, '&list=5')).length).toBe(0);
    expect((await orders(owner, '&statuses[]=1&statuses[]=2')).length).toBe(216);
    // a list and statuses that share no code match nothing (not a broken `in ()`)
    const disjoint = await owner.get('/v2/marketplace-orders?list=1&statuses[]=2');
    expect([disjoint.status, disjoint.body, disjoint.headers['x-total-count']]).toEqual([200, [], '0']);
    expect((await orders(owner, '&search=offer-17')).map((order) => order.marketplaceOrderNumber)).toEqual([
      '017-0001-1',
    ]);
    expect((await orders(owner, '&search=товар маркета 9001')).map((order) => order.marketplaceOrderNumber)).toEqual([
      '9001',
    ]);
    expect((await orders(owner, '&marketplaces=1,3')).length).toBe(210);
    expect((await orders(owner, '&shippingMode=3')).length).toBe(1);
    expect((await orders(owner, '&warehouseId=2000101')).length).toBe(6);
    expect((await orders(owner, '&marketplaceAcceptExpired=true')).length).toBe(209);
    expect((await orders(owner, '&marketplaceAcceptExpired=0')).map((order) => order.marketplace.id).sort()).toEqual([
      2, 2, 2, 2, 2, 2, 3,
    ]);
    expect((await orders(owner, '&dateFrom=2026-11-01&dateTo=2026-11-01')).length).toBe(216);
    expect((await orders(owner, '&dateFrom=2026-11-02')).length).toBe(0);
    const page = await owner.get('/v2/marketplace-orders?perPage=10&page=2');
    expect(page.headers['x-total-count']).toBe('216');
    expect(page.body).toHaveLength(10);
    const bad = await owner.get('/v2/marketplace-orders?list=9&shippingMode=x');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['list', 'shippingMode']);
  });

  it("another account sees none (404 by id, [] in lists, 404 for the bundle); a shop key sees its shop's only (403)", async () => {
    const one = (await orders(owner))[0];
    expect((await stranger.get(`/v2/marketplace-orders/${one?.id}`)).status).toBe(404);
    expect(await orders(stranger)).toEqual([]);
    expect((await stranger.get('/v2/marketplace-orders/bundles?id=01-0001')).status).toBe(404);
    expect((await owner.get('/v2/marketplace-orders/bundles?id=nope')).status).toBe(404);
    expect((await owner.get('/v2/marketplace-orders/bundles')).status).toBe(400);
    const ozonOrder = (await orders(owner, '&marketplaces=1'))[0];
    expect((await otherShopKey.get(`/v2/marketplace-orders/${ozonOrder?.id}`)).status).toBe(403);
    expect(await orders(otherShopKey, '&marketplaces=1')).toEqual([]);
    // a bundle of another shop is none of the key's: 404, as one of another account
    expect((await otherShopKey.get('/v2/marketplace-orders/bundles?id=01-0001')).status).toBe(404);
    expect((await owner.get('/v2/marketplace-orders/999999999')).status).toBe(404);
    expect((await t.client().get('/v2/marketplace-orders')).status).toBe(401);
    // an order of no shop (none existed when it was read) is the account's, out of any shop key's reach
    await t.runtime.database.db
      .updateTable('marketplace_orders')
      .set({ shop_id: null })
      .where('id', '=', ozonOrder?.id)
      .execute();
    expect((await otherShopKey.get(`/v2/marketplace-orders/${ozonOrder?.id}`)).status).toBe(403);
    expect((await owner.get(`/v2/marketplace-orders/${ozonOrder?.id}`)).status).toBe(200);
    await t.runtime.database.db
      .updateTable('marketplace_orders')
      .set({ shop_id: shopId })
      .where('id', '=', ozonOrder?.id)
      .execute();
  });
});

describe('sandbox marketplace', () => {
  it('produces one order per configured interval from the first poll on', async () => {
    expect((await stranger.post('/v2/marketplaces/integration/4', { token: 'invalid' })).status).toBe(422);
    expect((await stranger.post('/v2/marketplaces/integration/4', { token: 'demo' })).status).toBe(204);
    const account = (await stranger.get('/v2/marketplaces')).body;
    expect(account[3].connected).toBe(true);
    const strangerId = (
      await t.runtime.database.db
        .selectFrom('marketplace_integrations')
        .select('account_id')
        .where('marketplace_id', '=', 4)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
    ).account_id;
    const start = new Date();
    await t.runtime.services.marketplaceOrders.poll(strangerId, 4, undefined, start);
    expect((await orders(stranger)).length).toBe(1);
    await t.runtime.services.marketplaceOrders.poll(strangerId, 4, undefined, new Date(start.getTime() + 150_000));
    const sandbox = await orders(stranger);
    expect(sandbox.map((order) => order.marketplaceOrderNumber)).toEqual(['SBX-000003', 'SBX-000002', 'SBX-000001']);
    expect(sandbox[2]).toMatchObject({
      bundle: { id: 'SBX-B1', count: 2 },
      shippingWarehouse: { id: 4000001 },
      errors: [{ product: 0, message: expect.stringContaining('sku SANDBOX-1') }],
    });
  });
});
