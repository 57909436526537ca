/**
 * The company's side of a pickup, run as jobs: booking the courier with the company's driver,
 * calling a booking off, asking a company reached over HTTP where its pickup stands, and
 * collecting: the pickup is Done with the orders it covered, and they are handed over
 * (13 -> 14). Built-in companies collect on the pickup day's interval by the simulated clock.
 * Apart from service.ts because these run on the worker, on the company's answers, with no
 * caller waiting; the sender's side only queues them.
 */
import { processScope } from '../../platform/auth.js';
import { startOfDay, weekdayOf } from '../../platform/clock.js';
import { PermanentJobError, type Job, type JobQueue, type JobWorker } from '../../platform/jobs.js';
import { CarrierError, type PickupRequest } from '../../carriers/types.js';
import type { AccountService } from '../accounts/service.js';
import type { ReferenceData } from '../companies/reference.js';
import type { TrackingService } from '../orders/tracking.js';
import type { WarehouseService } from '../warehouses/service.js';
import type { PickupCoverage } from './coverage.js';
import { PICKUP_STATUS, PICKUP_STATUS_NAMES, type PickupStatusItem } from './schemas.js';
import type { PickupRecord, PickupStore } from './store.js';

export const PICKUP_BOOK_JOB = 'pickups.book';
export const PICKUP_CANCEL_JOB = 'pickups.cancel-with-company';
/** Built-in companies: the courier comes (the simulated clock). */
export const PICKUP_COLLECT_JOB = 'pickups.collect';
/** Companies reached over HTTP: where does the booked pickup stand? */
export const PICKUP_CHECK_JOB = 'pickups.check';

export interface PickupOptions {
  /** Seconds after creation until a built-in company answers the booking (0: on the worker's next round). */
  simulationSeconds: number;
  /** Seconds between questions to a company reached over HTTP about a booked pickup. */
  pollSeconds: number;
}

/** An entry of a pickup's status history, dated now (the sender's side writes them too). */
export function historyItem(code: number): PickupStatusItem {
  return { code, name: PICKUP_STATUS_NAMES[code] ?? String(code), date: new Date().toISOString() };
}

/** The instant of `HH:MM` on `date` in `timeZone`. */
function instantOf(date: string, time: string, timeZone: string): Date {
  const [hours, minutes] = time.split(':').map(Number);
  return new Date(Date.parse(startOfDay(date, timeZone)) + ((hours || 0) * 60 + (minutes || 0)) * 60_000);
}

export class CourierJobs {
  constructor(
    private readonly store: PickupStore,
    private readonly warehouses: WarehouseService,
    private readonly reference: ReferenceData,
    private readonly tracking: TrackingService,
    private readonly accounts: AccountService,
    private readonly jobs: JobQueue,
    private readonly options: PickupOptions,
    private readonly coverage: PickupCoverage,
  ) {}

  registerJobs(worker: JobWorker): void {
    worker.register<{ pickupId: number }>(PICKUP_BOOK_JOB, (job, signal) => this.book(job, signal));
    worker.register<{ pickupId: number; companyId: number; number: string }>(PICKUP_CANCEL_JOB, (job, signal) =>
      this.cancelWithCompany(job, signal),
    );
    worker.register<{ pickupId: number }>(PICKUP_COLLECT_JOB, (job) =>
      this.collect(job.accountId as number, job.payload.pickupId),
    );
    worker.register<{ pickupId: number }>(PICKUP_CHECK_JOB, (job, signal) => this.check(job, signal));
  }

  private async book(job: Job<{ pickupId: number }>, signal: AbortSignal): Promise<void> {
    const accountId = job.accountId as number;
    const pickup = await this.store.get(accountId, job.payload.pickupId);
    if (!pickup || pickup.status !== PICKUP_STATUS.new) return;
    const entry = await this.reference.registry.companyOf(accountId, pickup.companyId);
    const timeZone = await this.accounts.timeZoneOf(accountId);
    const warehouse = await this.warehouses.get(processScope(accountId, timeZone), pickup.warehouseId);
    const hours = warehouse.schedule[weekdayOf(pickup.date)] ?? { from: '09:00', to: '18:00' };
    if (!entry) {
      await this.fail(pickup, 'The delivery company is no longer available.');
      return;
    }
    const covered = await this.coverage.covered(accountId, pickup, warehouse);
    const city = warehouse.address.city;
    const request: PickupRequest = {
      pickupId: pickup.id,
      accountId,
      type: pickup.type,
      date: pickup.date,
      hours,
      address: {
        countryCode: city.countryCode,
        city: city.name,
        region: city.region ?? null,
        street: warehouse.address.street,
        house: warehouse.address.house,
        bulk: warehouse.address.bulk,
        flat: warehouse.address.flat,
      },
      contact: { name: warehouse.contact.name, phone: warehouse.contact.phone },
      weightKg: this.coverage.weightGramsOf(pickup, covered) / 1000,
      countOrders: covered.length,
      comment: pickup.comment,
    };
    let booking;
    try {
      booking = await entry.driver.schedulePickup(request, signal);
    } catch (error) {
      const transient = !(error instanceof CarrierError) || error.transient;
      if (transient && job.attempts < job.maxAttempts) throw error;
      await this.fail(pickup, error instanceof Error ? error.message : String(error));
      return;
    }
    const followUp = entry.driver.code === 'tariff' ? PICKUP_COLLECT_JOB : PICKUP_CHECK_JOB;
    await this.store.db.transaction().execute(async (trx) => {
      const moved = await this.store.move(
        accountId,
        pickup.id,
        [PICKUP_STATUS.new],
        {
          status: PICKUP_STATUS.scheduled,
          statusHistory: [historyItem(PICKUP_STATUS.scheduled), ...pickup.statusHistory],
          number: booking.number,
          timeFrom: booking.timeFrom,
          timeTo: booking.timeTo,
        },
        trx,
      );
      // the courier comes in the interval: collected (built-in) or asked about (HTTP) from its start
      if (moved)
        await this.jobs.enqueue(
          accountId,
          followUp,
          { pickupId: pickup.id },
          {
            runAt: instantOf(pickup.date, booking.timeFrom, timeZone),
            uniqueKey: `${followUp}:${pickup.id}:${Date.now()}`,
          },
          trx,
        );
      // canceled while the company answered: call its booking off (queued before this job is done: a retry finds the pickup canceled and would not)
      else
        await this.jobs.enqueue(
          accountId,
          PICKUP_CANCEL_JOB,
          { pickupId: pickup.id, companyId: pickup.companyId, number: booking.number },
          { uniqueKey: `pickup-cancel:${pickup.id}` },
          trx,
        );
    });
  }

  private async cancelWithCompany(
    job: Job<{ pickupId: number; companyId: number; number: string }>,
    signal: AbortSignal,
  ): Promise<void> {
    const entry = await this.reference.registry.companyOf(job.accountId as number, job.payload.companyId);
    if (!entry) return;
    try {
      await entry.driver.cancelPickup(job.payload.number, signal);
    } catch (error) {
      const transient = !(error instanceof CarrierError) || error.transient;
      if (transient && job.attempts < job.maxAttempts) throw error;
      const message = error instanceof Error ? error.message : String(error);
      // the pickup stays canceled here; the shop reads that the company did not call its courier off
      await this.store.setError(
        job.accountId as number,
        job.payload.pickupId,
        `The delivery company did not cancel its pickup ${job.payload.number}: ${message}`,
      );
      throw new PermanentJobError(message);
    }
  }

  /** A company reached over HTTP: collected (Done), called off by the company (Error), or asked again later. */
  private async check(job: Job<{ pickupId: number }>, signal: AbortSignal): Promise<void> {
    const accountId = job.accountId as number;
    const pickup = await this.store.get(accountId, job.payload.pickupId);
    if (!pickup || pickup.status !== PICKUP_STATUS.scheduled || pickup.number === null) return;
    const entry = await this.reference.registry.companyOf(accountId, pickup.companyId);
    if (!entry) return;
    const progress = await entry.driver.pickupProgress(pickup.number, signal);
    if (progress.state === 'done') {
      await this.collect(accountId, pickup.id);
      return;
    }
    if (progress.state === 'canceled') {
      await this.fail(pickup, progress.message ?? 'The delivery company called the pickup off.', [
        PICKUP_STATUS.scheduled,
      ]);
      return;
    }
    // asked every pollSeconds from the start of the courier's interval, never before it
    const intervalStart = instantOf(
      pickup.date,
      pickup.timeFrom ?? '00:00',
      await this.accounts.timeZoneOf(accountId),
    ).getTime();
    const runAt = new Date(Math.max(Date.now(), intervalStart) + this.options.pollSeconds * 1000);
    await this.jobs.enqueue(
      accountId,
      PICKUP_CHECK_JOB,
      { pickupId: pickup.id },
      { runAt, uniqueKey: `${PICKUP_CHECK_JOB}:${pickup.id}:${Date.now()}` },
    );
  }

  /**
   * The courier took the orders: the pickup is Done with the orders it covered, and they are
   * handed over (13 -> 14). Run again, it hands over what is still at 13 (a crash between).
   */
  async collect(accountId: number, pickupId: number): Promise<void> {
    let pickup = await this.store.get(accountId, pickupId);
    if (!pickup) return;
    if (pickup.status === PICKUP_STATUS.scheduled) {
      const warehouse = await this.warehouses.get(processScope(accountId), pickup.warehouseId);
      const covered = await this.coverage.covered(accountId, pickup, warehouse);
      const done = historyItem(PICKUP_STATUS.done);
      const change = {
        status: PICKUP_STATUS.done,
        statusHistory: [done, ...pickup.statusHistory],
        orderIds: covered.map((order) => order.id),
        priceKopecks: await this.coverage.priceKopecksOf(accountId, pickup, warehouse, covered.length),
        doneAt: done.date,
      };
      if (!(await this.store.move(accountId, pickupId, [PICKUP_STATUS.scheduled], change))) return;
      pickup = { ...pickup, ...change };
    }
    if (pickup.status !== PICKUP_STATUS.done) return;
    await this.tracking.handOver(accountId, pickup.orderIds ?? [], `Collected by pickup ${pickup.number ?? pickup.id}`);
  }

  private async fail(
    pickup: PickupRecord,
    error: string,
    from: readonly number[] = [PICKUP_STATUS.new],
  ): Promise<void> {
    await this.store.move(pickup.accountId, pickup.id, from, {
      status: PICKUP_STATUS.error,
      statusHistory: [historyItem(PICKUP_STATUS.error), ...pickup.statusHistory],
      error: error.slice(0, 1000),
    });
  }
}
