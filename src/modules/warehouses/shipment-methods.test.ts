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

describe('GET /v2/warehouses/shipment: shipment methods from a place', () => {
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

  it('needs a token', async () => {
    expect((await t.client().get('/v2/warehouses/shipment?countryCode=RU&region=x')).status).toBe(401);
  });
});
