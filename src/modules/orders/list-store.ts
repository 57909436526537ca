/**
 * The SQL of the orders' lists, scoped by account: the filters of GET /v2/orders and of the
 * reports as one query, its pages newest first (ids from the index alone, then the packed
 * documents assembled into gzip), the keyset scans reports walk, and the counts. Apart from
 * store.ts, which writes orders and reads them one by one, because this is the read side
 * list-read-model.ts asks, and its plans are what keep a far page as cheap as the first
 * (list-plan.test.ts). OrderStore builds it from its connection and answers for it.
 */
import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { containsPattern } from '../../platform/db/values.js';
import { BLOCK_ROWS, type IdRange, type ListBounds } from '../../platform/list-directory.js';
import type { PageStart } from '../../platform/paging.js';
import { gzipIdentifiedObjects, unpackObject } from '../../platform/json-pieces.js';
import {
  pageConcatenation,
  pageReaderOf,
  ReaderUnavailable,
  type GzippedPage,
} from '../../platform/db/sqlite-reader.js';

export interface OrderFilter {
  /** A status list (1 to 8, `listOfStatus`). */
  list?: number;
  /** The problems list: a problem status, or any order with an error. */
  problem?: boolean;
  /** Only these status codes (`statuses[]`). */
  statuses?: readonly number[];
  deliveryType?: number;
  shopId?: number;
  /** Only orders made without a shop (the special value shopId=0). */
  withoutShop?: boolean;
  warehouseId?: number;
  createdFrom?: string;
  createdBefore?: string;
  /** Orders whose status last changed at or after this instant (a status reached in a period was reached by then). */
  statusChangedFrom?: string;
  /** Orders first handed over (first status 14 or later) in [from, to). */
  handedOver?: { from: string; to: string };
  /** Orders first delivered (44/47) in [from, to). */
  delivered?: { from: string; to: string };
  /** Only orders whose status is at least this code (and not these codes). */
  statusAtLeast?: number;
  /** Orders of these companies or of these own delivery methods (either matches). */
  companies?: { companyIds: number[]; ownMethodIds: number[] };
  paymentTypes?: number[];
  stickerFormed?: boolean;
  wasInAct?: boolean;
  packed?: boolean;
  /** Orders at a point whose storage ends on or before this date. */
  holdEndsBy?: string;
  notHoldEndsBy?: string;
  withCod?: boolean;
  codReceived?: boolean;
  recipientCountry?: string;
  recipientCityContains?: string;
  search?: string;
  reservationStatus?: number;
  autoReserved?: boolean;
}

export class OrderListStore {
  constructor(private readonly db: Kysely<Tables>) {}

  private filtered(accountId: number, filter: OrderFilter) {
    let query = this.db.selectFrom('orders').where('account_id', '=', accountId);
    // a list is one indexed equality (account, list, id): a status IN (...) would make the
    // planner sort every match or, on a far page, scan the table from there (SQLite)
    if (filter.list !== undefined) query = query.where('list_code', '=', filter.list);
    if (filter.problem) query = query.where('problem', '=', true);
    if (filter.statuses?.length) query = query.where('status', 'in', [...filter.statuses]);
    if (filter.deliveryType !== undefined) query = query.where('delivery_type', '=', filter.deliveryType);
    if (filter.shopId !== undefined) query = query.where('shop_id', '=', filter.shopId);
    if (filter.withoutShop) query = query.where('shop_id', 'is', null);
    if (filter.warehouseId !== undefined) query = query.where('warehouse_id', '=', filter.warehouseId);
    if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
    if (filter.createdBefore !== undefined) query = query.where('created_at', '<', filter.createdBefore);
    if (filter.statusChangedFrom !== undefined) query = query.where('status_at', '>=', filter.statusChangedFrom);
    if (filter.handedOver)
      query = query
        .where('handed_over_at', '>=', filter.handedOver.from)
        .where('handed_over_at', '<', filter.handedOver.to);
    if (filter.delivered)
      query = query.where('delivered_at', '>=', filter.delivered.from).where('delivered_at', '<', filter.delivered.to);
    if (filter.statusAtLeast !== undefined) query = query.where('status', '>=', filter.statusAtLeast);
    if (filter.companies) {
      const { companyIds, ownMethodIds } = filter.companies;
      query = query.where((eb) =>
        eb.or([
          eb('company_id', 'in', companyIds.length ? companyIds : [-1]),
          eb('own_method_id', 'in', ownMethodIds.length ? ownMethodIds : [-1]),
        ]),
      );
    }
    if (filter.paymentTypes?.length) query = query.where('payment_type', 'in', filter.paymentTypes);
    if (filter.stickerFormed !== undefined) query = query.where('sticker_formed', '=', filter.stickerFormed);
    if (filter.wasInAct !== undefined) query = query.where('was_in_act', '=', filter.wasInAct);
    if (filter.packed !== undefined) query = query.where('is_packed', '=', filter.packed);
    if (filter.holdEndsBy !== undefined)
      query = query.where('status', '=', 42).where('hold_until', '<=', filter.holdEndsBy);
    if (filter.notHoldEndsBy !== undefined) {
      const by = filter.notHoldEndsBy;
      query = query.where((eb) =>
        eb.or([eb('status', '!=', 42), eb('hold_until', 'is', null), eb('hold_until', '>', by)]),
      );
    }
    if (filter.withCod !== undefined) query = query.where('with_cod', '=', filter.withCod);
    if (filter.codReceived !== undefined)
      query = query.where('status', 'in', [44, 47]).where('cod_received', '=', filter.codReceived);
    if (filter.recipientCountry !== undefined)
      query = query.where('recipient_country', '=', filter.recipientCountry.toUpperCase());
    if (filter.recipientCityContains)
      query = query.where(
        sql<boolean>`recipient_city like ${containsPattern(filter.recipientCityContains)} escape '\\'`,
      );
    if (filter.search) {
      const needle = filter.search.trim();
      const pattern = containsPattern(needle);
      const asId = /^\d{1,15}$/.test(needle) ? Number(needle) : null;
      query = query.where((eb) => {
        const text = sql<boolean>`search_text like ${pattern} escape '\\'`;
        return asId === null ? eb.and([text]) : eb.or([text, eb('id', '=', asId)]);
      });
    }
    if (filter.reservationStatus !== undefined)
      query = query.where('reservation_status', '=', filter.reservationStatus);
    if (filter.autoReserved !== undefined) query = query.where('auto_reserved', '=', filter.autoReserved);
    return query;
  }

  /**
   * A page of orders, newest first, as gzip assembled from their packed documents, with its
   * ids. `start` says where the page begins: after `beforeId` when a page before it was read
   * (platform/list-positions.ts), skipping `skip` rows. A SQLite file's pages are read and
   * assembled in the page reader's thread (sqlite-reader.ts), and unzipped there too when
   * `wantsPlain`; other pages on the event loop, where the plain bytes are unzipped when first
   * needed.
   */
  async listGzipped(
    accountId: number,
    filter: OrderFilter,
    limit: number,
    start: PageStart,
    wantsPlain: boolean,
  ): Promise<GzippedPage> {
    // the page's ids first, from the index alone: the skipped rows of a far page are never read
    // (PostgreSQL would otherwise fetch and decompress the document of every skipped row)
    const ids = this.pageIds(accountId, filter, limit, start);
    const query = this.db
      .selectFrom('orders')
      .select(['id', 'doc_packed as packed'])
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .orderBy('id', 'desc');
    const reader = pageReaderOf(this.db);
    if (reader) {
      const compiled = query.compile();
      try {
        return await reader.gzipPage(pageConcatenation(compiled.sql), compiled.parameters, wantsPlain);
      } catch (error) {
        if (!(error instanceof ReaderUnavailable)) throw error;
      }
    }
    const rows = await query.execute();
    return { ids: rows.map((row) => row.id), ...gzipIdentifiedObjects(rows) };
  }

  /** The ids of a page, newest first, as a query (its plan is tested: one index range, on any page). */
  pageIds(accountId: number, filter: OrderFilter, limit: number, start: PageStart) {
    let ids = this.filtered(accountId, filter).select('id');
    if (start.beforeId !== undefined) ids = ids.where('id', '<', start.beforeId);
    return ids.orderBy('id', 'desc').limit(limit).offset(start.skip);
  }

  /**
   * The directory of a list (platform/list-directory.ts), or of the ids `range` of it: the id of
   * every BLOCK_ROWS-th row newest first, and how many rows there are, in one walk of the
   * filter's index (a window over the ids alone, so no document is read).
   */
  async boundsOf(accountId: number, filter: OrderFilter, range: IdRange = {}): Promise<ListBounds> {
    const numbered = this.filteredIn(accountId, filter, range).select([
      'id',
      sql<number>`row_number() over (order by id desc)`.as('n'),
      sql<number | null>`lead(id) over (order by id desc)`.as('next'),
    ]);
    const rows = await this.db
      .selectFrom(numbered.as('numbered'))
      .select(['id', 'n', 'next'])
      .where((eb) => eb.or([sql<boolean>`n % ${BLOCK_ROWS} = 0`, eb('next', 'is', null)]))
      .orderBy('n')
      .execute();
    const last = rows[rows.length - 1];
    const total = last ? Number(last.n) : 0;
    return {
      upperBounds: rows.filter((row) => Number(row.n) < total).map((row) => Number(row.id)),
      total,
    };
  }

  /** How many rows of a list are in the ids `range` (a block of its directory counted again). */
  async countIn(accountId: number, filter: OrderFilter, range: IdRange): Promise<number> {
    const row = await this.filteredIn(accountId, filter, range)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** The rows of a list whose ids are in `range`. */
  private filteredIn(accountId: number, filter: OrderFilter, range: IdRange) {
    let query = this.filtered(accountId, filter);
    if (range.from !== undefined) query = query.where('id', '>=', range.from);
    if (range.below !== undefined) query = query.where('id', '<', range.below);
    return query;
  }

  /** A page of the orders matching the filter in id order after `afterId` (keyset: reports walk a million orders in pages). */
  async scanPage(
    accountId: number,
    filter: OrderFilter,
    afterId: number,
    limit: number,
  ): Promise<Array<{ id: number; doc: Buffer }>> {
    const rows = await this.filtered(accountId, filter)
      .select(['id', 'doc_packed'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, doc: unpackObject(row.doc_packed) }));
  }

  /**
   * A page of the orders handed over (or delivered) in a period, in the order of that instant
   * and id, after `after`: one range of the (account, instant, id) index per page. In id
   * order the planner would read and sort the whole period for every page.
   */
  async scanPeriodPage(
    accountId: number,
    filter: OrderFilter,
    by: 'handed_over_at' | 'delivered_at',
    after: { at: string; id: number } | null,
    limit: number,
  ): Promise<Array<{ id: number; at: string; doc: Buffer }>> {
    let query = this.filtered(accountId, filter).select(['id', by, 'doc_packed']);
    if (after) query = query.where(sql<boolean>`(${sql.ref(by)}, id) > (${after.at}, ${after.id})`);
    const rows = await query.orderBy(by).orderBy('id').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      at: new Date(row[by] ?? 0).toISOString(),
      doc: unpackObject(row.doc_packed),
    }));
  }

  async count(accountId: number, filter: OrderFilter): Promise<number> {
    const row = await this.filtered(accountId, filter)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }
}
