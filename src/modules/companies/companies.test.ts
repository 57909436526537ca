import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';

let t: TestApp;
let owner: ApiClient;
const MOSCOW = '0c5b2444-70a0-4932-980c-b4dc0d3f02b5';

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
});
afterAll(async () => t.close());

describe('shipment methods and options', () => {
  it('answers the shipment methods of a region and of one city', async () => {
    const region = await owner.get(`/v2/warehouses/shipment?countryCode=RU&region=${encodeURIComponent('Москва')}`);
    expect(region.status).toBe(200);
    expect(Object.keys(region.body).sort()).toEqual(['1', '2', '3', '4', 'companiesForExceptions']);
    expect(region.body['1'].available).toBe(true);
    expect(region.body['1'].companies.map((company: { id: number }) => company.id)).not.toContain(4);
    expect(region.body['4'].companies.map((company: { id: number }) => company.id)).toContain(4);
    expect(region.body['2'].mergedWarehouses[0]).toMatchObject({ id: 1, type: 'sorting', sortingPrice: 15 });
    expect(region.body['2'].mergedWarehouses[0].schedule).toHaveLength(7);
    expect(region.body['3']).toMatchObject({ available: true, minPrice: 500, countForFree: 10 });
    expect(region.body.companiesForExceptions[0]).toHaveProperty('directTransportPoints');
    const city = await owner.get(
      `/v2/warehouses/shipment?countryCode=RU&region=${encodeURIComponent('Москва')}&fias=${MOSCOW}`,
    );
    expect(city.body['1'].companies[0].directTransportPoints.length).toBeGreaterThan(0);
    const town = await owner.get(
      `/v2/warehouses/shipment?countryCode=RU&region=${encodeURIComponent('Тверская обл')}&fias=gn:452949`,
    );
    expect(town.body['2'].available).toBe(false);
    expect(town.body['3'].available).toBe(false);
    expect((await owner.get('/v2/warehouses/shipment?countryCode=BY')).body['1']).toEqual({
      available: false,
      companies: [],
    });
  });

  it('validates the shipment methods query', async () => {
    const noRegion = await owner.get('/v2/warehouses/shipment?countryCode=RU');
    expect(noRegion.status).toBe(400);
    expect(noRegion.body.errors).toEqual([{ field: 'region', message: 'is required when countryCode is RU' }]);
    expect((await owner.get('/v2/warehouses/shipment')).body.errors[0].field).toBe('countryCode');
    expect((await owner.get('/v2/warehouses/shipment?countryCode=Russia&region=x')).body.errors[0].field).toBe(
      'countryCode',
    );
  });

  it('answers the shipment options of a company for drop-off and direct shipment', async () => {
    const dropOff = await owner.get(
      `/v2/orders/shipment?region=${encodeURIComponent('Москва')}&fias=${MOSCOW}&companyId=1&pickupType=1`,
    );
    expect(dropOff.status).toBe(200);
    expect(dropOff.body).toHaveLength(3);
    expect(dropOff.body[0]).toMatchObject({ pricePickup: 0, pickupPointRequired: true });
    expect(dropOff.body[0].points.length).toBeGreaterThan(0);
    const direct = await owner.get(
      `/v2/orders/shipment?countryCode=RU&region=${encodeURIComponent('Москва')}&companyId=1&pickupType=4`,
    );
    expect(direct.body[0]).toMatchObject({ pricePickup: 300, pickupPointRequired: false, points: [] });
    expect(direct.body[0].pickupDate.from < direct.body[1].pickupDate.from).toBe(true);
    expect(
      (await owner.get(`/v2/orders/shipment?region=${encodeURIComponent('Москва')}&companyId=4&pickupType=1`)).body,
    ).toEqual([]);
  });

  it('validates the shipment options query', async () => {
    const response = await owner.get('/v2/orders/shipment?pickupType=2');
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'companyId',
      'pickupType',
      'region',
    ]);
    expect((await owner.get(`/v2/orders/shipment?region=x&companyId=999&pickupType=1`)).status).toBe(404);
  });
});

describe('reference data import', () => {
  it('writes the database only when the data version changed, or when forced', async () => {
    const reference = t.runtime.services.reference;
    const again = await reference.load();
    expect(again).toMatchObject({ written: false });
    expect(again.localities).toBeGreaterThan(4000);
    expect(again.points).toBeGreaterThan(10000);
    expect((await reference.load(true)).written).toBe(true);
    expect(Number((await owner.get('/v2/lists/points?perPage=1')).headers['x-total-count'])).toBe(again.points);
  });
});

describe('shipment methods and options: security', () => {
  it('needs a token', async () => {
    const anonymous = t.client();
    for (const url of ['/v2/warehouses/shipment?countryCode=RU&region=x', '/v2/orders/shipment']) {
      expect((await anonymous.get(url)).status, url).toBe(401);
    }
  });
});
