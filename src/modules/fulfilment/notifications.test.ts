/** The four fulfilment events of the contract's section 6, from stock changes to the shop owner's notifications. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { shopBody } from '../../../test/support/fixtures.js';
import {
  fulfilmentAccount,
  fulfilmentOrder,
  inspectReturned,
  newProduct,
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';

let t: TestApp;
let a: FulfilmentAccount;
let shopId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0', FULFILMENT_ACCEPT_SECONDS: '60' } });
  a = await fulfilmentAccount(t);
  const notifications = {
    events: {
      fulfillmentReceivedReturns: true,
      productEndsInFulfilment: { enabled: true, border: 2 },
      orderProductsNotAvailableInFulfilment: true,
      deliveryAcceptedForFulfillment: true,
    },
    currentAccount: { enabled: true },
  };
  const warehouseId = (await a.owner.get(`/v2/shops/${a.shopId}`)).body.warehouse.id;
  const created = await a.owner.post('/v2/shops', shopBody(warehouseId, { name: 'Уведомляемый', notifications }));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  shopId = created.body.id;
});
afterAll(async () => t.close());

describe('fulfilment notifications', () => {
  it('tell of a supply accepted, goods running low, goods missing for an order and a return received', async () => {
    const later = new Date(Date.now() + 3600_000);
    const lamp = await newProduct(a.owner, { vendorCode: 'NOTE-LAMP' });
    const supply = (
      await a.owner.post('/v2/products/shipments', {
        date: '2026-12-01',
        fulfilmentWarehouseId: 101,
        places: 1,
        type: 'boxes',
        products: [{ id: lamp, count: 5 }],
      })
    ).body.id;
    expect((await a.owner.post('/v2/products/shipments/confirm', { id: supply })).status).toBe(204);
    await a.worker.runDue(later);

    const body = (units: number) => fulfilmentOrder(t, a, [[lamp, units]], { shopId });
    const first = (await a.owner.post('/v2/orders', body(3))).body.id;
    expect((await a.owner.post('/v2/orders/confirm', { ids: [first] })).status).toBe(204);
    const second = (await a.owner.post('/v2/orders', body(1))).body.id;
    expect((await a.owner.post('/v2/orders/confirm', { ids: [second] })).status).toBe(204);
    const tooMany = (await a.owner.post('/v2/orders', body(5))).body.id;
    expect((await a.owner.post('/v2/orders/confirm', { ids: [tooMany] })).status).toBe(409);

    await a.worker.runDue();
    const { trackNumber } = (await a.owner.get(`/v2/orders/${first}`)).body;
    const secret = t.runtime.services.tracking.pushSecret(1);
    for (const statusCode of [41, 411, 412, 42, 51, 71, 72])
      await t
        .client()
        .post(
          '/v2/tracking/events/1',
          { events: [{ trackNumber, statusCode }] },
          { headers: { 'x-carrier-secret': secret } },
        );
    // the shop hears of the return once the warehouse staff have inspected the parcel
    expect((await inspectReturned(t, first)).status).toBe(200);

    const answer = await a.owner.get(
      `/v2/events?afterId=0&limit=1000&shopId=${shopId}&types[]=fulfilment.supply_accepted&types[]=fulfilment.product_ends&types[]=fulfilment.goods_missing&types[]=fulfilment.return_received`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const events = answer.body;
    expect(events.map((event: { type: string }) => event.type)).toEqual([
      'fulfilment.supply_accepted',
      'fulfilment.product_ends',
      'fulfilment.goods_missing',
      'fulfilment.return_received',
    ]);
    expect(events[0]).toMatchObject({ orderId: 0, payload: { supplyId: supply, hasDiscrepancies: false } });
    // 5 available, the first order takes 3: 2 left, at the border; the second (1 more) crosses nothing
    expect(events[1]).toMatchObject({
      orderId: first,
      payload: { productId: lamp, vendorCode: 'NOTE-LAMP', available: 2, border: 2 },
    });
    expect(events[2]).toMatchObject({
      orderId: tooMany,
      payload: { description: expect.stringContaining('NOTE-LAMP: 1 of 5 available') },
    });
    expect(events[3]).toMatchObject({ orderId: first, statusTo: 72 });
    // each move of the supply is an event of its own (webhooks read it), no shop's
    const moves = (await a.owner.get('/v2/events?afterId=0&limit=1000&types=supply.status_changed')).body.filter(
      (event: { payload: { supplyId: number } }) => event.payload.supplyId === supply,
    );
    expect(
      moves.map((event: { statusFrom: number; statusTo: number; shopId: number | null }) => [
        event.statusFrom,
        event.statusTo,
        event.shopId,
      ]),
    ).toEqual([
      [1, 2, null],
      [2, 3, null],
      [3, 4, null],
    ]);

    await t.runtime.services.notifications.dispatch();
    const notes = (await a.owner.get('/v2/notifications?perPage=100')).body.filter(
      (note: { shopId: number }) => note.shopId === shopId,
    );
    expect(notes.map((note: { type: string }) => note.type).sort()).toEqual([
      'deliveryAcceptedForFulfillment',
      'fulfillmentReceivedReturns',
      'orderProductsNotAvailableInFulfilment',
      'productEndsInFulfilment',
    ]);
    expect(notes.find((note: { type: string }) => note.type === 'deliveryAcceptedForFulfillment')).toMatchObject({
      orderId: null,
      text: expect.stringContaining(`Supply ${supply} was accepted`),
    });
    expect(notes.find((note: { type: string }) => note.type === 'productEndsInFulfilment').text).toContain('NOTE-LAMP');
  });
});
