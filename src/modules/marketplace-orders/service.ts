/**
 * Marketplace orders: the poll that reads each connected marketplace (bounded per run,
 * resumable from its stored cursor, an order never stored twice) and the reads of 4.9.
 */
import { requireShopAccess, type Scope } from '../../platform/auth.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { PermanentJobError, RetryLaterError, type JobQueue, type JobWorker } from '../../platform/jobs.js';
import { toRoubles } from '../../platform/money.js';
import type { Page, Paging } from '../../platform/paging.js';
import { addDays, startOfDay } from '../../platform/clock.js';
import {
  MarketplaceAuthError,
  MarketplaceUnavailableError,
  type FetchedOrder,
  type MarketplaceAddress,
} from '../../marketplaces/types.js';
import type { MarketplaceService, OpenIntegration } from '../marketplaces/service.js';
import type { BoundProduct, ProductService } from '../products/service.js';
import type { MarketplaceOrder, MarketplaceOrderListQuery } from './schemas.js';
import type { StockService } from '../fulfilment/stock-service.js';
import type { StockActor } from '../orders/fulfilment-port.js';
import {
  RESERVATION,
  rowFlags,
  type MarketplaceOrderFilter,
  type MarketplaceOrderStore,
  type NewMarketplaceOrder,
  type OrderRow,
  type ProductError,
  type ReservationStatus,
  type StoredProduct,
} from './store.js';

export const POLL_JOB = 'marketplaces.poll';
export const SCHEDULE_JOB = 'marketplaces.schedule';
/** At most this many orders are read from one marketplace in one run; the next run goes on. */
export const MAX_ORDERS_PER_RUN = 500;
const PAGE_SIZE = 100;
/** At most this many stored orders have their status asked for in one run (Ozon and Yandex Market answer one per call). */
export const MAX_STATUS_CHECKS_PER_RUN = 100;
/** At most this many orders waiting for goods are tried in one run, oldest first. */
export const MAX_RESERVATIONS_PER_RUN = 100;
/** At most this many open orders with unbound products are matched again in one run, oldest first. */
export const MAX_REMATCHES_PER_RUN = 500;
const POLL_ACTOR: StockActor = { actor: `process:${POLL_JOB}`, employeeId: null };
const DISCONNECT_ACTOR: StockActor = { actor: 'process:marketplaces.disconnect', employeeId: null };

const NO_ADDRESS: MarketplaceAddress = {
  city: { countryCode: 'RU', name: '', fias: null, type: null, region: null },
  street: null,
  house: null,
  bulk: null,
  flat: null,
};

export interface PollOutcome {
  fetched: number;
  stored: number;
  more: boolean;
  /** Stored orders whose status changed in this run. */
  changed: number;
  /** Orders whose goods were reserved in this run. */
  reserved: number;
  /** Stored orders whose products were matched anew to bindings added since. */
  rematched: number;
}

export class MarketplaceOrderService {
  constructor(
    private readonly store: MarketplaceOrderStore,
    private readonly marketplaces: MarketplaceService,
    private readonly products: ProductService,
    private readonly jobs: JobQueue,
    private readonly stock: Pick<
      StockService,
      'planGoods' | 'reserveForMarketplaceOrder' | 'releaseMarketplaceOrder' | 'shipMarketplaceOrder'
    >,
    private readonly options: { pollSeconds: number },
  ) {
    marketplaces.whenConnected((accountId, marketplaceId) => this.schedulePoll(accountId, marketplaceId));
    marketplaces.whenDisconnecting(async (accountId, marketplaceId) => {
      await this.giveBackGoods(accountId, marketplaceId);
    });
  }

  // --- reads ---

  async list(
    scope: Scope,
    query: MarketplaceOrderListQuery,
    paging: Paging,
    now = new Date(),
  ): Promise<Page<MarketplaceOrder>> {
    const filter: MarketplaceOrderFilter = {};
    const codes = new Set(query.statuses ?? []);
    if (query.list) filter.statusCodes = codes.size ? [...codes].filter((code) => code === query.list) : [query.list];
    else if (codes.size) filter.statusCodes = [...codes];
    if (query.dateFrom) filter.createdFrom = startOfDay(query.dateFrom, scope.timeZone);
    if (query.dateTo) filter.createdBefore = startOfDay(addDays(query.dateTo, 1), scope.timeZone);
    if (query.search?.trim()) filter.search = query.search.trim();
    if (query.marketplaces?.length) filter.marketplaceIds = query.marketplaces;
    if (query.shippingMode !== undefined) filter.shippingMode = query.shippingMode;
    if (query.warehouseId !== undefined) filter.warehouseId = query.warehouseId;
    if (query.marketplaceAcceptExpired !== undefined)
      filter.acceptExpired = { value: query.marketplaceAcceptExpired, now: now.toISOString() };
    if (scope.shopKeyShopId !== null) filter.shopId = scope.shopKeyShopId;
    const page = await this.store.list(scope.accountId, filter, paging);
    return { items: await this.present(scope.accountId, page.items, now), total: page.total };
  }

  async get(scope: Scope, id: number, now = new Date()): Promise<MarketplaceOrder> {
    const row = await this.store.get(scope.accountId, id);
    if (!row) throw notFound('Marketplace order', id);
    // an order of no shop (none existed when it was read) is the account's: no shop key reaches it, as in the list
    if (row.shop_id === null && scope.shopKeyShopId !== null)
      throw forbidden(
        `This API key belongs to shop ${scope.shopKeyShopId}; marketplace order ${id} belongs to no shop.`,
      );
    if (row.shop_id !== null) requireShopAccess(scope, row.shop_id);
    return (await this.present(scope.accountId, [row], now))[0] as MarketplaceOrder;
  }

  /** The orders of a bundle; an unknown bundle is 404 (a bundle exists only through its orders). */
  async bundle(scope: Scope, bundleId: string, now = new Date()): Promise<MarketplaceOrder[]> {
    const rows = await this.store.byBundle(scope.accountId, bundleId, scope.shopKeyShopId ?? undefined);
    if (rows.length === 0) throw notFound('Bundle', bundleId);
    return this.present(scope.accountId, rows, now);
  }

  private async present(accountId: number, rows: OrderRow[], now: Date): Promise<MarketplaceOrder[]> {
    const sizes = await this.store.bundleSizes(
      accountId,
      rows.flatMap((row) => (row.bundle_key ? [row.bundle_key] : [])),
    );
    const nowIso = now.toISOString();
    return rows.map((row) => {
      const parts = rowFlags(row);
      const marketplace = this.marketplaces.directory.get(row.marketplace_id);
      const bundleSize = row.bundle_key ? (sizes.get(row.bundle_key) ?? 0) : 0;
      return {
        id: row.id,
        shopId: row.shop_id,
        marketplace: marketplace ? { id: marketplace.id, name: marketplace.name } : null,
        marketplaceCreationDate: row.marketplace_created_at,
        marketplaceOrderNumber: row.marketplace_order_number,
        shippingMode: row.shipping_mode,
        // stored in the order it happened; the contract lists it latest first (as an order's)
        statusHistory: [...parts.statusHistory].reverse(),
        marketplaceAcceptDatePlanned: row.accept_planned_at,
        marketplaceAcceptDate: row.accepted_at,
        deliveryPrice: toRoubles(row.delivery_price),
        deliveryPriceFact: row.delivery_price_fact === null ? null : toRoubles(row.delivery_price_fact),
        priceDeclared: toRoubles(row.price_declared),
        products: parts.products.map((product) => ({
          productId: product.productId,
          vendorCode: product.vendorCode,
          name: product.name,
          count: product.count,
          price: toRoubles(product.priceKopecks),
          identifiers: product.identifiers,
        })),
        dimensions: {
          width: parts.dimensions.width,
          height: parts.dimensions.height,
          length: parts.dimensions.length,
          weight: parts.dimensions.weightGrams / 1000,
        },
        shippingWarehouse: parts.shippingWarehouse,
        deliveryAddress: parts.deliveryAddress,
        // a bundle is shown when it holds more than this order
        bundle: row.bundle_key && bundleSize > 1 ? { id: row.bundle_key, count: bundleSize } : null,
        isFulfilment: parts.isFulfilment,
        errors: parts.errors,
        marketplaceAcceptExpired:
          row.accepted_at === null &&
          row.accept_planned_at !== null &&
          new Date(row.accept_planned_at).toISOString() < nowIso &&
          (row.status_code === 1 || row.status_code === 2),
      };
    });
  }

  // --- the poll ---

  registerJobs(worker: JobWorker): void {
    worker.register<{ accountId: number; marketplaceId: number }>(POLL_JOB, async (job, signal) => {
      await this.poll(job.payload.accountId, job.payload.marketplaceId, signal);
    });
    worker.register(SCHEDULE_JOB, async () => {
      try {
        for (const { accountId, marketplaceId } of await this.marketplaces.allConnected())
          await this.schedulePoll(accountId, marketplaceId);
      } finally {
        await this.scheduleRounds(new Date(Date.now() + this.options.pollSeconds * 1000));
      }
    });
  }

  /** Makes sure a round of polls is due (each round schedules the next; one per period across processes). */
  async scheduleRounds(at = new Date()): Promise<void> {
    if (this.options.pollSeconds <= 0) return;
    const slot = Math.floor(at.getTime() / (this.options.pollSeconds * 1000));
    await this.jobs.enqueue(
      null,
      SCHEDULE_JOB,
      {},
      { runAt: at, uniqueKey: `marketplaces-schedule:${slot}`, maxAttempts: 1 },
    );
  }

  /** One poll job per (account, marketplace) at a time: enqueuing it again while one waits is a no-op. */
  async schedulePoll(accountId: number, marketplaceId: number, at = new Date()): Promise<void> {
    await this.jobs.enqueue(
      accountId,
      POLL_JOB,
      { accountId, marketplaceId },
      { runAt: at, uniqueKey: `marketplace-poll:${accountId}:${marketplaceId}`, maxAttempts: 6 },
    );
  }

  /**
   * Reads new orders page by page from where the last poll stopped, at most
   * MAX_ORDERS_PER_RUN; the cursor is saved after every stored page, so a failure loses
   * nothing and repeats at most that page (whose orders the unique index keeps single).
   */
  async poll(
    accountId: number,
    marketplaceId: number,
    signal: AbortSignal = AbortSignal.timeout(60_000),
    now = new Date(),
  ): Promise<PollOutcome> {
    const integration = await this.marketplaces.openIntegration(accountId, marketplaceId);
    if (!integration) return { fetched: 0, stored: 0, more: false, changed: 0, reserved: 0, rematched: 0 };
    let cursor = integration.cursor;
    const outcome: PollOutcome = { fetched: 0, stored: 0, more: false, changed: 0, reserved: 0, rematched: 0 };
    try {
      do {
        const page = await integration.adapter.fetchOrders(
          integration.credentials,
          cursor,
          Math.min(PAGE_SIZE, MAX_ORDERS_PER_RUN - outcome.fetched),
          now,
          signal,
        );
        const wanted = page.orders.filter((order) => this.modeEnabled(integration, order.shippingMode));
        const created = await this.store.insertNew(accountId, await this.toNewOrders(integration, wanted, now));
        outcome.fetched += page.orders.length;
        outcome.stored += created.length;
        outcome.more = page.more;
        cursor = page.cursor;
        await this.marketplaces.savePollState(accountId, marketplaceId, { cursor, error: null });
        if (page.orders.length === 0) break;
      } while (outcome.more && outcome.fetched < MAX_ORDERS_PER_RUN && !signal.aborted);
      // statuses before reservations: an order canceled meanwhile is not reserved first
      if (!signal.aborted) outcome.changed = await this.refreshStatuses(integration, signal, now);
    } catch (error) {
      if (error instanceof MarketplaceUnavailableError) {
        await this.marketplaces.savePollState(accountId, marketplaceId, { error: error.message });
        throw error.retryAfterMs !== null ? new RetryLaterError(error.message, error.retryAfterMs) : error;
      }
      if (error instanceof MarketplaceAuthError) {
        // retrying cannot help until the account sends new credentials; the next round tries again
        await this.marketplaces.savePollState(accountId, marketplaceId, {
          error: `credentials refused: ${error.message}`,
        });
        throw new PermanentJobError(`${integration.marketplace.name} refused the stored credentials: ${error.message}`);
      }
      throw error;
    }
    // bindings added since the last run: a fully matched fulfilment order waits for goods below
    outcome.rematched = await this.rematchUnbound(accountId, integration.marketplace);
    outcome.reserved = await this.reserveWaitingGoods(accountId, marketplaceId);
    return outcome;
  }

  /**
   * Asks the marketplace for the present status of the stored orders not yet final (those
   * never asked first, then the longest unasked), at most MAX_STATUS_CHECKS_PER_RUN; a change
   * is appended to the history, and a cancellation gives back the goods held.
   */
  private async refreshStatuses(integration: OpenIntegration, signal: AbortSignal, now: Date): Promise<number> {
    const { accountId } = integration;
    const rows = await this.store.notFinal(accountId, integration.marketplace.id, MAX_STATUS_CHECKS_PER_RUN);
    if (rows.length === 0) return 0;
    const updates = new Map(
      (
        await integration.adapter.fetchStatuses(
          integration.credentials,
          rows.map((row) => row.marketplace_order_number),
          signal,
        )
      ).map((update) => [update.number, update]),
    );
    const at = now.toISOString();
    let changed = 0;
    for (const row of rows) {
      const update = updates.get(row.marketplace_order_number);
      if (!update || (update.status === row.status_code && update.statusName === row.status_name)) continue;
      const applied = await this.store.transaction(async (trx) => {
        if (
          !(await this.store.changeStatus(trx, accountId, row, {
            code: update.status,
            name: update.statusName,
            date: at,
            acceptedAt: update.acceptedAt,
          }))
        )
          return false;
        if (update.status === 5) {
          if (await this.store.moveReservation(trx, accountId, row.id, RESERVATION.held, RESERVATION.released, null))
            await this.stock.releaseMarketplaceOrder(trx, accountId, row.id, POLL_ACTOR);
          else
            await this.store.moveReservation(trx, accountId, row.id, RESERVATION.waiting, RESERVATION.released, null);
        } else if (update.status >= 3) {
          // the marketplace has the parcel: what it held left the warehouse; what it waited for is wanted no more
          if (await this.store.moveReservation(trx, accountId, row.id, RESERVATION.held, RESERVATION.shipped, null))
            await this.stock.shipMarketplaceOrder(trx, accountId, row.id, POLL_ACTOR);
          else await this.store.moveReservation(trx, accountId, row.id, RESERVATION.waiting, RESERVATION.none, null);
        }
        return true;
      });
      if (applied) changed++;
    }
    await this.store.markChecked(
      accountId,
      rows
        .filter(
          (row) =>
            !updates.has(row.marketplace_order_number) ||
            updates.get(row.marketplace_order_number)?.statusName === row.status_name,
        )
        .map((row) => row.id),
      at,
    );
    return changed;
  }

  /**
   * Reserves the goods of this marketplace's orders waiting for them (new ones of a
   * fulfilment warehouse, and those short before), oldest first, each all or nothing in its
   * own transaction. Short goods leave the order waiting with an `errors` item per product;
   * the next poll tries again (so goods of an accepted supply are taken within one poll period).
   */
  async reserveWaitingGoods(accountId: number, marketplaceId: number): Promise<number> {
    let reserved = 0;
    for (const row of await this.store.waitingForGoods(accountId, marketplaceId, MAX_RESERVATIONS_PER_RUN)) {
      const place =
        row.shipping_warehouse_id === null
          ? undefined
          : this.marketplaces.directory.warehouse(marketplaceId, row.shipping_warehouse_id)?.fulfilmentWarehouseId;
      const products = rowFlags(row).products;
      const lines = products.flatMap((product) =>
        product.productId === null
          ? []
          : [
              {
                productId: product.productId,
                count: product.count,
                name: product.name,
                vendorCode: product.vendorCode,
              },
            ],
      );
      if (place === undefined || lines.length === 0) {
        await this.store.transaction((trx) =>
          this.store.moveReservation(trx, accountId, row.id, RESERVATION.waiting, RESERVATION.none, null),
        );
        continue;
      }
      const plan = await this.stock.planGoods(accountId, place, lines);
      const held = await this.store.transaction(async (trx) => {
        // the order is claimed first: two runs never reserve it twice
        if (!(await this.store.moveReservation(trx, accountId, row.id, RESERVATION.waiting, RESERVATION.held, null)))
          return false;
        const short = await this.stock.reserveForMarketplaceOrder(trx, accountId, row.id, plan, POLL_ACTOR);
        if (short.length === 0) return true;
        const errors: ProductError[] = short.map((item) => ({
          product: Math.max(
            0,
            products.findIndex((product) => product.productId === item.id),
          ),
          message: `Not enough goods at the fulfilment warehouse: ${item.restCount} available, ${item.missingCount} more needed; reserved at a later poll once they arrive.`,
        }));
        await this.store.moveReservation(trx, accountId, row.id, RESERVATION.held, RESERVATION.waiting, errors);
        return false;
      });
      if (held) reserved++;
    }
    return reserved;
  }

  /**
   * A marketplace disconnected: its orders' statuses are read no more, so nothing would ever
   * ship or cancel what they hold. The goods held go back on hand (reservation 3, as a
   * cancellation), and waiting orders stop waiting. Each order in its own transaction.
   */
  async giveBackGoods(accountId: number, marketplaceId: number): Promise<number> {
    let released = 0;
    for (const row of await this.store.withGoodsInPlay(accountId, marketplaceId)) {
      await this.store.transaction(async (trx) => {
        if (await this.store.moveReservation(trx, accountId, row.id, RESERVATION.held, RESERVATION.released, null)) {
          await this.stock.releaseMarketplaceOrder(trx, accountId, row.id, DISCONNECT_ACTOR);
          released++;
        } else await this.store.moveReservation(trx, accountId, row.id, RESERVATION.waiting, RESERVATION.none, null);
      });
    }
    return released;
  }

  private modeEnabled(integration: OpenIntegration, mode: number): boolean {
    return (
      (mode === 1 && integration.settings.fbsEnabled) ||
      (mode === 2 && integration.settings.fboEnabled) ||
      (mode === 3 && integration.settings.dbsEnabled)
    );
  }

  /**
   * Products matched to the catalogue through the account's bindings of this marketplace
   * (one query for all of them), with an `errors` item per product no binding names.
   */
  private async matchProducts<P extends Pick<StoredProduct, 'name' | 'count' | 'priceKopecks' | 'identifiers'>>(
    accountId: number,
    marketplace: { id: number; name: string },
    orders: Array<{ products: P[] }>,
  ): Promise<{
    bound: Map<string, BoundProduct>;
    matched: Array<{ products: StoredProduct[]; errors: ProductError[] | null }>;
  }> {
    const bound = await this.products.boundProducts(
      accountId,
      marketplace.id,
      orders.flatMap((order) =>
        order.products.flatMap((product) =>
          Object.entries(product.identifiers).map(([name, value]) => ({ name, value })),
        ),
      ),
    );
    const matched = orders.map((order) => {
      const errors: ProductError[] = [];
      const products: StoredProduct[] = order.products.map((product, index) => {
        const match = Object.entries(product.identifiers)
          .map(([name, value]) => bound.get(`${name}\u0000${value}`))
          .find((item): item is BoundProduct => item !== undefined);
        if (!match) {
          const named =
            Object.entries(product.identifiers)
              .map(([name, value]) => `${name} ${value}`)
              .join(', ') || 'no identifier';
          errors.push({
            product: index,
            message: `No catalogue product is bound to ${marketplace.name} ${named}; add it to a product's bindings.`,
          });
        }
        return {
          productId: match?.id ?? null,
          vendorCode: match?.vendorCode ?? null,
          name: product.name || match?.name || '',
          count: product.count,
          priceKopecks: product.priceKopecks,
          identifiers: product.identifiers,
        };
      });
      return { products, errors: errors.length ? errors : null };
    });
    return { bound, matched };
  }

  /** Whether an order's goods are to be held: shipped from a fulfilment warehouse, still to be shipped, every product matched. */
  private holdsGoods(
    isFulfilment: boolean,
    statusCode: number,
    products: StoredProduct[],
    errors: ProductError[] | null,
  ): ReservationStatus {
    return isFulfilment && (statusCode === 1 || statusCode === 2) && errors === null && products.length > 0
      ? RESERVATION.waiting
      : RESERVATION.none;
  }

  /**
   * Matches again the open orders that had products no binding named (the shop may have
   * bound them since), at most MAX_REMATCHES_PER_RUN, oldest first: their products, sizes
   * and errors are brought up to date, and a fulfilment order now fully matched waits for
   * its goods like a new one.
   */
  async rematchUnbound(accountId: number, marketplace: { id: number; name: string }): Promise<number> {
    const rows = await this.store.unmatchedOpen(accountId, marketplace.id, MAX_REMATCHES_PER_RUN);
    if (rows.length === 0) return 0;
    const { bound, matched } = await this.matchProducts(
      accountId,
      marketplace,
      rows.map((row) => ({ products: rowFlags(row).products })),
    );
    let changed = 0;
    for (const [index, row] of rows.entries()) {
      const { products, errors } = matched[index] as { products: StoredProduct[]; errors: ProductError[] | null };
      const before = rowFlags(row).products;
      if (products.every((product, at) => product.productId === before[at]?.productId)) continue;
      const update = {
        products,
        errors,
        dimensions: this.dimensionsOf(products, bound),
        reservationStatus: this.holdsGoods(rowFlags(row).isFulfilment, row.status_code, products, errors),
      };
      if (await this.store.rematch(accountId, row, update)) changed++;
    }
    return changed;
  }

  /** Our model of fetched orders: products matched to the catalogue through bindings, sizes from the catalogue. */
  private async toNewOrders(
    integration: OpenIntegration,
    orders: FetchedOrder[],
    now: Date,
  ): Promise<NewMarketplaceOrder[]> {
    const marketplaceId = integration.marketplace.id;
    const { bound, matched } = await this.matchProducts(integration.accountId, integration.marketplace, orders);
    return orders.map((order, index) => {
      const { products, errors } = matched[index] as { products: StoredProduct[]; errors: ProductError[] | null };
      const reference = order.shippingWarehouse
        ? this.marketplaces.directory.warehouse(marketplaceId, order.shippingWarehouse.id)
        : undefined;
      return {
        marketplaceId,
        shopId: integration.shopId,
        number: order.number,
        createdAt: order.createdAt,
        shippingMode: order.shippingMode,
        statusCode: order.status,
        statusName: order.statusName,
        statusHistory: [{ code: order.status, name: order.statusName, date: order.statusAt ?? now.toISOString() }],
        acceptPlannedAt: order.acceptPlannedAt,
        acceptedAt: order.acceptedAt,
        deliveryPriceKopecks: order.deliveryPriceKopecks,
        deliveryPriceFactKopecks: order.deliveryPriceFactKopecks,
        priceDeclaredKopecks: order.products.reduce((sum, product) => sum + product.priceKopecks * product.count, 0),
        products,
        dimensions: this.dimensionsOf(products, bound),
        shippingWarehouse: order.shippingWarehouse
          ? { id: order.shippingWarehouse.id, name: order.shippingWarehouse.name || reference?.name || '' }
          : null,
        deliveryAddress: order.deliveryAddress ?? NO_ADDRESS,
        bundleKey: order.bundleKey,
        isFulfilment: reference?.fulfilmentWarehouseId !== undefined,
        errors,
        reservationStatus: this.holdsGoods(
          reference?.fulfilmentWarehouseId !== undefined,
          order.status,
          products,
          errors,
        ),
      };
    });
  }

  /** Goods stacked like the calculator does: longest sides kept, the thinnest summed; weights summed. */
  private dimensionsOf(products: StoredProduct[], bound: Map<string, BoundProduct>): NewMarketplaceOrder['dimensions'] {
    const byId = new Map([...bound.values()].map((product) => [product.id, product]));
    const result = { width: 0, height: 0, length: 0, weightGrams: 0 };
    products.forEach((product) => {
      const catalogue = product.productId === null ? undefined : byId.get(product.productId);
      if (!catalogue) return;
      const [thin, middle, long] = [catalogue.width ?? 0, catalogue.height ?? 0, catalogue.length ?? 0].sort(
        (a, b) => a - b,
      ) as [number, number, number];
      result.length = Math.max(result.length, long);
      result.width = Math.max(result.width, middle);
      result.height += thin * product.count;
      result.weightGrams += (catalogue.weightGrams ?? 0) * product.count;
    });
    return result;
  }
}
