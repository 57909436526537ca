/**
 * Yandex Delivery ("other day" platform API) against a loopback fake answering in its
 * documented shapes: the driver (quote, register and its retry, label, cancel, tracking,
 * points, refusals, 401/429/5xx/timeouts, the breaker), then through the app: connecting
 * the contract, a quote from the calculator, an order registered with it, points imported.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { realCarrierEnv, type FakeRealCarrier } from '../../test/support/fake-real-carriers.js';
import { startFakeYandexDelivery, YANDEX_POINT, YANDEX_STATION } from '../../test/support/fake-yandex-delivery.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../test/support/orders.js';
import {
  expectCircuitCycle,
  FAST,
  quoteRequest,
  RecordedRemotes,
  shipmentRequest,
  signal,
} from '../../test/support/remote-companies.js';
import { YANDEX_DELIVERY_ID } from './contracts.js';
import { CarrierAuthError, type RemotePolicy } from './remote-call.js';
import { CarrierError, type ShipmentRequest } from './types.js';
import { YandexDeliveryDriver } from './yandex-delivery/driver.js';
import * as yandex from './yandex-delivery/mapper.js';

const shipment = (number: string, type: 1 | 2 = 2, codKopecks = 120_000): ShipmentRequest =>
  shipmentRequest(
    number,
    type,
    { pointCode: type === 1 ? YANDEX_POINT : null, comment: 'Позвонить за час' },
    codKopecks,
  );

const recorded = new RecordedRemotes();
const { records } = recorded;
const remote = (policy?: RemotePolicy) => recorded.remote(YANDEX_DELIVERY_ID, 'yandex-delivery', policy);

let fake: FakeRealCarrier;
beforeAll(async () => {
  fake = await startFakeYandexDelivery();
});
afterAll(async () => {
  recorded.shutdown();
  await fake.close();
});
afterEach(() => {
  fake.mode = 'ok';
  fake.delayMs = 0;
});

const driver = (token = 'good-token', policy?: RemotePolicy, stationId = YANDEX_STATION) =>
  new YandexDeliveryDriver(remote(policy), { token, stationId }, fake.baseUrl);
const sent = (call: string) => JSON.parse(fake.bodies.get(call) ?? '{}');
const countOf = (call: string) => fake.calls.filter((made) => made === call).length;

describe('Yandex Delivery driver', () => {
  it('checks the token: a refused one is an auth error, not retried', async () => {
    await expect(driver('wrong').checkCredentials(signal())).rejects.toBeInstanceOf(CarrierAuthError);
    await expect(driver().checkCredentials(signal())).resolves.toBeUndefined();
  });

  it('quotes a courier delivery to the locality and a pickup point by its id, in kopecks', async () => {
    const quotes = await driver().quote({ ...quoteRequest, pointCode: YANDEX_POINT }, signal());
    expect(quotes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 1,
          tariffName: 'Яндекс Доставка в пункт выдачи',
          priceDeliveryKopecks: 18950,
          days: { min: 3, max: 3 },
        }),
        expect.objectContaining({
          type: 2,
          tariffName: 'Яндекс Доставка курьером',
          priceDeliveryKopecks: 32570,
          days: { min: 2, max: 2 },
        }),
      ]),
    );
    expect(quotes).toHaveLength(2);
    expect(quotes[0].commissions.codCard).toEqual({ percent: 2.2, minimumKopecks: 0 });
    expect(yandex.pricingRequest(quoteRequest, 2, YANDEX_STATION)).toMatchObject({
      source: { platform_station_id: YANDEX_STATION },
      destination: { address: 'Санкт-Петербург' },
      tariff: 'time_interval',
      total_weight: 1200,
      total_assessed_price: 0,
      places: [{ physical_dims: { weight_gross: 1200, dx: 30, dy: 10, dz: 20 } }],
    });
    expect(yandex.pricingRequest({ ...quoteRequest, declaredKopecks: 150_000 }, 2, YANDEX_STATION)).toMatchObject({
      total_assessed_price: 150_000,
      client_price: 0,
      payment_method: 'already_paid',
    });
    // no point in the locality: no type 1; a refused point leaves the courier price
    expect((await driver().quote(quoteRequest, signal())).map((quote) => quote.type)).toEqual([2]);
    expect((await driver().quote({ ...quoteRequest, pointCode: 'GONE' }, signal())).map((quote) => quote.type)).toEqual(
      [2],
    );
    await expect(driver().quote({ ...quoteRequest, types: [1], pointCode: 'GONE' }, signal())).rejects.toThrow(
      'No delivery options for interval (no_delivery_options)',
    );
  });

  it('names its refusals {code, message}: a wrong station, a validation error', async () => {
    await expect(driver('good-token', FAST, 'unknown-station').quote(quoteRequest, signal())).rejects.toThrow(
      'Yandex Delivery refused: Cant get station id for point (bad_request)',
    );
    fake.mode = 'invalid';
    const error = (await driver()
      .register(shipment('YD-INVALID'), signal())
      .catch((caught: unknown) => caught)) as CarrierError;
    expect(error).toBeInstanceOf(CarrierError);
    expect(error.transient).toBe(false);
    expect(error.message).toBe('Yandex Delivery refused: Cannot parse destination info (bad_request)');
  });

  it('registers: offers/create, the cheapest offer confirmed; its request id is the track number', async () => {
    const registered = await driver().register(shipment('YD-1'), signal());
    expect(registered.trackNumber).toBe(fake.created.get('YD-1')?.track);
    expect(registered.trackingUrl).toBe(`https://dostavka.yandex.ru/route/${registered.trackNumber}`);
    expect(sent('POST /api/b2b/platform/offers/confirm')).toEqual({ offer_id: expect.stringMatching(/-b$/) });
    expect(sent('POST /api/b2b/platform/offers/create')).toMatchObject({
      info: { operator_request_id: 'YD-1', comment: 'Позвонить за час' },
      source: { platform_station: { platform_id: YANDEX_STATION } },
      destination: {
        type: 'custom_location',
        custom_location: {
          details: { full_address: 'Санкт-Петербург, Невский проспект, 1', apartment: '5', postal_code: '190000' },
        },
      },
      // the goods per unit (kopecks) and the delivery charge apart: 2 × 500 ₽ + 200 ₽ collected
      items: [
        {
          count: 2,
          name: 'Футболка хлопковая',
          article: 'TS-001',
          billing_details: { unit_price: 50_000, assessed_unit_price: 75_000 },
          place_barcode: `${shipment('YD-1').orderId}-1`,
        },
      ],
      places: [
        { barcode: `${shipment('YD-1').orderId}-1`, physical_dims: { weight_gross: 1200, dx: 30, dy: 10, dz: 20 } },
      ],
      billing_info: { payment_method: 'card_on_receipt', delivery_cost: 20_000 },
      recipient_info: { first_name: 'Светлана', last_name: 'Котова', patronymic: 'Ивановна', phone: '+79215556677' },
      last_mile_policy: 'time_interval',
    });
    // to a pickup point, prepaid
    await driver().register(shipment('YD-PVZ', 1, 0), signal());
    expect(sent('POST /api/b2b/platform/offers/create')).toMatchObject({
      destination: { type: 'platform_station', platform_station: { platform_id: YANDEX_POINT } },
      billing_info: { payment_method: 'already_paid' },
      last_mile_policy: 'self_pickup',
    });
  });

  it('a retry after a lost confirmation finds the order by its number instead of making a second', async () => {
    fake.loseNextCreate = true;
    const lost = (await driver()
      .register(shipment('YD-2'), signal())
      .catch((caught: unknown) => caught)) as CarrierError;
    expect(lost).toBeInstanceOf(CarrierError);
    expect(lost.transient).toBe(true);
    const confirmations = countOf('POST /api/b2b/platform/offers/confirm');
    const again = await driver().register(shipment('YD-2'), signal());
    expect(again.trackNumber).toBe(fake.created.get('YD-2')?.track);
    expect(countOf('POST /api/b2b/platform/offers/confirm')).toBe(confirmations);
    // and asking a third time (a retried job) still makes nothing new
    expect((await driver().register(shipment('YD-2'), signal())).trackNumber).toBe(again.trackNumber);
    expect(countOf('POST /api/b2b/platform/offers/confirm')).toBe(confirmations);
  });

  it('never retries a confirmation while Yandex fails (the lookup is retried, the creation never reached)', async () => {
    fake.mode = '500';
    const before = fake.calls.length;
    await expect(
      driver('good-token', { ...FAST, breaker: { ...FAST.breaker, volume: 100 } }).register(
        shipment('YD-500'),
        signal(),
      ),
    ).rejects.toMatchObject({ transient: true });
    const made = fake.calls.slice(before);
    expect(made.filter((call) => call === 'GET /api/b2b/platform/request/info')).toHaveLength(3);
    expect(made.filter((call) => call === 'POST /api/b2b/platform/offers/confirm')).toHaveLength(0);
  });

  it('retries a quote after 429 and 5xx with back-off, then gives up as transient; a 401 is an auth error', async () => {
    const company = driver('good-token', { ...FAST, breaker: { ...FAST.breaker, volume: 100 } });
    for (const mode of ['429', '500'] as const) {
      fake.mode = mode;
      const before = fake.calls.length;
      const error = (await company.quote(quoteRequest, signal()).catch((caught: unknown) => caught)) as CarrierError;
      expect(error.transient).toBe(true);
      expect(fake.calls.length - before).toBe(3);
    }
    fake.mode = 'auth';
    await expect(company.quote(quoteRequest, signal())).rejects.toBeInstanceOf(CarrierAuthError);
  });

  it("times out a company that does not answer, within the caller's deadline", async () => {
    fake.mode = 'slow';
    fake.delayMs = 1000;
    const started = performance.now();
    const error = (await driver('good-token', { ...FAST, retries: 0 })
      .quote(quoteRequest, AbortSignal.timeout(5000))
      .catch((caught: unknown) => caught)) as CarrierError;
    expect(error.message).toMatch(/no answer within 300 ms/);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(records.some((record) => record.company === 'yandex-delivery' && record.outcome === 'timeout')).toBe(true);
  });

  it('opens the circuit on a failing company, answers at once while open, closes after a good half-open call', async () => {
    const company = driver('good-token', { ...FAST, retries: 0 });
    await expectCircuitCycle(recorded.last, fake, records, () => company.quote(quoteRequest, signal()), 1);
  });

  it("prints Yandex's own label, tracks by the status history, cancels", async () => {
    const { trackNumber } = await driver().register(shipment('YD-3'), signal());
    expect((await driver().label(trackNumber, signal())).subarray(0, 5).toString()).toBe('%PDF-');
    expect(sent('POST /api/b2b/platform/request/generate-labels')).toEqual({
      request_ids: [trackNumber],
      generate_type: 'one',
      language: 'ru',
    });
    await expect(driver().label('unknown-udp', signal())).rejects.toThrow(
      /Order with ID unknown-udp not found \(not_found\)/,
    );
    const events = await driver().track([trackNumber, 'unknown-udp'], signal());
    expect(events.map((event) => [event.statusCode, event.description])).toEqual([
      [13, 'Заказ создан в операторе'],
      [41, 'Поступил в сортировочный центр'],
      [411, 'В пути к пункту выдачи'],
      [42, 'Прибыл в пункт выдачи'],
    ]);
    expect(events[1].at).toBe('2026-02-02T09:00:00.000Z');
    await driver().cancel(trackNumber, signal());
    expect(sent('POST /api/b2b/platform/request/cancel')).toEqual({ request_id: trackNumber });
    await expect(driver().cancel(trackNumber, signal())).rejects.toThrow(
      'Yandex Delivery refused: Заказ уже отменён ALREADY_CANCELLED',
    );
    await expect(driver().cancel('unknown-udp', signal())).resolves.toBeUndefined();
  });

  it('reads its pickup-point directory: points and lockers, with schedule and payment flags', async () => {
    const points = await driver().points(signal());
    expect(points.map((point) => point.code)).toEqual([YANDEX_POINT, '0198602de4a6749aba12e151bdf4caaa']);
    expect(points[0]).toMatchObject({
      type: 1,
      name: 'Пункт выдачи заказов Яндекс Маркета',
      countryCode: 'RU',
      city: 'Москва',
      postalCode: '125167',
      address: 'Москва, Ленинградский проспект, 37к9',
      cashPaymentAvailable: false,
      cardPaymentAvailable: true,
      fittingAvailable: true,
      maxWeightGrams: null,
      description: 'Вход со двора',
    });
    expect(points[0].schedule).toEqual([
      ...Array(5).fill({ from: '10:00', to: '21:00' }),
      { from: '10:00', to: '18:30' },
      null,
    ]);
    expect(points[1]).toMatchObject({
      type: 2,
      cardPaymentAvailable: false,
      schedule: Array(7).fill({ from: '00:00', to: '24:00' }),
    });
  });

  it('refuses what its API does not do here with a sentence: pickups, storage extension', async () => {
    await expect(driver().schedulePickup()).rejects.toThrow(/handed in at the platform station/);
    await expect(driver().extendHold()).rejects.toBeInstanceOf(CarrierError);
    expect(await driver().pickupProgress()).toMatchObject({ state: 'canceled' });
  });

  it('maps statuses, cancel reasons and prices (mapper)', () => {
    expect(yandex.statusCodeOf('DELIVERY_DELIVERED')).toBe(44);
    expect(yandex.statusCodeOf('CANCELLED', 'SHOP_CANCELLED')).toBe(10);
    expect(yandex.statusCodeOf('CANCELLED', 'USER_CHANGED_MIND')).toBe(461);
    expect(yandex.statusCodeOf('RETURN_RETURNED')).toBe(72);
    expect(yandex.statusCodeOf('FINISHED')).toBeNull();
    expect(yandex.kopecksOf('1400.96 RUB')).toBe(140096);
    expect(yandex.kopecksOf('n/a')).toBeNull();
    expect(yandex.problemOf({ code: 'not_found', message: 'Order not found' })).toBe('Order not found (not_found)');
  });

  it('records every call with company, operation, duration and outcome, never the token', () => {
    recorded.expectClean(/good-token/);
  });
});

describe('Yandex Delivery through the app', () => {
  let t: TestApp;
  let account: OrderingAccount;
  const connect = { params: { token: 'good-token', platformStationId: YANDEX_STATION } };
  const calculatorBody = { reception: { cityName: 'Санкт-Петербург' }, sender: { cityName: 'Москва' }, pickupType: 1 };

  beforeAll(async () => {
    t = await createTestApp({ env: realCarrierEnv({ yandex: fake }) });
    account = await orderingAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists Yandex Delivery with its parameters and test environment; connects it checked with Yandex', async () => {
    const listed = (await account.owner.get('/v2/carrier-integrations')).body.find(
      (item: { companyId: number }) => item.companyId === YANDEX_DELIVERY_ID,
    );
    expect(listed).toMatchObject({
      code: 'yandex-delivery',
      name: 'Яндекс Доставка',
      connected: false,
      hasTestEnvironment: true,
      deliveryTypes: [1, 2],
      integrationParams: [
        { key: 'token', value: '' },
        { key: 'platformStationId', value: '' },
      ],
    });
    const refused = await account.owner.post(`/v2/carrier-integrations/${YANDEX_DELIVERY_ID}`, {
      params: { ...connect.params, token: 'wrong-token' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('carrier_auth_failed');
    const connected = await account.owner.post(`/v2/carrier-integrations/${YANDEX_DELIVERY_ID}`, {
      ...connect,
      testMode: true,
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(204);
    const after = (await account.owner.get('/v2/carrier-integrations')).body.find(
      (item: { companyId: number }) => item.companyId === YANDEX_DELIVERY_ID,
    );
    expect(after).toMatchObject({ connected: true, testMode: true });
  });

  it('quotes a courier delivery from /v2/calculator (deliveryDriver yandex-delivery)', async () => {
    const answer = await account.owner.post('/v2/calculator', calculatorBody);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const courier = answer.body['2'].find(
      (option: { deliveryCompanyId: number }) => option.deliveryCompanyId === YANDEX_DELIVERY_ID,
    );
    expect(courier).toMatchObject({
      deliveryDriver: 'yandex-delivery',
      deliveryCompanyName: 'Яндекс Доставка',
      priceDelivery: 325.7,
      tariffName: 'Яндекс Доставка курьером',
    });
  });

  it('creates an order that registers with Yandex: the track number is its request id', async () => {
    const body = orderBody(
      { shopId: account.shopId, pointId: account.pointId },
      { cmsId: 'YD-APP-1', delivery: { company: { id: YANDEX_DELIVERY_ID }, type: 2 } },
    );
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, body);
    expect(trackNumber).toBe(fake.created.get('YD-APP-1')?.track);
    const order = (await account.owner.get(`/v2/orders/${id}`)).body;
    expect(order.delivery).toMatchObject({ testMode: true });
  });

  it('imports its pickup points, offered as type 1 in the calculator with their price', async () => {
    expect(await t.runtime.services.carrierPoints.importPoints(YANDEX_DELIVERY_ID)).toMatchObject({
      accountId: account.accountId,
      visible: 2,
      added: 2,
    });
    const points = (await account.owner.get(`/v2/lists/points?companyId=${YANDEX_DELIVERY_ID}`)).body as Array<{
      name: string;
      cashPaymentAvailable: boolean;
    }>;
    expect(points.map((point) => point.name).sort()).toEqual([
      'Постамат Яндекс Маркета',
      'Пункт выдачи заказов Яндекс Маркета',
    ]);
    expect(points.every((point) => point.cashPaymentAvailable === false)).toBe(true);
    const answer = await account.owner.post('/v2/calculator', {
      ...calculatorBody,
      reception: { cityName: 'Москва' },
      sender: { cityName: 'Санкт-Петербург' },
    });
    const option = answer.body['1'].find(
      (item: { deliveryCompanyId: number }) => item.deliveryCompanyId === YANDEX_DELIVERY_ID,
    );
    expect(
      option,
      JSON.stringify(answer.body['1'].map((item: { deliveryCompanyId: number }) => item.deliveryCompanyId)),
    ).toMatchObject({ tariffName: 'Яндекс Доставка в пункт выдачи', deliveryPlanDays: { min: 3, max: 3 } });
    expect(JSON.parse(fake.bodies.get('POST /api/b2b/platform/pricing-calculator') ?? '{}')).toMatchObject({
      tariff: expect.any(String),
      source: { platform_station_id: YANDEX_STATION },
    });
  });
});
