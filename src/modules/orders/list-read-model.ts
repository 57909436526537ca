/**
 * The orders' list read model: pages of GET /v2/orders as JSON bytes (remembered in the
 * embedded mode until the account's orders change, far pages started from a remembered
 * position), their totals, and the keyset scans of reports. The write side is service.ts;
 * it tells this one nothing: both share the read cache's topic, which any write drops.
 */
import { requireShopAccess, type Scope } from '../../platform/auth.js';
import type { AccountReadCache } from '../../platform/cache.js';
import { JsonBody } from '../../platform/compression.js';
import { addDays, startOfDay, todayIn } from '../../platform/clock.js';
import type { ListDirectory } from '../../platform/list-directory.js';
import type { Paging } from '../../platform/paging.js';
import { ownMethodOf } from '../delivery-methods/rules.js';
import { parseDoc, type OrderDoc } from './document.js';
import { OrderListDirectories } from './list-directories.js';
import type { OrderListQuery } from './schemas.js';
import { LIST_PREORDERS, LIST_PROBLEMS, LIST_STATUSES, RESERVATION } from './state.js';
import type { OrderFilter, OrderStore } from './store.js';

/** The read cache's topic of an account's orders: every write drops it (OrderService.changed). */
export const ORDERS_CACHE_TOPIC = 'orders';

/** Which orders a report reads: instants are RFC 3339 (UTC). */
export interface ReportOrderFilter {
  createdFrom?: string;
  createdBefore?: string;
  statusChangedFrom?: string;
  statusAtLeast?: number;
  /** First handed over (status 14 or later) in [from, to): read in that order by its index. */
  handedOver?: { from: string; to: string };
  /** First delivered (44/47) in [from, to): read in that order by its index. */
  delivered?: { from: string; to: string };
  /** A status list (1 to 8). */
  list?: number;
  withCod?: boolean;
}

function reportFilterOf(filter: ReportOrderFilter): OrderFilter {
  const where: OrderFilter = {};
  if (filter.createdFrom !== undefined) where.createdFrom = filter.createdFrom;
  if (filter.createdBefore !== undefined) where.createdBefore = filter.createdBefore;
  if (filter.statusChangedFrom !== undefined) where.statusChangedFrom = filter.statusChangedFrom;
  if (filter.statusAtLeast !== undefined) where.statusAtLeast = filter.statusAtLeast;
  if (filter.handedOver !== undefined) where.handedOver = filter.handedOver;
  if (filter.delivered !== undefined) where.delivered = filter.delivered;
  if (filter.list !== undefined) where.list = filter.list;
  if (filter.withCod !== undefined) where.withCod = filter.withCod;
  return where;
}

export class OrderListReadModel {
  private readonly directories: OrderListDirectories;

  constructor(
    private readonly store: OrderStore,
    private readonly cache: AccountReadCache,
  ) {
    this.directories = new OrderListDirectories(store, cache, ORDERS_CACHE_TOPIC);
  }

  /**
   * A page of orders as JSON bytes, and the total. In the embedded mode the page is
   * remembered, like the total, until the account's orders change: plugins and the orders
   * screen ask for the same first page again and again. `wantsPlain`: the client takes no gzip,
   * so a page read now is unzipped where it is read.
   */
  async list(
    scope: Scope,
    query: OrderListQuery,
    paging: Paging,
    wantsPlain = false,
  ): Promise<{ json: JsonBody; total: number }> {
    const filter = this.filterOf(scope, query);
    const key = JSON.stringify(filter);
    const directory = await this.directories.of(scope.accountId, key, filter);
    const json = await this.cache.read(
      scope.accountId,
      ORDERS_CACHE_TOPIC,
      `page:${paging.offset}:${paging.perPage}:${key}`,
      () => this.readPage(scope.accountId, filter, paging, directory, wantsPlain),
      (page) => page.weight,
    );
    const total = directory ? directory.total : await this.store.count(scope.accountId, filter);
    return { json, total };
  }

  /**
   * A page from the database. With the list's directory, a far page starts in the block
   * holding its first row, so page 2000 costs what page 2 does instead of stepping over
   * 100 000 orders; without it (memory not trusted), it steps over them.
   */
  private async readPage(
    accountId: number,
    filter: OrderFilter,
    paging: Paging,
    directory: ListDirectory | null,
    wantsPlain: boolean,
  ): Promise<JsonBody> {
    const start = directory ? directory.startFor(paging.offset) : { skip: paging.offset };
    const page = await this.store.listGzipped(accountId, filter, paging.perPage, start, wantsPlain);
    return JsonBody.ofGzip(page.gzip, page.length, page.plain);
  }

  private filterOf(scope: Scope, query: OrderListQuery): OrderFilter {
    const filter: OrderFilter = {};
    // A missing `list` is 0 (all): Python order-sync clients page through every order without one.
    const list = query.list ?? 0;
    if (list === LIST_PROBLEMS) filter.problem = true;
    else if (list === LIST_PREORDERS) filter.reservationStatus = RESERVATION.preorder;
    else if (LIST_STATUSES[list]) filter.list = list;
    if (query.statuses?.length) filter.statuses = query.statuses;
    if (query.deliveryType !== undefined) filter.deliveryType = query.deliveryType;
    if (scope.shopKeyShopId !== null) {
      if (query.shopId !== undefined) requireShopAccess(scope, query.shopId);
      filter.shopId = scope.shopKeyShopId;
    } else if (query.shopId === 0) filter.withoutShop = true;
    else if (query.shopId !== undefined) filter.shopId = query.shopId;
    if (query.warehouseId !== undefined) filter.warehouseId = query.warehouseId;
    if (query.dateFrom) filter.createdFrom = startOfDay(query.dateFrom, scope.timeZone);
    if (query.dateTo) filter.createdBefore = startOfDay(addDays(query.dateTo, 1), scope.timeZone);
    if (query.deliveryCompanies?.length) {
      // another account's own method ids match none of the caller's orders
      const own = query.deliveryCompanies
        .map((id) => ownMethodOf(scope.accountId, id))
        .filter((id): id is number => id !== null);
      filter.companies = {
        companyIds: query.deliveryCompanies.filter((id): id is number => typeof id === 'number'),
        ownMethodIds: own,
      };
    }
    if (query.paymentMethods?.length) filter.paymentTypes = query.paymentMethods;
    if (query.stickerFormed !== undefined) filter.stickerFormed = query.stickerFormed === 1;
    if (query.wasInAct !== undefined) filter.wasInAct = query.wasInAct === 1;
    if (query.packed !== undefined) filter.packed = query.packed === 1;
    if (query.storagingEnds !== undefined) {
      const tomorrow = addDays(todayIn(scope.timeZone), 1);
      if (query.storagingEnds === 1) filter.holdEndsBy = tomorrow;
      else filter.notHoldEndsBy = tomorrow;
    }
    if (query.withCod !== undefined) filter.withCod = query.withCod === 1;
    if (query.codReceived !== undefined) filter.codReceived = query.codReceived === 1;
    if (query.recipientCountry) filter.recipientCountry = query.recipientCountry;
    if (query.recipientCity) filter.recipientCityContains = query.recipientCity;
    if (query.search?.trim()) filter.search = query.search;
    if (query.reservationStatus !== undefined) filter.reservationStatus = query.reservationStatus;
    if (query.autoReservation !== undefined) filter.autoReserved = query.autoReservation === 1;
    return filter;
  }

  /**
   * Orders for reports, as GET answers them, in id order, read in keyset pages of `pageSize`:
   * a report over a million orders holds one page at a time. `created` is the list's
   * dateFrom/dateTo rule (creation day in the account's zone); `statusChangedFrom` keeps
   * orders whose status changed at or after the instant (every status reached in a period);
   * with `handedOver` or `delivered` the pages follow that instant's index instead of the id.
   */
  async *scanForReport(
    accountId: number,
    filter: ReportOrderFilter,
    pageSize = 1000,
  ): AsyncGenerator<OrderDoc & { id: number }> {
    const where = reportFilterOf(filter);
    const period = filter.handedOver ? 'handed_over_at' : filter.delivered ? 'delivered_at' : null;
    if (period) {
      for (let after: { at: string; id: number } | null = null; ; ) {
        const page = await this.store.scanPeriodPage(accountId, where, period, after, pageSize);
        for (const row of page) yield { id: row.id, ...parseDoc(row.doc) };
        if (page.length < pageSize) return;
        after = page[page.length - 1];
      }
    }
    for (let afterId = 0; ; ) {
      const page = await this.store.scanPage(accountId, where, afterId, pageSize);
      for (const row of page) yield { id: row.id, ...parseDoc(row.doc) };
      if (page.length < pageSize) return;
      afterId = page[page.length - 1].id;
    }
  }

  /** How many orders `scanForReport` would read (an estimate of a report's rows). */
  countForReport(accountId: number, filter: ReportOrderFilter): Promise<number> {
    return this.store.count(accountId, reportFilterOf(filter));
  }
}
