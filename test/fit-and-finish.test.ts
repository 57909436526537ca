/**
 * What a new shop and an integrator met on their first afternoon, over HTTP: each item of the
 * fit-and-finish findings that an API call shows, with the call that showed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import type { ApiClient } from './support/client.js';

let t: TestApp;
let owner: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('First afternoon')).client;
});
afterAll(async () => t?.close());

describe('a JSON body sent as a form (curl -d)', () => {
  it('is refused as what it is, not as a body missing its fields', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/v2/orders/stickers',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '{"ids":[1]}',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      code: 'json_sent_as_form',
      message: expect.stringContaining('Content-Type: application/json'),
    });
    // the same bytes as JSON are read
    const json = await owner.post('/v2/orders/stickers', { ids: [1] });
    expect(json.body.code).not.toBe('json_sent_as_form');
    // and a real form body with braces in a value is a form
    const form = await owner.post('/v2/orders/stickers', 'ids[0]=1&comment={x}', { form: true });
    expect(form.body.code).not.toBe('json_sent_as_form');
  });
});
