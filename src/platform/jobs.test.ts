import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { JobQueue, JobWorker, PermanentJobError, type Job } from './jobs.js';

let t: TestApp;
let accountId: number;
const quietLogger = { error: () => undefined, warn: () => undefined };

beforeAll(async () => {
  t = await createTestApp();
  accountId = (await t.newAccount()).accountId;
});
afterAll(async () => t.close());

function queue(): JobQueue {
  return new JobQueue(t.runtime.database.db, t.runtime.database.kind, { retryBaseMs: 1000, lockMs: 60_000 });
}

describe('job queue', () => {
  it('runs an enqueued job once and marks it done', async () => {
    const jobs = queue();
    const seen: Array<Job<{ orderId: number }>> = [];
    const worker = new JobWorker(jobs, quietLogger);
    worker.register<{ orderId: number }>('test.once', async (job) => {
      seen.push(job);
    });
    const id = await jobs.enqueue(accountId, 'test.once', { orderId: 15 });
    expect(await worker.runDue()).toBe(1);
    expect(await worker.runDue()).toBe(0);
    expect(seen.map((job) => job.payload)).toEqual([{ orderId: 15 }]);
    expect(seen[0].accountId).toBe(accountId);
    expect((await jobs.status(id))?.status).toBe('done');
  });

  it('retries a failing job after a growing back-off, then gives up', async () => {
    const jobs = queue();
    let calls = 0;
    const worker = new JobWorker(jobs, quietLogger);
    worker.register('test.flaky', async () => {
      calls++;
      throw new Error('carrier timed out');
    });
    const id = await jobs.enqueue(accountId, 'test.flaky', {}, { maxAttempts: 3 });
    const start = Date.now();
    await worker.runDue(new Date(start));
    let status = await jobs.status(id);
    expect(status).toMatchObject({ status: 'pending', attempts: 1, lastError: 'carrier timed out' });
    expect(Date.parse(status!.runAt) - start).toBeGreaterThanOrEqual(1000);
    expect(await worker.runDue(new Date(start + 500))).toBe(0);
    await worker.runDue(new Date(start + 1100));
    status = await jobs.status(id);
    expect(status).toMatchObject({ status: 'pending', attempts: 2 });
    expect(Date.parse(status!.runAt)).toBeGreaterThanOrEqual(start + 1100 + 2000 - 50);
    await worker.runDue(new Date(start + 10_000));
    expect(await jobs.status(id)).toMatchObject({ status: 'failed', attempts: 3 });
    expect(calls).toBe(3);
  });

  it('fails at once on a permanent error', async () => {
    const jobs = queue();
    const worker = new JobWorker(jobs, quietLogger);
    worker.register('test.permanent', async () => {
      throw new PermanentJobError('address rejected by the carrier');
    });
    const id = await jobs.enqueue(accountId, 'test.permanent', {});
    await worker.runDue();
    expect(await jobs.status(id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'address rejected by the carrier' });
  });

  it('keeps one unfinished job per unique key', async () => {
    const jobs = queue();
    const a = await jobs.enqueue(accountId, 'test.unique', { n: 1 }, { uniqueKey: 'order:7' });
    const b = await jobs.enqueue(accountId, 'test.unique', { n: 2 }, { uniqueKey: 'order:7' });
    expect(b).toBe(a);
    const worker = new JobWorker(jobs, quietLogger);
    worker.register('test.unique', async () => undefined);
    await worker.runDue();
    const c = await jobs.enqueue(accountId, 'test.unique', { n: 3 }, { uniqueKey: 'order:7' });
    expect(c).not.toBe(a);
  });

  it('takes over a job whose worker died once its lock expires', async () => {
    const dead = queue();
    const id = await dead.enqueue(accountId, 'test.orphan', {});
    const now = Date.now();
    expect((await dead.claim(['test.orphan'], 10, new Date(now))).map((job) => job.id)).toEqual([id]);
    const alive = queue();
    expect(await alive.claim(['test.orphan'], 10, new Date(now + 1000))).toEqual([]);
    const reclaimed = await alive.claim(['test.orphan'], 10, new Date(now + 61_000));
    expect(reclaimed.map((job) => job.id)).toEqual([id]);
    expect(reclaimed[0].attempts).toBe(2);
  });

  it('purges finished jobs older than the given age, never pending ones', async () => {
    const jobs = queue();
    const worker = new JobWorker(jobs, quietLogger);
    worker.register('test.purge', async () => undefined);
    const finished = await jobs.enqueue(accountId, 'test.purge', {});
    await worker.runDue();
    const pending = await jobs.enqueue(accountId, 'test.purge-later', {}, { runAt: new Date(Date.now() + 3600_000) });
    const kinds = async () => (await t.runtime.database.db.selectFrom('jobs').select('id').where('id', 'in', [finished, pending]).execute()).map((row) => row.id);
    expect(await jobs.purgeFinished(7 * 86400_000)).toBe(0);
    expect(await kinds()).toHaveLength(2);
    expect(await jobs.purgeFinished(7 * 86400_000, new Date(Date.now() + 8 * 86400_000))).toBeGreaterThanOrEqual(1);
    expect(await kinds()).toEqual([pending]);
  });

  it('never gives one job to two workers claiming at the same time', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, (_, index) => queue().enqueue(accountId, 'test.race', { index })));
    const runs = new Map<number, number>();
    const workers = [queue(), queue(), queue()].map((jobs) => {
      const worker = new JobWorker(jobs, quietLogger, { concurrency: 3 });
      worker.register('test.race', async (job) => {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 2));
      });
      return worker;
    });
    await Promise.all(workers.map((worker) => worker.runDue()));
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual(ids.sort((a, b) => a - b));
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });
});
