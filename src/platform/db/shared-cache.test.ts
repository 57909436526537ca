/**
 * Two processes on one PostgreSQL database: what one writes, the other's remembered lists
 * show as soon as the message arrives, and while the messages may be lost it reads through.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, usingPostgres, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';

let first: TestApp;
let second: TestApp;
let inFirst: ApiClient;
let inSecond: ApiClient;
let warehouseId: number;

beforeAll(async () => {
  if (!usingPostgres) return;
  first = await createTestApp();
  second = await createTestApp({ beside: first });
  const account = await first.newAccount('Two processes');
  inFirst = account.client;
  inSecond = second.client(account.token);
  warehouseId = (await inFirst.post('/v2/warehouses', warehouseBody())).body.id;
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const total = async (client: ApiClient) => Number((await client.get('/v2/shops?perPage=1')).headers['x-total-count']);

/** Polls until `check` holds; the time it took (ms). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

/** Cuts the listening connections of the apps on `app`'s database (or schema). */
async function dropListeners(app: TestApp): Promise<number> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const database = new URL(app.databaseUrl as string).pathname.slice(1);
  const result = await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = $2',
    [app.schema ? `listen read_cache_${app.schema}` : 'listen read_cache', database],
  );
  await admin.end();
  return result.rowCount ?? 0;
}

describe.skipIf(!usingPostgres)('read cache shared by processes on PostgreSQL', () => {
  it('shows another process’s write in a remembered list within moments, long before the 30 s limit', async () => {
    // both remember the list (the cache is on with PostgreSQL too)
    expect([first.runtime.services.readCache.enabled, second.runtime.services.readCache.enabled]).toEqual([true, true]);
    expect(await total(inFirst)).toBe(0);
    expect(await total(inFirst)).toBe(0);
    expect(await total(inSecond)).toBe(0);
    expect((await inSecond.post('/v2/shops', shopBody(warehouseId))).status).toBe(201);
    expect(await total(inSecond)).toBe(1);
    const waited = await eventually(async () => (await total(inFirst)) === 1);
    expect(waited).toBeLessThan(2000);
  });

  it('reads through while its listening connection is lost, and remembers again once it is back', async () => {
    await total(inFirst);
    expect(await dropListeners(first)).toBe(2);
    // no message can arrive now: the first process must not answer from memory
    await eventually(async () => !first.runtime.services.readCache.enabled, 2000);
    expect((await inSecond.post('/v2/shops', shopBody(warehouseId, { name: 'Магазин при обрыве' }))).status).toBe(201);
    expect(await total(inFirst)).toBe(2);
    // reconnected (about a second later): remembered and told again
    await eventually(async () => first.runtime.services.readCache.enabled && second.runtime.services.readCache.enabled);
    expect(await total(inFirst)).toBe(2);
    expect((await inSecond.post('/v2/shops', shopBody(warehouseId, { name: 'Магазин после обрыва' }))).status).toBe(
      201,
    );
    await eventually(async () => (await total(inFirst)) === 3);
  });

  it('still tells the others of a write that a request committed while its process was closing', async () => {
    const closing = await createTestApp({ beside: first });
    const cache = first.runtime.services.readCache;
    let loads = 0;
    const read = () => cache.read(1, 'probe', 'key', async () => ++loads);
    await eventually(async () => cache.enabled && closing.runtime.services.readCache.enabled);
    await read();
    await read();
    expect(loads).toBe(1);
    await closing.close();
    // the pool is gone; the invalidation must reach the first process anyway
    closing.runtime.services.readCache.invalidate(1, 'probe');
    await eventually(async () => (await read()) === 2);
  });
});

declare module '../cache.js' {
  interface CacheTopics {
    /** The topic of these tests. */
    probe: 'a test topic';
  }
}
