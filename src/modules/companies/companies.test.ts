import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';

let t: TestApp;
let owner: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
});
afterAll(async () => t.close());

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
