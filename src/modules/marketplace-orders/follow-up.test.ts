/**
 * Goods of marketplace orders shipped from a fulfilment warehouse are
 * reserved (short ones wait for the next poll), statuses are re-read after the first read,
 * and a cancellation gives the goods back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { addDays, todayIn } from '../../platform/clock.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  ozonPosting,
  startFakeMarketplaces,
  wildberriesOrder,
  yandexOrder,
  type FakeMarketplaces,
} from '../../../test/support/fake-marketplaces.js';
import {
  expectBooksBalance,
  fulfilmentAccount,
  FULFILMENT_WAREHOUSE,
  newProduct,
  putInStock,
} from '../../../test/support/fulfilment.js';
import { MAX_STATUS_CHECKS_PER_RUN } from './service.js';

let t: TestApp;
let fake: FakeMarketplaces;

beforeAll(async () => {
  fake = await startFakeMarketplaces();
  t = await createTestApp({
    env: {
      MARKETPLACE_OZON_URL: fake.baseUrl,
      MARKETPLACE_WILDBERRIES_URL: fake.baseUrl,
      MARKETPLACE_YANDEX_URL: fake.baseUrl,
      MARKETPLACE_POLL_SECONDS: '0',
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const ordersOf = async (client: ApiClient, query = '') =>
  (await client.get(`/v2/marketplace-orders?perPage=1000${query}`)).body as Array<Record<string, any>>;
const byNumber = async (client: ApiClient, number: string) =>
  (await ordersOf(client)).find((order) => order.marketplaceOrderNumber === number) as Record<string, any>;

async function stockOf(accountId: number, productId: number): Promise<{ quantity: number; reserved: number }> {
  const row = await t.runtime.database.db
    .selectFrom('stock')
    .select(['quantity', 'reserved'])
    .where('account_id', '=', accountId)
    .where('product_id', '=', productId)
    .where('fulfilment_warehouse_id', '=', FULFILMENT_WAREHOUSE)
    .executeTakeFirstOrThrow();
  return { quantity: Number(row.quantity), reserved: Number(row.reserved) };
}

async function heldBy(accountId: number, marketplaceOrderId: number): Promise<number> {
  const rows = await t.runtime.database.db
    .selectFrom('stock_allocations')
    .select('quantity')
    .where('account_id', '=', accountId)
    .where('marketplace_order_id', '=', marketplaceOrderId)
    .where('state', '=', 'reserved')
    .execute();
  return rows.reduce((sum, row) => sum + Number(row.quantity), 0);
}

describe('Ozon: goods of fulfilment postings are reserved, short ones wait, a cancellation gives them back', () => {
  it('reserves, retries the short one at the next poll, releases the canceled one', async () => {
    const at = await fulfilmentAccount(t, { name: 'Ozon fulfilment' });
    const productId = await newProduct(at.owner, {
      vendorCode: 'FF-A',
      bindings: [{ marketplaceId: 1, offerId: 'FF-A' }],
    });
    await putInStock(t, at.accountId, productId, 3);
    const goods = (quantity: number) => [
      { price: '500.000000', offer_id: 'FF-A', name: 'Товар A', sku: 800001, quantity },
    ];
    fake.ozon.postings = [
      ozonPosting(1, { products: goods(2) }),
      ozonPosting(2, { products: goods(2) }),
      // an FBO warehouse of Ozon: no goods of ours there
      ozonPosting(3, {
        products: goods(1),
        delivery_method: { id: 1, warehouse_id: 1020000001, warehouse: 'Хоругвино' },
      }),
      // already delivered at the first read: nothing to hold
      ozonPosting(4, { products: goods(1), status: 'delivered' }),
    ];
    expect(
      (
        await at.owner.post('/v2/marketplaces/integration/1', {
          clientId: fake.ozon.clientId,
          apiKey: fake.ozon.apiKey,
        })
      ).status,
    ).toBe(204);
    const first = await t.runtime.services.marketplaceOrders.poll(at.accountId, 1);
    expect(first).toMatchObject({ stored: 4, reserved: 1 });

    const one = await byNumber(at.owner, '01-0001-1');
    const two = await byNumber(at.owner, '02-0001-1');
    expect(one).toMatchObject({ isFulfilment: true, errors: null });
    expect(two).toMatchObject({
      isFulfilment: true,
      errors: [{ product: 0, message: expect.stringContaining('1 available, 1 more needed') }],
    });
    expect(await stockOf(at.accountId, productId)).toEqual({ quantity: 3, reserved: 2 });
    expect(await heldBy(at.accountId, one.id)).toBe(2);
    expect(await heldBy(at.accountId, two.id)).toBe(0);
    expect(await heldBy(at.accountId, (await byNumber(at.owner, '03-0001-1')).id)).toBe(0);
    expect(await heldBy(at.accountId, (await byNumber(at.owner, '04-0001-1')).id)).toBe(0);
    // the catalogue shows it: 1 available of 3
    expect((await at.owner.get(`/v2/products/${productId}`)).body.quantity).toBe(1);

    // a supply brings one more: the next poll takes it for the waiting posting
    await putInStock(t, at.accountId, productId, 1);
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 1)).toMatchObject({
      stored: 0,
      reserved: 1,
      changed: 0,
    });
    expect((await byNumber(at.owner, '02-0001-1')).errors).toBeNull();
    expect(await stockOf(at.accountId, productId)).toEqual({ quantity: 4, reserved: 4 });

    // Ozon cancels the first: its status is re-read, appended, and its goods come back
    (fake.ozon.postings[0] as Record<string, unknown>).status = 'cancelled';
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 1)).toMatchObject({ changed: 1, reserved: 0 });
    const canceled = await byNumber(at.owner, '01-0001-1');
    // latest first
    expect(canceled.statusHistory).toEqual([
      { code: 5, name: 'cancelled', date: expect.any(String) },
      { code: 1, name: 'awaiting_packaging', date: expect.any(String) },
    ]);
    expect((await ordersOf(at.owner, '&list=5')).map((order) => order.marketplaceOrderNumber)).toEqual(['01-0001-1']);
    expect(await stockOf(at.accountId, productId)).toEqual({ quantity: 4, reserved: 2 });
    expect(await heldBy(at.accountId, canceled.id)).toBe(0);
    const movements = await t.runtime.database.db
      .selectFrom('stock_movements')
      .select(['kind', 'reserved_delta', 'order_id', 'actor'])
      .where('account_id', '=', at.accountId)
      .where('marketplace_order_id', '=', canceled.id)
      .orderBy('id')
      .execute();
    expect(
      movements.map((movement) => [movement.kind, Number(movement.reserved_delta), movement.order_id, movement.actor]),
    ).toEqual([
      ['reserve', 2, null, 'process:marketplaces.poll'],
      ['release', -2, null, 'process:marketplaces.poll'],
    ]);

    // nothing changes on a poll with nothing new: no second history item, no second release
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 1)).toMatchObject({ changed: 0, reserved: 0 });
    expect((await byNumber(at.owner, '01-0001-1')).statusHistory).toHaveLength(2);
    // final orders are not asked about again
    const asked = fake.calls.filter((call) => call.url === '/v3/posting/fbs/get').length;
    await t.runtime.services.marketplaceOrders.poll(at.accountId, 1);
    expect(fake.calls.filter((call) => call.url === '/v3/posting/fbs/get').length - asked).toBe(2);
    await expectBooksBalance(t, at.accountId);
  });
});

describe('Bindings added after an order was read', () => {
  it('match its products at the next poll, and a fulfilment order then waits for its goods and gets them', async () => {
    const at = await fulfilmentAccount(t, { name: 'Later bindings' });
    fake.ozon.postings = [
      ozonPosting(41, {
        products: [{ price: '300.000000', offer_id: 'LATE-1', name: 'Товар поздний', sku: 800041, quantity: 2 }],
      }),
    ];
    expect(
      (
        await at.owner.post('/v2/marketplaces/integration/1', {
          clientId: fake.ozon.clientId,
          apiKey: fake.ozon.apiKey,
        })
      ).status,
    ).toBe(204);
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 1)).toMatchObject({
      stored: 1,
      reserved: 0,
      rematched: 0,
    });
    const before = await byNumber(at.owner, '041-0001-1');
    expect(before).toMatchObject({
      isFulfilment: true,
      products: [{ productId: null, vendorCode: null }],
      errors: [{ product: 0, message: expect.stringContaining('offerId LATE-1') }],
    });
    // nothing bound yet: a poll changes nothing
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 1)).toMatchObject({
      rematched: 0,
      reserved: 0,
    });

    const productId = await newProduct(at.owner, {
      vendorCode: 'LATE-VC',
      bindings: [{ marketplaceId: 1, offerId: 'LATE-1' }],
    });
    await putInStock(t, at.accountId, productId, 5);
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 1)).toMatchObject({
      stored: 0,
      rematched: 1,
      reserved: 1,
    });
    const after = await byNumber(at.owner, '041-0001-1');
    expect(after).toMatchObject({ products: [{ productId, vendorCode: 'LATE-VC', count: 2 }], errors: null });
    expect(after.dimensions.weight).toBeGreaterThan(0);
    expect(await heldBy(at.accountId, after.id)).toBe(2);
    // the list's search finds it by the vendor code it has now
    expect((await ordersOf(at.owner, '&search=late-vc')).map((order) => order.id)).toEqual([after.id]);
    // matched once: the next poll leaves it alone
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 1)).toMatchObject({
      rematched: 0,
      reserved: 0,
    });
    await expectBooksBalance(t, at.accountId);
  });
});

describe('Disconnecting a marketplace', () => {
  it('gives back the goods its open orders hold and ends the waits, the orders staying listed', async () => {
    const at = await fulfilmentAccount(t, { name: 'Disconnects Ozon' });
    const productId = await newProduct(at.owner, {
      vendorCode: 'DC-A',
      bindings: [{ marketplaceId: 1, offerId: 'DC-A' }],
    });
    await putInStock(t, at.accountId, productId, 3);
    const goods = (quantity: number) => [
      { price: '200.000000', offer_id: 'DC-A', name: 'Товар DC', sku: 800051, quantity },
    ];
    fake.ozon.postings = [ozonPosting(51, { products: goods(2) }), ozonPosting(52, { products: goods(2) })];
    expect(
      (
        await at.owner.post('/v2/marketplaces/integration/1', {
          clientId: fake.ozon.clientId,
          apiKey: fake.ozon.apiKey,
        })
      ).status,
    ).toBe(204);
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 1)).toMatchObject({ stored: 2, reserved: 1 });
    expect(await stockOf(at.accountId, productId)).toEqual({ quantity: 3, reserved: 2 });

    expect((await at.owner.delete('/v2/marketplaces/integration/1')).status).toBe(204);
    expect(await stockOf(at.accountId, productId)).toEqual({ quantity: 3, reserved: 0 });
    const held = await byNumber(at.owner, '051-0001-1');
    const waited = await byNumber(at.owner, '052-0001-1');
    expect(await heldBy(at.accountId, held.id)).toBe(0);
    // the short one waits no more: its shortage is no longer an error of the order
    expect(waited.errors).toBeNull();
    const movements = await t.runtime.database.db
      .selectFrom('stock_movements')
      .select(['kind', 'reserved_delta', 'actor'])
      .where('account_id', '=', at.accountId)
      .where('marketplace_order_id', '=', held.id)
      .orderBy('id')
      .execute();
    expect(movements.map((movement) => [movement.kind, Number(movement.reserved_delta), movement.actor])).toEqual([
      ['reserve', 2, 'process:marketplaces.poll'],
      ['release', -2, 'process:marketplaces.disconnect'],
    ]);
    await expectBooksBalance(t, at.accountId);
  });
});

describe('Wildberries: statuses through POST /api/v3/orders/status', () => {
  it('appends the seller and WB statuses, and a cancellation before reservation only stops the wait', async () => {
    const at = await fulfilmentAccount(t, { name: 'WB fulfilment' });
    const productId = await newProduct(at.owner, {
      vendorCode: 'WB-A',
      bindings: [{ marketplaceId: 2, article: 'WB-A' }],
    });
    await putInStock(t, at.accountId, productId, 1);
    fake.wildberries.orders = [wildberriesOrder(501, { article: 'WB-A' }), wildberriesOrder(502, { article: 'WB-A' })];
    expect((await at.owner.post('/v2/marketplaces/integration/2', { token: fake.wildberries.token })).status).toBe(204);
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 2)).toMatchObject({ stored: 2, reserved: 1 });
    const held = await byNumber(at.owner, '501');
    expect(held.errors).toBeNull();
    expect((await byNumber(at.owner, '502')).errors).toHaveLength(1);

    fake.wildberries.statuses.set(501, { supplierStatus: 'confirm', wbStatus: 'waiting' });
    fake.wildberries.statuses.set(502, { supplierStatus: 'new', wbStatus: 'canceled_by_client' });
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 2)).toMatchObject({ changed: 2 });
    const statusCall = fake.calls.filter((call) => call.url === '/api/v3/orders/status').at(-1);
    expect(statusCall?.headers.authorization).toBe(fake.wildberries.token);
    expect(
      (await byNumber(at.owner, '501')).statusHistory.map((item: { code: number; name: string }) => [
        item.code,
        item.name,
      ]),
    ).toEqual([
      [2, 'confirm/waiting'],
      [1, 'new/waiting'],
    ]);
    const gone = await byNumber(at.owner, '502');
    expect(gone.statusHistory.map((item: { code: number }) => item.code)).toEqual([5, 1]);
    // it waited for goods and held none: nothing released, the wait is over (no error left)
    expect(gone.errors).toBeNull();
    expect(await stockOf(at.accountId, productId)).toEqual({ quantity: 1, reserved: 1 });

    fake.wildberries.statuses.set(501, { supplierStatus: 'complete', wbStatus: 'sold' });
    await t.runtime.services.marketplaceOrders.poll(at.accountId, 2);
    expect((await byNumber(at.owner, '501')).statusHistory.map((item: { code: number }) => item.code)).toEqual([
      4, 2, 1,
    ]);
    // sold: the goods it held left the warehouse
    expect(await stockOf(at.accountId, productId)).toEqual({ quantity: 0, reserved: 0 });
    expect(
      await t.runtime.database.db
        .selectFrom('stock_allocations')
        .select('state')
        .where('marketplace_order_id', '=', held.id)
        .execute(),
    ).toEqual([{ state: 'shipped' }]);
    await expectBooksBalance(t, at.accountId);

    // the period's bill charges its assembly at the fulfilment warehouse like an order's (45.00 + 8.50 a unit)
    const today = todayIn('Europe/Moscow');
    expect(
      await t.runtime.services.billing.closePeriod(
        { accountId: at.accountId, start: today, end: addDays(today, 1) },
        new Date(),
      ),
    ).toBe(true);
    const lines = await t.runtime.database.db
      .selectFrom('bill_lines')
      .select(['description', 'quantity', 'amount'])
      .where('account_id', '=', at.accountId)
      .where('source', '=', 'fulfilment')
      .execute();
    expect(lines.map((line) => ({ ...line, quantity: Number(line.quantity), amount: Number(line.amount) }))).toEqual([
      {
        description: `Сборка и отгрузка заказа маркетплейса ${held.id} со склада фулфилмента, единиц: 1`,
        quantity: 1,
        amount: 5350,
      },
    ]);
  });

  it('two runs at once never reserve more than there is, nor one order twice', async () => {
    const at = await fulfilmentAccount(t, { name: 'WB race' });
    const productId = await newProduct(at.owner, {
      vendorCode: 'WB-R',
      bindings: [{ marketplaceId: 2, article: 'WB-R' }],
    });
    fake.wildberries.orders = Array.from({ length: 6 }, (_, index) =>
      wildberriesOrder(600 + index, { article: 'WB-R' }),
    );
    fake.wildberries.statuses.clear();
    expect((await at.owner.post('/v2/marketplaces/integration/2', { token: fake.wildberries.token })).status).toBe(204);
    // nothing in stock yet: all six wait
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 2)).toMatchObject({ stored: 6, reserved: 0 });
    await putInStock(t, at.accountId, productId, 3);
    const service = t.runtime.services.marketplaceOrders;
    const runs = await Promise.all([
      service.reserveWaitingGoods(at.accountId, 2),
      service.reserveWaitingGoods(at.accountId, 2),
      service.reserveWaitingGoods(at.accountId, 2),
    ]);
    expect(runs.reduce((sum, count) => sum + count, 0)).toBe(3);
    expect(await stockOf(at.accountId, productId)).toEqual({ quantity: 3, reserved: 3 });
    const all = await ordersOf(at.owner);
    const holding = await Promise.all(all.map((order) => heldBy(at.accountId, order.id)));
    expect(holding.sort()).toEqual([0, 0, 0, 1, 1, 1]);
    expect(all.filter((order) => order.errors !== null)).toHaveLength(3);
    await expectBooksBalance(t, at.accountId);
  });
});

describe('Yandex Market: statuses re-read one by one, bounded per run', () => {
  it(`asks at most ${MAX_STATUS_CHECKS_PER_RUN} orders a run, the never-asked first`, async () => {
    const at = await fulfilmentAccount(t, { name: 'YM statuses' });
    fake.yandex.orders = Array.from({ length: 120 }, (_, index) => yandexOrder(70_000 + index));
    fake.calls.length = 0;
    expect(
      (
        await at.owner.post('/v2/marketplaces/integration/3', {
          campaignId: fake.yandex.campaignId,
          apiKey: fake.yandex.apiKey,
        })
      ).status,
    ).toBe(204);
    await t.runtime.services.marketplaceOrders.poll(at.accountId, 3);
    const single = (call: { url: string }) => /^\/v2\/campaigns\/\d+\/orders\/\d+$/.test(call.url);
    expect(fake.calls.filter(single)).toHaveLength(MAX_STATUS_CHECKS_PER_RUN);
    expect(fake.calls.filter(single).every((call) => call.headers['api-key'] === fake.yandex.apiKey)).toBe(true);

    Object.assign(fake.yandex.orders[119] as Record<string, unknown>, { status: 'DELIVERY', substatus: null });
    Object.assign(fake.yandex.orders[0] as Record<string, unknown>, {
      status: 'CANCELLED',
      substatus: 'USER_CHANGED_MIND',
    });
    fake.calls.length = 0;
    // the 20 never asked come first, then the longest unasked: both changes are seen in this run
    expect(await t.runtime.services.marketplaceOrders.poll(at.accountId, 3)).toMatchObject({ changed: 2 });
    expect(fake.calls.filter(single)).toHaveLength(MAX_STATUS_CHECKS_PER_RUN);
    expect(
      (await byNumber(at.owner, '70119')).statusHistory.map((item: { code: number; name: string }) => [
        item.code,
        item.name,
      ]),
    ).toEqual([
      [3, 'DELIVERY'],
      [1, 'PROCESSING/STARTED'],
    ]);
    expect((await byNumber(at.owner, '70000')).statusHistory[0]).toMatchObject({
      code: 5,
      name: 'CANCELLED/USER_CHANGED_MIND',
    });
    // an order Yandex Market no longer knows (404) is skipped, not a failed run
    fake.yandex.orders.splice(5, 1);
    await expect(t.runtime.services.marketplaceOrders.poll(at.accountId, 3)).resolves.toMatchObject({ changed: 0 });
  });
});

describe('GET /v2/marketplaces/warehouses asks a connected marketplace', () => {
  const podolsk =
    '/v2/marketplaces/warehouses?marketplaceId=2&shippingMode=1&fias=29251dcf-00a1-4e34-98d4-5c47484a36d4';

  it('keeps the warehouses the marketplace names, under its names; falls back to the reference when it fails', async () => {
    const at = await fulfilmentAccount(t, { name: 'WB warehouses' });
    const stranger = await fulfilmentAccount(t, { name: 'WB not connected' });
    fake.wildberries.warehouses = [
      { id: 2000101, officeId: 1, name: 'Мой склад в Подольске', cargoType: 1, deliveryType: 1 },
    ];
    expect((await at.owner.post('/v2/marketplaces/integration/2', { token: fake.wildberries.token })).status).toBe(204);
    const address = {
      street: 'Комсомольская улица',
      house: '1',
      bulk: 'стр. 4',
      flat: null,
      zipCode: '142100',
      city: {
        countryCode: 'RU',
        name: 'Подольск',
        fias: '29251dcf-00a1-4e34-98d4-5c47484a36d4',
        type: 'г',
        region: 'Московская область',
      },
    };
    fake.calls.length = 0;
    expect((await at.owner.get(podolsk)).body).toEqual([{ id: 2000101, name: 'Мой склад в Подольске', address }]);
    expect(fake.calls.map((call) => call.url)).toEqual(['/api/v3/warehouses']);
    // a shop key of the account reads the same
    expect((await t.client(at.shopKey).get(podolsk)).body).toEqual([
      { id: 2000101, name: 'Мой склад в Подольске', address },
    ]);
    // not connected: the reference, and no call
    fake.calls.length = 0;
    expect((await stranger.owner.get(podolsk)).body).toEqual([
      { id: 2000101, name: expect.stringContaining('склад продавца WB'), address },
    ]);
    expect(fake.calls).toHaveLength(0);
    // FBO warehouses are the marketplace's own: never asked
    await at.owner.get(
      '/v2/marketplaces/warehouses?marketplaceId=2&shippingMode=2&fias=29251dcf-00a1-4e34-98d4-5c47484a36d4',
    );
    expect(fake.calls).toHaveLength(0);

    // the seller no longer has it there
    fake.wildberries.warehouses = [{ id: 999, officeId: 2, name: 'Другой', cargoType: 1, deliveryType: 1 }];
    expect((await at.owner.get(podolsk)).body).toEqual([]);
    // WB fails: the reference answers, never a 5xx
    fake.wildberries.warehouses = null;
    const fallback = await at.owner.get(podolsk);
    expect(fallback.status).toBe(200);
    expect(fallback.body).toEqual([{ id: 2000101, name: expect.stringContaining('склад продавца WB'), address }]);
    fake.wildberries.warehouses = [{ id: 2000101, officeId: 1, name: 'Подольск', cargoType: 1, deliveryType: 1 }];
  });
});
