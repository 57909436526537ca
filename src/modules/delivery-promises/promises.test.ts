/**
 * Delivery promises: business days of the production calendar, the fall-backs of a thin route,
 * the back-test's share on time; through HTTP, a sandbox history learnt at once, the same
 * promise in the calculator and the order, a parcel's arrival counted, an order found late by
 * the clock, and the on-time report with its refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { addDays } from '../../platform/clock.js';
import { BusinessCalendar } from './calendar.js';
import { promiseOf, TransitHistogram, keysOf, type Route } from './distribution.js';
import { backtest, generateHistory, HistogramSet, type HistoryRoute } from './history.js';

const calendar = BusinessCalendar.russian();

describe('business days of the production calendar', () => {
  it('skips weekends, decreed days off and takes a working Saturday', () => {
    // 2026: 1-11 January off; 23 February a Monday off; 9 March (8 March a Sunday) off
    expect(calendar.isBusinessDay('2026-01-09')).toBe(false);
    expect(calendar.isBusinessDay('2026-01-12')).toBe(true);
    expect(calendar.isBusinessDay('2026-02-23')).toBe(false);
    expect(calendar.isBusinessDay('2026-03-09')).toBe(false);
    // 2025: Saturday 1 November worked, 3 and 4 November off
    expect(calendar.isBusinessDay('2025-11-01')).toBe(true);
    expect(calendar.isBusinessDay('2025-11-03')).toBe(false);
    // handed over on Friday, delivered on Monday: one business day
    expect(calendar.businessDaysBetween('2026-11-27', '2026-11-30')).toBe(1);
    expect(calendar.businessDaysBetween('2026-12-30', '2027-01-11')).toBe(1);
    expect(calendar.addBusinessDays('2026-11-28', 0)).toBe('2026-11-30');
    expect(calendar.addBusinessDays('2026-12-30', 1)).toBe('2027-01-11');
  });

  it('counts a year without a decree by the Labour Code: a holiday on a weekend moves to the next weekday', () => {
    // 2027: 1 May a Saturday -> Monday 3 May; 12 June a Saturday -> Monday 14 June; 4 November a Thursday
    expect(calendar.isBusinessDay('2027-05-03')).toBe(false);
    expect(calendar.isBusinessDay('2027-06-14')).toBe(false);
    expect(calendar.isBusinessDay('2027-11-04')).toBe(false);
    expect(calendar.isBusinessDay('2027-11-05')).toBe(true);
  });
});

const MOSCOW = { id: 1, regionCode: '77', latitude: 55.75, longitude: 37.62 };
const KAZAN = { id: 2, regionCode: '16', latitude: 55.79, longitude: 49.12 };
const ZELENODOLSK = { id: 3, regionCode: '16', latitude: 55.85, longitude: 48.5 };
const route = (to = KAZAN): Route => ({ companyId: 1, deliveryType: 2, tariff: null, from: MOSCOW, to });

describe('a promise from the distributions', () => {
  it('reads the route, then its regions, then the company, then the declaration', () => {
    const set = new HistogramSet();
    const declared = { min: 2, max: 3 };
    const promise = () => promiseOf((key) => set.get(key), route(), declared, '2026-11-30', calendar);
    expect(promise()).toMatchObject({ basis: 'declared', medianDays: 3, p90Days: 3, parcels: 0, byDate: '2026-12-03' });
    // 30 parcels to another locality of the same region: the regions speak for the thin route
    for (let i = 0; i < 30; i++) set.add(route(ZELENODOLSK), i < 27 ? 4 : 6);
    for (let i = 0; i < 10; i++) set.add(route(), 2);
    expect(promise()).toMatchObject({ basis: 'regions', parcels: 40, p90Days: 4 });
    for (let i = 0; i < 10; i++) set.add(route(), 3);
    expect(promise()).toMatchObject({ basis: 'route', parcels: 20, medianDays: 2, p90Days: 3, byDate: '2026-12-03' });
  });

  it('takes the days within which 9 in 10 arrived', () => {
    const histogram = new TransitHistogram();
    for (let days = 1; days <= 10; days++) histogram.add(days);
    expect(histogram.summary()).toEqual({ median: 5, p90: 9 });
    expect(keysOf(route())).toHaveLength(4);
  });

  it('keeps its promise for 9 in 10 parcels of a generated history, where the declared days keep it for far fewer', () => {
    const routes: HistoryRoute[] = [];
    for (let to = 0; to < 40; to++)
      routes.push({
        route: {
          ...route(),
          to: { id: 100 + to, regionCode: String(to % 8), latitude: 50 + to / 4, longitude: 40 + to },
        },
        declared: { min: 1 + (to % 4), max: 3 + (to % 4) },
        weight: 1 + (to % 5),
      });
    const history = generateHistory(
      routes,
      { parcels: 8000, firstDay: '2026-01-12', lastDay: '2026-10-30', seed: 7 },
      calendar,
    );
    const figures = backtest(history, calendar);
    expect(figures.promise.onTimeShare).toBeGreaterThanOrEqual(0.9);
    expect(figures.declared.onTimeShare).toBeLessThan(0.75);
  });
});

describe('promises through HTTP', () => {
  let t: TestApp;
  let a: OrderingAccount;

  beforeAll(async () => {
    t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '60' } });
    a = await orderingAccount(t);
  });
  afterAll(async () => t.close());

  const quoteBody = {
    reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' },
    products: [
      { count: 1, priceDeclared: 800, priceCod: 0, weight: 0.5, dimensions: { width: 15, height: 4, length: 22 } },
    ],
  };
  const courierOf = async () => {
    const answer = await a.owner.post('/v2/calculator', quoteBody, { headers: { 'shop-id': String(a.shopId) } });
    expect(answer.status, answer.text).toBe(200);
    return (answer.body['2'] as Array<Record<string, unknown>>).find((option) => option.deliveryCompanyId === 1) as
      | (Record<string, unknown> & { promise: Record<string, unknown> })
      | undefined;
  };

  it('promises the declared days before any parcel, and the measured ones once a sandbox history is made', async () => {
    const before = await courierOf();
    expect(before?.promise).toMatchObject({ basis: 'declared', parcels: 0 });
    const made = await a.owner.post('/v2/sandbox/delivery-history', { parcels: 6000, days: 120 });
    expect(made.status, made.text).toBe(200);
    expect(made.body.parcels).toBeGreaterThan(5000);
    // the calculator remembers answers for a while: another cart is a new answer
    const answer = await a.owner.post(
      '/v2/calculator',
      { ...quoteBody, products: [{ ...quoteBody.products[0], priceDeclared: 801 }] },
      { headers: { 'shop-id': String(a.shopId) } },
    );
    const courier = (answer.body['2'] as Array<Record<string, unknown>>).find(
      (option) => option.deliveryCompanyId === 1,
    ) as { promise: { basis: string; parcels: number; p90Days: number; byDate: string; handOverDate: string } };
    expect(['route', 'regions', 'distance', 'company']).toContain(courier.promise.basis);
    expect(courier.promise.parcels).toBeGreaterThanOrEqual(20);
    expect(courier.promise.byDate >= courier.promise.handOverDate).toBe(true);

    // the order made from the same cart carries the same promise
    const created = await a.owner.post(
      '/v2/orders',
      orderBody(a, {
        cmsId: 'PROMISE-1',
        products: [{ ...quoteBody.products[0], priceDeclared: 801, name: 'Книга', vendorCode: 'BOOK-1', priceCod: 0 }],
        delivery: { company: { id: 1 }, type: 2 },
      }),
    );
    expect(created.status, created.text).toBe(201);
    const order = (await a.owner.get(`/v2/orders/${created.body.id}`)).body;
    expect(order.delivery.promise).toMatchObject({
      basis: courier.promise.basis,
      p90Days: courier.promise.p90Days,
      byDate: courier.promise.byDate,
    });
    expect(order.delivery.promise.declaredDays).toEqual(expect.objectContaining({ min: expect.any(Number) }));

    // /one says the same (/company answers only the companies' ids)
    for (const url of ['/v2/calculator/one']) {
      const one = await a.owner.post(url, quoteBody, {
        headers: { 'shop-id': String(a.shopId), type: '2', 'company-id': '1' },
      });
      expect(one.status, one.text).toBe(200);
      const option = Array.isArray(one.body) ? one.body[0] : one.body;
      expect(option.promise, url).toMatchObject({ basis: courier.promise.basis, byDate: courier.promise.byDate });
    }

    // and the widget's quote of the same route
    const origin = 'https://shop.example';
    const key = (await a.owner.post(`/v2/shops/${a.shopId}/widget-key`, { allowedOrigins: [origin] })).body.publicKey;
    const quoted = await t.app.inject({
      method: 'POST',
      url: `/widget/v1/api/quotes?key=${encodeURIComponent(key)}`,
      headers: { origin, 'content-type': 'application/json' },
      payload: JSON.stringify({
        city: { name: 'Санкт-Петербург' },
        products: [{ count: 1, price: 801, weight: 0.5 }],
        modes: [2],
      }),
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const widgetCourier = (JSON.parse(quoted.body).options as Array<{ companyId: number; promise: unknown }>).find(
      (option) => option.companyId === 1,
    );
    expect(widgetCourier?.promise).toMatchObject({
      basis: courier.promise.basis,
      p90Days: courier.promise.p90Days,
      byDate: courier.promise.byDate,
    });
  });

  it("reports the account's parcels on time per company and route, and refuses a bad period, a shop key and no token", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const report = await a.owner.get(`/v2/reports/delivery-times?dateFrom=${addDays(today, -200)}&dateTo=${today}`);
    expect(report.status, report.text).toBe(200);
    expect(report.body.total.parcels).toBeGreaterThan(5000);
    expect(report.body.total.declaredOnTimeShare).toBeLessThan(0.9);
    expect(report.body.companies.length).toBeGreaterThan(0);
    expect(report.body.routes[0]).toMatchObject({ from: 'Москва' });

    const backwards = await a.owner.get(`/v2/reports/delivery-times?dateFrom=${today}&dateTo=${addDays(today, -1)}`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].field).toBe('dateTo');
    const typed = await a.owner.get('/v2/reports/delivery-times?dateFrom=01.11.2026&dateTo=2026-11-30');
    expect(typed.status).toBe(400);
    expect(typed.body.code).toBe('validation_failed');
    const byKey = await t.client(a.shopKey).get(`/v2/reports/delivery-times?dateFrom=${today}&dateTo=${today}`);
    expect(byKey.status).toBe(403);
    expect((await t.client().get(`/v2/reports/delivery-times?dateFrom=${today}&dateTo=${today}`)).status).toBe(401);
    // another account sees none of these parcels
    const other = await t.newAccount('Other');
    const theirs = await other.client.get(
      `/v2/reports/delivery-times?dateFrom=${addDays(today, -200)}&dateTo=${today}`,
    );
    expect(theirs.body.total.parcels).toBe(0);
  });

  it('refuses a history to an account without a warehouse, and a shop key', async () => {
    const bare = await t.newAccount('Bare');
    const refused = await bare.client.post('/v2/sandbox/delivery-history', {});
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('no_warehouse');
    expect((await t.client(a.shopKey).post('/v2/sandbox/delivery-history', {})).status).toBe(403);
    const tooMany = await a.owner.post('/v2/sandbox/delivery-history', { parcels: 20_001 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0].field).toContain('parcels');
  });

  it('finds an order late once its promised date passed, and counts a parcel when it arrives', async () => {
    const { id } = await preparedOrder(
      a.owner,
      a.worker,
      orderBody(a, { cmsId: 'LATE-1', delivery: { company: { id: 1 }, type: 2 } }),
    );
    const promised = (await a.owner.get(`/v2/orders/${id}`)).body.delivery.promise;
    const late = t.runtime.services.lateOrders;
    // the day of the promise itself is not late
    expect(await late.markLate(new Date(`${promised.byDate}T12:00:00Z`))).toBe(0);
    expect(await late.markLate(new Date(`${addDays(promised.byDate, 1)}T12:00:00Z`))).toBeGreaterThanOrEqual(1);
    const order = (await a.owner.get(`/v2/orders/${id}`)).body;
    expect(order.delivery.promise).toMatchObject({ late: true, lateSince: addDays(promised.byDate, 1) });
    const problems = await a.owner.get('/v2/orders?list=6');
    expect((problems.body as Array<{ id: number }>).map((item) => item.id)).toContain(id);
    const events = await a.owner.get('/v2/events?limit=1000');
    expect(events.status, events.text).toBe(200);
    const lateEvents = (
      events.body as Array<{ orderId: number; type: string; payload: { promisedBy?: string } }>
    ).filter((event) => event.orderId === id && event.type === 'order.late');
    expect(lateEvents.map((event) => event.payload.promisedBy)).toEqual([promised.byDate]);
    // once: a second pass finds nothing new
    expect(await late.markLate(new Date(`${addDays(promised.byDate, 2)}T12:00:00Z`))).toBe(0);

    // handed over and moved along its simulated journey to the door: counted once, leaves the problems list
    const today = new Date().toISOString().slice(0, 10);
    // a simulated parcel arrives on the day its modelled days give, ahead of the journey's minutes
    const window = `dateFrom=${addDays(today, -300)}&dateTo=${addDays(today, 60)}`;
    const before = (await a.owner.get(`/v2/reports/delivery-times?${window}`)).body.total.parcels;
    await t.runtime.services.tracking.handOver(a.accountId, [id], 'test hand-over');
    let status = 14;
    for (let step = 0; step < 10 && ![44, 72].includes(status); step++) {
      const moved = await a.owner.post(`/v2/sandbox/orders/${id}/advance`);
      if (moved.status !== 200) break;
      status = moved.body.status;
    }
    const after = (await a.owner.get(`/v2/reports/delivery-times?${window}`)).body.total.parcels;
    expect(after).toBe(status === 44 ? before + 1 : before);
    const stillProblems = await a.owner.get('/v2/orders?list=6');
    expect((stillProblems.body as Array<{ id: number }>).map((item) => item.id)).not.toContain(id);
  });
});
