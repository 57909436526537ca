/**
 * Remembered answers (pages of orders, calculator answers, an order by id) asked with and
 * without gzip or Brotli in any order: each answer is the same JSON whatever the client took
 * before it.
 * A page asked three times with gzip and then plainly was a 500 once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { decodedBytes } from './support/encodings.js';
import { orderBody, orderingAccount, type OrderingAccount } from './support/orders.js';

let t: TestApp;
let a: OrderingAccount;
const ENCODINGS = [
  'gzip',
  'gzip',
  'gzip',
  'identity',
  'gzip, deflate, br',
  'gzip',
  'identity',
  'identity',
  'gzip, deflate, br',
  'br',
  'identity',
];

beforeAll(async () => {
  t = await createTestApp();
  a = await orderingAccount(t);
  for (let index = 0; index < 60; index++)
    expect((await a.owner.post('/v2/orders', orderBody(a, { cmsId: `MIX-${index}` }))).status).toBe(201);
});
afterAll(async () => t.close());

/** The JSON text of an answer, decompressed when it came compressed. */
async function ask(
  method: 'GET' | 'POST',
  url: string,
  encoding: string,
  payload?: unknown,
): Promise<{ status: number; text: string; compressed: boolean }> {
  const response = await t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${a.owner.token}`,
      'accept-encoding': encoding,
      'shop-id': String(a.shopId),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    payload: payload ? JSON.stringify(payload) : undefined,
  });
  return {
    status: response.statusCode,
    text: decodedBytes(response).toString('utf8'),
    compressed: response.headers['content-encoding'] !== undefined,
  };
}

async function expectSameEveryTime(
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  expectCompressed = true,
): Promise<void> {
  const seen: string[] = [];
  for (const encoding of ENCODINGS) {
    const answer = await ask(method, url, encoding, payload);
    expect(answer.status, `${encoding}: ${answer.text.slice(0, 200)}`).toBe(200);
    if (expectCompressed) expect(answer.compressed).toBe(encoding !== 'identity');
    seen.push(answer.text);
    // the compaction of a remembered gzip runs on the thread pool: give it its turn
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(new Set(seen).size).toBe(1);
  JSON.parse(seen[0]);
}

describe('remembered answers asked with mixed encodings', () => {
  it('pages of orders, first and far, of every list', async () => {
    for (const url of [
      '/v2/orders?list=0&perPage=50&page=1',
      '/v2/orders?list=1&perPage=50&page=1',
      '/v2/orders?list=0&perPage=50&page=2',
      '/v2/orders?perPage=50',
    ]) {
      await expectSameEveryTime('GET', url, undefined, !url.includes('page=2'));
    }
  });

  it('an order by id', async () => {
    const id = (await a.owner.get('/v2/orders?list=0&perPage=1')).body[0].id as number;
    await expectSameEveryTime('GET', `/v2/orders/${id}`, undefined, false);
  });

  it("the calculator's answer of a big city, remembered", async () => {
    await expectSameEveryTime('POST', '/v2/calculator', {
      reception: { cityName: 'Москва', countryCode: 'RU' },
      weight: 1,
    });
  });
});
