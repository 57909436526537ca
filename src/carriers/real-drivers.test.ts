/**
 * The real companies' drivers against loopback fakes answering in their documented shapes:
 * quote, register (and its retry), label, cancel, track, pickup, points; validation
 * refusals, refused credentials, 429, 5xx, timeouts; the circuit breaker opening and closing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBoxberry, startFakeCdek, startFakeRussianPost, type FakeRealCarrier } from '../../test/support/fake-real-carriers.js';
import { expectCircuitCycle, FAST, quoteRequest, RecordedRemotes, shipmentRequest, signal } from '../../test/support/remote-companies.js';
import { BoxberryDriver } from './boxberry/driver.js';
import * as boxberry from './boxberry/mapper.js';
import { CdekDriver } from './cdek/driver.js';
import * as cdek from './cdek/mapper.js';
import { CarrierAuthError, type RemotePolicy } from './remote-call.js';
import { RussianPostDriver } from './russian-post/driver.js';
import * as russianPost from './russian-post/mapper.js';
import { CarrierError, type PickupRequest, type ShipmentRequest } from './types.js';

const shipment = (number: string, type: 1 | 2 | 3 = 2): ShipmentRequest => shipmentRequest(number, type, { pointCode: type === 1 ? 'MSK123' : null });
const pickup: PickupRequest = { pickupId: 1, accountId: 1, type: 4, date: '2026-02-02', hours: { from: '10:00', to: '18:00' }, address: { countryCode: 'RU', city: 'Москва', region: null, street: 'Тверская', house: '1', bulk: null, flat: null }, contact: { name: 'Иван', phone: '+74950000000' }, weightKg: 5, countOrders: 3, comment: null };

const recorded = new RecordedRemotes();
const { records } = recorded;
const remote = (companyId: number, code: string, policy?: RemotePolicy) => recorded.remote(companyId, code, policy);

let fakeCdek: FakeRealCarrier;
let fakeBoxberry: FakeRealCarrier;
let fakePost: FakeRealCarrier;
beforeAll(async () => {
  [fakeCdek, fakeBoxberry, fakePost] = await Promise.all([startFakeCdek(), startFakeBoxberry(), startFakeRussianPost()]);
});
afterAll(async () => {
  recorded.shutdown();
  await Promise.all([fakeCdek.close(), fakeBoxberry.close(), fakePost.close()]);
});
afterEach(() => {
  for (const fake of [fakeCdek, fakeBoxberry, fakePost]) {
    fake.mode = 'ok';
    fake.delayMs = 0;
  }
});

const cdekDriver = (secret = 'good-secret', policy?: RemotePolicy) => new CdekDriver(remote(1001, 'cdek', policy), { clientId: 'good-id', clientSecret: secret }, { baseUrl: `${fakeCdek.baseUrl}/v2`, settleMs: 5 });

describe('CDEK', () => {
  it('quotes the cheapest tariff per delivery type, in kopecks, with one token for many calls', async () => {
    const driver = cdekDriver();
    const quotes = await driver.quote(quoteRequest, signal());
    expect(quotes).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 1, tariffName: 'Посылка склад-постамат', priceDeliveryKopecks: 29000, days: { min: 3, max: 4 } }),
      expect.objectContaining({ type: 2, tariffName: 'Посылка склад-дверь', priceDeliveryKopecks: 45000 }),
    ]));
    await driver.quote(quoteRequest, signal());
    expect(fakeCdek.calls.filter((call) => call === 'POST /v2/oauth/token')).toHaveLength(1);
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
    expect(registered.trackNumber).toBe(fakeCdek.created.get('SITE-1')?.track);
    expect(fakeCdek.calls.filter((call) => call === 'POST /v2/orders')).toHaveLength(1);
    expect(registered.trackingUrl).toContain(registered.trackNumber);
  });

  it('gives CDEK\'s validation errors as a refusal naming them', async () => {
    fakeCdek.mode = 'invalid';
    const error = (await cdekDriver().quote(quoteRequest, signal()).catch((caught: unknown) => caught)) as CarrierError;
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

  it('times out a company that does not answer, within the caller\'s deadline', async () => {
    const driver = cdekDriver();
    await driver.quote(quoteRequest, signal());
    fakeCdek.mode = 'slow';
    fakeCdek.delayMs = 1000;
    const started = performance.now();
    const error = (await driver.quote(quoteRequest, AbortSignal.timeout(5000)).catch((caught: unknown) => caught)) as CarrierError;
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

  it('prints CDEK\'s own label, cancels, tracks, books and follows a pickup, reads its points', async () => {
    const driver = cdekDriver();
    const { trackNumber } = await driver.register(shipment('SITE-2', 1), signal());
    expect((await driver.label(trackNumber, signal())).subarray(0, 5).toString()).toBe('%PDF-');
    const events = await driver.track([trackNumber, '999'], signal());
    expect(events.map((event) => event.statusCode)).toEqual([13, 41, 42]);
    await driver.cancel(trackNumber, signal());
    expect(fakeCdek.calls).toContain('DELETE /v2/orders/' + fakeCdek.created.get('SITE-2')?.uuid);
    const booking = await driver.schedulePickup(pickup, signal());
    expect(booking).toEqual({ number: 'intake-1', timeFrom: '10:00', timeTo: '18:00' });
    expect(await driver.pickupProgress(booking.number, signal())).toEqual({ state: 'done' });
    await driver.cancelPickup(booking.number, signal());
    await expect(driver.extendHold()).rejects.toBeInstanceOf(CarrierError);
    const points = await driver.points(signal());
    expect(points).toHaveLength(2);
    expect(points[0]).toMatchObject({ code: 'MSK123', type: 1, city: 'Москва', cashPaymentAvailable: true, fittingAvailable: true, maxWeightGrams: 30000 });
    expect(points[0].schedule[0]).toEqual({ from: '10:00', to: '20:00' });
    expect(points[1]).toMatchObject({ code: 'MSK900', type: 2, cashPaymentAvailable: false });
  });

  it('maps the ORDER_STATUS webhook (mapper)', () => {
    expect(cdek.eventOfWebhook({ type: 'ORDER_STATUS', date_time: '2026-01-01T10:00:00+0700', uuid: 'u', attributes: { cdek_number: '1106', code: 'DELIVERED', status_date_time: '2026-01-01T10:00:00+0700' } })).toMatchObject({ trackNumber: '1106', statusCode: 44, at: '2026-01-01T03:00:00.000Z' });
    expect(cdek.eventOfWebhook({ type: 'PRINT_FORM', attributes: {} })).toBeNull();
    expect(cdek.problemsOf({ requests: [{ errors: [{ code: 'a', message: 'b' }] }], errors: [{ code: 'c' }] })).toEqual([{ code: 'c', message: 'c' }, { code: 'a', message: 'b' }]);
  });
});

describe('Boxberry', () => {
  const driver = (token = 'good-token') => new BoxberryDriver(remote(1002, 'boxberry'), token, `${fakeBoxberry.baseUrl}/json.php`, () => '2026-01-10');

  it('checks the token, quotes a courier delivery by postal code', async () => {
    await expect(driver('bad').checkCredentials(signal())).rejects.toBeInstanceOf(CarrierAuthError);
    await driver().checkCredentials(signal());
    expect(await driver().quote(quoteRequest, signal())).toEqual([expect.objectContaining({ type: 2, priceDeliveryKopecks: 38950, days: { min: 3, max: 3 } })]);
    expect(await driver().quote({ ...quoteRequest, types: [1] }, signal())).toEqual([]);
  });

  it('quotes a pickup point by its code (target); a refused point leaves the courier price', async () => {
    expect(await driver().quote({ ...quoteRequest, types: [1], pointCode: '77961' }, signal())).toEqual([expect.objectContaining({ type: 1, tariffName: 'Boxberry Пункт выдачи', priceDeliveryKopecks: 24900, days: { min: 4, max: 4 } })]);
    expect(boxberry.deliveryCostsQuery(quoteRequest, { type: 1, target: '77961' }, 0, 0)).toMatchObject({ target: '77961', weight: '1200', depth: '30', width: '20', height: '10' });
    expect((await driver().quote({ ...quoteRequest, pointCode: 'GONE' }, signal())).map((quote) => quote.type)).toEqual([2]);
    await expect(driver().quote({ ...quoteRequest, types: [1], pointCode: 'GONE' }, signal())).rejects.toThrow('Пункт выдачи GONE не найден');
  });

  it('registers create-or-update by order number: asking twice gives one parcel', async () => {
    const first = await driver().register(shipment('SITE-3'), signal());
    const again = await driver().register(shipment('SITE-3'), signal());
    expect(again.trackNumber).toBe(first.trackNumber);
    expect([...fakeBoxberry.created.keys()].filter((key) => key === 'SITE-3')).toHaveLength(1);
  });

  it('reads refusals that come with HTTP 200, and 429/5xx as transient', async () => {
    fakeBoxberry.mode = 'invalid';
    await expect(driver().register(shipment('SITE-4'), signal())).rejects.toThrow('Boxberry refused: Не указан телефон получателя');
    fakeBoxberry.mode = '429';
    expect(((await driver().quote(quoteRequest, signal()).catch((caught: unknown) => caught)) as CarrierError).transient).toBe(true);
  });

  it('label, track, extend hold, cancel, points', async () => {
    const { trackNumber } = await driver().register(shipment('SITE-5'), signal());
    expect((await driver().label(trackNumber, signal())).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await driver().track([trackNumber, 'UNKNOWN'], signal())).map((event) => event.statusCode)).toEqual([41, 42]);
    await driver().extendHold(trackNumber, 5, signal());
    await driver().cancel(trackNumber, signal());
    await expect(driver().schedulePickup()).rejects.toBeInstanceOf(CarrierError);
    expect(await driver().points(signal())).toEqual([expect.objectContaining({ code: '77961', type: 1, latitude: 55.757, maxWeightGrams: 15000, cardPaymentAvailable: true })]);
  });

  it('reads working hours (mapper)', () => {
    const schedule = boxberry.scheduleOf('пн-пт: 10.00-20.00, сб: 9.00-16.00');
    expect(schedule.slice(4)).toEqual([{ from: '10:00', to: '20:00' }, { from: '09:00', to: '16:00' }, null]);
    expect(boxberry.errorOf([{ err: 'x' }])).toBe('x');
  });
});

describe('Russian Post', () => {
  const driver = (token = 'good-token') =>
    new RussianPostDriver(remote(1003, 'russian-post'), { accessToken: token, login: 'shop', password: 'pass', indexFrom: '125009', trackingLogin: 't', trackingPassword: 'p' }, { baseUrl: fakePost.baseUrl, trackingUrl: `${fakePost.baseUrl}/rtm34` });

  it('checks credentials and quotes a parcel (rate plus VAT)', async () => {
    await expect(driver('bad').checkCredentials(signal())).rejects.toBeInstanceOf(CarrierAuthError);
    expect(await driver().quote(quoteRequest, signal())).toEqual([expect.objectContaining({ type: 3, priceDeliveryKopecks: 42000, days: { min: 2, max: 5 } })]);
  });

  it('registers; after a lost answer the retry finds the backlog order by its number', async () => {
    fakePost.loseNextCreate = true;
    await expect(driver().register(shipment('SITE-6', 3), signal())).rejects.toMatchObject({ transient: true });
    const registered = await driver().register(shipment('SITE-6', 3), signal());
    expect(registered.trackNumber).toBe(fakePost.created.get('SITE-6')?.track);
    expect(fakePost.calls.filter((call) => call === 'PUT /1.0/user/backlog')).toHaveLength(1);
  });

  it('names its validation errors', async () => {
    fakePost.mode = 'invalid';
    await expect(driver().register(shipment('SITE-7', 3), signal())).rejects.toThrow(/Не указан индекс получателя/);
  });

  it('label (f7p), tracking by the SOAP service, cancel', async () => {
    const { trackNumber } = await driver().register(shipment('SITE-8', 3), signal());
    expect((await driver().label(trackNumber, signal())).subarray(0, 5).toString()).toBe('%PDF-');
    const events = await driver().track([trackNumber], signal());
    expect(events.map((event) => [event.statusCode, event.description])).toEqual([[41, 'Единичный'], [42, 'Прибыло в место вручения']]);
    await driver().cancel(trackNumber, signal());
    expect(fakePost.calls).toContain('DELETE /1.0/backlog');
    expect(russianPost.faultOf('<env:Fault><env:Text>Bad login</env:Text></env:Fault>')).toBe('Bad login');
  });
});

describe('remote call records', () => {
  it('name the company, operation, duration and outcome, never a credential', () => {
    recorded.expectClean(/good-secret|good-token|pass/);
  });
});
