/**
 * Orders that passed their promised delivery date (`delivery.promise.byDate`) without arriving
 * become late, once: `delivery.promise.late`, the problems list, and an order.late event (its
 * webhooks, CMS callbacks and the shop's problem notification follow from the event). Looked for
 * every hour, by the day of each account's own time zone.
 */
import { todayIn } from '../../platform/clock.js';
import { parseDoc } from './document.js';
import type { OrderService } from './service.js';
import type { OrderStore } from './store.js';
import type { AccountZones } from './tracking.js';

/** The zone whose date is ahead of every other (UTC+14): an order late anywhere is among those promised before its today. */
const EARLIEST_ZONE = 'Etc/GMT-14';
/** Orders looked at per pass: the rest wait for the next hour (a backlog after a long stop clears in a few). */
const PER_PASS = 2000;

export class LateOrders {
  constructor(
    private readonly store: OrderStore,
    private readonly orders: Pick<OrderService, 'changed'>,
    private readonly accounts: AccountZones,
  ) {}

  /** Marks the orders late whose promised date is before their account's today; answers how many. */
  async markLate(now = new Date()): Promise<number> {
    const due = await this.store.pastPromises(todayIn(EARLIEST_ZONE, now), PER_PASS);
    let marked = 0;
    for (const { accountId, id } of due) {
      const today = todayIn(await this.accounts.timeZoneOf(accountId), now);
      for (let attempt = 0; attempt < 3; attempt++) {
        const record = await this.store.get(accountId, id);
        if (!record) break;
        const doc = parseDoc(record.doc);
        const promise = doc.delivery.promise;
        if (!promise || promise.late || promise.byDate >= today) break;
        promise.late = true;
        promise.lateSince = today;
        if (await this.store.update(accountId, record, doc)) {
          this.orders.changed(accountId, { ids: [id] });
          marked++;
          break;
        }
      }
    }
    return marked;
  }
}
