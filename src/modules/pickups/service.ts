/**
 * Pickups (contract 2.9, 4.10): a sender books a courier to collect a warehouse's prepared
 * orders on a day, the company's own (direct shipment, 4) or the service's consolidated
 * pickup (3). This file is the sender's side: offers, booking, reading, calling off, the
 * sandbox's "collect now". What it delegates to is built here from its own dependencies: who
 * collects and what a pickup covers (coverage.ts), the company's side run as jobs, which
 * books, asks, collects and hands the orders over, 13 -> 14 (courier-jobs.ts), the handover
 * act (handover-act.ts).
 */
import type { Scope } from '../../platform/auth.js';
import { todayIn } from '../../platform/clock.js';
import { AppError, conflict, FieldErrorCollector, notFound } from '../../platform/errors.js';
import type { FileStore } from '../../platform/files.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import { gramsOf } from '../../platform/measures.js';
import { toRoubles } from '../../platform/money.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { PrinterDpi } from '../../documents/thermal.js';
import type { AccountService } from '../accounts/service.js';
import type { ReferenceData } from '../companies/reference.js';
import type { PickupCompanyOffer } from '../companies/schemas.js';
import type { DeliveryCompanyService } from '../companies/service.js';
import type { OrderService } from '../orders/service.js';
import type { TrackingService } from '../orders/tracking.js';
import type { ShopService } from '../shops/service.js';
import type { Warehouse } from '../warehouses/schemas.js';
import { WAREHOUSE_TYPE } from '../warehouses/schemas.js';
import type { WarehouseService } from '../warehouses/service.js';
import { closedReason } from '../warehouses/working-days.js';
import { CURRENT, PickupCoverage } from './coverage.js';
import { CourierJobs, historyItem, PICKUP_BOOK_JOB, PICKUP_CANCEL_JOB, type PickupOptions } from './courier-jobs.js';
import { HandoverActs } from './handover-act.js';
import {
  PICKUP_STATUS,
  PICKUP_STATUS_NAMES,
  type Pickup,
  type PickupCompaniesQuery,
  type PickupInput,
  type PickupListQuery,
} from './schemas.js';
import type { PickupRecord, PickupStore } from './store.js';

export {
  PICKUP_BOOK_JOB,
  PICKUP_CANCEL_JOB,
  PICKUP_CHECK_JOB,
  PICKUP_COLLECT_JOB,
  type PickupOptions,
} from './courier-jobs.js';

const DEFAULT_WEIGHT_GRAMS = 1000;

export class PickupService {
  private readonly coverage: PickupCoverage;
  private readonly courier: CourierJobs;
  private readonly acts: HandoverActs;

  constructor(
    private readonly store: PickupStore,
    private readonly warehouses: WarehouseService,
    private readonly shops: ShopService,
    companies: DeliveryCompanyService,
    private readonly reference: ReferenceData,
    orders: OrderService,
    tracking: TrackingService,
    accounts: AccountService,
    files: FileStore,
    private readonly jobs: JobQueue,
    private readonly options: PickupOptions,
  ) {
    this.coverage = new PickupCoverage(orders, companies, reference);
    this.courier = new CourierJobs(store, warehouses, reference, tracking, accounts, jobs, options, this.coverage);
    this.acts = new HandoverActs(store, files, reference);
    warehouses.addUsageCheck(async (scope, warehouseId) =>
      (await this.store.countAt(scope.accountId, warehouseId)) > 0 ? ['its pickups'] : [],
    );
  }

  registerJobs(worker: JobWorker): void {
    this.courier.registerJobs(worker);
  }

  // ---------------------------------------------------------------- the sender's side

  async companyOffers(scope: Scope, query: PickupCompaniesQuery): Promise<PickupCompanyOffer[]> {
    const warehouse = await this.reachable(scope, query.warehouseId);
    return this.coverage.offersAt(scope.accountId, warehouse, query.type);
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
    const offer = (await this.coverage.offersAt(scope.accountId, warehouse, input.type)).find(
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
    await this.courier.collect(scope.accountId, id);
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
    const covered = await this.coverage.covered(scope.accountId, pickup, warehouse);
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

  // ---------------------------------------------------------------- the bill

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
      const orders = await this.coverage.ordersOf(scope.accountId, record, warehouse);
      const offer = (await this.coverage.offersAt(scope.accountId, warehouse, record.type)).find(
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
          record.priceKopecks ??
            (await this.coverage.priceKopecksOf(scope.accountId, record, warehouse, orders.length)),
        ),
        weight: this.coverage.weightGramsOf(record, orders) / 1000,
        file: await this.acts.pdfOf(record, orders, warehouse),
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

  /** The act's barcodes for the warehouse's thermal printer: the orders the pickup covers now, as its PDF act lists them. */
  async actLabels(
    scope: Scope,
    id: number,
    body: { format?: 'zpl' | 'png'; dpi?: PrinterDpi },
  ): Promise<{ file: string }> {
    const record = await this.find(scope, id);
    const warehouse = await this.reachable(scope, record.warehouseId);
    const orders = await this.coverage.ordersOf(scope.accountId, record, warehouse);
    if (orders.length === 0)
      throw conflict('no_orders', `Pickup ${id} covers no orders: its act has no barcodes to print.`);
    return this.acts.labels(record, orders, warehouse, body);
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
