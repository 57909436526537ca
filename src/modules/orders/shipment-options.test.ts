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

describe('GET /v2/orders/shipment: shipment options of a company', () => {
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

  it('needs a token', async () => {
    expect((await t.client().get('/v2/orders/shipment')).status).toBe(401);
  });
});
