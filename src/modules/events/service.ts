/**
 * Order events for integrators (a cursor over the account's stream) and for consumers
 * inside the service (notifications); old events are purged by a periodic job.
 */
import { requireShopAccess, type Scope } from '../../platform/auth.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import type { EventListQuery } from './schemas.js';
import type { EventStore } from './store.js';
import type { AccountEvent, OrderEvent } from './types.js';

export const EVENTS_PURGE_JOB = 'events.purge';
/** Events are kept this long (days). */
export const EVENT_RETENTION_DAYS = 30;
const PURGE_EVERY_MS = 60 * 60_000;

export class EventService {
  constructor(
    private readonly store: EventStore,
    private readonly jobs: JobQueue,
  ) {}

  /** The caller's events after `afterId`, oldest first; a shop key sees only its shop's. */
  async list(scope: Scope, query: EventListQuery): Promise<OrderEvent[]> {
    if (query.shopId !== undefined) requireShopAccess(scope, query.shopId);
    const shopId = scope.shopKeyShopId ?? query.shopId;
    await this.store.sequence();
    const events = await this.store.page(scope.accountId, {
      afterId: query.afterId ?? 0,
      limit: query.limit ?? 100,
      types: query.types,
      ...(shopId !== undefined ? { shopId } : {}),
    });
    return events.map(({ accountId: _account, ...event }) => event);
  }

  /** Every account's events after `position` (consumers inside the service). */
  async after(position: number, limit: number): Promise<AccountEvent[]> {
    await this.store.sequence();
    return this.store.after(position, limit);
  }

  /**
   * Runs a consumer over every event after its position, a batch at a time: `plan` reads what
   * the batch makes (before any write transaction: SQLite has one connection), `write` records
   * it in the transaction that moves the position. The move is a compare-and-set: when
   * another process handled the batch first, this one rolls back and stops. Answers the
   * number of events handled.
   */
  async consume<P>(
    name: string,
    batch: number,
    plan: (events: AccountEvent[]) => Promise<P>,
    write: (planned: P, trx: Transaction<Tables>) => Promise<void>,
  ): Promise<number> {
    let handled = 0;
    for (;;) {
      const from = await this.consumerPosition(name);
      const events = await this.after(from, batch);
      if (events.length === 0) return handled;
      const planned = await plan(events);
      const to = events[events.length - 1].id;
      const advanced = await this.store.transaction(async (trx) => {
        if (!(await this.advanceConsumer(name, from, to, trx))) return false;
        await write(planned, trx);
        return true;
      });
      if (!advanced) return handled;
      handled += events.length;
    }
  }

  consumerPosition(name: string): Promise<number> {
    return this.store.consumerPosition(name);
  }

  /** Moves a consumer on, in the transaction of what it did with the events. */
  advanceConsumer(name: string, from: number, to: number, trx: Kysely<Tables> | Transaction<Tables>): Promise<boolean> {
    return this.store.advanceConsumer(name, from, to, trx);
  }

  registerJobs(worker: JobWorker): void {
    worker.register(EVENTS_PURGE_JOB, async () => {
      try {
        await this.purgeOld();
      } finally {
        await this.schedulePurge(new Date(Date.now() + PURGE_EVERY_MS));
      }
    });
  }

  /** Makes sure a purge is due (each purge schedules the next; one per hour across processes). */
  async schedulePurge(at = new Date()): Promise<void> {
    const slot = Math.floor(at.getTime() / PURGE_EVERY_MS);
    await this.jobs.enqueue(
      null,
      EVENTS_PURGE_JOB,
      {},
      { runAt: at, uniqueKey: `events-purge:${slot}`, maxAttempts: 1 },
    );
  }

  /** Forgets events older than the retention; the number forgotten. */
  purgeOld(now = new Date()): Promise<number> {
    return this.store.purge(new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString());
  }
}
