/**
 * Hand-written, and why. Figure: a state change and the jobs it implies commit in one
 * transaction (the job table is the outbox), on SQLite and PostgreSQL alike, and a dead worker's
 * job is taken over within 15 s. Reproduce: `npx vitest run src/platform/jobs.test.ts`,
 * `npx tsx bench/webhooks.ts` (1,890 events/s through the table). Measured against: pg-boss and
 * graphile-worker (PostgreSQL only, their own connection: no shared transaction, no SQLite).
 *
 * Background work (carrier registration, tracking polls, webhooks, e-mail, reports) from a
 * job table that any process can claim: `FOR UPDATE SKIP LOCKED` on PostgreSQL, a single
 * owner on SQLite. A job is retried with exponential back-off until it succeeds, fails
 * permanently, or runs out of attempts.
 *
 * A claimed job is leased for a short time (15 s) and the worker renews the lease while the
 * handler runs (every third of it). A worker that dies (kill -9, a lost machine) stops
 * renewing, and another takes the job over within the lease, rather than after a lock long
 * enough for the slowest handler (it was 5 minutes: orders waited that long to register).
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Id, Instant, Json } from './db/column-types.js';
import type { DatabaseKind } from './db/database.js';
import type { Tables } from './db/tables.js';
import { fromJson, toJson } from './db/values.js';
import { newAuditContext, recordsOfPayload, runAudited } from './audit.js';
import { crashPoint } from './crash-points.js';

export interface JobTables {
  jobs: {
    id: Id;
    account_id: number | null;
    kind: string;
    payload: Json;
    /** pending | running | done | failed */
    status: string;
    attempts: number;
    max_attempts: number;
    run_at: Instant;
    /** At most one unfinished job per (kind, unique_key): enqueuing it again is a no-op. */
    unique_key: string | null;
    locked_by: string | null;
    locked_until: Instant | null;
    last_error: string | null;
    created_at: Instant;
    updated_at: Instant;
  };
}

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface Job<P = unknown> {
  id: number;
  accountId: number | null;
  kind: string;
  payload: P;
  attempts: number;
  maxAttempts: number;
}

export interface EnqueueOptions {
  runAt?: Date;
  uniqueKey?: string;
  maxAttempts?: number;
}

/** Thrown by a handler when retrying cannot help (the job fails at once). */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

/**
 * Thrown by a handler when the other side asked to be called again later (HTTP 429 with
 * Retry-After): the retry waits at least that long, and longer if the back-off says so.
 */
/**
 * How long the failure asked to wait before the next try: a RetryLaterError's, or any
 * error's own `retryAfterMs` (a delivery company's Retry-After travels on its own error
 * type, which this layer does not import); null when it said nothing.
 */
export function waitAskedBy(error: unknown): number | null {
  const wait = error instanceof Error ? (error as Error & { retryAfterMs?: unknown }).retryAfterMs : undefined;
  return typeof wait === 'number' && Number.isFinite(wait) && wait > 0 ? wait : null;
}

export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

export type JobHandler<P = unknown> = (job: Job<P>, signal: AbortSignal) => Promise<void>;

/** How long a claimed job stays leased without a renewal before another worker may take it over. */
export const JOB_LEASE_MS = 15_000;

export interface JobQueueOptions {
  /** How long a claimed job stays locked before another worker may take it over, unless renewed. */
  lockMs?: number;
  /** Back-off after the n-th failure: base * 2^(n-1), capped. */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

type Db = Kysely<Tables> | Transaction<Tables>;

export class JobQueue {
  readonly workerId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  readonly lockMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly kind: DatabaseKind,
    options: JobQueueOptions = {},
  ) {
    this.lockMs = options.lockMs ?? JOB_LEASE_MS;
    this.retryBaseMs = options.retryBaseMs ?? 5_000;
    this.retryMaxMs = options.retryMaxMs ?? 60 * 60_000;
  }

  /**
   * Adds a job; pass the transaction of the change that causes it so both commit together.
   * With `uniqueKey`, a job of that kind and key still pending or running is reused.
   */
  async enqueue<P>(
    accountId: number | null,
    kind: string,
    payload: P,
    options: EnqueueOptions = {},
    db: Db = this.db,
  ): Promise<number> {
    if (options.uniqueKey) {
      const existing = await db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', kind)
        .where('unique_key', '=', options.uniqueKey)
        .where('status', 'in', ['pending', 'running'])
        .executeTakeFirst();
      if (existing) return existing.id;
    }
    // the state change that implies this job has been written (in `db`'s transaction): the worst moment to die
    crashPoint(`enqueue:${kind}`);
    const now = new Date().toISOString();
    const row = await db
      .insertInto('jobs')
      .values({
        account_id: accountId,
        kind,
        payload: toJson(payload),
        status: 'pending',
        attempts: 0,
        max_attempts: options.maxAttempts ?? 8,
        run_at: (options.runAt ?? new Date()).toISOString(),
        unique_key: options.uniqueKey ?? null,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Adds new jobs in one statement (a batch of messages, say): jobs without a unique key, so
   * none can be reused and no look-up is needed first. Pass the change's transaction.
   */
  async enqueueMany<P>(
    kind: string,
    jobs: Array<{ accountId: number | null; payload: P; runAt?: Date; maxAttempts?: number }>,
    db: Db = this.db,
  ): Promise<void> {
    if (jobs.length === 0) return;
    crashPoint(`enqueue:${kind}`);
    const now = new Date().toISOString();
    await db
      .insertInto('jobs')
      .values(
        jobs.map((job) => ({
          account_id: job.accountId,
          kind,
          payload: toJson(job.payload),
          status: 'pending',
          attempts: 0,
          max_attempts: job.maxAttempts ?? 8,
          run_at: (job.runAt ?? new Date()).toISOString(),
          unique_key: null,
          locked_by: null,
          locked_until: null,
          last_error: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }

  /** Takes up to `limit` due jobs of the given kinds for this worker. */
  async claim(kinds: string[], limit: number, now = new Date()): Promise<Job[]> {
    if (kinds.length === 0 || limit <= 0) return [];
    const nowIso = now.toISOString();
    const lockedUntil = new Date(now.getTime() + this.lockMs).toISOString();
    const due = (db: Db) => {
      // Written for the (status, run_at) index: done jobs are most of the table until purged, and a
      // claim that scanned them cost 15 ms at 20,000 rows (0.2 ms as a range of the index). A running
      // job's run_at is always past (it was due when claimed), so both kinds lie in the same range.
      let query = db
        .selectFrom('jobs')
        .select('id')
        .where('status', 'in', ['pending', 'running'])
        .where('run_at', '<=', nowIso)
        .where('kind', 'in', kinds)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'pending'),
            // A worker that died holding a job: take it over once the lock has expired.
            eb('locked_until', '<', nowIso),
          ]),
        )
        .orderBy('run_at')
        .limit(limit);
      if (this.kind === 'postgres') query = query.forUpdate().skipLocked();
      return query;
    };
    const rows = await this.db.transaction().execute(async (trx) => {
      const ids = (await due(trx).execute()).map((row) => row.id);
      if (ids.length === 0) return [];
      return trx
        .updateTable('jobs')
        .set({
          status: 'running',
          locked_by: this.workerId,
          locked_until: lockedUntil,
          attempts: sql`attempts + 1`,
          updated_at: nowIso,
        })
        .where('id', 'in', ids)
        .returning(['id', 'account_id', 'kind', 'payload', 'attempts', 'max_attempts'])
        .execute();
    });
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      kind: row.kind,
      payload: fromJson(row.payload),
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
    }));
  }

  /**
   * Extends the lease of jobs this worker runs; answers the ids still held (a job missing
   * was taken over by another worker after this one failed to renew in time).
   */
  async renew(ids: number[], now = new Date()): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .updateTable('jobs')
      .set({ locked_until: new Date(now.getTime() + this.lockMs).toISOString() })
      .where('id', 'in', ids)
      .where('status', '=', 'running')
      .where('locked_by', '=', this.workerId)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  async complete(job: Job): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        status: 'done',
        locked_by: null,
        locked_until: null,
        last_error: null,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', job.id)
      .where('locked_by', '=', this.workerId)
      .execute();
  }

  /** Records a failure: back to pending after a back-off, or failed for good. */
  async fail(job: Job, error: unknown, now = new Date()): Promise<JobStatus> {
    const permanent = error instanceof PermanentJobError;
    const exhausted = job.attempts >= job.maxAttempts;
    const status: JobStatus = permanent || exhausted ? 'failed' : 'pending';
    const backOff = Math.min(this.retryBaseMs * 2 ** Math.max(0, job.attempts - 1), this.retryMaxMs);
    const wait = waitAskedBy(error);
    const delay = wait === null ? backOff : Math.max(backOff, wait);
    await this.db
      .updateTable('jobs')
      .set({
        status,
        run_at: new Date(now.getTime() + delay).toISOString(),
        locked_by: null,
        locked_until: null,
        last_error: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
        updated_at: now.toISOString(),
      })
      .where('id', '=', job.id)
      .where('locked_by', '=', this.workerId)
      .execute();
    return status;
  }

  async status(
    id: number,
  ): Promise<{ status: JobStatus; attempts: number; lastError: string | null; runAt: string } | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .select(['status', 'attempts', 'last_error', 'run_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row
      ? { status: row.status as JobStatus, attempts: row.attempts, lastError: row.last_error, runAt: row.run_at }
      : undefined;
  }

  /**
   * How many jobs wait, run or failed for good, by kind (done ones are left out: they are
   * many and say nothing about health). Read by the metrics; the (status, run_at) index
   * keeps it a range scan.
   */
  async countByStatus(): Promise<Array<{ kind: string; status: Exclude<JobStatus, 'done'>; count: number }>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', 'in', ['pending', 'running', 'failed'])
      .groupBy(['kind', 'status'])
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      status: row.status as Exclude<JobStatus, 'done'>,
      count: Number(row.count),
    }));
  }

  /** Forgets finished jobs older than `olderThanMs`. */
  async purgeFinished(olderThanMs: number, now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - olderThanMs).toISOString();
    const result = await this.db
      .deleteFrom('jobs')
      .where('status', 'in', ['done', 'failed'])
      .where('updated_at', '<', cutoff)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

export interface WorkerLogger {
  error(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
}

/** Runs the handlers of registered kinds for jobs it claims, a few at a time. */
export class JobWorker {
  private readonly handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | null = null;
  private running = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private polling = false;
  /** Jobs whose handler runs now, with what aborts each (its lease lost). */
  private readonly active = new Map<number, AbortController>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly queue: JobQueue,
    private readonly logger: WorkerLogger,
    private readonly options: { concurrency?: number; pollMs?: number; handlerTimeoutMs?: number } = {},
  ) {}

  register<P>(kind: string, handler: JobHandler<P>): void {
    this.handlers.set(kind, handler as JobHandler);
  }

  /** Claims and runs every due job now, until none is left; for tests and the poll loop. */
  async runDue(now?: Date): Promise<number> {
    let processed = 0;
    for (;;) {
      // Between rounds the requests waiting get their turn: with SQLite every query answers
      // without leaving the event loop, and a queue of due jobs would otherwise hold it.
      if (processed > 0) await new Promise((resolve) => setImmediate(resolve));
      const jobs = await this.queue.claim([...this.handlers.keys()], this.options.concurrency ?? 4, now);
      if (jobs.length === 0) return processed;
      await Promise.all(jobs.map((job) => this.run(job, now)));
      processed += jobs.length;
    }
  }

  private async run(job: Job, now?: Date): Promise<void> {
    const handler = this.handlers.get(job.kind);
    if (!handler) return;
    const timeout = AbortSignal.timeout(this.options.handlerTimeoutMs ?? 60_000);
    const lost = new AbortController();
    const signal = AbortSignal.any([this.abort.signal, timeout, lost.signal]);
    this.active.set(job.id, lost);
    this.startHeartbeat();
    try {
      // what the job changes is the service's own doing: the audit trail names it system, by the job's kind
      await runAudited(
        newAuditContext({
          accountId: job.accountId,
          actor: { kind: 'system', id: null },
          operation: `job:${job.kind}`,
          records: recordsOfPayload(job.payload),
        }),
        () => handler(job, signal),
      );
      await this.queue.complete(job);
    } catch (error) {
      const status = await this.queue.fail(job, error, now);
      const log = { jobId: job.id, kind: job.kind, attempts: job.attempts, err: error };
      if (status === 'failed') this.logger.error(log, 'job failed for good');
      else this.logger.warn(log, 'job failed; it will be retried');
    } finally {
      this.active.delete(job.id);
      if (this.active.size === 0) this.stopHeartbeat();
    }
  }

  /**
   * Renews the leases of the jobs running here; a job another worker took over meanwhile
   * (this process stalled past its lease) is aborted here, so it does not run twice for long.
   */
  async renewLeases(now = new Date()): Promise<void> {
    const ids = [...this.active.keys()];
    if (ids.length === 0) return;
    const held = new Set(await this.queue.renew(ids, now));
    for (const id of ids) {
      if (held.has(id)) continue;
      this.logger.warn({ jobId: id }, 'job lease lost to another worker; aborting it here');
      this.active.get(id)?.abort(new Error('job lease lost'));
    }
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(
      () => {
        this.renewLeases().catch((error: unknown) => this.logger.error({ err: error }, 'job lease renewal failed'));
      },
      Math.max(1, Math.floor(this.queue.lockMs / 3)),
    );
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  start(): void {
    if (this.timer) return;
    const tick = () => {
      if (this.polling) return;
      this.polling = true;
      const work = this.runDue()
        .catch((error: unknown) => this.logger.error({ err: error }, 'job poll failed'))
        .then(() => undefined)
        .finally(() => {
          this.polling = false;
          this.running.delete(work);
        });
      this.running.add(work);
    };
    this.timer = setInterval(tick, this.options.pollMs ?? 1000);
    this.timer.unref();
  }

  /** Stops claiming; waits for the jobs under way (their handlers see the abort signal). */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const drained = Promise.all([...this.running]);
    const timedOut = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([drained, timedOut]);
    this.abort.abort();
  }
}
