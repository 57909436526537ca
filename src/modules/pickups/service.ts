/**
 * Pickups (contract 2.9, 4.10): a sender books a courier to collect a warehouse's prepared
 * orders on a day, the company's own (direct shipment, 4) or the service's consolidated
 * pickup (3). Booking and calling off go through the company's driver (jobs); built-in
 * companies collect on the pickup day's interval by the simulated clock, companies reached
 * over HTTP are asked where their pickup stands. A collected pickup hands its orders over:
 * 13 -> 14, and their journey goes on from there.
 */
import { processScope, type Scope } from '../../platform/auth.js';
import { startOfDay, todayIn, weekdayOf } from '../../platform/clock.js';
import { AppError, conflict, FieldErrorCollector, notFound } from '../../platform/errors.js';
import type { FileStore } from '../../platform/files.js';
import { PermanentJobError, type Job, type JobQueue, type JobWorker } from '../../platform/jobs.js';
import { gramsOf } from '../../platform/measures.js';
import { toKopecks, toRoubles } from '../../platform/money.js';
import type { Page, Paging } from '../../platform/paging.js';
import { renderPickupAct, type PickupActInput } from '../../documents/index.js';
import { pickupActLabels, thermalFile } from '../../documents/thermal-labels.js';
import type { PrinterDpi } from '../../documents/thermal.js';
import { CarrierError, type PickupRequest } from '../../carriers/types.js';
import type { AccountService } from '../accounts/service.js';
import type { ReferenceData } from '../companies/reference.js';
import type { PickupCompanyOffer } from '../companies/schemas.js';
import type { DeliveryCompanyService } from '../companies/service.js';
import { actOrderOf, senderOf } from '../documents/service.js';
import type { OrderDoc } from '../orders/document.js';
import type { OrderService } from '../orders/service.js';
import type { TrackingService } from '../orders/tracking.js';
import type { ShopService } from '../shops/service.js';
import type { Warehouse } from '../warehouses/schemas.js';
import { WAREHOUSE_TYPE } from '../warehouses/schemas.js';
import type { WarehouseService } from '../warehouses/service.js';
import { closedReason } from '../warehouses/working-days.js';
import {
  PICKUP_STATUS,
  PICKUP_STATUS_NAMES,
  type Pickup,
  type PickupCompaniesQuery,
  type PickupInput,
  type PickupListQuery,
  type PickupStatusItem,
} from './schemas.js';
import type { PickupRecord, PickupStore } from './store.js';

export const PICKUP_BOOK_JOB = 'pickups.book';
export const PICKUP_CANCEL_JOB = 'pickups.cancel-with-company';
/** Built-in companies: the courier comes (the simulated clock). */
export const PICKUP_COLLECT_JOB = 'pickups.collect';
/** Companies reached over HTTP: where does the booked pickup stand? */
export const PICKUP_CHECK_JOB = 'pickups.check';

/** Most orders one pickup covers (and one act lists). */
const MAX_PICKUP_ORDERS = 1000;
const DEFAULT_WEIGHT_GRAMS = 1000;
const CURRENT = [PICKUP_STATUS.new, PICKUP_STATUS.scheduled] as const;

export interface PickupOptions {
  /** Seconds after creation until a built-in company answers the booking (0: on the worker's next round). */
  simulationSeconds: number;
  /** Seconds between questions to a company reached over HTTP about a booked pickup. */
  pollSeconds: number;
}

type OrderView = OrderDoc & { id: number };

function historyItem(code: number): PickupStatusItem {
  return { code, name: PICKUP_STATUS_NAMES[code] ?? String(code), date: new Date().toISOString() };
}

/** The instant of `HH:MM` on `date` in `timeZone`. */
function instantOf(date: string, time: string, timeZone: string): Date {
  const [hours, minutes] = time.split(':').map(Number);
  return new Date(Date.parse(startOfDay(date, timeZone)) + ((hours || 0) * 60 + (minutes || 0)) * 60_000);
}

export class PickupService {
  constructor(
    private readonly store: PickupStore,
    private readonly warehouses: WarehouseService,
    private readonly shops: ShopService,
    private readonly companies: DeliveryCompanyService,
    private readonly reference: ReferenceData,
    private readonly orders: OrderService,
    private readonly tracking: TrackingService,
    private readonly accounts: AccountService,
    private readonly files: FileStore,
    private readonly jobs: JobQueue,
    private readonly options: PickupOptions,
  ) {
    warehouses.addUsageCheck(async (scope, warehouseId) =>
      (await this.store.countAt(scope.accountId, warehouseId)) > 0 ? ['its pickups'] : [],
    );
  }

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

  // ---------------------------------------------------------------- the sender's side

  async companyOffers(scope: Scope, query: PickupCompaniesQuery): Promise<PickupCompanyOffer[]> {
    const warehouse = await this.reachable(scope, query.warehouseId);
    return this.offersAt(scope.accountId, warehouse, query.type);
  }

  async create(scope: Scope, input: PickupInput): Promise<{ id: number }> {
    const warehouse = await this.reachable(scope, input.warehouseId);
    const problems = new FieldErrorCollector();
    if (warehouse.type !== WAREHOUSE_TYPE.own)
      problems.add(
        'warehouseId',
        'is a fulfilment-type warehouse: the fulfilment warehouse of the service hands its parcels over',
      );
    const closed = closedReason(warehouse, input.date);
    if (input.date < todayIn(scope.timeZone)) problems.add('date', 'must be today or later');
    else if (closed) problems.add('date', closed);
    const offer = (await this.offersAt(scope.accountId, warehouse, input.type)).find(
      (item) => item.id === input.companyId,
    );
    if (!offer)
      problems.add(
        'companyId',
        `does not collect from this warehouse's locality by ${input.type === 3 ? 'consolidated pickup (3)' : 'direct shipment (4)'} (GET /v2/pickups/companies lists who does)`,
      );
    const comment = input.comment?.trim() || null;
    if (comment !== null && offer && !offer.commentAvailable)
      problems.add('comment', `${offer.name} takes no comment for the courier (commentAvailable is false)`);
    const weightGrams = input.weight ? gramsOf(input.weight, 'weight', problems) : DEFAULT_WEIGHT_GRAMS;
    problems.throwIfAny();

    const builtIn = this.reference.registry.get(input.companyId)?.driver.code === 'tariff';
    const id = await this.store.db.transaction().execute(async (trx) => {
      const created = await this.store.insert(
        scope.accountId,
        {
          warehouseId: warehouse.id,
          companyId: input.companyId,
          type: input.type,
          date: input.date,
          status: PICKUP_STATUS.new,
          statusHistory: [historyItem(PICKUP_STATUS.new)],
          weightGrams,
          comment,
        },
        trx,
      );
      if (created === null) {
        throw conflict(
          'pickup_exists',
          `A pickup of warehouse ${warehouse.id} by ${offer?.name ?? `company ${input.companyId}`} (type ${input.type}) on ${input.date} already exists; cancel it first to book another.`,
        );
      }
      const runAt = new Date(Date.now() + (builtIn ? this.options.simulationSeconds * 1000 : 0));
      await this.jobs.enqueue(
        scope.accountId,
        PICKUP_BOOK_JOB,
        { pickupId: created },
        { runAt, uniqueKey: `pickup-book:${created}` },
        trx,
      );
      return created;
    });
    return { id };
  }

  async list(scope: Scope, query: PickupListQuery, paging: Paging): Promise<Page<Pickup>> {
    const warehouseId =
      scope.shopKeyShopId !== null ? (await this.shops.get(scope, scope.shopKeyShopId)).warehouse.id : undefined;
    const page = await this.store.list(
      scope.accountId,
      { archive: query.archive === 1, today: todayIn(scope.timeZone), warehouseId },
      paging,
    );
    return { items: await this.present(scope, page.items), total: page.total };
  }

  async get(scope: Scope, id: number): Promise<Pickup> {
    return (await this.present(scope, [await this.find(scope, id)]))[0];
  }

  /**
   * The sandbox's "collect now" (modules/sandbox): a built-in company's booked pickup is
   * collected at once instead of at the start of its interval, and its orders are handed over.
   */
  async collectNow(scope: Scope, id: number): Promise<void> {
    const pickup = await this.find(scope, id);
    if ((await this.reference.registry.companyOf(scope.accountId, pickup.companyId))?.driver.code !== 'tariff') {
      throw new AppError(
        422,
        'not_simulated',
        `Pickup ${id} is booked with a company of a contract: its courier comes as the company sends it; only the built-in companies' pickups can be collected now.`,
      );
    }
    if (pickup.status !== PICKUP_STATUS.scheduled) {
      const wait =
        pickup.status === PICKUP_STATUS.new
          ? ` (the company answers a booking ${this.options.simulationSeconds} s after it is made)`
          : '';
      throw conflict(
        'pickup_state',
        `Pickup ${id} is ${PICKUP_STATUS_NAMES[pickup.status]}: only a scheduled pickup can be collected${wait}.`,
        [{ id, message: `status ${pickup.status}` }],
      );
    }
    await this.collect(scope.accountId, id);
  }

  /** From New or Scheduled only; a booked pickup is called off with the company too (a job). */
  async cancel(scope: Scope, id: number): Promise<void> {
    const pickup = await this.find(scope, id);
    if (!(CURRENT as readonly number[]).includes(pickup.status)) {
      throw conflict(
        'pickup_state',
        `Pickup ${id} is ${PICKUP_STATUS_NAMES[pickup.status]}: only a new or scheduled pickup can be canceled.`,
        [{ id, message: `status ${pickup.status}` }],
      );
    }
    const warehouse = await this.warehouses.get(scope, pickup.warehouseId);
    const covered = await this.covered(scope.accountId, pickup, warehouse);
    await this.store.db.transaction().execute(async (trx) => {
      const moved = await this.store.move(
        scope.accountId,
        id,
        CURRENT,
        {
          status: PICKUP_STATUS.canceled,
          statusHistory: [historyItem(PICKUP_STATUS.canceled), ...pickup.statusHistory],
          orderIds: covered.map((order) => order.id),
        },
        trx,
      );
      if (!moved)
        throw conflict(
          'pickup_changed',
          `Pickup ${id} was changed at the same time (booked or canceled); read it again.`,
        );
      if (pickup.number !== null)
        await this.jobs.enqueue(
          scope.accountId,
          PICKUP_CANCEL_JOB,
          { pickupId: id, companyId: pickup.companyId, number: pickup.number },
          { uniqueKey: `pickup-cancel:${id}` },
          trx,
        );
    });
  }

  // ---------------------------------------------------------------- the company's side (jobs)

  /** What the account's collected pickups cost in [from, to): the bill's pickup lines. */
  async chargesIn(
    accountId: number,
    from: string,
    to: string,
  ): Promise<
    Array<{
      id: number;
      number: string | null;
      date: string;
      companyName: string;
      countOrders: number;
      priceKopecks: number;
    }>
  > {
    const done = await this.store.doneBetween(accountId, from, to);
    return done.map((pickup) => ({
      id: pickup.id,
      number: pickup.number,
      date: pickup.date,
      companyName: this.reference.registry.get(pickup.companyId)?.company.name ?? `служба ${pickup.companyId}`,
      countOrders: pickup.orderIds?.length ?? 0,
      priceKopecks: pickup.priceKopecks ?? 0,
    }));
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
    const covered = await this.covered(accountId, pickup, warehouse);
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
      weightKg: this.weightGramsOf(pickup, covered) / 1000,
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
  private async collect(accountId: number, pickupId: number): Promise<void> {
    let pickup = await this.store.get(accountId, pickupId);
    if (!pickup) return;
    if (pickup.status === PICKUP_STATUS.scheduled) {
      const warehouse = await this.warehouses.get(processScope(accountId), pickup.warehouseId);
      const covered = await this.covered(accountId, pickup, warehouse);
      const done = historyItem(PICKUP_STATUS.done);
      const change = {
        status: PICKUP_STATUS.done,
        statusHistory: [done, ...pickup.statusHistory],
        orderIds: covered.map((order) => order.id),
        priceKopecks: await this.priceKopecksOf(accountId, pickup, warehouse, covered.length),
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

  // ---------------------------------------------------------------- orders and the pickup

  /**
   * Whether an order waits at 13 for a pickup: it leaves an own warehouse of the account on a
   * named day by consolidated pickup or direct shipment (named in the order, else the
   * warehouse's default). Without a pickup date no pickup could ever cover it: it goes on as before.
   */
  /** The orders a current pickup covers: its warehouse's at 13 leaving that day, of its company (4) or of every consolidating company (3). */
  private async covered(accountId: number, pickup: PickupRecord, warehouse: Warehouse): Promise<OrderView[]> {
    const companyIds =
      pickup.type === 4 ? [pickup.companyId] : (await this.offersAt(accountId, warehouse, 3)).map((offer) => offer.id);
    return this.orders.readyForPickup(
      accountId,
      {
        warehouseId: warehouse.id,
        date: pickup.date,
        type: pickup.type,
        byDefault: warehouse.pickupType === pickup.type,
        companyIds,
      },
      MAX_PICKUP_ORDERS,
    );
  }

  /**
   * Who collects from the warehouse: the instance's companies serving its locality, and for a
   * direct shipment (4) also the account's contracted real companies that send a courier
   * (CDEK intakes). The service's consolidated pickup (3) hands over to the instance's only.
   */
  private async offersAt(accountId: number, warehouse: Warehouse, type: 3 | 4): Promise<PickupCompanyOffer[]> {
    const offers = this.companies.pickupCompanies(warehouse.address.city, type);
    if (type !== 4 || warehouse.address.city.countryCode.toUpperCase() !== 'RU') return offers;
    for (const { company } of await this.reference.registry.companiesOf(accountId)) {
      if (company.driver !== 'contract' || !company.pickup?.direct || offers.some((offer) => offer.id === company.id))
        continue;
      offers.push({
        id: company.id,
        name: company.name,
        price: company.pickup.pricePickup,
        countFree: company.pickup.countFree ?? 0,
        commentAvailable: company.pickup.commentAvailable ?? false,
      });
    }
    return offers;
  }

  /** The company's price for the pickup, 0 from its `countFree` orders (fixed when Done). */
  private async priceKopecksOf(
    accountId: number,
    pickup: PickupRecord,
    warehouse: Warehouse,
    countOrders: number,
  ): Promise<number> {
    const offer = (await this.offersAt(accountId, warehouse, pickup.type)).find((item) => item.id === pickup.companyId);
    if (!offer) return 0;
    return offer.countFree > 0 && countOrders >= offer.countFree ? 0 : toKopecks(offer.price);
  }

  private weightGramsOf(pickup: PickupRecord, orders: OrderView[]): number {
    if (orders.length === 0) return pickup.weightGrams;
    return orders.reduce((sum, order) => sum + Math.round(actOrderOf(order).weightKg * 1000), 0);
  }

  // ---------------------------------------------------------------- reads

  private async present(scope: Scope, records: PickupRecord[]): Promise<Pickup[]> {
    if (records.length === 0) return [];
    const warehouses = await this.warehouses.getMany(
      scope,
      records.map((record) => record.warehouseId),
    );
    const pickups: Pickup[] = [];
    for (const record of records) {
      const warehouse = warehouses.get(record.warehouseId) as Warehouse;
      const current = (CURRENT as readonly number[]).includes(record.status);
      const orders = current
        ? await this.covered(scope.accountId, record, warehouse)
        : await this.orders.byIds(scope.accountId, record.orderIds ?? []);
      const offer = (await this.offersAt(scope.accountId, warehouse, record.type)).find(
        (item) => item.id === record.companyId,
      );
      pickups.push({
        id: record.id,
        type: record.type,
        status: record.status,
        statusHistory: record.statusHistory,
        number: record.number,
        date: record.date,
        time: { from: record.timeFrom, to: record.timeTo },
        price: toRoubles(
          record.priceKopecks ?? (await this.priceKopecksOf(scope.accountId, record, warehouse, orders.length)),
        ),
        weight: this.weightGramsOf(record, orders) / 1000,
        file: await this.actOf(record, orders, warehouse),
        countOrders: orders.length,
        orderIds: orders.map((order) => order.id),
        warehouse,
        companyId: record.companyId,
        companyName: this.reference.registry.get(record.companyId)?.company.name ?? offer?.name ?? '',
        comment: record.comment,
        error: record.error,
      });
    }
    return pickups;
  }

  /** The act's barcodes for the warehouse's thermal printer (issue 32): the orders the pickup covers now, as its PDF act lists them. */
  async actLabels(
    scope: Scope,
    id: number,
    body: { format?: 'zpl' | 'png'; dpi?: PrinterDpi },
  ): Promise<{ file: string }> {
    const record = await this.find(scope, id);
    const warehouse = await this.reachable(scope, record.warehouseId);
    const current = (CURRENT as readonly number[]).includes(record.status);
    const orders = current
      ? await this.covered(scope.accountId, record, warehouse)
      : await this.orders.byIds(scope.accountId, record.orderIds ?? []);
    if (orders.length === 0)
      throw conflict('no_orders', `Pickup ${id} covers no orders: its act has no barcodes to print.`);
    const pages = pickupActLabels(this.actInput(record, orders, warehouse), body.dpi ?? 203);
    const file = await thermalFile(
      pages.map((label, index) => ({ name: `act-${record.id}-${index + 1}`, label, copies: 1 })),
      body.format ?? 'zpl',
    );
    const stored = await this.files.put(scope.accountId, {
      bytes: file.bytes,
      contentType: file.contentType,
      extension: file.extension,
      downloadName: `pickup-${record.id}-${record.date}.${file.extension}`,
    });
    return { file: stored.url };
  }

  private actInput(record: PickupRecord, orders: OrderView[], warehouse: Warehouse): PickupActInput {
    return {
      number: record.id,
      date: record.date,
      type: record.type,
      pickupNumber: record.number,
      time: record.timeFrom && record.timeTo ? { from: record.timeFrom, to: record.timeTo } : null,
      company: { name: this.reference.registry.get(record.companyId)?.company.name ?? `Company ${record.companyId}` },
      sender: senderOf(orders[0]),
      warehouse: {
        name: warehouse.name,
        address: {
          city: warehouse.address.city.name,
          region: warehouse.address.city.region,
          street: warehouse.address.street,
          house: warehouse.address.house,
          bulk: warehouse.address.bulk,
          flat: warehouse.address.flat,
        },
      },
      orders: orders.map((order) => actOrderOf(order)),
    };
  }

  /** The handover act of the orders the pickup covers now: formed again whenever they changed since the last one. */
  private async actOf(record: PickupRecord, orders: OrderView[], warehouse: Warehouse): Promise<string | null> {
    if (orders.length === 0) return null;
    const ids = orders.map((order) => order.id);
    if (
      record.file &&
      record.actOrders &&
      record.actOrders.length === ids.length &&
      record.actOrders.every((id, index) => id === ids[index])
    )
      return record.file;
    const pdf = await renderPickupAct(this.actInput(record, orders, warehouse));
    const file = await this.files.put(record.accountId, {
      bytes: pdf,
      contentType: 'application/pdf',
      extension: 'pdf',
      downloadName: `pickup-${record.id}-${record.date}.pdf`,
    });
    await this.store.setAct(record.accountId, record.id, file.url, ids);
    return file.url;
  }

  private async find(scope: Scope, id: number): Promise<PickupRecord> {
    const pickup = await this.store.get(scope.accountId, id);
    if (!pickup) throw notFound('Pickup', id);
    await this.reachable(scope, pickup.warehouseId);
    return pickup;
  }

  /** A warehouse of the account (404 otherwise); a shop key reaches only its shop's (403). */
  private async reachable(scope: Scope, warehouseId: number): Promise<Warehouse> {
    const own = scope.shopKeyShopId !== null ? (await this.shops.get(scope, scope.shopKeyShopId)).warehouse.id : null;
    try {
      return await this.warehouses.get(scope, warehouseId, own);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 403) {
        throw new AppError(
          403,
          'forbidden',
          `This API key belongs to shop ${scope.shopKeyShopId}, whose warehouse is ${own}; it cannot act on warehouse ${warehouseId}.`,
        );
      }
      throw error;
    }
  }
}
