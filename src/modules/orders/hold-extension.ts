/**
 * A longer storage at the pickup point, asked of a company of its own: the job that
 * POST /v2/orders/extend-hold queues when the company is asked over the wire (the built-in
 * companies grant at once, in service.ts), and its answer written to the order's task and
 * hold date. Apart from tracking.ts because it answers one request of the shop, where
 * tracking.ts follows the parcel's statuses; TrackingService builds it from its own
 * dependencies and runs it for the job.
 */
import { todayIn } from '../../platform/clock.js';
import type { Job } from '../../platform/jobs.js';
import { CarrierError } from '../../carriers/types.js';
import type { ReferenceData } from '../companies/reference.js';
import { extendPointHold, parseDoc, type OrderDoc } from './document.js';
import type { OrderService } from './service.js';
import { STATUS } from './state.js';
import type { OrderStore } from './store.js';
import type { AccountZones } from './tracking.js';

/** What the job carries (EXTEND_HOLD_JOB). */
export interface HoldExtension {
  orderId: number;
  days: number;
  /** The task's date: which request of the order this job answers. */
  requestedAt: string;
}

export class HoldExtensionJob {
  constructor(
    private readonly store: OrderStore,
    private readonly orders: OrderService,
    private readonly reference: ReferenceData,
    private readonly accounts: AccountZones,
  ) {}

  /**
   * A longer storage asked of a company of its own: granted, the hold date moves on and the
   * task is done; refused (or the parcel left the point meanwhile), the task says why.
   * Transient failures are retried by the job table.
   */
  async run(job: Job<HoldExtension>, signal: AbortSignal): Promise<void> {
    const accountId = job.accountId as number;
    const { orderId, days, requestedAt } = job.payload;
    const isThisTask = (task: OrderDoc['tasks'][number]) =>
      task.type === 'extend-hold' && task.date === requestedAt && task.status === 'requested';
    const record = await this.store.get(accountId, orderId);
    if (!record || !parseDoc(record.doc).tasks.some(isThisTask)) return;
    const trackNumber = record.trackNumber;
    const entry = await this.reference.registry.companyOf(accountId, record.companyId);
    let refusedBecause: string | null = null;
    if (record.status !== STATUS.atPoint) refusedBecause = 'The parcel is no longer at the pickup point.';
    else if (!entry || !trackNumber) refusedBecause = 'The delivery company is no longer available.';
    else {
      try {
        await entry.driver.extendHold(trackNumber, days, signal);
      } catch (error) {
        const transient = !(error instanceof CarrierError) || error.transient;
        if (transient && job.attempts < job.maxAttempts) throw error;
        refusedBecause = error instanceof Error ? error.message : String(error);
      }
    }
    const today = todayIn(await this.accounts.timeZoneOf(accountId));
    // the order may have moved on while the company answered: apply the answer to what it is now
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = attempt === 0 ? record : await this.store.get(accountId, orderId);
      if (!current) return;
      const doc = parseDoc(current.doc);
      if (!doc.tasks.some(isThisTask)) return;
      doc.tasks = doc.tasks.map((task) =>
        isThisTask(task)
          ? {
              ...task,
              status: refusedBecause ? 'refused' : 'done',
              ...(refusedBecause ? { message: refusedBecause } : {}),
            }
          : task,
      );
      if (!refusedBecause) extendPointHold(doc, days, today);
      if (await this.store.update(accountId, current, doc)) {
        this.orders.changed(accountId, { ids: [current.id] });
        return;
      }
    }
    throw new Error(`order ${orderId} kept changing while its hold extension was recorded`);
  }
}
