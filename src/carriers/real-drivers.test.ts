/**
 * The real companies' drivers against loopback fakes answering in their documented shapes:
 * quote, register (and its retry), label, cancel, track, pickup, points; validation
 * refusals, refused credentials, 429, 5xx, timeouts; the circuit breaker opening and closing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  boxberryParcelRefusal,
  cdekOrderProblems,
  startFakeBoxberry,
  startFakeCdek,
  startFakeRussianPost,
  type FakeRealCarrier,
} from '../../test/support/fake-real-carriers.js';
import {
  expectCircuitCycle,
  FAST,
  quoteRequest,
  recipientAddress,
  RecordedRemotes,
  shipmentRequest,
  signal,
} from '../../test/support/remote-companies.js';
import { BoxberryDriver } from './boxberry/driver.js';
import * as boxberry from './boxberry/mapper.js';
import { CdekDriver } from './cdek/driver.js';
import * as cdek from './cdek/mapper.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deadlineSignal } from '../platform/remote-http.js';
import { CarrierAuthError, CarrierRetryAfterError, exchange, type RemotePolicy } from './remote-call.js';
import { RussianPostDriver } from './russian-post/driver.js';
import * as russianPost from './russian-post/mapper.js';
import { CarrierError, type PickupRequest, type ShipmentRequest } from './types.js';

const shipment = (number: string, type: 1 | 2 | 3 = 2): ShipmentRequest =>
  shipmentRequest(number, type, { pointCode: type === 1 ? 'MSK123' : null });
const pickup: PickupRequest = {
  pickupId: 1,
  accountId: 1,
  type: 4,
  date: '2026-02-02',
  hours: { from: '10:00', to: '18:00' },
  address: { countryCode: 'RU', city: 'Москва', region: null, street: 'Тверская', house: '1', bulk: null, flat: null },
  contact: { name: 'Иван', phone: '+74950000000' },
  weightKg: 5,
  countOrders: 3,
  comment: null,
};

const recorded = new RecordedRemotes();
const { records } = recorded;
const remote = (companyId: number, code: string, policy?: RemotePolicy) => recorded.remote(companyId, code, policy);

let fakeCdek: FakeRealCarrier;
let fakeBoxberry: FakeRealCarrier;
let fakePost: FakeRealCarrier;
beforeAll(async () => {
  [fakeCdek, fakeBoxberry, fakePost] = await Promise.all([
    startFakeCdek(),
    startFakeBoxberry(),
    startFakeRussianPost(),
  ]);
});
afterAll(async () => {
  recorded.shutdown();
  await Promise.all([fakeCdek.close(), fakeBoxberry.close(), fakePost.close()]);
});
afterEach(() => {
  for (const fake of [fakeCdek, fakeBoxberry, fakePost]) {
    fake.mode = 'ok';
    fake.delayMs = 0;
    fake.retryAfter = null;
  }
});

const cdekDriver = (secret = 'good-secret', policy?: RemotePolicy) =>
  new CdekDriver(
    remote(1001, 'cdek', policy),
    { clientId: 'good-id', clientSecret: secret },
    { baseUrl: `${fakeCdek.baseUrl}/v2`, settleMs: 5 },
  );

describe('CDEK', () => {
  it('quotes the cheapest tariff per delivery type, in kopecks, with one token for many calls', async () => {
    const driver = cdekDriver();
    const quotes = await driver.quote(quoteRequest, signal());
    expect(quotes).toEqual(
      expect.arrayContaining([
        // to pickup points: the office tariff, lockers at their own tariff's price (365 against 380.50)
        expect.objectContaining({
          type: 1,
          tariffName: 'Посылка дверь-склад',
          priceDeliveryKopecks: 38050,
          days: { min: 2, max: 4 },
          pointPriceFactors: { 2: 365 / 380.5 },
        }),
        expect.objectContaining({ type: 2, tariffName: 'Посылка дверь-дверь', priceDeliveryKopecks: 51000 }),
      ]),
    );
    await driver.quote(quoteRequest, signal());
    expect(fakeCdek.calls.filter((call) => call === 'POST /v2/oauth/token')).toHaveLength(1);
  });

  it("prices insurance of the declared value by CDEK's calculator (INSURANCE service), COD at its public rate", async () => {
    const driver = cdekDriver();
    const quotes = await driver.quote({ ...quoteRequest, declaredKopecks: 150_050, codKopecks: 100_000 }, signal());
    const asked = JSON.parse(fakeCdek.bodies.get('POST /v2/calculator/tariff') ?? '{}') as {
      tariff_code: number;
      services: unknown;
    };
    expect([138, 139]).toContain(asked.tariff_code);
    expect(asked.services).toEqual([{ code: 'INSURANCE', parameter: '1500.5' }]);
    // the office's (standing for type 1) and the courier's tariff
    expect(fakeCdek.calls.filter((call) => call === 'POST /v2/calculator/tariff')).toHaveLength(2);
    for (const quote of quotes) {
      // the fake's 0.8% of 1500.50 is 12.00 roubles: the percent gives CDEK's sum back
      expect(Math.round((150_050 * quote.commissions.declared.percent) / 100)).toBe(1200);
      expect(quote.commissions.codCash).toEqual({ percent: 3, minimumKopecks: 0 });
    }
    const before = fakeCdek.calls.length;
    expect((await driver.quote(quoteRequest, signal()))[0].commissions.declared.percent).toBe(0.75);
    expect(fakeCdek.calls.slice(before)).toEqual(['POST /v2/calculator/tarifflist']);
    // the rates learned are reused: another declared value is priced without asking CDEK again (0.8% of 3000)
    const again = fakeCdek.calls.length;
    const reused = await driver.quote({ ...quoteRequest, declaredKopecks: 300_000 }, signal());
    expect(fakeCdek.calls.slice(again)).toEqual(['POST /v2/calculator/tarifflist']);
    for (const quote of reused) expect(Math.round((300_000 * quote.commissions.declared.percent) / 100)).toBe(2400);
    expect(
      cdek.insuranceKopecksOf({
        services: [
          { code: 'INSURANCE', sum: 10, total_sum: 12.5 },
          { code: 'SMS', sum: 5 },
        ],
      }),
    ).toBe(1250);
    expect(cdek.insuranceKopecksOf({ delivery_sum: 300 })).toBe(0);
  });

  it('refuses wrong credentials as an auth error, not retried', async () => {
    const driver = cdekDriver('wrong');
    await expect(driver.checkCredentials(signal())).rejects.toBeInstanceOf(CarrierAuthError);
    await expect(cdekDriver().checkCredentials(signal())).resolves.toBeUndefined();
  });

  it('registers, and a retry after a lost answer finds the order instead of making a second one', async () => {
    const driver = cdekDriver();
    fakeCdek.loseNextCreate = true;
    const lost = await driver.register(shipment('SITE-1'), signal()).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(CarrierError);
    expect((lost as CarrierError).transient).toBe(true);
    const registered = await driver.register(shipment('SITE-1'), signal());
    expect(registered.trackNumber).toBe(fakeCdek.created.get(cdek.cdekNumberOf(shipment('SITE-1')))?.track);
    expect(fakeCdek.calls.filter((call) => call === 'POST /v2/orders')).toHaveLength(1);
    expect(registered.trackingUrl).toContain(registered.trackNumber);
  });

  it('registers what CDEK requires: sizes on every package, the goods as items, the delivery charge apart, an ASCII number', async () => {
    const order = shipmentRequest('Заказ-№15', 2, { sidesCm: null, comment: 'Позвонить' });
    await cdekDriver().register(order, signal());
    const sent = JSON.parse(fakeCdek.bodies.get('POST /v2/orders') ?? '{}');
    expect(sent).toMatchObject({
      number: String(order.orderId),
      comment: 'Заказ магазина Заказ-№15. Позвонить',
      delivery_recipient_cost: { value: 200 },
    });
    // no sizes known: the 10 cm cube, never a package without them
    expect(sent.packages).toEqual([
      {
        number: '1',
        weight: 1200,
        length: 10,
        width: 10,
        height: 10,
        items: [
          {
            name: 'Футболка хлопковая',
            ware_key: 'TS-001',
            payment: { value: 500, vat_rate: 20 },
            cost: 750,
            weight: 500,
            amount: 2,
          },
        ],
      },
    ]);
    // what CDEK collects adds up to the order's COD: 2 × 500 + 200
    expect(sent.packages[0].items[0].payment.value * 2 + sent.delivery_recipient_cost.value).toBe(1200);
  });

  it('the fake refuses as CDEK does: a Cyrillic number, a package from 100 g without sizes, goods without a weight, a number twice', () => {
    const valid = cdek.orderRequest(shipmentRequest('SITE-V', 2), 139) as Record<string, unknown> & {
      packages: Array<Record<string, unknown>>;
    };
    expect(cdekOrderProblems(valid)).toEqual([]);
    const codes = (body: object, taken = false) => cdekOrderProblems(body, taken).map((problem) => problem.message);
    expect(codes({ ...valid, number: 'Заказ-15' })).toEqual([expect.stringContaining('ASCII')]);
    expect(codes({ ...valid, number: 'x'.repeat(41) })).toEqual([expect.stringContaining('ASCII')]);
    expect(codes({ ...valid, packages: [{ number: '1', weight: 1000, items: valid.packages[0].items }] })).toEqual([
      expect.stringContaining('required from 100 g'),
    ]);
    // under 100 g sizes may be left out, except to a locker
    expect(codes({ ...valid, packages: [{ number: '1', weight: 90, items: valid.packages[0].items }] })).toEqual([]);
    expect(
      codes({ ...valid, tariff_code: 366, packages: [{ number: '1', weight: 90, items: valid.packages[0].items }] }),
    ).toEqual([expect.stringContaining('for a locker')]);
    expect(
      codes({
        ...valid,
        packages: [
          { ...valid.packages[0], items: [{ name: 'x', ware_key: 'k', payment: { value: 1 }, cost: 1, amount: 1 }] },
        ],
      }),
    ).toEqual([expect.stringContaining('weight')]);
    expect(codes(valid, true)).toEqual([expect.stringContaining('already exists')]);
  });

  it("registers an order to a pickup point with the tariff the order was priced with, of the point's kind", async () => {
    const driver = cdekDriver();
    for (const [pointType, name, code] of [
      [1, 'Посылка дверь-склад', 138],
      [2, 'Посылка дверь-постамат', 366],
    ] as const) {
      await driver.register(
        shipmentRequest(`SITE-KIND-${pointType}`, 1, { pointCode: 'MSK123', pointType, tariffName: name }),
        signal(),
      );
      expect(JSON.parse(fakeCdek.bodies.get('POST /v2/orders') ?? '{}').tariff_code).toBe(code);
    }
    // a quote for an order that chose a locker prices the locker's tariff only
    const [locker] = await driver.quote({ ...quoteRequest, types: [1], pointCode: 'MSK900', pointType: 2 }, signal());
    expect(locker).toMatchObject({ tariffName: 'Посылка дверь-постамат', priceDeliveryKopecks: 36500 });
    expect(locker.pointPriceFactors).toBeUndefined();
  });

  it("gives CDEK's validation errors as a refusal naming them", async () => {
    fakeCdek.mode = 'invalid';
    const error = (await cdekDriver()
      .quote(quoteRequest, signal())
      .catch((caught: unknown) => caught)) as CarrierError;
    expect(error).toBeInstanceOf(CarrierError);
    expect(error.transient).toBe(false);
    expect(error.message).toContain('Field recipient.phones is empty (v2_field_is_empty)');
  });

  it('retries a quote after 429 and 5xx with back-off, then gives up as transient', async () => {
    const driver = cdekDriver('good-secret', { ...FAST, breaker: { ...FAST.breaker, volume: 100 } });
    await driver.quote(quoteRequest, signal()); // token first
    for (const mode of ['429', '500'] as const) {
      fakeCdek.mode = mode;
      const before = fakeCdek.calls.length;
      const error = (await driver.quote(quoteRequest, signal()).catch((caught: unknown) => caught)) as CarrierError;
      expect(error.transient).toBe(true);
      expect(fakeCdek.calls.length - before).toBe(3);
    }
  });

  it('never retries a registration that failed (the next attempt looks up first)', async () => {
    const driver = cdekDriver();
    await driver.quote(quoteRequest, signal());
    fakeCdek.mode = '500';
    const before = fakeCdek.calls.length;
    await expect(driver.register(shipment('SITE-500'), signal())).rejects.toBeInstanceOf(CarrierError);
    // the lookup (safe) is retried; the creation is never reached while CDEK fails
    expect(fakeCdek.calls.slice(before).filter((call) => call === 'POST /v2/orders')).toHaveLength(0);
  });

  it("times out a company that does not answer, within the caller's deadline", async () => {
    const driver = cdekDriver();
    await driver.quote(quoteRequest, signal());
    fakeCdek.mode = 'slow';
    fakeCdek.delayMs = 1000;
    const started = performance.now();
    const error = (await driver
      .quote(quoteRequest, AbortSignal.timeout(5000))
      .catch((caught: unknown) => caught)) as CarrierError;
    expect(error.message).toMatch(/no answer within 300 ms/);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(records.some((record) => record.company === 'cdek' && record.outcome === 'timeout')).toBe(true);
  });

  it('opens the circuit after failures in a row, even after many good calls in the window', async () => {
    const driver = cdekDriver('good-secret', { ...FAST, retries: 0, breaker: { ...FAST.breaker, consecutive: 3 } });
    const company = recorded.last;
    for (let index = 0; index < 10; index++) await driver.quote(quoteRequest, signal());
    fakeCdek.mode = '500';
    for (let index = 0; index < 3; index++) await driver.quote(quoteRequest, signal()).catch(() => undefined);
    expect(company.circuit).toBe('open');
  });

  it('opens the circuit after repeated failures, answers at once while open, and closes after a good half-open call', async () => {
    const driver = cdekDriver('good-secret', { ...FAST, retries: 0 });
    await expectCircuitCycle(recorded.last, fakeCdek, records, () => driver.quote(quoteRequest, signal()), 2);
  });

  it("prints CDEK's own label, cancels, tracks, books and follows a pickup, reads its points", async () => {
    const driver = cdekDriver();
    const { trackNumber } = await driver.register(shipment('SITE-2', 1), signal());
    expect((await driver.label(trackNumber, signal())).subarray(0, 5).toString()).toBe('%PDF-');
    const events = await driver.track([trackNumber, '999'], signal());
    expect(events.map((event) => event.statusCode)).toEqual([13, 41, 42]);
    await driver.cancel(trackNumber, signal());
    expect(fakeCdek.calls).toContain(
      'DELETE /v2/orders/' + fakeCdek.created.get(cdek.cdekNumberOf(shipment('SITE-2', 1)))?.uuid,
    );
    const booking = await driver.schedulePickup(pickup, signal());
    expect(booking).toEqual({ number: 'intake-1', timeFrom: '10:00', timeTo: '18:00' });
    expect(await driver.pickupProgress(booking.number, signal())).toEqual({ state: 'done' });
    await driver.cancelPickup(booking.number, signal());
    await expect(driver.extendHold()).rejects.toBeInstanceOf(CarrierError);
    const points = await driver.points(signal());
    expect(points).toHaveLength(2);
    expect(points[0]).toMatchObject({
      code: 'MSK123',
      type: 1,
      city: 'Москва',
      cashPaymentAvailable: true,
      fittingAvailable: true,
      maxWeightGrams: 30000,
    });
    expect(points[0].schedule[0]).toEqual({ from: '10:00', to: '20:00' });
    expect(points[1]).toMatchObject({ code: 'MSK900', type: 2, cashPaymentAvailable: false });
  });

  it('maps the ORDER_STATUS webhook (mapper)', () => {
    expect(
      cdek.eventOfWebhook({
        type: 'ORDER_STATUS',
        date_time: '2026-01-01T10:00:00+0700',
        uuid: 'u',
        attributes: { cdek_number: '1106', code: 'DELIVERED', status_date_time: '2026-01-01T10:00:00+0700' },
      }),
    ).toMatchObject({ trackNumber: '1106', statusCode: 44, at: '2026-01-01T03:00:00.000Z' });
    expect(cdek.eventOfWebhook({ type: 'PRINT_FORM', attributes: {} })).toBeNull();
    // registration: tariffs from the sender's door only, to a point of the point's kind
    const list = {
      tariff_codes: [
        { tariff_code: 136, delivery_mode: 4, delivery_sum: 100 },
        { tariff_code: 138, delivery_mode: 2, delivery_sum: 380 },
        { tariff_code: 366, delivery_mode: 6, delivery_sum: 350 },
        { tariff_code: 139, delivery_mode: 1, delivery_sum: 510 },
      ],
    };
    expect([
      cdek.tariffCodeFor(list, 1),
      cdek.tariffCodeFor(list, 1, 1),
      cdek.tariffCodeFor(list, 1, 2),
      cdek.tariffCodeFor(list, 2),
    ]).toEqual([366, 138, 366, 139]);
    // both names CDEK's status list gives for a step, and the return's way back
    const codes = (list: string[]) => list.map((code) => cdek.CDEK_STATUS[code]);
    expect(
      codes([
        'READY_FOR_SHIPMENT_IN_SENDER_CITY',
        'TAKEN_BY_TRANSPORTER_FROM_SENDER_CITY',
        'SENT_TO_TRANSIT_CITY',
        'MET_AT_RECIPIENT_OFFICE',
        'POSTOMAT_SEIZED',
        'SENT_TO_SENDER_CITY',
      ]),
    ).toEqual([41, 411, 411, 412, 51, 71]);
    expect(cdek.problemsOf({ requests: [{ errors: [{ code: 'a', message: 'b' }] }], errors: [{ code: 'c' }] })).toEqual(
      [
        { code: 'c', message: 'c' },
        { code: 'a', message: 'b' },
      ],
    );
  });

  it('reads a partial delivery ("частичная доставка"): DELIVERED with items handed over in part is 47 with the units bought and the cash taken', async () => {
    const driver = cdekDriver();
    const order = shipmentRequest('SITE-PARTIAL', 1);
    const { trackNumber } = await driver.register(order, signal());
    expect((await driver.track([trackNumber], signal())).map((event) => event.statusCode)).not.toContain(47);
    fakeCdek.partialDeliveries.set(trackNumber, { handed: { 'TS-001': 1 }, paymentSum: 700.5 });
    const events = await driver.track([trackNumber], signal());
    const partial = events.find((event) => event.statusCode === 47);
    expect(partial).toMatchObject({
      trackNumber,
      buyout: { lines: [{ vendorCode: 'TS-001', count: 1 }], collectedKopecks: 70050 },
    });
    expect(events.some((event) => event.statusCode === 44)).toBe(false);
    // everything handed over is an ordinary delivery
    fakeCdek.partialDeliveries.set(trackNumber, { handed: { 'TS-001': 2 }, paymentSum: 1200 });
    expect((await driver.track([trackNumber], signal())).map((event) => event.statusCode)).toContain(44);
    fakeCdek.partialDeliveries.delete(trackNumber);
    expect(
      cdek.eventsOfOrder('1', {
        entity: {
          statuses: [{ code: 'DELIVERED', date_time: '2026-01-05T12:00:00+0000' }],
          packages: [
            {
              items: [
                { ware_key: 'A', amount: 3, delivery_amount: 0 },
                { ware_key: 'B', amount: 1, delivery_amount: 1 },
              ],
            },
          ],
        },
      }),
    ).toEqual([expect.objectContaining({ statusCode: 47, buyout: { lines: [{ vendorCode: 'B', count: 1 }] } })]);
  });
});

describe('Boxberry', () => {
  const driver = (token = 'good-token') =>
    new BoxberryDriver(remote(1002, 'boxberry'), token, `${fakeBoxberry.baseUrl}/json.php`, () => '2026-01-10');

  it('checks the token, quotes a courier delivery by postal code', async () => {
    await expect(driver('bad').checkCredentials(signal())).rejects.toBeInstanceOf(CarrierAuthError);
    await driver().checkCredentials(signal());
    expect(await driver().quote(quoteRequest, signal())).toEqual([
      expect.objectContaining({ type: 2, priceDeliveryKopecks: 38950, days: { min: 3, max: 3 } }),
    ]);
    expect(await driver().quote({ ...quoteRequest, types: [1] }, signal())).toEqual([]);
  });

  it('quotes a pickup point by its code (target); a refused point leaves the courier price', async () => {
    expect(await driver().quote({ ...quoteRequest, types: [1], pointCode: '77961' }, signal())).toEqual([
      expect.objectContaining({
        type: 1,
        tariffName: 'Boxberry Пункт выдачи',
        priceDeliveryKopecks: 24900,
        days: { min: 4, max: 4 },
      }),
    ]);
    expect(boxberry.deliveryCostsQuery(quoteRequest, { type: 1, target: '77961' }, 0, 0)).toMatchObject({
      target: '77961',
      weight: '1200',
      depth: '30',
      width: '20',
      height: '10',
    });
    expect((await driver().quote({ ...quoteRequest, pointCode: 'GONE' }, signal())).map((quote) => quote.type)).toEqual(
      [2],
    );
    await expect(driver().quote({ ...quoteRequest, types: [1], pointCode: 'GONE' }, signal())).rejects.toThrow(
      'Пункт выдачи GONE не найден',
    );
  });

  it("sends the declared value and COD with DeliveryCosts; its price holds Boxberry's own fees, no commission added", async () => {
    const [quote] = await driver().quote(
      { ...quoteRequest, types: [2], declaredKopecks: 150_000, codKopecks: 120_050 },
      signal(),
    );
    expect(boxberry.deliveryCostsQuery(quoteRequest, { type: 2, zip: '190000' }, 1500, 1200.5)).toMatchObject({
      ordersum: '1500',
      paysum: '1200.5',
      zip: '190000',
    });
    // the fake's price: 389.50 + its fees on what was sent, 0.5% of ordersum 1500 + 1.5% of paysum 1200.50
    expect(quote).toMatchObject({
      type: 2,
      priceDeliveryKopecks: 41501,
      commissions: { declared: { percent: 0 }, codCash: { percent: 0 }, codCard: { percent: 0 } },
    });
  });

  it('a retry after a lost answer finds the parcel Boxberry made (the number is taken) and goes on with it', async () => {
    fakeBoxberry.loseNextCreate = true;
    await expect(driver().register(shipment('SITE-3'), signal())).rejects.toMatchObject({ transient: true });
    const again = await driver().register(shipment('SITE-3'), signal());
    expect(again.trackNumber).toBe(fakeBoxberry.created.get('SITE-3')?.track);
    expect(fakeBoxberry.calls.filter((call) => call === 'POST /json.php').length).toBeGreaterThanOrEqual(3);
    expect(new URLSearchParams(fakeBoxberry.bodies.get('POST /json.php')).get('method')).toBe('ParcelInfo');
    expect([...fakeBoxberry.created.keys()].filter((key) => key === 'SITE-3')).toHaveLength(1);
  });

  it('a retry after a connection dropped mid-answer (the parcel made) finds the parcel too', async () => {
    fakeBoxberry.dropNextCreate = true;
    await expect(driver().register(shipment('SITE-DROP'), signal())).rejects.toMatchObject({ transient: true });
    const again = await driver().register(shipment('SITE-DROP'), signal());
    expect(again.trackNumber).toBe(fakeBoxberry.created.get('SITE-DROP')?.track);
    expect([...fakeBoxberry.created.keys()].filter((key) => key === 'SITE-DROP')).toHaveLength(1);
  });

  it('sends the goods, the delivery charge and the sizes; the fake refuses what Boxberry does', async () => {
    await driver().register(shipmentRequest('SITE-BB-GOODS', 2, { sidesCm: null }), signal());
    const sdata = JSON.parse(new URLSearchParams(fakeBoxberry.bodies.get('POST /json.php')).get('sdata') ?? '{}');
    expect(sdata).toMatchObject({
      price: '1500.00',
      payment_sum: '1200.00',
      delivery_sum: '200.00',
      vid: '2',
      items: [{ id: 'TS-001', name: 'Футболка хлопковая', UnitName: 'шт.', nds: '20', price: '500', quantity: '2' }],
      weights: { weight: '1200', x: '10', y: '10', z: '10' },
    });
    expect(boxberryParcelRefusal(sdata)).toBeNull();
    expect(boxberryParcelRefusal({ ...sdata, items: [] })).toMatch(/items/);
    expect(boxberryParcelRefusal({ ...sdata, delivery_sum: '0.00' })).toMatch(/Сумма к оплате/);
    expect(boxberryParcelRefusal({ ...sdata, weights: { weight: '1200' } })).toMatch(/габариты/);
  });

  it('reads status times as Moscow time (Boxberry writes them without an offset)', () => {
    expect(boxberry.eventsOfStatuses('BB1', [{ Date: '2020-12-26 12:23:26', Name: 'Загружен реестр ИМ' }])).toEqual([
      expect.objectContaining({ statusCode: 13, at: '2020-12-26T09:23:26.000Z' }),
    ]);
    expect(boxberry.eventsOfStatuses('BB1', [{ Date: '2026-01-02T10:00:00', Name: 'Принято к доставке' }])[0].at).toBe(
      '2026-01-02T07:00:00.000Z',
    );
    // a time that says its offset keeps it
    expect(boxberry.eventsOfStatuses('BB1', [{ Date: '2026-01-02T10:00:00Z', Name: 'Принято к доставке' }])[0].at).toBe(
      '2026-01-02T10:00:00.000Z',
    );
  });

  it('reads refusals that come with HTTP 200, and 429/5xx as transient', async () => {
    fakeBoxberry.mode = 'invalid';
    await expect(driver().register(shipment('SITE-4'), signal())).rejects.toThrow(
      'Boxberry refused: Не указан телефон получателя',
    );
    fakeBoxberry.mode = '429';
    expect(
      (
        (await driver()
          .quote(quoteRequest, signal())
          .catch((caught: unknown) => caught)) as CarrierError
      ).transient,
    ).toBe(true);
  });

  it('label, track, extend hold, cancel, points', async () => {
    const { trackNumber } = await driver().register(shipment('SITE-5'), signal());
    expect((await driver().label(trackNumber, signal())).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await driver().track([trackNumber, 'UNKNOWN'], signal())).map((event) => event.statusCode)).toEqual([
      41, 42,
    ]);
    await driver().extendHold(trackNumber, 5, signal());
    await driver().cancel(trackNumber, signal());
    await expect(driver().schedulePickup()).rejects.toBeInstanceOf(CarrierError);
    expect(await driver().points(signal())).toEqual([
      expect.objectContaining({
        code: '77961',
        type: 1,
        latitude: 55.757,
        maxWeightGrams: 15000,
        cardPaymentAvailable: true,
      }),
    ]);
  });

  it('reads working hours (mapper)', () => {
    const schedule = boxberry.scheduleOf('пн-пт: 10.00-20.00, сб: 9.00-16.00');
    expect(schedule.slice(4)).toEqual([{ from: '10:00', to: '20:00' }, { from: '09:00', to: '16:00' }, null]);
    expect(boxberry.errorOf([{ err: 'x' }])).toBe('x');
  });
});

describe('Russian Post', () => {
  const driver = (token = 'good-token') =>
    new RussianPostDriver(
      remote(1003, 'russian-post'),
      {
        accessToken: token,
        login: 'shop',
        password: 'pass',
        indexFrom: '125009',
        trackingLogin: 't',
        trackingPassword: 'p',
      },
      { baseUrl: fakePost.baseUrl, trackingUrl: `${fakePost.baseUrl}/rtm34` },
    );

  it('checks credentials and quotes a parcel (rate plus VAT)', async () => {
    await expect(driver('bad').checkCredentials(signal())).rejects.toBeInstanceOf(CarrierAuthError);
    expect(await driver().quote(quoteRequest, signal())).toEqual([
      expect.objectContaining({ type: 3, priceDeliveryKopecks: 42000, days: { min: 2, max: 5 } }),
    ]);
    // a declared value: sent to the tariff, its insurance taken out of the price and shown as the declared-value commission
    const [declared] = await driver().quote({ ...quoteRequest, declaredKopecks: 200_000 }, signal());
    expect(JSON.parse(fakePost.bodies.get('POST /1.0/tariff') as string)).toMatchObject({
      'mail-category': 'WITH_DECLARED_VALUE',
      'declared-value': 200_000,
    });
    expect(declared).toMatchObject({ priceDeliveryKopecks: 42000, commissions: { declared: { percent: 3.6 } } });
  });

  it('registers; after a lost answer the retry finds the backlog order by its number', async () => {
    fakePost.loseNextCreate = true;
    await expect(driver().register(shipment('SITE-6', 3), signal())).rejects.toMatchObject({ transient: true });
    const registered = await driver().register(shipment('SITE-6', 3), signal());
    expect(registered.trackNumber).toBe(fakePost.created.get('SITE-6')?.track);
    expect(fakePost.calls.filter((call) => call === 'PUT /1.0/user/backlog')).toHaveLength(1);
  });

  it('says an order without a postal code cannot go (index-to is required), before asking; the fake refuses what the API does', async () => {
    const before = fakePost.calls.filter((call) => call === 'PUT /1.0/user/backlog').length;
    await expect(
      driver().register(
        shipmentRequest('SITE-NOZIP', 3, { address: { ...recipientAddress, postalCode: null } }),
        signal(),
      ),
    ).rejects.toThrow(/postal code/);
    expect(fakePost.calls.filter((call) => call === 'PUT /1.0/user/backlog')).toHaveLength(before);
  });

  it('names its validation errors', async () => {
    fakePost.mode = 'invalid';
    await expect(driver().register(shipment('SITE-7', 3), signal())).rejects.toThrow(/Не указан индекс получателя/);
  });

  it('label (f7p), tracking by the SOAP service, cancel', async () => {
    const { trackNumber } = await driver().register(shipment('SITE-8', 3), signal());
    expect((await driver().label(trackNumber, signal())).subarray(0, 5).toString()).toBe('%PDF-');
    const events = await driver().track([trackNumber], signal());
    expect(events.map((event) => [event.statusCode, event.description])).toEqual([
      [41, 'Единичный'],
      [42, 'Прибыло в место вручения'],
    ]);
    await driver().cancel(trackNumber, signal());
    expect(fakePost.calls).toContain('DELETE /1.0/backlog');
    expect(russianPost.faultOf('<env:Fault><env:Text>Bad login</env:Text></env:Fault>')).toBe('Bad login');
  });
});

describe('a company that asks to wait (Retry-After)', () => {
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (caught: unknown) => caught as CarrierError,
    );

  it('waits at least as long as a 429 says before the next attempt of a safe operation', async () => {
    const driver = cdekDriver();
    await driver.quote(quoteRequest, signal()); // token first
    fakeCdek.mode = '429';
    fakeCdek.retryAfter = '0.15';
    setTimeout(() => (fakeCdek.mode = 'ok'), 50);
    const before = fakeCdek.calls.length;
    const started = performance.now();
    await expect(driver.quote(quoteRequest, deadlineSignal(2000))).resolves.toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(fakeCdek.calls.length - before).toBe(2);
    expect(records.at(-1)).toMatchObject({ company: 'cdek', outcome: 'ok', attempts: 2 });
  });

  it("fails at once when the wait would outlast the caller's deadline, and holds the company's other calls until then", async () => {
    const driver = cdekDriver('good-secret', { ...FAST, breaker: { ...FAST.breaker, resetMs: 5000 } });
    await driver.quote(quoteRequest, signal());
    fakeCdek.mode = '429';
    fakeCdek.retryAfter = '2';
    const before = fakeCdek.calls.length;
    const started = performance.now();
    const error = await failure(driver.quote(quoteRequest, deadlineSignal(1000)));
    expect(error).toBeInstanceOf(CarrierRetryAfterError);
    expect(error).toMatchObject({ transient: true, retryAfterMs: 2000 });
    expect(performance.now() - started).toBeLessThan(500);
    expect(fakeCdek.calls.length - before).toBe(1);
    // the company said 2 s: the next call, whatever its deadline allows, does not ask it now
    fakeCdek.mode = 'ok';
    const held = await failure(driver.quote(quoteRequest, deadlineSignal(1000)));
    expect(held?.message).toMatch(/asked to wait 2 s/);
    expect(fakeCdek.calls.length - before).toBe(1);
    expect(records.slice(-2).map((record) => [record.outcome, record.attempts])).toEqual([
      ['throttled', 1],
      ['throttled', 0],
    ]);
  });

  it('does not open the circuit for 429s that say when to come back; 429s that do not say still count', async () => {
    const policy = { ...FAST, retries: 0, breaker: { ...FAST.breaker, consecutive: 3, volume: 100 } };
    const patient = cdekDriver('good-secret', policy);
    await patient.quote(quoteRequest, signal());
    fakeCdek.mode = '429';
    fakeCdek.retryAfter = '0';
    for (let index = 0; index < 5; index++) await patient.quote(quoteRequest, signal()).catch(() => undefined);
    expect(recorded.last.circuit).toBe('closed');
    fakeCdek.retryAfter = null;
    for (let index = 0; index < 3; index++) await patient.quote(quoteRequest, signal()).catch(() => undefined);
    expect(recorded.last.circuit).toBe('open');
  });

  it('reads Retry-After of a 503 into a transient error that still counts as a failure', async () => {
    const server = http.createServer((_request, response) =>
      response.writeHead(503, { 'retry-after': 'Wed, 21 Oct 2099 07:28:00 GMT' }).end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const error = await failure(exchange(1001, { method: 'GET', url }, signal()));
      expect(error).toBeInstanceOf(CarrierRetryAfterError);
      expect(error).toMatchObject({ transient: true, rateLimited: false, throttled: false });
      expect((error as CarrierRetryAfterError).retryAfterMs).toBeGreaterThan(1e9);
    } finally {
      server.close();
    }
  });
});

describe('remote call records', () => {
  it('name the company, operation, duration and outcome, never a credential', () => {
    recorded.expectClean(/good-secret|good-token|pass/);
  });
});
