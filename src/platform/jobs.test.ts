import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { JOB_LEASE_MS, JobQueue, JobWorker, PermanentJobError, type Job } from './jobs.js';

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

  it('adds a batch of jobs in one call, each run once, a later one only when due', async () => {
    const jobs = queue();
    const seen: number[] = [];
    const worker = new JobWorker(jobs, quietLogger);
    worker.register<{ n: number }>('test.batch', async (job) => {
      seen.push(job.payload.n);
    });
    const later = new Date(Date.now() + 60_000);
    await jobs.enqueueMany('test.batch', [
      { accountId, payload: { n: 1 } },
      { accountId, payload: { n: 2 }, maxAttempts: 2 },
      { accountId: null, payload: { n: 3 }, runAt: later },
    ]);
    await jobs.enqueueMany('test.batch', []);
    expect(await worker.runDue()).toBe(2);
    expect(seen.sort()).toEqual([1, 2]);
    expect(await worker.runDue()).toBe(0);
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

  it('waits as long as a failure asked (RetryLaterError, or an error carrying retryAfterMs) when that is longer than its back-off', async () => {
    const jobs = queue();
    const worker = new JobWorker(jobs, quietLogger);
    worker.register('test.busy', async () => {
      throw Object.assign(new Error('the company asks to slow down (429)'), { retryAfterMs: 45_000 });
    });
    const id = await jobs.enqueue(accountId, 'test.busy', {}, { maxAttempts: 3 });
    const start = Date.now();
    await worker.runDue(new Date(start));
    expect(Date.parse((await jobs.status(id))!.runAt) - start).toBeGreaterThanOrEqual(45_000);
    expect(await worker.runDue(new Date(start + 30_000))).toBe(0);
  });

  it('fails at once on a permanent error', async () => {
    const jobs = queue();
    const worker = new JobWorker(jobs, quietLogger);
    worker.register('test.permanent', async () => {
      throw new PermanentJobError('address rejected by the carrier');
    });
    const id = await jobs.enqueue(accountId, 'test.permanent', {});
    await worker.runDue();
    expect(await jobs.status(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'address rejected by the carrier',
    });
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
    const kinds = async () =>
      (
        await t.runtime.database.db.selectFrom('jobs').select('id').where('id', 'in', [finished, pending]).execute()
      ).map((row) => row.id);
    expect(await jobs.purgeFinished(7 * 86400_000)).toBe(0);
    expect(await kinds()).toHaveLength(2);
    expect(await jobs.purgeFinished(7 * 86400_000, new Date(Date.now() + 8 * 86400_000))).toBeGreaterThanOrEqual(1);
    expect(await kinds()).toEqual([pending]);
  });

  it('never gives one job to two workers claiming at the same time', async () => {
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, index) => queue().enqueue(accountId, 'test.race', { index })),
    );
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

  it('takes over the job of a dead worker within seconds, not minutes', async () => {
    // the queue as the service makes it (the default lease)
    const dead = new JobQueue(t.runtime.database.db, t.runtime.database.kind);
    const alive = new JobQueue(t.runtime.database.db, t.runtime.database.kind);
    expect(JOB_LEASE_MS).toBeLessThanOrEqual(15_000);
    const id = await dead.enqueue(accountId, 'test.dead-worker', {});
    const now = Date.now();
    expect((await dead.claim(['test.dead-worker'], 10, new Date(now))).map((job) => job.id)).toEqual([id]);
    expect(await alive.claim(['test.dead-worker'], 10, new Date(now + JOB_LEASE_MS - 1000))).toEqual([]);
    expect(
      (await alive.claim(['test.dead-worker'], 10, new Date(now + JOB_LEASE_MS + 1000))).map((job) => job.id),
    ).toEqual([id]);
  });

  it('keeps a long job of a live worker by renewing its lease, and aborts it there if it was taken over', async () => {
    const lease = 1000;
    const owner = new JobQueue(t.runtime.database.db, t.runtime.database.kind, { lockMs: lease });
    const other = new JobQueue(t.runtime.database.db, t.runtime.database.kind, { lockMs: lease });
    let finish = () => undefined as void;
    let started = () => undefined as void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let aborted = false;
    const worker = new JobWorker(owner, quietLogger);
    worker.register('test.long', async (_job, signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      started();
      await new Promise<void>((resolve) => (finish = resolve));
    });
    const id = await owner.enqueue(accountId, 'test.long', {});
    const start = Date.now();
    const run = worker.runDue(new Date(start));
    await running;
    // renewed at start + 800 ms: held until start + 1800 ms
    await worker.renewLeases(new Date(start + 800));
    expect(await other.claim(['test.long'], 10, new Date(start + 1500))).toEqual([]);
    // not renewed again (the process stalled): another worker takes it, and it stops here
    expect((await other.claim(['test.long'], 10, new Date(start + 1900))).map((job) => job.id)).toEqual([id]);
    await worker.renewLeases(new Date(start + 2000));
    expect(aborted).toBe(true);
    finish();
    await run;
    // the owner that lost it does not mark it done: it is the other worker's now
    expect((await owner.status(id))?.status).toBe('running');
  });

  it('serves requests while a long job works through the database', async () => {
    const jobs = queue();
    const worker = new JobWorker(jobs, quietLogger);
    const client = (await t.newAccount()).client;
    let answered = false;
    let queriesBeforeAnswer = 0;
    worker.register('test.busy', async () => {
      // many small queries and nothing else, as a job working through a batch does
      for (let query = 0; query < 200_000 && !answered; query++) {
        await t.runtime.database.db.selectFrom('jobs').select('id').where('id', '=', 0).execute();
        queriesBeforeAnswer = query;
      }
    });
    await jobs.enqueue(accountId, 'test.busy', {});
    const job = worker.runDue();
    const request = client.get('/v2/boxes').then((response) => {
      answered = true;
      return response.status;
    });
    await job;
    expect(await request).toBe(200);
    // the job saw the answer go out while it was still working (before: only after its last query)
    expect(queriesBeforeAnswer).toBeLessThan(199_999);
  });
});
