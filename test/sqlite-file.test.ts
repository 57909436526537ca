/**
 * The app on a SQLite file, as `npm start` runs it: new orders are written by the writer thread
 * (platform/db/sqlite-writer.ts), which the other suites' databases in memory cannot have.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, usingPostgres, type TestApp } from './support/app.js';
import { orderBody, orderingAccount, type OrderingAccount } from './support/orders.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-sqlite-file-'));
let t: TestApp;
let account: OrderingAccount;

beforeAll(async () => {
  if (usingPostgres) return;
  t = await createTestApp({ env: { DATABASE_URL: `sqlite:${path.join(dir, 'service.db')}`, DATA_DIR: dir } });
  account = await orderingAccount(t);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface SeenEvent {
  type: string;
  orderId: number;
}

describe.skipIf(usingPostgres)('orders on a SQLite file', () => {
  it('creates orders arriving together, beside changes and reads of others, each with its own row and events', async () => {
    const { owner, shopId, pointId } = account;
    const body = (cmsId: string) => orderBody({ shopId, pointId }, { cmsId });
    const earlier = await Promise.all(
      Array.from({ length: 5 }, async (_, index) => (await owner.post('/v2/orders', body(`EARLY-${index}`))).body.id),
    );

    const creates = Array.from({ length: 40 }, (_, index) =>
      owner.post(
        '/v2/orders',
        body(`NEW-${index}`),
        index % 4 === 0 ? { headers: { 'idempotency-key': `k-${index}` } } : {},
      ),
    );
    // changes on the event loop (transactions) and reads, while the new orders are written
    const cancel = owner.post('/v2/orders/cancel', { ids: earlier.slice(0, 3) });
    const reads = Array.from({ length: 5 }, () => owner.get('/v2/orders?list=0&perPage=100'));
    const [created, canceled, listed] = await Promise.all([Promise.all(creates), cancel, Promise.all(reads)]);

    expect(created.map((response) => response.status)).toEqual(Array(40).fill(201));
    expect(canceled.status).toBe(204);
    expect(listed.map((response) => response.status)).toEqual(Array(5).fill(200));
    const ids = created.map((response) => response.body.id as number);
    expect(new Set(ids).size).toBe(40);

    // each id is its own order
    for (const [index, id] of ids.entries()) {
      const order = await owner.get(`/v2/orders/${id}`);
      expect(order.status).toBe(200);
      expect(order.body.cmsId).toBe(`NEW-${index}`);
    }
    // a keyed create asked again is answered with the order it made, not a second one
    const again = await owner.post('/v2/orders', body('NEW-0'), { headers: { 'idempotency-key': 'k-0' } });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(ids[0]);

    // and each has its order.created event, written with it
    const events = (await owner.get('/v2/events?afterId=0&limit=1000&types=order.created')).body as SeenEvent[];
    const withEvents = new Set(events.map((event) => event.orderId));
    for (const id of [...earlier, ...ids]) expect(withEvents.has(id), `order ${id}`).toBe(true);
    expect(events).toHaveLength(45);
  });

  it('refuses a bad order and writes nothing for it', async () => {
    const { owner, shopId, pointId } = account;
    const before = (await owner.get('/v2/events?afterId=0&limit=1000&types=order.created')).body.length;
    const refused = await owner.post('/v2/orders', orderBody({ shopId, pointId }, { recipient: {} }));
    expect(refused.status).toBe(400);
    expect((await owner.get('/v2/events?afterId=0&limit=1000&types=order.created')).body).toHaveLength(before);
  });
});
