/** Fulfilment stock through HTTP: products' quantity and rests, reservations of orders, the books. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  expectBooksBalance,
  inspectReturned,
  FULFILMENT_WAREHOUSE,
  fulfilmentAccount,
  fulfilmentOrder,
  newProduct,
  putInStock,
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';
import { kitBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let a: FulfilmentAccount;

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0' } });
  a = await fulfilmentAccount(t);
});
afterAll(async () => t.close());

async function order(goods: Array<[number, number]>, overrides: Record<string, unknown> = {}): Promise<number> {
  const created = await a.owner.post('/v2/orders', fulfilmentOrder(t, a, goods, overrides));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as number;
}

const product = async (id: number) => (await a.owner.get(`/v2/products/${id}`)).body;
const reservation = async (id: number) => (await a.owner.get(`/v2/orders/${id}`)).body.reservationStatus.key as number;

describe('product stock', () => {
  it('has no quantity until goods arrive; then the total available and rests per warehouse and batch', async () => {
    const plain = await newProduct(a.owner, { vendorCode: 'STOCK-PLAIN' });
    const batched = await newProduct(a.owner, { vendorCode: 'STOCK-BATCH', batchAccounting: true });
    expect(await product(plain)).toMatchObject({ quantity: null, rests: [] });

    await putInStock(t, a.accountId, plain, 5);
    await putInStock(t, a.accountId, plain, 2, null, 102);
    await putInStock(t, a.accountId, batched, 3, { batch: 'B-2', expires: '2027-06-01' });
    await putInStock(t, a.accountId, batched, 4, { batch: 'B-1', expires: '2027-03-01' });

    expect(await product(plain)).toMatchObject({
      quantity: 7,
      rests: [
        { warehouseId: 101, name: 'Фулфилмент Москва (Подольск)', quantity: 5, reserved: 0, available: 5, batches: [] },
        { warehouseId: 102, quantity: 2, available: 2 },
      ],
    });
    const withBatches = await product(batched);
    expect(withBatches.quantity).toBe(7);
    expect(withBatches.rests[0].batches.map((item: { batch: string }) => item.batch).sort()).toEqual(['B-1', 'B-2']);

    const at102 = await a.owner.get('/v2/products?fulfilmentWarehouseId=102');
    expect(at102.status).toBe(200);
    expect(at102.body.map((item: { id: number }) => item.id)).toEqual([plain]);
    expect(
      (await a.owner.get(`/v2/products?fulfilmentWarehouseId=${FULFILMENT_WAREHOUSE}&perPage=1000`)).body
        .map((item: { id: number }) => item.id)
        .sort(),
    ).toEqual([plain, batched].sort());
    expect((await a.owner.get('/v2/products?fulfilmentWarehouseId=0')).status).toBe(400);

    const stranger = (await t.newAccount('Stranger')).client;
    expect((await stranger.get(`/v2/products/${plain}`)).status).toBe(404);
    expect((await stranger.get('/v2/products?fulfilmentWarehouseId=102')).body).toEqual([]);
    await expectBooksBalance(t, a.accountId);
  });
});

describe('reservations', () => {
  it('confirm reserves the goods (kits expanded) and registers; cancel gives them back', async () => {
    const shirt = await newProduct(a.owner, { vendorCode: 'RES-SHIRT' });
    const socks = await newProduct(a.owner, { vendorCode: 'RES-SOCKS' });
    await putInStock(t, a.accountId, shirt, 10);
    await putInStock(t, a.accountId, socks, 10);
    const kit = await a.owner.post('/v2/kits', kitBody(a.shopId, [shirt, socks], { vendorCode: 'RES-KIT' }));
    expect(kit.status).toBe(201);
    const id = await order([[shirt, 1]], {
      products: [
        { id: shirt, count: 1 },
        { name: 'Набор', vendorCode: 'RES-KIT', count: 2 },
      ],
    });

    expect((await a.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    expect(await reservation(id)).toBe(2);
    // shirt: 1 + 2 kits x 1; socks: 2 kits x 2
    expect((await product(shirt)).rests[0]).toMatchObject({ quantity: 10, reserved: 3, available: 7 });
    expect((await product(socks)).rests[0]).toMatchObject({ quantity: 10, reserved: 4, available: 6 });
    await a.worker.runDue();
    expect((await a.owner.get(`/v2/orders/${id}`)).body.status).toBe(13);

    expect((await a.owner.post('/v2/orders/cancel', { ids: [id] })).status).toBe(204);
    expect((await product(shirt)).rests[0]).toMatchObject({ reserved: 0, available: 10 });
    expect((await product(socks)).quantity).toBe(10);
    await expectBooksBalance(t, a.accountId);
  });

  it('fails a batch with short goods as a whole, naming every short id; a preorder waits instead; check-rests tells what lacks', async () => {
    const good = await newProduct(a.owner, { vendorCode: 'SHORT-A' });
    await putInStock(t, a.accountId, good, 3);
    const fits = await order([[good, 2]]);
    const short = await order([[good, 2]]);
    const none = await order([[good, 1]], { products: [{ name: 'Нет в каталоге', vendorCode: 'NOWHERE', count: 1 }] });

    const rests = await a.owner.post('/v2/orders/check-rests', { ids: [fits, none] });
    expect(rests.body).toEqual([
      {
        id: none,
        missingProducts: [{ id: null, name: 'Нет в каталоге', vendorCode: 'NOWHERE', restCount: 0, missingCount: 1 }],
      },
    ]);

    const refused = await a.owner.post('/v2/orders/confirm', { ids: [fits, short, none] });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('insufficient_stock');
    expect(refused.body.errors.map((item: { id: number }) => item.id)).toEqual([short, none]);
    expect(refused.body.errors[0].message).toMatch(/SHORT-A: 1 of 2 available/);
    // nothing reserved, nothing confirmed
    expect((await product(good)).rests[0]).toMatchObject({ reserved: 0, available: 3 });
    expect((await a.owner.get(`/v2/orders/${fits}`)).body.status).toBe(11);

    expect((await a.owner.post('/v2/orders/confirm', { ids: [fits] })).status).toBe(204);
    expect(await a.owner.post('/v2/orders/check-rests', { ids: [short] }).then((response) => response.body)).toEqual([
      {
        id: short,
        missingProducts: [{ id: good, name: 'Футболка красная', vendorCode: 'SHORT-A', restCount: 1, missingCount: 1 }],
      },
    ]);
    expect((await a.owner.post('/v2/orders/confirm', { ids: [short], preOrder: true })).status).toBe(204);
    await a.worker.runDue();
    expect((await a.owner.get(`/v2/orders/${short}`)).body).toMatchObject({
      status: 12,
      trackNumber: null,
      reservationStatus: { key: 1 },
    });
    expect((await product(good)).rests[0]).toMatchObject({ reserved: 2, available: 1 });

    // by hand, once the goods are there: reserved, and registered
    expect((await a.owner.put(`/v2/orders/reservation/${short}`)).status).toBe(409);
    await putInStock(t, a.accountId, good, 1);
    expect((await a.owner.put(`/v2/orders/reservation/${short}`)).status).toBe(204);
    expect(await reservation(short)).toBe(2);
    await a.worker.runDue();
    expect((await a.owner.get(`/v2/orders/${short}`)).body.status).toBe(13);
    await expectBooksBalance(t, a.accountId);
  });

  it('reserves by hand and releases a draft; batch-accounted goods go first-expiring first', async () => {
    const milk = await newProduct(a.owner, { vendorCode: 'MILK', batchAccounting: true });
    await putInStock(t, a.accountId, milk, 5, { batch: 'LATE', expires: '2027-09-01' });
    await putInStock(t, a.accountId, milk, 2, { batch: 'SOON', expires: '2027-01-10' });
    const id = await order([[milk, 3]]);
    expect((await a.owner.put(`/v2/orders/reservation/${id}`)).status).toBe(204);
    const batches = (await product(milk)).rests[0].batches;
    expect(batches.find((item: { batch: string }) => item.batch === 'SOON')).toMatchObject({
      reserved: 2,
      available: 0,
    });
    expect(batches.find((item: { batch: string }) => item.batch === 'LATE')).toMatchObject({
      reserved: 1,
      available: 4,
    });
    expect((await a.owner.put(`/v2/orders/reservation/${id}`)).status).toBe(409);
    expect((await a.owner.put(`/v2/orders/reservation-cancel/${id}`)).status).toBe(204);
    expect(await reservation(id)).toBe(3);
    expect((await product(milk)).rests[0]).toMatchObject({ reserved: 0, available: 7 });
    const shopKeyOfOther = (await a.owner.get(`/v2/shops/${a.ownShopId}`)).body.apiKey as string;
    expect((await a.owner.withToken(shopKeyOfOther).put(`/v2/orders/reservation/${id}`)).status).toBe(403);
    expect((await (await t.newAccount('Other')).client.put(`/v2/orders/reservation/${id}`)).status).toBe(404);
    await expectBooksBalance(t, a.accountId);
  });

  it('ships the goods when the parcel is handed over; the return back at the warehouse is on hand once inspected', async () => {
    const lamp = await newProduct(a.owner, { vendorCode: 'LAMP' });
    await putInStock(t, a.accountId, lamp, 4);
    const id = await order([[lamp, 3]]);
    expect((await a.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    await a.worker.runDue();
    const { trackNumber } = (await a.owner.get(`/v2/orders/${id}`)).body;
    const push = (statusCode: number) =>
      t
        .client()
        .post(
          '/v2/tracking/events/1',
          { events: [{ trackNumber, statusCode }] },
          { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
        );

    expect((await push(41)).body.applied).toBe(1);
    expect((await product(lamp)).rests[0]).toMatchObject({ quantity: 1, reserved: 0, available: 1 });
    for (const code of [411, 412, 42, 51, 71]) expect((await push(code)).body.applied).toBe(1);
    expect((await product(lamp)).rests[0]).toMatchObject({ quantity: 1, available: 1 });
    expect((await push(72)).body.applied).toBe(1);
    // back at the warehouse, waiting for the staff: not on hand yet
    expect((await product(lamp)).rests[0]).toMatchObject({ quantity: 1, available: 1 });
    expect(
      (
        await inspectReturned(t, id, 'stock', {
          [lamp]: [
            ['stock', 2],
            ['defect', 1],
          ],
        })
      ).status,
    ).toBe(200);
    expect((await product(lamp)).rests[0]).toMatchObject({ quantity: 3, reserved: 0, available: 3, defective: 1 });
    await expectBooksBalance(t, a.accountId);
  });

  it('200 concurrent reservations of 10 units reserve exactly 10', async () => {
    const scarce = await newProduct(a.owner, { vendorCode: 'SCARCE' });
    await putInStock(t, a.accountId, scarce, 10);
    const body = fulfilmentOrder(t, a, [[scarce, 1]]);
    const ids: number[] = [];
    for (let index = 0; index < 200; index += 1) ids.push((await a.owner.post('/v2/orders', body)).body.id);
    const answers = await Promise.all(ids.map((id) => a.owner.put(`/v2/orders/reservation/${id}`)));
    expect(answers.every((answer) => answer.status === 204)).toBe(true);
    const keys = await Promise.all(ids.map(reservation));
    expect(keys.filter((key) => key === 2)).toHaveLength(10);
    expect(keys.filter((key) => key === 1)).toHaveLength(190);
    expect((await product(scarce)).rests[0]).toMatchObject({ quantity: 10, reserved: 10, available: 0 });
    await expectBooksBalance(t, a.accountId);
  }, 120_000);
});
