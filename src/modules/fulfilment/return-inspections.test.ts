/** Back on the shelf once: a returned parcel waits for the staff, each line is inspected, the ledger records it once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  expectBooksBalance,
  FULFILMENT_WAREHOUSE,
  fulfilmentAccount,
  fulfilmentOrder,
  newProduct,
  putInStock,
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';
import { inspectionProblems, mergeLines, sameOutcomes } from './return-inspections.js';

let t: TestApp;
let a: FulfilmentAccount;
let staff: ApiClient;
let lamp: number;
let mug: number;

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0', FULFILMENT_ACCEPT_SECONDS: '0' } });
  a = await fulfilmentAccount(t);
  staff = t.client((await t.runtime.services.supplies.createOperatorToken(FULFILMENT_WAREHOUSE, 'Склад')).token);
  lamp = await newProduct(a.owner, { vendorCode: 'RI-LAMP', name: 'Лампа' });
  mug = await newProduct(a.owner, { vendorCode: 'RI-MUG', name: 'Кружка' });
  await putInStock(t, a.accountId, lamp, 10);
  await putInStock(t, a.accountId, mug, 10);
});
afterAll(async () => t.close());

/** A fulfilment order refused at the point and carried back: it is then waiting at the warehouse. */
async function refusedParcel(goods: Array<[number, number]>): Promise<{ id: number; trackNumber: string }> {
  const id = (await a.owner.post('/v2/orders', fulfilmentOrder(t, a, goods))).body.id as number;
  expect((await a.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
  await a.worker.runDue();
  const { trackNumber } = (await a.owner.get(`/v2/orders/${id}`)).body;
  const secret = t.runtime.services.tracking.pushSecret(1);
  for (const statusCode of [41, 411, 412, 42, 462, 71, 72]) {
    const pushed = await t
      .client()
      .post(
        '/v2/tracking/events/1',
        { events: [{ trackNumber, statusCode }] },
        { headers: { 'x-carrier-secret': secret } },
      );
    expect(pushed.status).toBe(200);
  }
  return { id, trackNumber };
}

async function stockOf(productId: number): Promise<{ quantity: number; available: number; defective: number }> {
  const product = (await a.owner.get(`/v2/products/${productId}`)).body;
  const rest = product.rests.find((item: { warehouseId: number }) => item.warehouseId === FULFILMENT_WAREHOUSE);
  return { quantity: rest.quantity, available: rest.available, defective: rest.defective };
}

async function movementsOf(
  orderId: number,
): Promise<Array<{ kind: string; product_id: number; q: number; d: number }>> {
  const rows = await t.runtime.database.db
    .selectFrom('stock_movements')
    .select(['kind', 'product_id', 'quantity_delta', 'defective_delta'])
    .where('order_id', '=', orderId)
    .where('kind', 'in', ['return', 'defect', 'write_off'])
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    kind: row.kind,
    product_id: Number(row.product_id),
    q: Number(row.quantity_delta),
    d: Number(row.defective_delta),
  }));
}

const inspection = (lines: Array<[number, string, number, string]>) => ({
  lines: lines.map(([productId, outcome, count, reason]) => ({ productId, outcome, count, reason })),
});

describe('return inspection rules', () => {
  it('merges lines, checks a body accounts for every unit once, and compares outcomes', () => {
    expect(
      mergeLines([
        { productId: 2, count: 1 },
        { productId: 1, count: 2 },
        { productId: 2, count: 3 },
        { productId: 3, count: 0 },
      ]),
    ).toEqual([
      { productId: 1, count: 2 },
      { productId: 2, count: 4 },
    ]);
    const parcel = [{ productId: 1, count: 2 }];
    expect(inspectionProblems(parcel, [{ productId: 1, outcome: 'stock', count: 2, reason: 'ok' }])).toEqual([]);
    expect(
      inspectionProblems(parcel, [
        { productId: 1, outcome: 'stock', count: 1, reason: 'ok' },
        { productId: 1, outcome: 'stock', count: 1, reason: 'ok' },
      ]).map((p) => p.field),
    ).toEqual(['lines[1].outcome']);
    expect(
      inspectionProblems(parcel, [{ productId: 9, outcome: 'stock', count: 2, reason: ' ' }]).map((p) => p.field),
    ).toEqual(['lines[0].productId', 'lines[0].reason', 'lines']);
    expect(
      sameOutcomes(
        [{ id: 1, productId: 1, outcome: 'stock', count: 2, reason: 'ok', at: '' }],
        [{ productId: 1, outcome: 'stock', count: 2, reason: ' ok ' }],
      ),
    ).toBe(true);
  });
});

describe('returned parcels at the warehouse', () => {
  it('a refused parcel is queued, not restocked; inspected once, each line recorded once however often it is sent', async () => {
    const { id, trackNumber } = await refusedParcel([
      [lamp, 2],
      [mug, 1],
    ]);
    // back at the warehouse, nothing on hand yet: 10 - 2 shipped
    expect(await stockOf(lamp)).toEqual({ quantity: 8, available: 8, defective: 0 });
    expect(await movementsOf(id)).toEqual([]);

    const queue = await staff.get('/v2/fulfilment/operator/return-inspections');
    expect(queue.status, JSON.stringify(queue.body)).toBe(200);
    const parcel = queue.body.find((item: { orderId: number }) => item.orderId === id);
    expect(parcel).toMatchObject({
      accountId: a.accountId,
      source: 'refusal',
      status: 'waiting',
      trackNumber,
      lines: [
        { productId: lamp, vendorCode: 'RI-LAMP', count: 2 },
        { productId: mug, vendorCode: 'RI-MUG', count: 1 },
      ],
      outcomes: [],
    });
    // the scanned label opens it: by track number or by order id
    for (const code of [trackNumber, String(id)]) {
      const scanned = await staff.get(`/v2/fulfilment/operator/return-inspections?search=${encodeURIComponent(code)}`);
      expect(scanned.body.map((item: { orderId: number }) => item.orderId)).toEqual([id]);
    }
    expect((await staff.get(`/v2/fulfilment/operator/return-inspections/${id}`)).body.orderId).toBe(id);

    // a repeated arrival adds nothing
    const again = await t.runtime.database.db.transaction().execute((trx) =>
      t.runtime.services.returnInspections.enqueueReturnedParcel(
        {
          accountId: a.accountId,
          orderId: id,
          source: 'refusal',
          returnId: null,
          lines: [{ productId: lamp, count: 2 }],
        },
        trx,
      ),
    );
    expect(again).toBe(false);

    // bad input: named fields, nothing written
    const url = `/v2/fulfilment/operator/return-inspections/${id}`;
    const short = await staff.post(url, inspection([[lamp, 'stock', 1, 'ok']]));
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('validation_failed');
    expect(short.body.errors.map((e: { field: string }) => e.field)).toEqual(['lines', 'lines']);
    expect(short.body.errors[0].message).toContain('2 units came back');
    const foreign = await staff.post(
      url,
      inspection([
        [lamp, 'stock', 2, 'ok'],
        [mug, 'stock', 1, 'ok'],
        [999999, 'stock', 1, 'x'],
      ]),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].field).toBe('lines[2].productId');
    expect(
      (
        await staff.post(
          url,
          inspection([
            [lamp, 'lost', 2, 'ok'],
            [mug, 'stock', 1, 'ok'],
          ]),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await staff.post(
          url,
          inspection([
            [lamp, 'stock', 2, ''],
            [mug, 'stock', 1, 'ok'],
          ]),
        )
      ).status,
    ).toBe(400);
    expect((await staff.post(url, { lines: [] })).status).toBe(400);
    expect(await movementsOf(id)).toEqual([]);

    // security: no token, an account token, a shop key, another warehouse's staff
    const body = inspection([
      [lamp, 'stock', 1, 'цела, в упаковке'],
      [lamp, 'defect', 1, 'разбит плафон'],
      [mug, 'write_off', 1, 'нет в коробке'],
    ]);
    expect((await t.client().post(url, body)).status).toBe(401);
    expect((await a.owner.post(url, body)).status).toBe(401);
    expect((await a.owner.withToken(a.shopKey).post(url, body)).status).toBe(401);
    const elsewhere = t.client((await t.runtime.services.supplies.createOperatorToken(102, 'Шушары')).token);
    expect((await elsewhere.post(url, body)).status).toBe(404);
    expect((await elsewhere.get(url)).status).toBe(404);
    expect((await elsewhere.get('/v2/fulfilment/operator/return-inspections')).body).toEqual([]);
    expect(await movementsOf(id)).toEqual([]);

    // inspected: 1 lamp back on hand, 1 to the defect stock, the mug written off
    const done = await staff.post(url, body);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: 'done', outcomes: expect.any(Array) });
    expect(done.body.outcomes).toHaveLength(3);
    // in product order, then outcome (defect, stock, write_off)
    const once = [
      { kind: 'defect', product_id: lamp, q: 0, d: 1 },
      { kind: 'return', product_id: lamp, q: 1, d: 0 },
      { kind: 'return', product_id: mug, q: 1, d: 0 },
      { kind: 'write_off', product_id: mug, q: -1, d: 0 },
    ];
    expect(await movementsOf(id)).toEqual(once);
    expect(await stockOf(lamp)).toEqual({ quantity: 9, available: 9, defective: 1 });
    expect(await stockOf(mug)).toEqual({ quantity: 9, available: 9, defective: 0 });

    // the same scan and submit again, in another order: the same inspection, nothing more recorded
    const repeated = await staff.post(url, { lines: [...body.lines].reverse() });
    expect(repeated.status).toBe(200);
    expect(repeated.body.inspectedAt).toBe(done.body.inspectedAt);
    const other = await staff.post(
      url,
      inspection([
        [lamp, 'stock', 2, 'ok'],
        [mug, 'stock', 1, 'ok'],
      ]),
    );
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('inspection_done');
    expect(await movementsOf(id)).toEqual(once);
    await expectBooksBalance(t, a.accountId);
    expect(
      (await staff.get('/v2/fulfilment/operator/return-inspections')).body.map((i: { orderId: number }) => i.orderId),
    ).not.toContain(id);
    expect(
      (await staff.get('/v2/fulfilment/operator/return-inspections?status=done')).body.map(
        (i: { orderId: number }) => i.orderId,
      ),
    ).toContain(id);

    // the shop is told once, with what became of each line
    const events = (
      await a.owner.get('/v2/events?afterId=0&limit=1000&types[]=fulfilment.return_received')
    ).body.filter((event: { orderId: number }) => event.orderId === id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      shopId: a.shopId,
      statusTo: 72,
      payload: {
        trackNumber,
        source: 'refusal',
        returned: expect.arrayContaining([{ productId: mug, outcome: 'write_off', count: 1, reason: 'нет в коробке' }]),
      },
    });
  });

  it('concurrent submits of one parcel record each line once', async () => {
    const { id } = await refusedParcel([[lamp, 3]]);
    const before = await stockOf(lamp);
    const url = `/v2/fulfilment/operator/return-inspections/${id}`;
    const body = inspection([[lamp, 'stock', 3, 'целые']]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => staff.post(url, body)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await movementsOf(id)).toEqual([{ kind: 'return', product_id: lamp, q: 3, d: 0 }]);
    expect((await stockOf(lamp)).quantity).toBe(before.quantity + 3);
    const outcomes = await t.runtime.database.db
      .selectFrom('return_inspection_lines')
      .select('id')
      .where('account_id', '=', a.accountId)
      .execute();
    expect(outcomes.length).toBe(4);
    await expectBooksBalance(t, a.accountId);
  });

  it("the account reads its parcels; another account's or another shop's are not its own", async () => {
    const list = await a.owner.get('/v2/fulfilment/return-inspections');
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThanOrEqual(2);
    const [first] = list.body;
    expect((await a.owner.get(`/v2/fulfilment/return-inspections/${first.orderId}`)).body.orderId).toBe(first.orderId);
    expect((await a.owner.withToken(a.shopKey).get('/v2/fulfilment/return-inspections')).body.length).toBe(
      list.body.length,
    );
    const ownShopKey = a.owner.withToken((await a.owner.get(`/v2/shops/${a.ownShopId}`)).body.apiKey);
    expect((await ownShopKey.get('/v2/fulfilment/return-inspections')).body).toEqual([]);
    expect((await ownShopKey.get(`/v2/fulfilment/return-inspections/${first.orderId}`)).status).toBe(403);
    const stranger = (await t.newAccount('Чужой')).client;
    expect((await stranger.get(`/v2/fulfilment/return-inspections/${first.orderId}`)).status).toBe(404);
    expect((await stranger.get('/v2/fulfilment/return-inspections')).body).toEqual([]);
    expect((await t.client().get('/v2/fulfilment/return-inspections')).status).toBe(401);
    expect((await a.owner.get('/v2/fulfilment/return-inspections?status=lost')).status).toBe(400);
  });

  it('is documented in OpenAPI', async () => {
    const paths = (await t.client().get('/openapi.json')).body.paths;
    expect(paths['/v2/fulfilment/operator/return-inspections/{orderId}'].post).toBeDefined();
    expect(paths['/v2/fulfilment/return-inspections'].get).toBeDefined();
  });

  it('a return parcel of a delivered order waits with the returned goods only, at the warehouse they left', async () => {
    const push = async (trackNumber: string, codes: number[]) => {
      for (const statusCode of codes) {
        const pushed = await t
          .client()
          .post(
            '/v2/tracking/events/1',
            { events: [{ trackNumber, statusCode }] },
            { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
          );
        expect(pushed.status).toBe(200);
      }
    };
    // goods of their own: the other tests count the lamp's and the mug's units
    const vase = await newProduct(a.owner, { vendorCode: 'RI-VASE', name: 'Ваза' });
    const cup = await newProduct(a.owner, { vendorCode: 'RI-CUP', name: 'Чашка' });
    await putInStock(t, a.accountId, vase, 5);
    await putInStock(t, a.accountId, cup, 5);
    const id = (
      await a.owner.post(
        '/v2/orders',
        fulfilmentOrder(
          t,
          a,
          [
            [vase, 1],
            [cup, 2],
          ],
          { cmsId: 'RI-RETURN' },
        ),
      )
    ).body.id as number;
    expect((await a.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    await a.worker.runDue();
    await push((await a.owner.get(`/v2/orders/${id}`)).body.trackNumber, [41, 411, 412, 42, 44]);
    // the shop's own return of one cup, approved at once: its parcel travels back
    const made = await a.owner.post('/v2/returns', {
      orderId: id,
      lines: [{ line: 1, count: 1, reason: 'defective', comment: 'Скол' }],
      way: 'point',
      companyId: 1,
      pointId: a.pointId,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const parcelId = made.body.parcelOrderId as number;
    await a.worker.runDue();
    await push((await a.owner.get(`/v2/orders/${parcelId}`)).body.trackNumber, [41, 42, 44]);
    await t.runtime.services.returnParcels.dispatch();
    expect((await a.owner.get(`/v2/returns/${made.body.id}`)).body.status).toBe('received');

    const waiting = await staff.get(`/v2/fulfilment/operator/return-inspections/${parcelId}`);
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(200);
    expect(waiting.body).toMatchObject({
      source: 'return',
      returnId: made.body.id,
      status: 'waiting',
      lines: [{ productId: cup, count: 1 }],
    });
    const before = await stockOf(cup);
    const url = `/v2/fulfilment/operator/return-inspections/${parcelId}`;
    for (let attempt = 0; attempt < 2; attempt++)
      expect((await staff.post(url, inspection([[cup, 'stock', 1, 'цела']]))).status).toBe(200);
    expect((await stockOf(cup)).quantity).toBe(before.quantity + 1);
  });
});
