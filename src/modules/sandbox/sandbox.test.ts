/**
 * The sandbox: a test account goes from a booked pickup to Done, moves its
 * orders to delivered, and from an open billing period to a bill, now — through HTTP and the
 * command line; refused for shop keys, other accounts and accounts with a live contract.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { realCarrierEnv, startFakeCdek, type FakeRealCarrier } from '../../../test/support/fake-real-carriers.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { todayIn } from '../../platform/clock.js';
import { nextWorkday } from '../../../test/support/fixtures.js';

let t: TestApp;
let a: OrderingAccount;
let cdek: FakeRealCarrier;

/** The next Monday-to-Friday day after today in Moscow (the test warehouses work on weekdays). */

beforeAll(async () => {
  cdek = await startFakeCdek();
  t = await createTestApp({
    env: { ...realCarrierEnv({ cdek }), PICKUP_SIMULATION_SECONDS: '0', SIMULATION_STEP_SECONDS: '60' },
  });
  a = await orderingAccount(t);
  t.runtime.services.pickups.registerJobs(a.worker);
});
afterAll(async () => {
  await t.close();
  await cdek.close();
});

const advance = (id: number, client = a.owner) => client.post(`/v2/sandbox/orders/${id}/advance`);

describe('the sandbox on a test account', () => {
  it('collects a booked pickup now: Done, its orders handed over, then moved status by status to the end of their journey', async () => {
    const day = nextWorkday();
    const waiting = await preparedOrder(
      a.owner,
      a.worker,
      orderBody(a, { cmsId: 'SBX-1', pickup: { type: 4, date: day } }),
    );
    expect((await advance(waiting.id)).status).toBe(409);
    const booked = await a.owner.post('/v2/pickups', { warehouseId: a.warehouseId, companyId: 1, type: 4, date: day });
    expect(booked.status).toBe(201);
    const pickupId = booked.body.id as number;
    // New until the company answers the booking
    const early = await a.owner.post(`/v2/sandbox/pickups/${pickupId}/collect`);
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('only a scheduled pickup can be collected');
    await a.worker.runDue();
    expect((await a.owner.get(`/v2/pickups/${pickupId}`)).body.status).toBe(2);

    expect((await a.owner.post(`/v2/sandbox/pickups/${pickupId}/collect`)).status).toBe(204);
    expect((await a.owner.get(`/v2/pickups/${pickupId}`)).body).toMatchObject({ status: 3, orderIds: [waiting.id] });
    expect((await a.owner.get(`/v2/orders/${waiting.id}`)).body.status).toBe(14);
    expect((await a.owner.post(`/v2/sandbox/pickups/${pickupId}/collect`)).status).toBe(409);

    const seen: number[] = [];
    for (let step = 0; step < 10; step++) {
      const moved = await advance(waiting.id);
      if (moved.status === 409) break;
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.id).toBe(waiting.id);
      seen.push(moved.body.status);
    }
    expect(seen.slice(0, 3)).toEqual([41, 411, 412]);
    expect([44, 72]).toContain(seen[seen.length - 1]);
    const order = (await a.owner.get(`/v2/orders/${waiting.id}`)).body;
    expect(order.status).toBe(seen[seen.length - 1]);
    // the journey's own job for a step already taken does nothing
    await a.worker.runDue();
    expect((await a.owner.get(`/v2/orders/${waiting.id}`)).body.statusHistory).toEqual(order.statusHistory);
  });

  it('closes the open billing period now: a bill of what was charged, once per period', async () => {
    const delivered = await preparedOrder(a.owner, a.worker, orderBody(a, { cmsId: 'SBX-BILL' }));
    for (let step = 0; step < 10 && (await advance(delivered.id)).status === 200; step++);
    const closed = await a.owner.post('/v2/sandbox/billing-period/close');
    expect(closed.status, closed.text).toBe(200);
    const today = todayIn('Europe/Moscow');
    expect(closed.body).toEqual({ start: expect.stringMatching(/^\d{4}-\d{2}-01$/), lastDay: today });
    const bills = (await a.owner.get('/v2/reports/bill')).body as Array<{ sum: number; file: string }>;
    expect(bills).toHaveLength(1);
    expect(bills[0].sum).toBeGreaterThan(0);
    const again = await a.owner.post('/v2/sandbox/billing-period/close');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('period_closed');
  });
});

describe('the sandbox refuses', () => {
  it('shop keys (403), other accounts (404), no token (401), unknown ids (404) and bad ids (400), changing nothing', async () => {
    const order = await preparedOrder(a.owner, a.worker, orderBody(a, { cmsId: 'SBX-SEC' }));
    const byKey = a.owner.withToken(a.shopKey);
    expect((await advance(order.id, byKey)).status).toBe(403);
    expect((await byKey.post('/v2/sandbox/billing-period/close')).status).toBe(403);
    const stranger = await orderingAccount(t, { name: 'Stranger' });
    expect((await advance(order.id, stranger.owner)).status).toBe(404);
    expect((await stranger.owner.post('/v2/sandbox/pickups/999999/collect')).status).toBe(404);
    expect((await t.client().post(`/v2/sandbox/orders/${order.id}/advance`)).status).toBe(401);
    expect((await t.client().post('/v2/sandbox/billing-period/close')).status).toBe(401);
    expect((await advance(999999)).status).toBe(404);
    const bad = await a.owner.post('/v2/sandbox/orders/abc/advance');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'id' }] });
    expect((await a.owner.get(`/v2/orders/${order.id}`)).body.status).toBe(13);
  });

  it('an account with a live contract (422), and orders of a contracted company (422); a test-mode contract is fine', async () => {
    const live = await orderingAccount(t, { name: 'Live' });
    const order = await preparedOrder(live.owner, live.worker, orderBody(live, { cmsId: 'LIVE-SBX' }));
    const params = { clientId: 'good-id', clientSecret: 'good-secret' };
    expect((await live.owner.post('/v2/carrier-integrations/1001', { params, testMode: true })).status).toBe(204);
    expect((await advance(order.id, live.owner)).status).toBe(200);
    expect((await live.owner.post('/v2/carrier-integrations/1001', { params, testMode: false })).status).toBe(204);
    for (const refused of [
      await advance(order.id, live.owner),
      await live.owner.post('/v2/sandbox/billing-period/close'),
    ]) {
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'live_contract', message: expect.stringContaining('СДЭК') });
    }
    expect((await live.owner.get('/v2/reports/bill')).body).toEqual([]);
  });
});

describe('the sandbox from the command line', () => {
  it('closes the billing period of an account of a file database', async () => {
    const main = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'main.ts');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-'));
    try {
      const run = (...args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', main, ...args], {
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SECRET_KEY: '', LOG_LEVEL: 'silent' },
          encoding: 'utf8',
        });
      const created = run('account', 'create', '--name', 'CLI sandbox', '--json');
      expect(created.status, created.stderr).toBe(0);
      const { accountId } = JSON.parse(created.stdout) as { accountId: number };
      const closed = run('sandbox', 'close-period', '--account', String(accountId));
      expect(closed.status, closed.stderr).toBe(0);
      expect(closed.stdout).toMatch(/^Closed the billing period \d{4}-\d{2}-01 to \d{4}-\d{2}-\d{2} of account \d+/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
