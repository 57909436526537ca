import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';

let t: TestApp;
let client: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  client = (await t.newAccount()).client;
});
afterAll(async () => t.close());

describe('GET /v2/lists/order-statuses', () => {
  it('answers the full status list in Russian by default', async () => {
    const response = await client.get('/v2/lists/order-statuses');
    expect(response.status).toBe(200);
    expect(response.body['11']).toBe('Черновик');
    expect(response.body['462']).toBe('Отказ при вручении');
    expect(
      Object.keys(response.body)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([
      1, 10, 11, 12, 13, 14, 15, 31, 32, 33, 41, 42, 43, 44, 46, 47, 51, 52, 61, 62, 71, 72, 74, 83, 411, 412, 461, 462,
    ]);
    expect(response.headers['x-log-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers English names with lang=en', async () => {
    const response = await client.get('/v2/lists/order-statuses?lang=en');
    expect(response.body['10']).toBe('Canceled by sender');
    expect(response.body['42']).toBe('At the pickup point');
    expect(response.body['412']).toBe("Arrived in the recipient's city");
  });

  it('refuses an unknown language with a field error', async () => {
    const response = await client.get('/v2/lists/order-statuses?lang=de');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors).toEqual([{ field: 'lang', message: 'must be one of: "ru", "en"' }]);
    expect(response.body.logId).toBe(response.headers['x-log-id']);
  });

  it('needs a token', async () => {
    const response = await t.client().get('/v2/lists/order-statuses');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('unauthorized');
    expect(response.headers['x-log-id']).toBeTruthy();
    const bad = await t.client('acc_not-a-real-token').get('/v2/lists/order-statuses');
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('invalid_token');
  });
});
