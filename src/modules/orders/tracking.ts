/**
 * What happens to an order after confirmation: registration with its company (a job),
 * statuses from the company (a polling job, pushed events, or the simulated journey of the
 * built-in companies). A longer hold asked of a company is hold-extension.ts; the tracking
 * record and the public page's lookups are parcel-reads.ts.
 */
import { CONTRACT_COMPANIES } from '../../carriers/contracts.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Scope } from '../../platform/auth.js';
import { addDays, todayIn } from '../../platform/clock.js';
import { identifyAuditCaller, inAuditAccount } from '../../platform/audit.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import type { Job, JobQueue, JobWorker } from '../../platform/jobs.js';
import { CarrierError, type ShipmentRequest, type TrackingEvent } from '../../carriers/types.js';
import { returnParcelInfo } from './return-parcels.js';
import type { ReferenceData } from '../companies/reference.js';
import { codPaymentOf, declaredValueKopecks, factPriceOf, parseDoc, type OrderDoc } from './document.js';
import { journeyOf, journeyOptionsOf, returnLegStart } from './journey.js';
import { applyPartialBuyout, boughtPerLine, buyoutReportOf } from './partial-buyout.js';
import { shipmentCargo, shipmentDetails } from './shipment-request.js';
import { HoldExtensionJob, type HoldExtension } from './hold-extension.js';
import { ParcelReads, type PublicParcel } from './parcel-reads.js';
import { buyoutProblem, StatusMoves, type SandboxBuyout } from './status-moves.js';
import type { OwnStatusBody, PushBody, PushResult, TrackingQuery, TrackingRecord } from './schemas.js';
import { CARRIER_CANCEL_JOB, EXTEND_HOLD_JOB, isOwnMethodOrder, REGISTER_JOB, type OrderService } from './service.js';
import {
  acceptsCarrierStatus,
  afterRegistration,
  CARRIER_STATUSES,
  FINAL_STATUSES,
  paymentTypeAfterDelivery,
  STATUS,
} from './state.js';
import type { Db, OrderRecord, OrderStore, RowExtras } from './store.js';
import type { DeliveryPromiseService } from '../delivery-promises/service.js';
import { arrivalOf } from './arrivals.js';

export const JOURNEY_JOB = 'orders.journey';

export const POLL_JOB = 'orders.track-poll';

export interface TrackingOptions {
  /** Seconds between simulated steps of a built-in company's parcel; 0: no simulation. */
  simulationStepSeconds: number;
  /** Seconds between polls of the companies that are asked (http drivers). */
  pollSeconds: number;
  /** The instance secret: each company's push secret is derived from it. */
  secret: string;
}

/** Still moving: not final, not delivered (a partly delivered parcel is: its refused lines travel back, 71 then 74). */
const ACTIVE_STATUSES = CARRIER_STATUSES.filter((code) => !FINAL_STATUSES.includes(code) && code !== 44);
/** The zone whose date is ahead of every other (UTC+14): a hold date due anywhere is due by its tomorrow. */
const EARLIEST_ZONE = 'Etc/GMT-14';

/** Kept here for the callers of before the split. */
export type { PublicParcel } from './parcel-reads.js';

/** What tracking needs of accounts: their time zone (hold dates are days of the account). */
export interface AccountZones {
  timeZoneOf(accountId: number): Promise<string>;
}

/**
 * Whether an order leaves its warehouse with a pickup (the pickups area answers): such an
 * order waits at 13 until a pickup collects it, instead of starting its journey at once.
 */
export type PickupCollection = (accountId: number, doc: OrderDoc) => Promise<boolean>;

export class TrackingService {
  constructor(
    private readonly store: OrderStore,
    private readonly orders: OrderService,
    private readonly reference: ReferenceData,
    private readonly jobs: JobQueue,
    private readonly options: TrackingOptions,
    private readonly accounts: AccountZones,
    /** The pickups area says which orders wait for a pickup (it knows the warehouses' pickup types: pickups/collection.ts). */
    private readonly collectedByPickup: PickupCollection,
    /** Delivery promises count every parcel's arrival (modules/delivery-promises); absent: nothing is counted. */
    private readonly arrivals?: Pick<DeliveryPromiseService, 'record' | 'enabled'>,
  ) {
    this.holdExtensions = new HoldExtensionJob(store, orders, reference, accounts);
    this.parcels = new ParcelReads(store, reference);
    this.moves = new StatusMoves(this, orders, reference);
  }

  /** Moves by hand: the sandbox's next status and partial buyout, a shop's own delivery statuses. */
  private readonly moves: StatusMoves;

  /** The job that asks a company for a longer hold and records its answer. */
  private readonly holdExtensions: HoldExtensionJob;

  /** Reads by what a parcel carries: the tracking record, the public page's lookups. */
  private readonly parcels: ParcelReads;

  /**
   * A pickup collected these orders: each still at 13 becomes 14 (Shipped by sender) and a
   * built-in company's journey starts from there. Answers the ids that moved.
   */
  async handOver(accountId: number, orderIds: number[], description: string): Promise<number[]> {
    const moved: number[] = [];
    for (const orderId of orderIds) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const record = await this.store.get(accountId, orderId);
        if (!record || record.status !== STATUS.prepared) break;
        const simulated = this.simulated(record.companyId);
        const event: TrackingEvent = {
          trackNumber: record.trackNumber ?? '',
          statusCode: STATUS.shipped,
          at: new Date().toISOString(),
          description,
        };
        const outcome = await this.apply(
          record,
          parseDoc(record.doc),
          event,
          simulated ? { journeyStep: 0 } : {},
          simulated ? (trx) => this.scheduleJourney(accountId, orderId, 0, trx) : undefined,
        );
        if (outcome === 'raced') continue;
        if (outcome === 'applied') moved.push(orderId);
        break;
      }
    }
    return moved;
  }

  /** The jobs of orders, for the worker of a process. */
  registerJobs(worker: JobWorker): void {
    worker.register<{ orderId: number }>(REGISTER_JOB, (job, signal) => this.register(job, signal));
    worker.register<{ orderId: number; companyId: number; trackNumber: string }>(
      CARRIER_CANCEL_JOB,
      async (job, signal) => {
        const entry = await this.reference.registry.companyOf(job.accountId as number, job.payload.companyId);
        if (entry) await entry.driver.cancel(job.payload.trackNumber, signal);
      },
    );
    worker.register<{ orderId: number; step?: number }>(JOURNEY_JOB, (job) => this.advanceJourney(job));
    worker.register<HoldExtension>(EXTEND_HOLD_JOB, (job, signal) => this.holdExtensions.run(job, signal));
    worker.register(POLL_JOB, (_job, signal) => this.poll(signal));
  }

  /** Makes sure a poll is due (each poll schedules the next). */
  async schedulePolling(now = new Date()): Promise<void> {
    if (this.options.pollSeconds <= 0) return;
    const slot = Math.floor(now.getTime() / (this.options.pollSeconds * 1000));
    await this.jobs.enqueue(null, POLL_JOB, {}, { runAt: now, uniqueKey: `poll:${slot}`, maxAttempts: 1 });
  }

  /**
   * The company's own code of the order's point, when it is one imported from the company's
   * directory; also of a point hidden since the order was made (the company may refuse a
   * closed point: that refusal reaches the order like any other).
   */
  private async pointCodeOf(doc: OrderDoc): Promise<string | null> {
    const pointId = doc.delivery.point?.id;
    return typeof pointId === 'number' ? ((await this.reference.pointIncludingHidden(pointId))?.code ?? null) : null;
  }

  /** A company's secret for pushing events (extension endpoint). */
  pushSecret(companyId: number): string {
    return createHmac('sha256', this.options.secret).update(`carrier-push:${companyId}`).digest('hex');
  }

  // ---------------------------------------------------------------- registration

  private async register(job: Job<{ orderId: number }>, signal: AbortSignal): Promise<void> {
    const accountId = job.accountId as number;
    const record = await this.store.get(accountId, job.payload.orderId);
    if (!record || record.status !== STATUS.confirmed) return;
    const doc = parseDoc(record.doc);
    if (isOwnMethodOrder(doc)) {
      this.orders.readyForOwnDelivery(accountId, record.id, doc, new Date().toISOString());
      if (await this.store.update(accountId, record, doc)) this.orders.changed(accountId, { ids: [record.id] });
      return;
    }
    const entry = await this.reference.registry.companyOf(accountId, record.companyId);
    if (!entry) {
      await this.finishRegistration(record, doc, null, 'The delivery company is no longer available.');
      return;
    }
    const shipment: ShipmentRequest = {
      orderId: record.id,
      accountId,
      type: doc.delivery.type as ShipmentRequest['type'],
      pointId: doc.delivery.point?.id ?? null,
      recipientLocalityId:
        this.reference.localities.find({
          countryCode: doc.deliveryAddress.city.countryCode ?? undefined,
          fias: doc.deliveryAddress.city.fias ?? undefined,
          name: doc.deliveryAddress.city.name ?? undefined,
          region: doc.deliveryAddress.city.region ?? undefined,
        })?.id ?? 0,
      cargo: shipmentCargo(doc),
      declaredKopecks: declaredValueKopecks(doc.products, doc.priceDeclared),
      codKopecks: Math.round(doc.priceCod * 100),
      details: shipmentDetails(record.id, doc, await this.pointCodeOf(doc)),
      ...(doc.returnOf ? { returnParcel: await returnParcelInfo(this.store, accountId, doc) } : {}),
    };
    try {
      const registration = await entry.driver.register(shipment, signal);
      // the environment the parcel was made in, whatever the contract said when the order was created
      if (await this.reference.registry.isTestMode(accountId, record.companyId)) doc.delivery.testMode = true;
      else delete doc.delivery.testMode;
      await this.finishRegistration(record, doc, registration, null);
    } catch (error) {
      const transient = !(error instanceof CarrierError) || error.transient;
      if (transient && job.attempts < job.maxAttempts) throw error;
      await this.finishRegistration(record, doc, null, error instanceof Error ? error.message : String(error));
    }
  }

  private async finishRegistration(
    record: OrderRecord,
    doc: OrderDoc,
    registration: { trackNumber: string; trackingUrl: string } | null,
    error: string | null,
  ): Promise<void> {
    const next = afterRegistration(record.status, registration !== null);
    if (next === null) return;
    const now = new Date().toISOString();
    doc.status = next;
    doc.error = error;
    doc.statusHistory = [
      this.orders.historyItem(
        next,
        now,
        error ? `Registration refused: ${error}` : 'Registered with the delivery company',
      ),
      ...doc.statusHistory,
    ];
    const extras: RowExtras = {};
    if (registration) {
      doc.trackNumber = registration.trackNumber;
      doc.trackingUrl = registration.trackingUrl;
    }
    // a parcel a pickup collects starts its journey when collected (handOver), not now
    const simulated =
      registration !== null &&
      this.simulated(record.companyId) &&
      !(await this.collectedByPickup(record.accountId, doc));
    if (simulated) extras.journeyStep = 0;
    // The order at 13 and its first journey step commit together: a process dying between
    // the two left the order at 13 with nothing queued, for good.
    const written = await this.store.transaction(async (trx) => {
      // A cancel that won the race leaves the order as it is (the registration is cancelled by its own job).
      if (!(await this.store.update(record.accountId, record, doc, extras, trx))) return false;
      if (simulated) await this.scheduleJourney(record.accountId, record.id, 0, trx);
      return true;
    });
    if (written) this.orders.changed(record.accountId, { ids: [record.id] });
  }

  // ---------------------------------------------------------------- statuses from companies

  /** Whether the company's parcels take simulated journeys (status-moves.ts asks too). */
  simulated(companyId: number): boolean {
    return this.options.simulationStepSeconds > 0 && this.reference.registry.get(companyId)?.driver.code === 'tariff';
  }

  /** The next simulated step, `step` being the journey index it is to apply (a job for another index is stale). */
  async scheduleJourney(accountId: number, orderId: number, step: number, db?: Db): Promise<void> {
    await this.jobs.enqueue(
      accountId,
      JOURNEY_JOB,
      { orderId, step },
      {
        runAt: new Date(Date.now() + this.options.simulationStepSeconds * 1000),
        uniqueKey: `journey:${accountId}:${orderId}:${step}:${Date.now()}`,
      },
      db,
    );
  }

  private async advanceJourney(job: Job<{ orderId: number; step?: number }>): Promise<void> {
    const accountId = job.accountId as number;
    const record = await this.store.get(accountId, job.payload.orderId);
    if (!record || record.journeyStep < 0) return;
    // a return request queues a job of its own: of two jobs for one step the second finds it taken (jobs queued before steps were named carry none)
    if (job.payload.step !== undefined && job.payload.step !== record.journeyStep) return;
    await this.stepJourney(record);
  }

  /** The sandbox's "next status now" (status-moves.ts). Answers the order's new status. */
  advanceNow(scope: Scope, orderId: number): Promise<number> {
    return this.moves.advanceNow(scope, orderId);
  }

  /** The sandbox's partial buyout at the point (status-moves.ts). Answers the order's new status. */
  partialBuyoutNow(scope: Scope, orderId: number, body: SandboxBuyout): Promise<number> {
    return this.moves.partialBuyoutNow(scope, orderId, body);
  }

  /** Applies the journey step the order is at and queues the next one. */
  async stepJourney(record: OrderRecord): Promise<'applied' | 'refused' | 'raced' | 'none'> {
    const accountId = record.accountId;
    const doc = parseDoc(record.doc);
    const steps = journeyOf(accountId, record.id, doc.delivery.type, journeyOptionsOf(doc));
    const step = steps[record.journeyStep];
    if (!step) return 'none';
    const next = record.journeyStep + 1;
    const more = next < steps.length;
    const event: TrackingEvent = {
      trackNumber: record.trackNumber ?? '',
      statusCode: step.code,
      at: new Date().toISOString(),
      description: step.description,
    };
    if (step.paymentMethod) event.paymentMethod = step.paymentMethod;
    if (step.buyout) event.buyout = { lines: step.buyout };
    const outcome = await this.apply(
      record,
      doc,
      event,
      { journeyStep: more ? next : -1 },
      more ? (trx) => this.scheduleJourney(accountId, record.id, next, trx) : undefined,
    );
    // changed by someone else meanwhile: the job is retried and reads it again
    if (outcome === 'raced') throw new Error(`order ${record.id} changed while its journey moved on`);
    return outcome;
  }

  /**
   * A shop's return request (42 or 44; recorded as a task by the order service). A built-in
   * company's parcel then travels back: the journey resumes at its return leg with a job of its
   * own, since a delivered order's journey had ended and a waiting one's job may be gone (a
   * step the order no longer accepts ends a journey); a job still pending for that step is then redundant.
   */
  async requestReturn(scope: Scope, ids: number[]): Promise<void> {
    await this.orders.requestReturn(scope, ids, async (record, doc, trx) => {
      if (!record.trackNumber || !this.simulated(record.companyId)) return {};
      const from = record.status === STATUS.delivered ? STATUS.delivered : STATUS.atPoint;
      const step = returnLegStart(doc.delivery.type, from);
      await this.scheduleJourney(record.accountId, record.id, step, trx);
      return { journeyStep: step };
    });
  }

  /**
   * One status from the company: appended to the history, with hold dates at points.
   * `followUp` queues the work the status implies, in the transaction that writes it.
   */
  async apply(
    record: OrderRecord,
    doc: OrderDoc,
    event: TrackingEvent,
    extras: RowExtras = {},
    followUp?: (trx: Db) => Promise<void>,
  ): Promise<'applied' | 'refused' | 'raced'> {
    if (!acceptsCarrierStatus(record.status, event.statusCode)) return 'refused';
    // a partial buyout names lines of this order, some bought and some not (else it is not one)
    const bought =
      event.statusCode === STATUS.partlyDelivered && event.buyout
        ? boughtPerLine(doc.products, event.buyout.lines)
        : null;
    if (typeof bought === 'string') return 'refused';
    const at = Number.isNaN(Date.parse(event.at)) ? new Date().toISOString() : new Date(event.at).toISOString();
    doc.status = event.statusCode;
    doc.statusHistory = [
      this.orders.historyItem(event.statusCode, at, event.description || null),
      ...doc.statusHistory,
    ];
    const point = doc.delivery.point;
    if (event.statusCode === STATUS.atPoint && point) {
      // the arrival day of the account (its shop and recipients live by it), not of the server
      const today = todayIn(await this.accounts.timeZoneOf(record.accountId), new Date(at));
      point.holdDate = addDays(today, Math.max(1, point.holdDays));
      point.storagingEnds = point.holdDays <= 1;
    }
    if (event.statusCode === STATUS.delivered || event.statusCode === STATUS.partlyDelivered) {
      const paid = codPaymentOf(doc, event.paymentMethod);
      if (paid !== 'none') {
        doc.pay.status = { code: 'paid', date: at };
        doc.pay.type = paymentTypeAfterDelivery(doc.pay.type, paid);
        extras.codReceived = true;
      }
      doc.delivery.factPrice = factPriceOf(doc.delivery, paid);
      if (bought) {
        // only the bought lines are paid for: the collected sum, its commission and the delivery's cost follow
        const outcome = applyPartialBuyout(doc, bought, paid, at, event.buyout?.collectedKopecks);
        doc.partialBuyout = outcome.partialBuyout;
        doc.delivery.factPrice = outcome.factPrice;
        if (outcome.partialBuyout.collected <= 0 && doc.pay.status.code === 'paid') {
          doc.pay.status = { code: 'not_paid', date: at };
          delete extras.codReceived;
        }
      }
    }
    if (event.statusCode === STATUS.returned) {
      // the parcel is back: a return the shop asked for is done
      doc.tasks = doc.tasks.map((task) =>
        task.type === 'return' && task.status === 'requested' ? { ...task, status: 'done' } : task,
      );
    }
    const arrival = this.arrivals?.enabled
      ? await arrivalOf(record, doc, event.statusCode, at, {
          localities: this.reference.localities,
          simulated: this.simulated(record.companyId),
          timeZone: () => this.accounts.timeZoneOf(record.accountId),
        })
      : null;
    const write = arrival
      ? async (trx: Db) => {
          await followUp?.(trx);
          await this.arrivals?.record(arrival, trx);
        }
      : followUp;
    if (!(await this.orders.writeCarrierStatus(record, doc, extras, write))) return 'raced';
    this.orders.changed(record.accountId, { ids: [record.id] });
    return 'applied';
  }

  /** The shop moves an order of its own delivery method (status-moves.ts). */
  setOwnStatus(scope: Scope, id: number, body: OwnStatusBody): Promise<void> {
    return this.moves.setOwnStatus(scope, id, body);
  }

  /**
   * Events for a company's track numbers (push or poll); answers what was applied and what
   * not. With `accountId` (a webhook of one account's contract) only that account's orders.
   */
  async applyEvents(companyId: number, events: TrackingEvent[], accountId?: number): Promise<PushResult> {
    const found = await this.store.byTrackNumber(
      companyId,
      events.map((event) => event.trackNumber),
    );
    const records = accountId === undefined ? found : found.filter((record) => record.accountId === accountId);
    const byTrack = new Map(records.map((record) => [record.trackNumber as string, record]));
    let applied = 0;
    const ignored: PushResult['ignored'] = [];
    const sorted = [...events].sort((a, b) => Date.parse(a.at ?? '') - Date.parse(b.at ?? ''));
    for (const event of sorted) {
      const known = byTrack.get(event.trackNumber);
      if (!known) {
        ignored.push({ trackNumber: event.trackNumber, message: 'no order of this company has this track number' });
        continue;
      }
      // re-read (an earlier event of the same batch may have changed it), and again if it changes meanwhile
      // each order's change is in its own account's audit chain (a push may name orders of several)
      const { outcome, record } = await inAuditAccount(known.accountId, async () => {
        let outcome: 'applied' | 'refused' | 'raced' = 'raced';
        let record = known;
        for (let attempt = 0; attempt < 3 && outcome === 'raced'; attempt++) {
          record = (await this.store.get(known.accountId, known.id)) as OrderRecord;
          outcome = await this.apply(record, parseDoc(record.doc), event);
        }
        return { outcome, record };
      }, [{ type: 'orders', ids: [known.id] }]);
      if (outcome === 'applied') applied++;
      else
        ignored.push({
          trackNumber: event.trackNumber,
          message:
            buyoutProblem(record, event) ??
            `status ${event.statusCode} does not apply to an order in status ${record.status}`,
        });
    }
    return { applied, ignored };
  }

  async push(companyId: number, secret: string, body: PushBody): Promise<PushResult> {
    if (!this.reference.registry.get(companyId)) throw notFound('Delivery company', companyId);
    const expected = Buffer.from(this.pushSecret(companyId));
    const given = Buffer.from(secret);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new AppError(
        401,
        'invalid_carrier_secret',
        'The X-Carrier-Secret header is not the secret of this company.',
      );
    identifyAuditCaller({ actor: { kind: 'carrier', id: String(companyId) } });
    const unknown = body.events.filter((event) => !CARRIER_STATUSES.includes(event.statusCode));
    if (unknown.length)
      throw badRequest(
        'Only statuses a delivery company reports can be pushed.',
        unknown.map((event) => ({
          field: 'events.statusCode',
          message: `${event.statusCode} is not a status a delivery company reports`,
        })),
      );
    return this.applyEvents(
      companyId,
      body.events.map((event) => ({
        trackNumber: event.trackNumber,
        statusCode: event.statusCode,
        at: event.at ?? new Date().toISOString(),
        description: event.description ?? '',
        ...(event.paymentMethod ? { paymentMethod: event.paymentMethod } : {}),
        ...(event.buyout && event.statusCode === STATUS.partlyDelivered
          ? { buyout: buyoutReportOf(event.buyout) }
          : {}),
      })),
    );
  }

  /** Asks every polled company about its travelling parcels; marks storage about to end; schedules the next poll. */
  private async poll(signal: AbortSignal): Promise<void> {
    try {
      const polled = [
        ...this.reference.registry
          .all()
          .filter((entry) => entry.driver.code !== 'tariff')
          .map((entry) => entry.company.id),
        ...CONTRACT_COMPANIES.map((company) => company.file.id),
      ];
      const travelling = await this.store.travelling(polled, [STATUS.prepared, ...ACTIVE_STATUSES], 2000);
      // a real company is asked with each account's own contract
      const byCompany = new Map<string, { accountId: number; companyId: number; trackNumbers: string[] }>();
      for (const row of travelling) {
        const key = `${row.accountId}:${row.companyId}`;
        const group = byCompany.get(key) ?? { accountId: row.accountId, companyId: row.companyId, trackNumbers: [] };
        group.trackNumbers.push(row.trackNumber);
        byCompany.set(key, group);
      }
      for (const { accountId, companyId, trackNumbers } of byCompany.values()) {
        const entry = await this.reference.registry.companyOf(accountId, companyId);
        if (!entry) continue;
        try {
          await this.applyEvents(companyId, await entry.driver.track(trackNumbers, signal));
        } catch {
          // a company that does not answer is asked again at the next poll
        }
      }
      // candidates due in the zone that is ahead of all; each is then checked by its account's own tomorrow
      const latestTomorrow = addDays(todayIn(EARLIEST_ZONE), 1);
      for (const record of await this.store.storageEnding(latestTomorrow, 1000)) {
        const doc = parseDoc(record.doc);
        if (!doc.delivery.point?.holdDate) continue;
        if (doc.delivery.point.holdDate > addDays(todayIn(await this.accounts.timeZoneOf(record.accountId)), 1))
          continue;
        doc.delivery.point.storagingEnds = true;
        if (await this.store.update(record.accountId, record, doc))
          this.orders.changed(record.accountId, { ids: [record.id] });
      }
    } finally {
      await this.schedulePolling(new Date(Date.now() + this.options.pollSeconds * 1000));
    }
  }

  // ---------------------------------------------------------------- reads by parcel (parcel-reads.ts)

  /** The orders of a company with this track number, for the public page (which checks its link's seal against each). */
  parcelsWithTrackNumber(companyId: number, trackNumber: string): Promise<PublicParcel[]> {
    return this.parcels.parcelsWithTrackNumber(companyId, trackNumber);
  }

  /** The latest order with this track number of any company, for the public status-only answers. */
  latestParcelWithTrackNumber(trackNumber: string): Promise<PublicParcel | undefined> {
    return this.parcels.latestParcelWithTrackNumber(trackNumber);
  }

  /** The tracking record of GET /v2/tracking. */
  record(scope: Scope, query: TrackingQuery): Promise<TrackingRecord> {
    return this.parcels.record(scope, query);
  }
}

/** Kept here for the callers of before the split. */
export { shipmentGoods } from './shipment-request.js';
