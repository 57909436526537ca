/**
 * The sender of webhooks in each process: it claims delivery jobs from the job table as its
 * slots free up and runs each on its own, so a receiver that hangs for its whole timeout
 * holds one slot, never a round of others (the shared JobWorker waits for every job of a
 * round before claiming more). The dispatcher runs on the same beat. Any process may send:
 * jobs are claimed from the shared table and an endpoint's lease keeps its order.
 */
import type { Job, JobQueue, WorkerLogger } from '../../platform/jobs.js';
import { DELIVER_JOB, type DeliverJob, type WebhookService } from './service.js';

export interface PumpOptions {
  /** Endpoints sent to at once by this process. */
  concurrency: number;
  pollMs: number;
}

export class WebhookPump {
  private timer: NodeJS.Timeout | null = null;
  private readonly running = new Map<number, Promise<void>>();
  private ticking = false;

  constructor(
    private readonly service: WebhookService,
    private readonly queue: JobQueue,
    private readonly logger: WorkerLogger,
    private readonly options: PumpOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.pollMs);
    this.timer.unref();
  }

  async stop(graceMs = 10_000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.race([
      Promise.all(this.running.values()),
      new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
    ]);
  }

  /** Dispatches new events and starts due jobs in the free slots; answers how many it started. */
  async tick(now?: Date): Promise<number> {
    if (this.ticking) return 0;
    this.ticking = true;
    try {
      await this.service.dispatch();
      const free = this.options.concurrency - this.running.size;
      if (free <= 0) return 0;
      const jobs = await this.queue.claim([DELIVER_JOB], free, now);
      for (const job of jobs) {
        const work = this.run(job as Job<DeliverJob>, now).finally(() => this.running.delete(job.id));
        this.running.set(job.id, work);
      }
      return jobs.length;
    } catch (error) {
      this.logger.error({ err: error }, 'webhook pump tick failed');
      return 0;
    } finally {
      this.ticking = false;
    }
  }

  /** Tests and benches: ticks until nothing is due or running (a simulated `now` goes to every turn). */
  async drain(now?: Date): Promise<void> {
    for (;;) {
      const started = await this.tick(now);
      if (started === 0 && this.running.size === 0) return;
      if (started === 0) await Promise.race(this.running.values());
    }
  }

  private async run(job: Job<DeliverJob>, now?: Date): Promise<void> {
    // the job's lease is renewed while an endpoint's turn lasts (a turn may pass the 15 s lease)
    const heartbeat = setInterval(
      () => void this.queue.renew([job.id]).catch(() => undefined),
      Math.max(1000, Math.floor(this.queue.lockMs / 3)),
    );
    heartbeat.unref();
    try {
      const next = await this.service.runEndpoint(job.accountId as number, job.payload.endpointId, now);
      // the next turn is queued before this job completes, so a crash between the two loses nothing
      // (the key names the time: turns waiting for the same retry are one job)
      if (next)
        await this.queue.enqueue(job.accountId, DELIVER_JOB, job.payload, {
          runAt: next,
          uniqueKey: `webhook:${job.payload.endpointId}:at:${next.getTime()}`,
          maxAttempts: 50,
        });
      await this.queue.complete(job);
    } catch (error) {
      this.logger.warn(
        { jobId: job.id, endpointId: job.payload.endpointId, err: error },
        'webhook turn failed; it will be retried',
      );
      await this.queue.fail(job, error).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }
}
