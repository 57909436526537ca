/**
 * What the company's statuses do to an order beyond its status: hold dates in the account's
 * zone, how the recipient paid and what the delivery cost, a requested return travelling
 * back; and the shop's free-delivery threshold on the order.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { ApiClient } from '../../../test/support/client.js';
import { startFakeCarrier } from '../../../test/support/fake-carrier.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { orderJobWorker, pickupPointIn, preparedOrder } from '../../../test/support/orders.js';
import { addDays, todayIn } from '../../platform/clock.js';
import type { JobWorker } from '../../platform/jobs.js';
import { journeyOf } from './journey.js';

let t: TestApp;
let owner: ApiClient;
let ownerAccountId: number;
let shopId: number;
let pointId: number;
let worker: JobWorker;
const FAR_FUTURE = () => new Date(Date.now() + 30 * 86400_000);
const DAY = 86400_000;

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '60' } });
  const account = await t.newAccount('Owner');
  owner = account.client;
  ownerAccountId = account.accountId;
  shopId = await newShop(owner);
  pointId = pickupPointIn(t);
  worker = orderJobWorker(t);
});
afterAll(async () => t.close());

async function newShop(client: ApiClient): Promise<number> {
  const warehouseId = (await client.post('/v2/warehouses', warehouseBody())).body.id;
  return (await client.post('/v2/shops', shopBody(warehouseId))).body.id;
}

/** An account in its own time zone, with a shop. */
async function accountIn(timeZone: string): Promise<{ client: ApiClient; shopId: number }> {
  const created = await t.runtime.services.accounts.createAccount({ name: `Shop in ${timeZone}`, timeZone });
  const client = new ApiClient(t.app, created.token);
  return { client, shopId: await newShop(client) };
}

function orderBody(overrides: Record<string, unknown> = {}, shop = shopId) {
  return {
    shopId: shop,
    products: [
      {
        name: 'Книга',
        vendorCode: 'BOOK-1',
        priceDeclared: 800,
        priceCod: 900,
        count: 1,
        weight: 0.5,
        dimensions: { width: 15, height: 4, length: 22 },
      },
    ],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
    ...overrides,
  };
}
const courier = { delivery: { company: { id: 1 }, type: 2 } };
const prepaid = { products: [{ name: 'Книга', priceDeclared: 800, priceCod: 0, count: 1, weight: 0.5 }] };

function push(companyId: number, events: unknown[]) {
  return t
    .client()
    .post(
      `/v2/tracking/events/${companyId}`,
      { events },
      { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(companyId) } },
    );
}

const codes = (order: { statusHistory: Array<{ code: number }> }) => order.statusHistory.map((item) => item.code);
const roubles = (value: number) => Math.round(value * 100) / 100;

interface PricedDelivery {
  price: number;
  services: Array<{ price: number }>;
  priceCommissionDeclared: number;
  priceCommissionCod: number;
  priceCommissionCodCard: number;
  priceCommissionAcquiring: number;
}
/** The expected factPrice, added up here from what the order shows. */
function costOf(delivery: PricedDelivery, paid: 'cash' | 'card' | 'none'): number {
  const cod = paid === 'cash' ? delivery.priceCommissionCod : paid === 'card' ? delivery.priceCommissionCodCard : 0;
  return roubles(
    delivery.price +
      delivery.services.reduce((sum, service) => sum + service.price, 0) +
      delivery.priceCommissionDeclared +
      cod +
      delivery.priceCommissionAcquiring,
  );
}

describe('hold dates in the account time zone', () => {
  it('dates the hold at a point by the day of the account (Vladivostok), not of Moscow', async () => {
    const far = await accountIn('Asia/Vladivostok');
    const { id, trackNumber } = await preparedOrder(far.client, worker, orderBody({}, far.shopId));
    // 16:00 UTC: still the 10th in Moscow (19:00), already the 11th in Vladivostok (02:00)
    const at = '2026-03-10T16:00:00Z';
    expect(todayIn('Europe/Moscow', new Date(at))).toBe('2026-03-10');
    expect((await push(1, [{ trackNumber, statusCode: 42, at }])).body.applied).toBe(1);
    const order = (await far.client.get(`/v2/orders/${id}`)).body;
    expect(order.status).toBe(42);
    expect(order.delivery.point.holdDate).toBe(addDays('2026-03-11', order.delivery.point.holdDays));
  });

  it('marks storagingEnds when one day is left in the account zone (far east marked, far west not yet)', async () => {
    // Whatever the hour, Moscow's date differs from one of these two zones' (UTC+14 from 10:00 to 21:00 UTC, UTC-11 the rest of the day)
    const east = await accountIn('Pacific/Kiritimati');
    const west = await accountIn('Pacific/Pago_Pago');
    const dueEast = await preparedOrder(east.client, worker, orderBody({}, east.shopId));
    const notYetWest = await preparedOrder(west.client, worker, orderBody({}, west.shopId));
    const holdDays = (await east.client.get(`/v2/orders/${dueEast.id}`)).body.delivery.point.holdDays as number;
    // arrival (holdDays - 1) days ago: the hold ends tomorrow; (holdDays - 2) days ago: the day after
    const now = Date.now();
    await push(1, [
      { trackNumber: dueEast.trackNumber, statusCode: 42, at: new Date(now - (holdDays - 1) * DAY).toISOString() },
    ]);
    await push(1, [
      { trackNumber: notYetWest.trackNumber, statusCode: 42, at: new Date(now - (holdDays - 2) * DAY).toISOString() },
    ]);
    expect((await east.client.get(`/v2/orders/${dueEast.id}`)).body.delivery.point).toMatchObject({
      holdDate: addDays(todayIn('Pacific/Kiritimati'), 1),
      storagingEnds: false,
    });
    expect((await west.client.get(`/v2/orders/${notYetWest.id}`)).body.delivery.point).toMatchObject({
      holdDate: addDays(todayIn('Pacific/Pago_Pago'), 2),
      storagingEnds: false,
    });

    await t.runtime.services.tracking.schedulePolling();
    await worker.runDue();
    expect((await east.client.get(`/v2/orders/${dueEast.id}`)).body.delivery.point.storagingEnds).toBe(true);
    expect((await west.client.get(`/v2/orders/${notYetWest.id}`)).body.delivery.point.storagingEnds).toBe(false);
    expect(
      (await east.client.get('/v2/orders?list=4&storagingEnds=1')).body.map((item: { id: number }) => item.id),
    ).toEqual([dueEast.id]);
    expect((await west.client.get('/v2/orders?list=4&storagingEnds=1')).body).toEqual([]);
  });
});

describe('how the recipient paid, and the actual price at delivery', () => {
  it('makes a COD order paid by card pay.type 3, by cash 2, and sets factPrice with the commission incurred', async () => {
    const card = await preparedOrder(owner, worker, orderBody(courier));
    const cash = await preparedOrder(owner, worker, orderBody(courier));
    const partly = await preparedOrder(owner, worker, orderBody(courier));
    const noCod = await preparedOrder(owner, worker, orderBody({ ...courier, ...prepaid }));
    const before = (await owner.get(`/v2/orders/${card.id}`)).body;
    expect(before.pay.type).toBe(2);
    expect(before.delivery.factPrice).toBeNull();
    expect(before.delivery.priceCommissionCodCard).not.toBe(before.delivery.priceCommissionCod);

    expect((await push(1, [{ trackNumber: card.trackNumber, statusCode: 44, paymentMethod: 'cheque' }])).status).toBe(
      400,
    );
    const result = await push(1, [
      { trackNumber: card.trackNumber, statusCode: 44, paymentMethod: 'card' },
      { trackNumber: cash.trackNumber, statusCode: 44, paymentMethod: 'cash' },
      { trackNumber: partly.trackNumber, statusCode: 47, paymentMethod: 'card' },
      { trackNumber: noCod.trackNumber, statusCode: 44 },
    ]);
    expect(result.body).toEqual({ applied: 4, ignored: [] });

    const byCard = (await owner.get(`/v2/orders/${card.id}`)).body;
    expect(byCard.pay).toMatchObject({ type: 3, status: { code: 'paid' } });
    expect(byCard.delivery.factPrice).toBe(costOf(byCard.delivery, 'card'));
    // the total assumed cash (the company takes it); the card commission is what it actually cost
    expect(byCard.delivery.factPrice).toBe(
      roubles(byCard.delivery.totalPrice - byCard.delivery.priceCommissionCod + byCard.delivery.priceCommissionCodCard),
    );

    const byCash = (await owner.get(`/v2/orders/${cash.id}`)).body;
    expect(byCash.pay).toMatchObject({ type: 2, status: { code: 'paid' } });
    expect(byCash.delivery.factPrice).toBe(costOf(byCash.delivery, 'cash'));
    expect(byCash.delivery.factPrice).toBe(byCash.delivery.totalPrice);

    const partlyByCard = (await owner.get(`/v2/orders/${partly.id}`)).body;
    expect(partlyByCard).toMatchObject({ status: 47, pay: { type: 3 } });
    expect(partlyByCard.delivery.factPrice).toBe(costOf(partlyByCard.delivery, 'card'));

    const prepaidOrder = (await owner.get(`/v2/orders/${noCod.id}`)).body;
    expect(prepaidOrder.pay).toMatchObject({ type: 1, status: { code: 'not_paid' } });
    expect(prepaidOrder.delivery.factPrice).toBe(costOf(prepaidOrder.delivery, 'none'));

    // the payment type filter of the lists sees the card payment
    const listed = (await owner.get('/v2/orders?list=5&paymentMethods[]=3')).body.map(
      (item: { id: number }) => item.id,
    );
    expect(listed).toEqual(expect.arrayContaining([card.id, partly.id]));
    expect(listed).not.toContain(cash.id);
  });

  it('lets the simulated journey of a built-in company pay by card for a share of COD orders', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 8; index++) ids.push((await preparedOrder(owner, worker, orderBody(courier))).id);
    await worker.runDue(FAR_FUTURE());
    for (const id of ids) {
      const order = (await owner.get(`/v2/orders/${id}`)).body;
      if (order.status !== 44) continue;
      const expected = journeyOf(ownerAccountId, id, 2, {
        cod: true,
        cashPaymentAvailable: true,
        cardPaymentAvailable: true,
      }).find((step) => step.code === 44)?.paymentMethod;
      expect(order.delivery.cardPaymentAvailable).toBe(true);
      expect(order.pay.type, `order ${id}`).toBe(expected === 'card' ? 3 : 2);
      expect(order.delivery.factPrice).toBe(costOf(order.delivery, expected ?? 'cash'));
    }
  });

  it('takes the payment method from a company reached over HTTP when it is polled', async () => {
    const carrier = await startFakeCarrier({
      price: 333,
      codCardPercent: 2.5,
      track: (trackNumbers) =>
        trackNumbers.map((trackNumber) => ({
          trackNumber,
          statusCode: 44,
          description: 'Вручено',
          paymentMethod: 'card',
        })),
    });
    const registry = t.runtime.services.reference.registry;
    registry.add({
      driver: 'http',
      deliveryTypes: [2],
      coverage: { minPopulation: 0 },
      id: 203,
      code: 'remote-card',
      name: 'Удалённый с картой',
      baseUrl: carrier.baseUrl,
    });
    try {
      const { id } = await preparedOrder(owner, worker, orderBody({ delivery: { company: { id: 203 }, type: 2 } }));
      expect((await owner.get(`/v2/orders/${id}`)).body.delivery).toMatchObject({
        price: 333,
        totalPrice: 342,
        priceCommissionCod: 9,
        priceCommissionCodCard: 22.5,
      });
      await t.runtime.services.tracking.schedulePolling();
      await worker.runDue();
      const order = (await owner.get(`/v2/orders/${id}`)).body;
      expect(order).toMatchObject({ status: 44, pay: { type: 3, status: { code: 'paid' } } });
      expect(order.delivery.factPrice).toBe(355.5);
    } finally {
      registry.remove(203);
      await carrier.close();
    }
  });
});

describe('longer storage asked of a company reached over HTTP', () => {
  it('sends the request to the company in a job: granted, the task is done; refused, the task says why', async () => {
    const registry = t.runtime.services.reference.registry;
    for (const [companyId, status] of [
      [205, 200],
      [206, 422],
    ] as const) {
      const carrier = await startFakeCarrier({ extendHoldStatus: status });
      registry.add({
        driver: 'http',
        deliveryTypes: [2],
        coverage: { minPopulation: 0 },
        id: companyId,
        code: `remote-hold-${companyId}`,
        name: 'Удалённый',
        baseUrl: carrier.baseUrl,
      });
      try {
        const { id, trackNumber } = await preparedOrder(
          owner,
          worker,
          orderBody({ delivery: { company: { id: companyId }, type: 2 } }),
        );
        expect((await push(companyId, [{ trackNumber, statusCode: 42 }])).body).toMatchObject({ applied: 1 });
        expect((await owner.post('/v2/orders/extend-hold', { ids: [id], days: 4 })).status).toBe(204);
        // asked, not yet answered: nothing is pretended
        expect((await owner.get(`/v2/orders/${id}`)).body.tasks).toEqual([
          { type: 'extend-hold', date: expect.any(String), status: 'requested', days: 4 },
        ]);
        expect(carrier.holdExtensions).toEqual([]);
        await worker.runDue();
        expect(carrier.holdExtensions).toEqual([{ trackNumber, days: 4 }]);
        const [task] = (await owner.get(`/v2/orders/${id}`)).body.tasks;
        if (status === 200)
          expect(task).toEqual({ type: 'extend-hold', date: expect.any(String), status: 'done', days: 4 });
        else
          expect(task).toEqual({
            type: 'extend-hold',
            date: expect.any(String),
            status: 'refused',
            days: 4,
            message: 'The delivery company answered 422.',
          });
      } finally {
        registry.remove(companyId);
        await carrier.close();
      }
    }
  });
});

describe('deliveryCostThresholds from the shop widget settings', () => {
  it('shows the free-delivery threshold and the price below it when the order applies widget settings', async () => {
    const widgetShop = await newShop(owner);
    const settings = {
      priceRules: [{ kind: 'markup', percent: 10 }],
      freeDeliveryFrom: 5000,
      rounding: { step: 10, mode: 'up' },
    };
    expect((await owner.put(`/v2/shops/${widgetShop}/widget-settings`, settings)).status).toBe(204);
    const create = async (overrides: Record<string, unknown>) => {
      const response = await owner.post(
        '/v2/orders',
        orderBody({ ...courier, applyWidgetSettings: true, ...overrides }, widgetShop),
      );
      expect(response.status).toBe(201);
      return (await owner.get(`/v2/orders/${response.body.id}`)).body;
    };

    // below the threshold the customer pays by the widget rules: that price is deliveryCost
    const small = await create({});
    expect(small.deliveryCostThresholds).toEqual({ threshold: 5000, deliveryCost: small.delivery.totalPrice });
    expect(small.delivery.totalPrice).toBeGreaterThan(0);
    expect(small.delivery.totalPrice % 10).toBe(0);

    // above it delivery is free, and deliveryCost says what a smaller buyout would cost
    const bigBody = { products: [{ name: 'Телевизор', priceDeclared: 6000, priceCod: 6000, count: 1, weight: 0.5 }] };
    const big = await create(bigBody);
    expect(big.delivery.totalPrice).toBe(0);
    expect(big.deliveryCostThresholds.threshold).toBe(5000);
    expect(big.deliveryCostThresholds.deliveryCost).toBeGreaterThan(0);
    // the same order under a higher threshold is charged exactly that
    await owner.put(`/v2/shops/${widgetShop}/widget-settings`, { ...settings, freeDeliveryFrom: 100000 });
    expect(
      (
        await owner.put(
          `/v2/orders/${big.id}`,
          orderBody({ ...courier, applyWidgetSettings: true, ...bigBody }, widgetShop),
        )
      ).status,
    ).toBe(204);
    const repriced = (await owner.get(`/v2/orders/${big.id}`)).body;
    expect(repriced.delivery.totalPrice).toBe(big.deliveryCostThresholds.deliveryCost);
    expect(repriced.deliveryCostThresholds).toEqual({
      threshold: 100000,
      deliveryCost: big.deliveryCostThresholds.deliveryCost,
    });

    // without widget settings applied, or without a threshold: both null
    expect((await create({ applyWidgetSettings: false })).deliveryCostThresholds).toEqual({
      deliveryCost: null,
      threshold: null,
    });
    await owner.put(`/v2/shops/${widgetShop}/widget-settings`, { ...settings, freeDeliveryFrom: null });
    expect((await create({})).deliveryCostThresholds).toEqual({ deliveryCost: null, threshold: null });
  });
});

describe('a requested return turns a simulated parcel back', () => {
  it('takes a delivered order back: 61, 71, 72, and the return task is done', async () => {
    let delivered: number | null = null;
    for (let attempt = 0; attempt < 5 && delivered === null; attempt++) {
      const { id } = await preparedOrder(owner, worker, orderBody(courier));
      await worker.runDue(FAR_FUTURE());
      if ((await owner.get(`/v2/orders/${id}`)).body.status === 44) delivered = id;
    }
    expect(delivered).not.toBeNull();
    const id = delivered as number;
    expect((await owner.post('/v2/orders/return', { ids: [id] })).status).toBe(204);
    expect((await owner.get(`/v2/orders/${id}`)).body.tasks).toEqual([
      { type: 'return', date: expect.any(String), status: 'requested' },
    ]);
    await worker.runDue(FAR_FUTURE());
    const order = (await owner.get(`/v2/orders/${id}`)).body;
    expect(codes(order).slice(0, 5)).toEqual([72, 71, 61, 44, 43]);
    expect(order.tasks).toEqual([{ type: 'return', date: expect.any(String), status: 'done' }]);
    expect(order.pay.status.code).toBe('paid');
  });

  it('takes an order waiting at the point back, one simulated step at a time: 51, 71, 72', async () => {
    // the simulated clock: each job schedules the next step a minute after "now"
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const step = async () => {
        vi.setSystemTime(Date.now() + 61_000);
        await worker.runDue();
      };
      const { id } = await preparedOrder(owner, worker, orderBody());
      for (let index = 0; index < 4; index++) await step();
      expect(codes((await owner.get(`/v2/orders/${id}`)).body).slice(0, 4)).toEqual([42, 412, 411, 41]);

      expect((await owner.post('/v2/orders/return', { ids: [id] })).status).toBe(204);
      await step();
      let order = (await owner.get(`/v2/orders/${id}`)).body;
      expect(order.status).toBe(51);
      expect(order.tasks).toEqual([{ type: 'return', date: expect.any(String), status: 'requested' }]);
      await step();
      await step();
      order = (await owner.get(`/v2/orders/${id}`)).body;
      expect(codes(order).slice(0, 5)).toEqual([72, 71, 51, 42, 412]);
      expect(order.tasks[0].status).toBe('done');
      expect(order.delivery.factPrice).toBeNull();
      // nothing moves any more
      await step();
      expect(codes((await owner.get(`/v2/orders/${id}`)).body)).toEqual(codes(order));
    } finally {
      vi.useRealTimers();
    }
  });
});
