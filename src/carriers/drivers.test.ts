import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCarrier, type FakeCarrier } from '../../test/support/fake-carrier.js';
import { readDataFile } from '../platform/reference-data.js';
import { HttpDriver, mapQuotes, mapTrackEvents } from './http/driver.js';
import { TariffDriver } from './tariff/driver.js';
import { toRateCard, type CompaniesFile } from './tariff/rate-card.js';
import { CarrierError, type QuoteRequest, type ShipmentRequest } from './types.js';

const file = readDataFile<CompaniesFile>('carriers/companies.json');
const punktir = file.companies.find((company) => company.id === 1)!;
const driver = new TariffDriver(
  punktir,
  toRateCard(punktir, file.zoneLimitsKm),
  (parcel) =>
    `http://delivery.test/track/${parcel.companyCode}/${parcel.trackNumber}/${parcel.accountId}.${parcel.orderId}`,
);
const signal = new AbortController().signal;
const order: ShipmentRequest = {
  orderId: 1234567,
  accountId: 5,
  type: 1,
  pointId: 10000001,
  recipientLocalityId: 498817,
  cargo: { weightGrams: 1000, volumeCm3: 0, places: [] },
  declaredKopecks: 0,
  codKopecks: 0,
};
const place = { latitude: 55.75, longitude: 37.62, regionCode: '48', localityId: 524901, population: 1e7 };
const request: QuoteRequest = {
  types: [2],
  sender: place,
  recipient: place,
  distanceKm: 0,
  cargo: { weightGrams: 1000, volumeCm3: 0, places: [] },
  priceMode: 1,
};

describe('tariff driver: register, cancel, track', () => {
  it('gives a deterministic track number with a check digit and a tracking URL', async () => {
    const first = await driver.register(order, signal);
    expect(first.trackNumber).toMatch(/^PT\d{11}$/);
    expect(first.trackingUrl).toBe(`http://delivery.test/track/punktir/${first.trackNumber}/5.1234567`);
    expect((await driver.register(order, signal)).trackNumber).toBe(first.trackNumber);
    expect((await driver.register({ ...order, orderId: 1234568 }, signal)).trackNumber).not.toBe(first.trackNumber);
    await expect(driver.register({ ...order, type: 3 }, signal)).rejects.toBeInstanceOf(CarrierError);
  });

  it('cancels and tracks only its own track numbers', async () => {
    const { trackNumber } = await driver.register(order, signal);
    await expect(driver.cancel(trackNumber, signal)).resolves.toBeUndefined();
    const mistyped = trackNumber.slice(0, -1) + String((Number(trackNumber.slice(-1)) + 1) % 10);
    await expect(driver.cancel(mistyped, signal)).rejects.toThrow(/not a track number/);
    const events = await driver.track([trackNumber, mistyped, 'XX1'], signal);
    expect(events).toEqual([{ trackNumber, statusCode: 13, at: expect.any(String), description: expect.any(String) }]);
  });

  it('refuses to work on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('late'));
    await expect(driver.quote(request, controller.signal)).rejects.toThrow('late');
  });
});

describe('http driver', () => {
  let fast: FakeCarrier;
  let broken: FakeCarrier;
  let garbage: FakeCarrier;
  beforeAll(async () => {
    [fast, broken, garbage] = await Promise.all([
      startFakeCarrier({ price: 410.5 }),
      startFakeCarrier({ mode: 'error' }),
      startFakeCarrier({ mode: 'garbage' }),
    ]);
  });
  afterAll(async () => Promise.all([fast, broken, garbage].map((carrier) => carrier.close())));

  it('maps remote answers to quotes in kopecks, dropping malformed ones and types not asked', () => {
    const quotes = mapQuotes(
      [
        {
          type: 2,
          price: 199.99,
          daysMin: 1,
          daysMax: 3,
          services: [{ id: 7, price: 20 }],
          codPercent: 2,
          codMinimum: 15,
        },
        { type: 1, price: 100, daysMin: 1, daysMax: 1 },
        { type: 2, price: 'free', daysMin: 1, daysMax: 1 },
        { type: 9, price: 1, daysMin: 1, daysMax: 1 },
      ],
      [2],
    );
    expect(quotes).toEqual([
      {
        type: 2,
        tariffName: null,
        priceDeliveryKopecks: 19999,
        days: { min: 1, max: 3 },
        services: [{ id: 7, priceKopecks: 2000 }],
        commissions: {
          declared: { percent: 0, minimumKopecks: 0 },
          codCash: { percent: 2, minimumKopecks: 1500 },
          codCard: { percent: 2, minimumKopecks: 1500 },
          acquiring: { percent: 0, minimumKopecks: 0 },
        },
      },
    ]);
    expect(mapQuotes({ quotes: [{ type: 2, price: 1, daysMin: 1, daysMax: 1 }] }, [2])).toHaveLength(1);
    expect(mapQuotes('nonsense', [2])).toEqual([]);
  });

  it('maps remote tracking events, with how the recipient paid when said, dropping malformed ones', () => {
    const now = new Date('2026-03-01T10:00:00Z');
    expect(
      mapTrackEvents(
        [
          {
            trackNumber: 'R1',
            statusCode: 44,
            at: '2026-03-01T09:00:00+03:00',
            description: 'Вручено',
            paymentMethod: 'card',
          },
          { trackNumber: 'R2', statusCode: 44, paymentMethod: 'cheque' },
          { trackNumber: 'R3', statusCode: 47, at: 'yesterday', paymentMethod: 'cash' },
          { trackNumber: '', statusCode: 44 },
          { trackNumber: 'R4', statusCode: '44' },
          null,
        ],
        now,
      ),
    ).toEqual([
      {
        trackNumber: 'R1',
        statusCode: 44,
        at: '2026-03-01T09:00:00+03:00',
        description: 'Вручено',
        paymentMethod: 'card',
      },
      { trackNumber: 'R2', statusCode: 44, at: now.toISOString(), description: '' },
      { trackNumber: 'R3', statusCode: 47, at: now.toISOString(), description: '', paymentMethod: 'cash' },
    ]);
    expect(mapTrackEvents({ events: [] })).toEqual([]);
  });

  it('quotes and registers over HTTP; errors and garbage become CarrierError', async () => {
    const quotes = await new HttpDriver(201, fast.baseUrl).quote(request, signal);
    expect(quotes[0]).toMatchObject({ type: 2, priceDeliveryKopecks: 41050, tariffName: 'Remote courier' });
    expect(await new HttpDriver(201, fast.baseUrl).register(order, signal)).toEqual({
      trackNumber: 'REMOTE1',
      trackingUrl: 'http://carrier.test/REMOTE1',
    });
    await expect(new HttpDriver(202, broken.baseUrl).quote(request, signal)).rejects.toThrow(/answered 502/);
    await expect(new HttpDriver(203, garbage.baseUrl).quote(request, signal)).rejects.toThrow(/not JSON/);
    await expect(new HttpDriver(204, 'http://127.0.0.1:1').quote(request, signal)).rejects.toBeInstanceOf(CarrierError);
  });

  it('stops waiting when the signal aborts', async () => {
    const slow = await startFakeCarrier({ delayMs: 500 });
    try {
      const started = performance.now();
      await expect(new HttpDriver(205, slow.baseUrl).quote(request, AbortSignal.timeout(50))).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(400);
    } finally {
      await slow.close();
    }
  });
});
