/**
 * Return parcels with the companies' own return products, against their fakes: CDEK's client
 * return (only of an order it delivered, with a tariff back) and Russian Post's return of a
 * registered parcel (only of a delivered one, as a parcel); each fake refuses what the company's
 * documentation refuses, and the driver says so as a refusal, never retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCdek, startFakeRussianPost, type FakeRealCarrier } from '../../test/support/fake-real-carriers.js';
import { RecordedRemotes, shipmentRequest, signal } from '../../test/support/remote-companies.js';
import { CdekDriver } from './cdek/driver.js';
import { cdekNumberOf } from './cdek/mapper.js';
import { RussianPostDriver } from './russian-post/driver.js';
import { CarrierError, type ShipmentRequest } from './types.js';

const recorded = new RecordedRemotes();
let fakeCdek: FakeRealCarrier;
let fakePost: FakeRealCarrier;
beforeAll(async () => {
  [fakeCdek, fakePost] = await Promise.all([startFakeCdek(), startFakeRussianPost()]);
});
afterAll(async () => {
  recorded.shutdown();
  await Promise.all([fakeCdek.close(), fakePost.close()]);
});

const returnOf = (number: string, originalTrackNumber: string | null): ShipmentRequest => ({
  ...shipmentRequest(number, 2),
  returnParcel: { code: 'R0123456789', originalOrderId: 1, originalTrackNumber },
});

describe("CDEK's client return", () => {
  const driver = () =>
    new CdekDriver(
      recorded.remote(1001, 'cdek'),
      { clientId: 'good-id', clientSecret: 'good-secret' },
      { baseUrl: `${fakeCdek.baseUrl}/v2`, settleMs: 5 },
    );

  it('refuses a return of an order not yet delivered, then registers it once CDEK has delivered it', async () => {
    const direct = await driver().register(shipmentRequest('SHOP-100', 2), signal());
    const refused = await driver()
      .register(returnOf('SHOP-100-R1', direct.trackNumber), signal())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CarrierError);
    expect((refused as CarrierError).transient).toBe(false);
    expect((refused as CarrierError).message).toContain('only of an order it has delivered');
    expect(fakeCdek.calls.filter((call) => call.endsWith('/clientReturn'))).toEqual([]);

    fakeCdek.delivered.add(direct.trackNumber);
    const made = await driver().register(returnOf('SHOP-100-R2', direct.trackNumber), signal());
    const number = cdekNumberOf(shipmentRequest('SHOP-100', 2));
    expect(made.trackNumber).toBe(fakeCdek.created.get(`return-of-${number}`)?.track);
    expect(made.trackNumber).not.toBe(direct.trackNumber);
    const uuid = fakeCdek.created.get(number)?.uuid;
    expect(fakeCdek.calls).toContain(`POST /v2/orders/${uuid}/clientReturn`);
    expect(JSON.parse(fakeCdek.bodies.get(`POST /v2/orders/${uuid}/clientReturn`) ?? '{}')).toEqual({
      tariff_code: expect.any(Number),
    });
  });

  it('registers a return of a parcel CDEK does not know as an ordinary order back', async () => {
    const before = fakeCdek.calls.filter((call) => call === 'POST /v2/orders').length;
    const made = await driver().register(returnOf('SHOP-200-R1', '9999999999'), signal());
    expect(made.trackNumber).toBe(fakeCdek.created.get(cdekNumberOf(returnOf('SHOP-200-R1', null)))?.track);
    expect(fakeCdek.calls.filter((call) => call === 'POST /v2/orders').length).toBe(before + 1);
  });
});

describe("Russian Post's return of a registered parcel", () => {
  const driver = () =>
    new RussianPostDriver(
      recorded.remote(1003, 'russian-post'),
      {
        accessToken: 'good-token',
        login: 'shop',
        password: 'pass',
        indexFrom: '125009',
        trackingLogin: 't',
        trackingPassword: 'p',
      },
      { baseUrl: fakePost.baseUrl, trackingUrl: `${fakePost.baseUrl}/rtm34` },
    );
  const post = (number: string): ShipmentRequest => ({
    ...shipmentRequest(number, 3),
    details: {
      ...(shipmentRequest(number, 3).details as NonNullable<ShipmentRequest['details']>),
      pointCode: '101000',
    },
  });

  it('refuses an unknown or undelivered parcel, and gives a delivered one a return barcode of its own', async () => {
    const direct = await driver().register(post('POST-1'), signal());
    for (const original of ['80000000000000', direct.trackNumber]) {
      const refused = await driver()
        .register(
          { ...post('POST-1-R'), returnParcel: { code: null, originalOrderId: 1, originalTrackNumber: original } },
          signal(),
        )
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(CarrierError);
      expect((refused as CarrierError).transient).toBe(false);
    }
    fakePost.delivered.add(direct.trackNumber);
    const made = await driver().register(
      {
        ...post('POST-1-R'),
        returnParcel: { code: null, originalOrderId: 1, originalTrackNumber: direct.trackNumber },
      },
      signal(),
    );
    expect(made.trackNumber).toBe(fakePost.created.get(`return-of-${direct.trackNumber}`)?.track);
    expect(JSON.parse(fakePost.bodies.get('PUT /1.0/returns') ?? '{}')).toEqual({
      'direct-barcode': direct.trackNumber,
      'mail-type': 'POSTAL_PARCEL',
    });
  });
});
