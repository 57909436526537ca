/**
 * A state change and the jobs it implies commit together: made to fail exactly
 * between the two halves (the crash point at the job's enqueue), the change is undone with
 * it, and the retry moves the thing on. The multi-process test kills real processes there
 * (several-processes.test.ts); this one covers each place on both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failAtCrashPoint } from '../src/platform/crash-points.js';
import { createTestApp, type TestApp } from './support/app.js';
import { FULFILMENT_WAREHOUSE, fulfilmentAccount, newProduct, type FulfilmentAccount } from './support/fulfilment.js';
import { orderBody } from './support/orders.js';

let t: TestApp;
let a: FulfilmentAccount;
const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '60', FULFILMENT_ACCEPT_SECONDS: '60' } });
  a = await fulfilmentAccount(t, { name: 'Outbox' });
});
afterEach(() => failAtCrashPoint(null));
afterAll(async () => t.close());

const pendingJobs = async (kind: string) =>
  (
    await t.runtime.database.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', kind)
      .where('status', '=', 'pending')
      .execute()
  ).length;
const orderStatus = async (id: number) => (await a.owner.get(`/v2/orders/${id}`)).body.status as number;

describe('a state change and its follow-up job commit together', () => {
  it('registration finished: the order stays 12 until 13 and its first journey step can commit together', async () => {
    const id = (await a.owner.post('/v2/orders', orderBody({ shopId: a.ownShopId, pointId: a.pointId }))).body
      .id as number;
    expect((await a.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    const journeys = await pendingJobs('orders.journey');
    failAtCrashPoint('enqueue:orders.journey');
    await a.worker.runDue();
    expect(await orderStatus(id)).toBe(12);
    expect(await pendingJobs('orders.journey')).toBe(journeys);
    failAtCrashPoint(null);
    // the registration job's retry (after its back-off)
    await a.worker.runDue(later(30));
    expect(await orderStatus(id)).toBe(13);
    expect(await pendingJobs('orders.journey')).toBe(journeys + 1);
  });

  it('a journey step: the order keeps its status until the step and the next one can commit together', async () => {
    const id = (await a.owner.post('/v2/orders', orderBody({ shopId: a.ownShopId, pointId: a.pointId }))).body
      .id as number;
    await a.owner.post('/v2/orders/confirm', { ids: [id] });
    await a.worker.runDue();
    expect(await orderStatus(id)).toBe(13);
    failAtCrashPoint('enqueue:orders.journey');
    await a.worker.runDue(later(61));
    expect(await orderStatus(id)).toBe(13);
    failAtCrashPoint(null);
    // the retry applies 41 with the next step queued, and so on: within one run (each step is due a minute after the last) to the journey's end
    await a.worker.runDue(later(61 + 30));
    const history = ((await a.owner.get(`/v2/orders/${id}`)).body.statusHistory as Array<{ code: number }>)
      .map((item) => item.code)
      .reverse();
    expect(history.slice(0, 6)).toEqual([11, 12, 13, 41, 411, 412]);
    expect([44, 72]).toContain(await orderStatus(id));
  });

  it('a supply arriving by itself: Arrived only together with the acceptance that follows', async () => {
    const lamp = await newProduct(a.owner, { vendorCode: 'OUTBOX-LAMP' });
    const id = (
      await a.owner.post('/v2/products/shipments', {
        date: '2026-12-01',
        fulfilmentWarehouseId: FULFILMENT_WAREHOUSE,
        places: 1,
        type: 'boxes',
        products: [{ id: lamp, count: 2 }],
      })
    ).body.id as number;
    expect((await a.owner.post('/v2/products/shipments/confirm', { id })).status).toBe(204);
    failAtCrashPoint('enqueue:fulfilment.supply-accepted');
    await a.worker.runDue(later(61));
    const supply = async () => (await a.owner.get(`/v2/products/shipments/${id}`)).body.status as number;
    expect(await supply()).toBe(2);
    failAtCrashPoint(null);
    // arrived on the retry, then accepted (that job is due within the same run)
    await a.worker.runDue(later(61 + 30 + 61));
    expect(await supply()).toBe(4);
  });
});
