/**
 * The generated client against the running service: the app listens on a loopback port and
 * the client talks HTTP to it, as a shop's code would. The example script's flow runs here
 * with the job worker in place of its sleep. And the committed generated files are what
 * generating gives today, so the client never drifts from the service.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { orderJobWorker } from '../../../test/support/orders.js';
import { createConfirmAndTrack } from '../example.js';
import { DOCUMENT_FILE, generatedFiles, SCHEMA_FILE } from '../generate.js';
import { createDeliveryClient, DeliveryApiError, ok, type DeliveryClient } from '../src/index.js';

let t: TestApp;
let api: DeliveryClient;

beforeAll(async () => {
  t = await createTestApp();
  const baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { token } = await t.newAccount('Client user');
  api = createDeliveryClient({ baseUrl, token });
});
afterAll(async () => t.close());

describe('generated TypeScript client', () => {
  it('creates, confirms and tracks an order (the example script)', async () => {
    const worker = orderJobWorker(t);
    const lines: string[] = [];
    const { orderId, tracking } = await createConfirmAndTrack(api, {
      wait: async () => void (await worker.runDue()),
      log: (line) => lines.push(line),
    });
    expect(tracking.trackNumber).toEqual(expect.any(String));
    expect(tracking.statusHistory.map((change) => change.code)).toEqual(expect.arrayContaining([13, 12, 11]));
    const order = ok(await api.GET('/v2/orders/{id}', { params: { path: { id: orderId } } }));
    expect(order).toMatchObject({ id: orderId, status: 13, trackNumber: tracking.trackNumber });
    expect(lines.some((line) => line.startsWith(`confirmed order ${orderId}`))).toBe(true);
  });

  it('replays a POST sent again with the same Idempotency-Key', async () => {
    const body = { name: 'Коробка S', dimensions: { width: 20, height: 10, length: 30 }, weight: 0.15 };
    const send = () => api.POST('/v2/boxes', { params: { header: { 'Idempotency-Key': 'client-box-1' } }, body });
    const first = ok(await send());
    expect(ok(await send())).toEqual(first);
  });

  it('throws the house error body with its log id', async () => {
    const error = await api
      .GET('/v2/orders/{id}', { params: { path: { id: 999_999 } } })
      .then(ok)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeliveryApiError);
    expect(error).toMatchObject({ status: 404, code: expect.any(String), logId: expect.any(String) });
    expect((error as DeliveryApiError).logId).not.toBe('');
  });

  it('is generated from the document the service serves today (npm run client:generate)', async () => {
    const files = await generatedFiles();
    expect(
      fs.readFileSync(DOCUMENT_FILE, 'utf8') === files.document,
      'clients/typescript/openapi.json is stale: npm run client:generate',
    ).toBe(true);
    expect(
      fs.readFileSync(SCHEMA_FILE, 'utf8') === files.schema,
      'clients/typescript/src/schema.ts is stale: npm run client:generate',
    ).toBe(true);
  });
});
