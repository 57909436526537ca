/** Supplies through HTTP: the shop's side (4.11), the warehouse staff's side, the built-in warehouses' clock, auto-reservation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  expectBooksBalance,
  FULFILMENT_WAREHOUSE,
  fulfilmentAccount,
  fulfilmentOrder,
  newProduct,
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';
import { pdfBarcodes, pdfText, pdfToolsMissing } from '../../../test/support/pdf-tools.js';

let t: TestApp;
let a: FulfilmentAccount;
let staff: ApiClient;
let shirt: number;
let milk: number;
const withTools = pdfToolsMissing ? it.skip : it;
/** Later than any job the tests make: the built-in warehouses' clock runs out at once. */
const LATER = () => new Date(Date.now() + 3600_000);

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0', FULFILMENT_ACCEPT_SECONDS: '60' } });
  a = await fulfilmentAccount(t);
  shirt = await newProduct(a.owner, { vendorCode: 'SUP-SHIRT', barcodes: ['4601234567890'] });
  milk = await newProduct(a.owner, { vendorCode: 'SUP-MILK', batchAccounting: true, barcodes: ['4607000000017'] });
  staff = t.client((await t.runtime.services.supplies.createOperatorToken(FULFILMENT_WAREHOUSE, 'Смена 1')).token);
});
afterAll(async () => t.close());

function supplyBody(overrides: Record<string, unknown> = {}) {
  return {
    date: '2026-12-01',
    fulfilmentWarehouseId: FULFILMENT_WAREHOUSE,
    places: 2,
    type: 'boxes',
    products: [
      { id: shirt, count: 10 },
      { id: milk, count: 5, batch: 'M-1', expires: '2027-02-01' },
    ],
    ...overrides,
  };
}

async function newSupply(body: Record<string, unknown> = supplyBody(), client: ApiClient = a.owner): Promise<number> {
  const created = await client.post('/v2/products/shipments', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as number;
}

const supply = async (id: number) => (await a.owner.get(`/v2/products/shipments/${id}`)).body;
const rest = async (productId: number) =>
  (await a.owner.get(`/v2/products/${productId}`)).body.rests.find(
    (item: { warehouseId: number }) => item.warehouseId === FULFILMENT_WAREHOUSE,
  );
const count = async () => Number((await a.owner.get('/v2/products/shipments')).headers['x-total-count']);

describe('supplies: the shop side', () => {
  it('creates a Draft with its act and lists it; the act is a PDF of the goods with scannable barcodes', async () => {
    const created = await a.owner.post('/v2/products/shipments', supplyBody(), { form: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, file } = created.body;
    expect(file).toMatch(/^http:\/\/delivery\.test\/files\//);
    const listed = await a.owner.get(`/v2/products/shipments?fulfilmentWarehouseId=${FULFILMENT_WAREHOUSE}&status=1`);
    expect(listed.status).toBe(200);
    expect(listed.body[0]).toMatchObject({
      id,
      date: '2026-12-01',
      type: 'boxes',
      warehouse: { id: FULFILMENT_WAREHOUSE, name: 'Фулфилмент Москва (Подольск)' },
      status: 1,
      statusHistory: [{ status: 1, name: 'Draft' }],
      countPlaces: 2,
      products: [
        { id: shirt, vendorCode: 'SUP-SHIRT', count: 10, batch: null, accepted: null },
        { id: milk, vendorCode: 'SUP-MILK', count: 5, batch: 'M-1', expires: '2027-02-01' },
      ],
      file,
      employeeId: null,
    });
    expect(
      (await a.owner.get('/v2/products/shipments?status=2')).body.map((item: { id: number }) => item.id),
    ).not.toContain(id);

    const downloaded = await t.app.inject({ method: 'GET', url: file.slice('http://delivery.test'.length) });
    expect(downloaded.statusCode).toBe(200);
    expect(String(downloaded.headers['content-type'])).toContain('application/pdf');
    if (!pdfToolsMissing) {
      const text = pdfText(downloaded.rawPayload);
      for (const phrase of [
        `Акт поставки товаров № ${id} от 01.12.2026`,
        'SUP-SHIRT',
        'SUP-MILK',
        'M-1',
        '01.02.2027',
        'Количество коробов: 2',
        'Единиц товара: 15',
      ])
        expect(text).toContain(phrase);
      const scanned = pdfBarcodes(downloaded.rawPayload).flat();
      expect(scanned).toEqual(expect.arrayContaining([`SUPPLY-${id}`, '4601234567890', '4607000000017']));
    }
  });

  it('refuses bad input with field errors and writes nothing', async () => {
    const stranger = await t.newAccount('Stranger');
    const foreign = await newProduct(stranger.client, { vendorCode: 'FOREIGN' });
    const before = await count();
    const bad = async (body: Record<string, unknown>, fields: string[]) => {
      const response = await a.owner.post('/v2/products/shipments', body);
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(
        expect.arrayContaining(fields),
      );
    };
    await bad(supplyBody({ date: '01.12.2026', type: 'crates', places: 0 }), ['date', 'type', 'places']);
    await bad(supplyBody({ fulfilmentWarehouseId: 999 }), ['fulfilmentWarehouseId']);
    await bad(supplyBody({ products: [] }), ['products']);
    await bad(
      supplyBody({
        products: [
          { id: foreign, count: 1 },
          { id: milk, count: 1 },
          { id: shirt, count: 1 },
          { id: shirt, count: 2 },
        ],
      }),
      ['products[0].id', 'products[1].batch', 'products[1].expires', 'products[3].id'],
    );
    await bad(supplyBody({ employeeId: 987654 }), ['employeeId']);
    expect(await count()).toBe(before);
  });

  it("confirms and deletes only a Draft; another account sees none of it; a shop key stays with its shop's warehouse", async () => {
    const kept = await newSupply();
    const dropped = await newSupply();
    const other = (await t.newAccount('Other')).client;
    expect((await other.post('/v2/products/shipments/confirm', { id: kept })).status).toBe(404);
    expect((await other.call('DELETE', '/v2/products/shipments')).status).toBe(400);
    expect((await other.call('DELETE', '/v2/products/shipments', { id: kept })).status).toBe(404);
    expect((await other.get(`/v2/products/shipments/${kept}`)).status).toBe(404);
    expect((await other.get('/v2/products/shipments')).body).toEqual([]);

    expect((await a.owner.post('/v2/products/shipments/confirm', { id: kept })).status).toBe(204);
    expect((await a.owner.post('/v2/products/shipments/confirm', { id: kept })).status).toBe(409);
    expect((await a.owner.call('DELETE', '/v2/products/shipments', { id: kept })).status).toBe(409);
    expect((await a.owner.call('DELETE', '/v2/products/shipments', { id: dropped })).status).toBe(204);
    expect((await a.owner.post('/v2/products/shipments/confirm', { id: dropped })).status).toBe(409);
    expect(await supply(dropped)).toMatchObject({ status: 5, statusHistory: [{ status: 5 }, { status: 1 }] });
    // clients send a DELETE's parameters in the query string
    const byQuery = await newSupply();
    expect((await other.call('DELETE', `/v2/products/shipments?id=${byQuery}`)).status).toBe(404);
    const badQuery = await a.owner.call('DELETE', '/v2/products/shipments?id=abc');
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.errors.map((error: { field: string }) => error.field)).toEqual(['id']);
    expect((await supply(byQuery)).status).toBe(1);
    expect((await a.owner.call('DELETE', `/v2/products/shipments?id=${byQuery}`)).status).toBe(204);
    expect((await supply(byQuery)).status).toBe(5);
    expect((await a.owner.call('DELETE', `/v2/products/shipments?id=${byQuery}`)).status).toBe(409);
    expect((await supply(kept)).statusHistory.map((item: { status: number }) => item.status)).toEqual([2, 1]);
    expect((await a.owner.post('/v2/products/shipments/confirm', { id: 0 })).status).toBe(400);

    const shopKey = a.owner.withToken(a.shopKey);
    expect((await shopKey.get('/v2/products/shipments')).status).toBe(200);
    expect((await shopKey.post('/v2/products/shipments', supplyBody({ fulfilmentWarehouseId: 102 }))).status).toBe(403);
    const elsewhere = (await a.owner.post('/v2/products/shipments', supplyBody({ fulfilmentWarehouseId: 102 }))).body
      .id;
    expect((await shopKey.post('/v2/products/shipments/confirm', { id: elsewhere })).status).toBe(403);
    expect((await shopKey.call('DELETE', `/v2/products/shipments?id=${elsewhere}`)).status).toBe(403);
    expect((await shopKey.get('/v2/products/shipments?fulfilmentWarehouseId=102')).status).toBe(403);
    const ownShopKey = a.owner.withToken((await a.owner.get(`/v2/shops/${a.ownShopId}`)).body.apiKey);
    expect((await ownShopKey.get('/v2/products/shipments')).status).toBe(403);
    expect(await newSupply(supplyBody(), shopKey)).toBeGreaterThan(0);
  });
});

describe('supplies: the warehouse side', () => {
  it('goes Draft, Confirmed, Arrived, Accepted with a discrepancy; only what was counted enters stock', async () => {
    const id = await newSupply();
    expect((await staff.post(`/v2/fulfilment/operator/supplies/${id}/arrived`)).status).toBe(409);
    expect((await a.owner.post('/v2/products/shipments/confirm', { id })).status).toBe(204);
    const queue = await staff.get('/v2/fulfilment/operator/supplies');
    expect(queue.status).toBe(200);
    expect(queue.body.find((item: { supply: { id: number } }) => item.supply.id === id)).toMatchObject({
      accountId: a.accountId,
      supply: { status: 2 },
    });

    expect((await t.client().post(`/v2/fulfilment/operator/supplies/${id}/arrived`)).status).toBe(401);
    expect((await a.owner.post(`/v2/fulfilment/operator/supplies/${id}/arrived`)).status).toBe(401);
    const elsewhere = t.client((await t.runtime.services.supplies.createOperatorToken(102, 'Шушары')).token);
    expect((await elsewhere.post(`/v2/fulfilment/operator/supplies/${id}/arrived`)).status).toBe(404);
    expect((await staff.post(`/v2/fulfilment/operator/supplies/${id}/accepted`, { products: [] })).status).toBe(409);
    expect((await staff.post(`/v2/fulfilment/operator/supplies/${id}/arrived`)).status).toBe(204);
    expect((await supply(id)).status).toBe(3);

    const before = { shirt: (await rest(shirt))?.quantity ?? 0, milk: (await rest(milk))?.quantity ?? 0 };
    const wrong = await staff.post(`/v2/fulfilment/operator/supplies/${id}/accepted`, {
      products: [
        { id: shirt, accepted: 1 },
        { id: milk, batch: 'OTHER', accepted: 1 },
      ],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.map((error: { field: string }) => error.field)).toEqual(['products[1].id']);
    expect((await supply(id)).status).toBe(3);

    const accepted = await staff.post(`/v2/fulfilment/operator/supplies/${id}/accepted`, {
      products: [
        { id: shirt, accepted: 7, damaged: 1 },
        { id: milk, batch: 'M-1', accepted: 6 },
      ],
      comment: 'Одна коробка мятая',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(204);
    const done = await supply(id);
    expect(done).toMatchObject({
      status: 4,
      hasDiscrepancies: true,
      products: [
        { id: shirt, count: 10, accepted: 7, damaged: 1, short: 2, surplus: 0 },
        { id: milk, count: 5, accepted: 6, damaged: 0, short: 0, surplus: 1 },
      ],
    });
    expect(done.statusHistory.map((item: { status: number }) => item.status)).toEqual([4, 3, 2, 1]);
    expect(done.statusHistory[0].comment).toBe('Одна коробка мятая');
    expect((await rest(shirt)).quantity).toBe(before.shirt + 7);
    expect((await rest(milk)).quantity).toBe(before.milk + 6);
    expect((await staff.post(`/v2/fulfilment/operator/supplies/${id}/accepted`, { products: [] })).status).toBe(409);
    await expectBooksBalance(t, a.accountId);
  });

  it('a built-in warehouse accepts a confirmed supply by itself as declared; preorders waiting there are reserved first come, first served', async () => {
    const lamp = await newProduct(a.owner, { vendorCode: 'SUP-LAMP' });
    const order = async (units: number) => {
      const id = (await a.owner.post('/v2/orders', fulfilmentOrder(t, a, [[lamp, units]]))).body.id as number;
      expect((await a.owner.post('/v2/orders/confirm', { ids: [id], preOrder: true })).status).toBe(204);
      return id;
    };
    const first = await order(3);
    const second = await order(1);
    const bring = async (units: number) => {
      const id = await newSupply(supplyBody({ products: [{ id: lamp, count: units }] }));
      expect((await a.owner.post('/v2/products/shipments/confirm', { id })).status).toBe(204);
      await a.worker.runDue(LATER());
      expect(await supply(id)).toMatchObject({
        status: 4,
        hasDiscrepancies: false,
        products: [{ accepted: units, short: 0 }],
      });
    };
    const reservationOf = async (id: number) => (await a.owner.get(`/v2/orders/${id}`)).body.reservationStatus.key;

    // 2 arrive: the first preorder needs 3 and keeps the second (which needs 1) waiting behind it
    await bring(2);
    expect([await reservationOf(first), await reservationOf(second)]).toEqual([1, 1]);
    await bring(2);
    expect([await reservationOf(first), await reservationOf(second)]).toEqual([2, 2]);
    expect(await rest(lamp)).toMatchObject({ quantity: 4, reserved: 4, available: 0 });
    const auto = (await a.owner.get('/v2/orders?autoReservation=1')).body.map((item: { id: number }) => item.id);
    expect(auto).toEqual(expect.arrayContaining([first, second]));
    await a.worker.runDue(LATER());
    expect((await a.owner.get(`/v2/orders/${first}`)).body.status).toBe(13);
    await expectBooksBalance(t, a.accountId);
  });
});
