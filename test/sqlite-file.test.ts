/**
 * The app on a SQLite file, as `npm start` runs it: new orders are written by the writer thread
 * (platform/db/sqlite-writer.ts), which the other suites' databases in memory cannot have.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { gunzipSync } from 'node:zlib';
import { pageReaderOf } from '../src/platform/db/sqlite-reader.js';
import { gzipIdentifiedObjects } from '../src/platform/json-pieces.js';
import { decodedBytes } from './support/encodings.js';
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

  it('reads pages never read before in the page reader thread: the bytes the event loop assembles, gzip or plain', async () => {
    const { owner } = account;
    const reader = pageReaderOf(t.runtime.database.db);
    expect(reader).not.toBeNull();
    const reads = vi.spyOn(reader as NonNullable<typeof reader>, 'gzipPage');
    let sentAssembled = 0;
    try {
      // first, middle and last pages of all orders and of one list, none asked before
      for (const [query, offset, limit] of [
        ['list=0&perPage=10&page=1', 0, 10],
        ['list=0&perPage=10&page=3', 20, 10],
        ['list=0&perPage=7&page=7', 42, 7],
        ['list=0&perPage=20&page=2', 20, 20],
      ] as const) {
        const gzipped = await t.app.inject({
          method: 'GET',
          url: `/v2/orders?${query}`,
          headers: { authorization: `Bearer ${owner.token}`, 'accept-encoding': 'gzip' },
        });
        expect(gzipped.statusCode, query).toBe(200);
        // the page as the event loop reads and assembles it from the same rows
        const rows = (
          await sql<{
            id: number;
            packed: Buffer;
          }>`select id, doc_packed as packed from orders where account_id = ${account.accountId} order by id desc limit ${limit} offset ${offset}`.execute(
            t.runtime.database.db,
          )
        ).rows;
        const assembled = gzipIdentifiedObjects(rows).gzip;
        expect(rows.length, query).toBeGreaterThan(0);
        expect(decodedBytes(gzipped).equals(gunzipSync(assembled)), query).toBe(true);
        // a page large enough to be compressed goes as the very gzip assembled (a small one goes plain)
        if (gzipped.headers['content-encoding'] === 'gzip') {
          expect(gzipped.rawPayload.equals(assembled), query).toBe(true);
          sentAssembled += 1;
        }
        const plain = await owner.get(`/v2/orders?${query}`);
        expect(Buffer.from(plain.text).equals(decodedBytes(gzipped)), query).toBe(true);
      }
      // a client that takes no gzip, first to ask a page: unzipped in the thread, the same JSON
      const plainFirst = await owner.get('/v2/orders?list=0&perPage=15&page=2');
      const gzipAfter = await t.app.inject({
        method: 'GET',
        url: '/v2/orders?list=0&perPage=15&page=2',
        headers: { authorization: `Bearer ${owner.token}`, 'accept-encoding': 'gzip' },
      });
      expect(gzipAfter.headers['content-encoding']).toBe('gzip');
      expect(Buffer.from(plainFirst.text).equals(decodedBytes(gzipAfter))).toBe(true);
      expect(reads).toHaveBeenCalledTimes(5);
      expect(reads.mock.calls[4]?.[2]).toBe(true);
      expect(sentAssembled).toBeGreaterThanOrEqual(2);
    } finally {
      reads.mockRestore();
    }
  });
});
