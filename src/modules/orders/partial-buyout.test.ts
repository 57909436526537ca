/**
 * Partial buyout at the point: the recipient takes some lines and refuses the rest (47). The
 * order carries the bought lines and the sums (COD collected for them only), the COD report and
 * the agent report remit exactly that to the kopeck, the refused lines travel back (71, 74) and
 * at a fulfilment warehouse they alone wait for the staff's inspection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  FULFILMENT_WAREHOUSE,
  fulfilmentAccount,
  inspectReturned,
  newProduct,
  putInStock,
} from '../../../test/support/fulfilment.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { sheetRows } from '../../../test/support/xlsx.js';
import { todayIn } from '../../platform/clock.js';
import { JobWorker } from '../../platform/jobs.js';
import { toKopecks } from '../../platform/money.js';
import { momentOf } from '../buyer-messages/moments.js';
import { journeyOf, PARTIAL_RETURN_LEG_START } from './journey.js';
import { boughtPerLine, commissionKopecksOf, partialBuyoutRefusal } from './partial-buyout.js';
import type { OrderDoc } from './document.js';

let t: TestApp;
let a: OrderingAccount;
/** A point of company 1 in Санкт-Петербург that allows a partial buyout and takes cash; and one that does not allow it. */
let partialPoint: number;
let wholePoint: number;
const quiet = { error: () => undefined, warn: () => undefined };

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '60', BILLING_PERIOD: 'day', REPORT_SYNC_ROWS: '1000' } });
  a = await orderingAccount(t, { name: 'Частичный выкуп' });
  const locality = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
  const points = t.runtime.services.reference.registry.pointsIn(1, locality?.id ?? 0);
  partialPoint = points.find((point) => point.type === 1 && point.partialBuyoutAvailable && point.cashPaymentAvailable)
    ?.id as number;
  wholePoint = points.find((point) => point.type === 1 && !point.partialBuyoutAvailable)?.id as number;
  expect(partialPoint).toBeGreaterThan(0);
  expect(wholePoint).toBeGreaterThan(0);
});
afterAll(async () => t.close());

const goods = [
  {
    name: 'Лампа',
    vendorCode: 'PB-LAMP',
    priceDeclared: 1234.56,
    priceCod: 1234.56,
    discount: 0.17,
    count: 2,
    weight: 1,
  },
  { name: 'Чайник', vendorCode: 'PB-KETTLE', priceDeclared: 999.99, priceCod: 999.99, count: 1, weight: 1 },
  { name: 'Свеча', vendorCode: 'PB-CANDLE', priceDeclared: 10.01, priceCod: 10.01, count: 3, weight: 0.1 },
];
// 2 × 1234.39 + 999.99 + 3 × 10.01 + 300.00 delivery charged to the buyer
const ASKED = 379880;
// one lamp and the kettle bought, the buyer's delivery charge paid: 1234.39 + 999.99 + 300.00
const COLLECTED = 253438;

function body(point: number, overrides: Record<string, unknown> = {}) {
  return orderBody(
    { shopId: a.shopId, pointId: point },
    { products: goods, clientPrice: 300, cmsId: 'PB-1', ...overrides },
  );
}

const advance = (id: number) => a.owner.post(`/v2/sandbox/orders/${id}/advance`);
const buyOut = (id: number, payload: unknown, client = a.owner) =>
  client.post(`/v2/sandbox/orders/${id}/partial-buyout`, payload);

async function atPoint(
  point: number,
  overrides: Record<string, unknown> = {},
): Promise<{ id: number; trackNumber: string }> {
  const order = await preparedOrder(a.owner, a.worker, body(point, overrides));
  for (const status of [41, 411, 412, 42]) expect((await advance(order.id)).body.status).toBe(status);
  return order;
}

async function download(url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await t.app.inject({ method: 'GET', url: url.slice('http://delivery.test'.length) });
  return { status: response.statusCode, bytes: response.rawPayload };
}

describe('partial buyout rules', () => {
  it('takes lines by position or article, refuses all-or-nothing and foreign lines; commission on the collected sum', () => {
    const products = [
      { vendorCode: 'A', id: null, count: 2 },
      { vendorCode: null, id: 7, count: 1 },
    ];
    expect(boughtPerLine(products, [{ index: 0, count: 1 }])).toEqual([1, 0]);
    expect(boughtPerLine(products, [{ vendorCode: '7', count: 1 }])).toEqual([0, 1]);
    expect(
      boughtPerLine(products, [
        { index: 0, count: 2 },
        { index: 1, count: 1 },
      ]),
    ).toContain('everything was bought');
    expect(boughtPerLine(products, [{ index: 0, count: 0 }])).toContain('nothing was bought');
    expect(boughtPerLine(products, [{ index: 0, count: 3 }])).toContain('3 bought of 2');
    expect(boughtPerLine(products, [{ index: 5, count: 1 }])).toContain('not a line');
    expect(boughtPerLine(products, [{ vendorCode: 'Z', count: 1 }])).toContain(
      'no line of the order has the article Z',
    );
    const doc = {
      priceCod: 100,
      delivery: {
        partialBuyoutAvailable: true,
        percentCommissionCod: 3,
        priceCommissionCod: 3,
        percentCommissionCodCard: 0,
        priceCommissionCodCard: 2,
      },
      products: [{ count: 2 }],
    } as unknown as OrderDoc;
    expect(partialBuyoutRefusal(doc)).toBeNull();
    expect(partialBuyoutRefusal({ ...doc, priceCod: 0 })).toContain('prepaid');
    expect(commissionKopecksOf(doc, 3333, 'cash')).toBe(100);
    // no percent: the priced commission in proportion (2.00 of 100.00 asked, 33.33 collected)
    expect(commissionKopecksOf(doc, 3333, 'card')).toBe(67);
  });

  it('simulates some parcels bought in part where allowed, each then carried back as 71, 74', () => {
    const partial = Array.from({ length: 400 }, (_, id) =>
      journeyOf(1, id, 1, { cod: true, partialBuyoutLines: [2, 1] }),
    ).filter((steps) => steps.some((step) => step.code === 47));
    expect(partial.length).toBeGreaterThan(10);
    for (const steps of partial) {
      expect(steps.map((step) => step.code)).toEqual([41, 411, 412, 42, 47, 71, 74]);
      expect(steps[4].buyout).toEqual([{ index: 0, count: 2 }]);
      expect(steps[PARTIAL_RETURN_LEG_START].code).toBe(71);
    }
    // never without a payment on delivery or where the point does not allow it
    for (let id = 0; id < 400; id++) {
      expect(journeyOf(1, id, 1, { partialBuyoutLines: [2, 1] }).some((step) => step.code === 47)).toBe(false);
      expect(journeyOf(1, id, 1, { cod: true }).some((step) => step.code === 47)).toBe(false);
    }
  });

  it('counts as delivered for the buyer', () => {
    expect(momentOf({ type: 'order.status_changed', statusFrom: 42, statusTo: 47 })).toBe('delivered');
  });
});

describe('partial buyout at a point with cash on delivery', () => {
  let orderId: number;

  it('is refused where the point, the payment or the lines do not allow it, and to other callers', async () => {
    const whole = await atPoint(wholePoint);
    const refused = await buyOut(whole.id, { lines: [{ index: 0, count: 1 }] });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('partial_buyout_refused');
    expect(refused.body.message).toContain('partialBuyoutAvailable');

    const prepaid = await atPoint(partialPoint, {
      products: goods.map((line) => ({ ...line, priceCod: 0, discount: 0 })),
      clientPrice: 0,
    });
    expect((await buyOut(prepaid.id, { lines: [{ index: 0, count: 1 }] })).body.code).toBe('partial_buyout_refused');

    const order = await atPoint(partialPoint);
    orderId = order.id;
    const all = await buyOut(order.id, {
      lines: [
        { index: 0, count: 2 },
        { index: 1, count: 1 },
        { index: 2, count: 3 },
      ],
    });
    expect(all.status).toBe(422);
    expect(all.body.errors[0]).toMatchObject({
      field: 'lines',
      message: expect.stringContaining('everything was bought'),
    });
    expect((await buyOut(order.id, { lines: [{ index: 9, count: 1 }] })).status).toBe(422);
    expect((await buyOut(order.id, { lines: [{ index: 0, count: -1 }] })).status).toBe(400);
    expect((await buyOut(order.id, { lines: [] })).status).toBe(400);
    expect((await buyOut(order.id, { lines: [{ index: 0, count: 1 }] }, a.owner.withToken(a.shopKey))).status).toBe(
      403,
    );
    const stranger = await orderingAccount(t, { name: 'Чужой' });
    expect((await buyOut(order.id, { lines: [{ index: 0, count: 1 }] }, stranger.owner)).status).toBe(404);
    expect((await buyOut(order.id, { lines: [{ index: 0, count: 1 }] }, t.client())).status).toBe(401);
    expect((await a.owner.get(`/v2/orders/${order.id}`)).body.status).toBe(42);
  });

  it('records the bought lines and collects for them only; the refused lines travel back', async () => {
    const bought = await buyOut(orderId, {
      lines: [
        { index: 0, count: 1 },
        { index: 1, count: 1 },
      ],
      paymentMethod: 'cash',
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(bought.body).toEqual({ id: orderId, status: 47 });
    const order = (await a.owner.get(`/v2/orders/${orderId}`)).body;
    expect(order.status).toBe(47);
    expect(toKopecks(order.priceCod)).toBe(ASKED);
    expect(order.pay.status.code).toBe('paid');
    expect(
      order.partialBuyout.lines.map((line: { bought: number; refused: number }) => [line.bought, line.refused]),
    ).toEqual([
      [1, 1],
      [1, 0],
      [0, 3],
    ]);
    expect(toKopecks(order.partialBuyout.priceCod)).toBe(ASKED);
    expect(toKopecks(order.partialBuyout.collected)).toBe(COLLECTED);
    const commission = commissionKopecksOf(order, COLLECTED, 'cash');
    expect(toKopecks(order.partialBuyout.commission)).toBe(commission);
    expect(commission).toBeLessThan(toKopecks(order.delivery.priceCommissionCod) + 1);
    // the carriage in full, the commission on what was collected
    const services = order.delivery.services.reduce(
      (sum: number, service: { price: number }) => sum + toKopecks(service.price),
      0,
    );
    expect(toKopecks(order.delivery.factPrice)).toBe(
      toKopecks(order.delivery.price) +
        services +
        toKopecks(order.delivery.priceCommissionDeclared) +
        toKopecks(order.delivery.priceCommissionAcquiring) +
        commission,
    );
    // again: it is not at the point any more
    expect((await buyOut(orderId, { lines: [{ index: 0, count: 1 }] })).status).toBe(409);
    // in the delivered list; the refused lines travel back
    const delivered = (await a.owner.get('/v2/orders?list=5&perPage=100')).body.map((item: { id: number }) => item.id);
    expect(delivered).toContain(orderId);
    expect((await advance(orderId)).body.status).toBe(71);
    expect((await advance(orderId)).body.status).toBe(74);
    expect((await advance(orderId)).status).toBe(409);
    const events = (await a.owner.get('/v2/events?afterId=0&limit=1000&types=order.status_changed')).body
      .filter((event: { orderId: number }) => event.orderId === orderId)
      .map((event: { statusTo: number }) => event.statusTo);
    expect(events.slice(-3)).toEqual([47, 71, 74]);
  });

  it('a company reports it by article and collected sum; a report that does not fit the order is ignored, named', async () => {
    const order = await preparedOrder(a.owner, a.worker, body(partialPoint, { cmsId: 'PB-PUSH' }));
    const secret = t.runtime.services.tracking.pushSecret(1);
    const push = (events: unknown[]) =>
      t.client().post('/v2/tracking/events/1', { events }, { headers: { 'x-carrier-secret': secret } });
    for (const statusCode of [41, 411, 412, 42]) await push([{ trackNumber: order.trackNumber, statusCode }]);
    const wrong = await push([
      { trackNumber: order.trackNumber, statusCode: 47, buyout: { lines: [{ vendorCode: 'NOPE', count: 1 }] } },
    ]);
    expect(wrong.body.applied).toBe(0);
    expect(wrong.body.ignored[0].message).toContain('no line of the order has the article NOPE');
    const right = await push([
      {
        trackNumber: order.trackNumber,
        statusCode: 47,
        paymentMethod: 'card',
        buyout: { lines: [{ vendorCode: 'PB-CANDLE', count: 2 }], collected: 320.02 },
      },
    ]);
    expect(right.body.applied).toBe(1);
    const after = (await a.owner.get(`/v2/orders/${order.id}`)).body;
    expect(after.pay.type).toBe(3);
    expect(toKopecks(after.partialBuyout.collected)).toBe(32002);
    expect(after.partialBuyout.lines[2]).toMatchObject({ bought: 2, refused: 1 });
  });

  it('the COD report and the agent report show the collected sums to the kopeck', async () => {
    const order = (await a.owner.get(`/v2/orders/${orderId}`)).body;
    const pushed = (await a.owner.get('/v2/orders?list=5&perPage=100')).body.find(
      (item: { cmsId: string }) => item.cmsId === 'PB-PUSH',
    );
    const due = (item: { partialBuyout: { collected: number; commission: number } }) =>
      toKopecks(item.partialBuyout.collected) - toKopecks(item.partialBuyout.commission);

    // COD report (analytical type 4): the order's row says what was collected and is due
    const today = todayIn('Europe/Moscow');
    const made = await a.owner.post('/v2/reports/analytical', { date: { from: today, to: today }, type: 4 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    let file = await download(made.body.file);
    if (file.status === 202) {
      const worker = new JobWorker(t.runtime.services.jobs, quiet);
      t.runtime.services.analyticalReports.registerJobs(worker);
      await worker.runDue();
      file = await download(made.body.file);
    }
    const rows = await sheetRows(file.bytes);
    const header = rows[3] as string[];
    const row = rows.find((cells) => cells[0] === orderId) as unknown[];
    expect(Math.round((row[header.indexOf('Наложенный платёж')] as number) * 100)).toBe(COLLECTED);
    expect(Math.round((row[header.indexOf('Комиссия')] as number) * 100)).toBe(
      toKopecks(order.partialBuyout.commission),
    );
    expect(Math.round((row[header.indexOf('К перечислению')] as number) * 100)).toBe(due(order));

    // the agent report of the period: the COD remittance
    expect((await a.owner.post('/v2/sandbox/billing-period/close')).status).toBe(200);
    const remittance = (await a.owner.get('/v2/reports/agent?type=1')).body[0];
    expect(Math.round(remittance.sum * 100)).toBe(due(order) + due(pushed));
    const sheet = await sheetRows((await download(remittance.file)).bytes);
    const line = sheet.find((cells) => cells[0] === orderId) as unknown[];
    expect(Math.round((line[5] as number) * 100)).toBe(COLLECTED);
    expect(Math.round((line[7] as number) * 100)).toBe(due(order));
  });
});

describe('partial buyout of a fulfilment order', () => {
  it('brings back only the refused lines, which wait for inspection as a partial buyout', async () => {
    const f = await fulfilmentAccount(t, { name: 'Фулфилмент с выкупом' });
    const lamp = await newProduct(f.owner, { vendorCode: 'PBF-LAMP', priceCod: 500 });
    const mug = await newProduct(f.owner, { vendorCode: 'PBF-MUG', priceCod: 200 });
    await putInStock(t, f.accountId, lamp, 5);
    await putInStock(t, f.accountId, mug, 5);
    const created = await f.owner.post('/v2/orders', {
      shopId: f.shopId,
      cmsId: 'PBF-1',
      products: [
        { id: lamp, count: 2, priceCod: 500 },
        { id: mug, count: 1, priceCod: 200 },
      ],
      deliveryAddress: {
        city: { countryCode: 'RU', name: 'Санкт-Петербург' },
        street: 'Литейный проспект',
        house: '3',
      },
      recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
      delivery: { company: { id: 1 }, type: 1, point: { id: partialPoint } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect((await f.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    await f.worker.runDue();
    for (let step = 0; step < 4; step++)
      expect((await f.owner.post(`/v2/sandbox/orders/${id}/advance`)).status).toBe(200);
    const bought = await f.owner.post(`/v2/sandbox/orders/${id}/partial-buyout`, { lines: [{ index: 0, count: 1 }] });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    for (let step = 0; step < 2; step++) await f.owner.post(`/v2/sandbox/orders/${id}/advance`);
    expect((await f.owner.get(`/v2/orders/${id}`)).body.status).toBe(74);
    const parcel = (await f.owner.get(`/v2/fulfilment/return-inspections/${id}`)).body;
    expect(parcel).toMatchObject({
      source: 'partial-buyout',
      status: 'waiting',
      fulfilmentWarehouseId: FULFILMENT_WAREHOUSE,
      lines: [
        { productId: lamp, count: 1 },
        { productId: mug, count: 1 },
      ],
    });
    expect((await inspectReturned(t, id)).status).toBe(200);
    const rest = (await f.owner.get(`/v2/products/${lamp}`)).body.rests[0];
    // 5 - 2 shipped + 1 refused back on the shelf
    expect(rest).toMatchObject({ quantity: 4, available: 4 });
  });
});
