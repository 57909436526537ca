/** SQL of orders, always scoped by account (except the carrier-facing lookups, marked so); the lists' SQL is list-store.ts. */
import { parseOwnMethodId } from '../delivery-methods/rules.js';
import type { Kysely, QueryCreator, Selectable, Transaction } from 'kysely';
import type { DatabaseKind } from '../../platform/db/database.js';
import type { Tables } from '../../platform/db/tables.js';
import { flag, nowIso, searchText } from '../../platform/db/values.js';
import type { IdRange, ListBounds } from '../../platform/list-directory.js';
import type { PageStart } from '../../platform/paging.js';
import { runRecipe, writeBatcherOf, type WriteBatcher } from '../../platform/db/write-batch.js';
import { sqliteInsertStep } from '../../platform/db/sqlite-insert.js';
import type { Recipe } from '../../platform/db/sqlite-writer.js';
import { packObject, unpackObject } from '../../platform/json-pieces.js';
import type { GzippedPage } from '../../platform/db/sqlite-reader.js';
import type { OrderDoc } from './document.js';
import type { OrderEventDraft } from '../events/types.js';
import { eventsSelect, OUTBOX_COLUMNS, outboxRows, withinTransaction, writeOrderEvents } from '../events/outbox.js';
import { orderEventsOf } from './events.js';
import { deliveredAt, handedOverAt, isProblem, listOfStatus } from './state.js';
import { OrderListStore, type OrderFilter } from './list-store.js';

export type Db = Kysely<Tables> | Transaction<Tables>;

export interface OrderRecord {
  id: number;
  accountId: number;
  shopId: number | null;
  status: number;
  version: number;
  journeyStep: number;
  trackNumber: string | null;
  companyId: number;
  codReceived: boolean;
  autoReserved: boolean;
  /** The answered order without its id: its JSON bytes. */
  doc: Buffer;
}

/** The filters of lists and reports (list-store.ts), where their callers have always found them. */
export type { OrderFilter } from './list-store.js';

export interface RowExtras {
  journeyStep?: number;
  codReceived?: boolean;
  autoReserved?: boolean;
}

type Row = Selectable<Tables['orders']>;

function toRecord(
  row: Pick<
    Row,
    | 'id'
    | 'account_id'
    | 'shop_id'
    | 'status'
    | 'version'
    | 'journey_step'
    | 'track_number'
    | 'company_id'
    | 'cod_received'
    | 'auto_reserved'
    | 'doc_packed'
  >,
): OrderRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    shopId: row.shop_id,
    status: row.status,
    version: row.version,
    journeyStep: row.journey_step,
    trackNumber: row.track_number,
    companyId: row.company_id,
    codReceived: flag(row.cod_received),
    autoReserved: flag(row.auto_reserved),
    doc: unpackObject(row.doc_packed),
  };
}

const RECORD_COLUMNS = [
  'id',
  'account_id',
  'shop_id',
  'status',
  'version',
  'journey_step',
  'track_number',
  'company_id',
  'cod_received',
  'auto_reserved',
  'doc_packed',
] as const;

/** The lists of an order on its way (confirmed, ready, in transit): only there can it be late. */
const LATE_LISTS: ReadonlySet<number> = new Set([2, 3]);

/** The indexed columns, all derived from the document. */
function columnsOf(doc: OrderDoc) {
  const phoneDigits = doc.recipient.phone.replace(/\D/g, '');
  return {
    shop_id: doc.shopId,
    warehouse_id: doc.warehouseId,
    status: doc.status,
    error: doc.error,
    list_code: listOfStatus(doc.status),
    // a late order on its way is a problem of its own (not an order.problem: order.late says it); arrived, no longer
    problem:
      isProblem(doc.status, doc.error) ||
      (doc.delivery.promise?.late === true && LATE_LISTS.has(listOfStatus(doc.status))),
    // an own delivery method (convention 12) is no company of the service: 0, and the method beside it
    company_id: typeof doc.delivery.company.id === 'number' ? doc.delivery.company.id : 0,
    own_method_id: parseOwnMethodId(doc.delivery.company.id)?.methodId ?? null,
    delivery_type: doc.delivery.type,
    point_id: doc.delivery.point?.id ?? null,
    cms_id: doc.cmsId,
    track_number: doc.trackNumber,
    search_text: searchText(
      [doc.cmsId, doc.trackNumber, doc.recipient.fullName, doc.recipient.phone, phoneDigits]
        .filter(Boolean)
        .join(' | '),
    ),
    recipient_city: searchText(doc.deliveryAddress.city.name),
    recipient_country: (doc.deliveryAddress.city.countryCode ?? '').toUpperCase(),
    payment_type: doc.pay.type,
    handed_over_at: handedOverAt(doc),
    delivered_at: deliveredAt(doc),
    with_cod: doc.priceCod > 0,
    sticker_formed: doc.stickerFormed,
    was_in_act: doc.wasInAct,
    is_packed: doc.isPacked,
    reservation_status: doc.reservationStatus.key,
    hold_until: doc.delivery.point?.holdDate?.slice(0, 10) ?? null,
    storaging_ends: doc.delivery.point?.storagingEnds === true,
    pickup_type: doc.pickup.type,
    pickup_date: doc.pickup.date?.slice(0, 10) ?? null,
    promised_by: doc.delivery.promise?.byDate ?? null,
    late: doc.delivery.promise?.late === true,
  };
}

function extrasOf(extras: RowExtras) {
  const values: { journey_step?: number; cod_received?: boolean; auto_reserved?: boolean } = {};
  if (extras.journeyStep !== undefined) values.journey_step = extras.journeyStep;
  if (extras.codReceived !== undefined) values.cod_received = extras.codReceived;
  if (extras.autoReserved !== undefined) values.auto_reserved = extras.autoReserved;
  return values;
}

export class OrderStore {
  constructor(
    readonly db: Kysely<Tables>,
    private readonly kind: DatabaseKind,
    private readonly writes: WriteBatcher = writeBatcherOf(db, kind),
  ) {
    this.lists = new OrderListStore(db);
  }

  /** The lists' SQL: pages, report scans, counts. */
  private readonly lists: OrderListStore;

  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  private encode(doc: OrderDoc): Buffer {
    return packObject(Buffer.from(JSON.stringify(doc)));
  }

  /** A new order and its events (order.created...): one statement on PostgreSQL, one transaction on SQLite. */
  async insert(accountId: number, doc: OrderDoc, extras: RowExtras = {}, db: Db = this.db): Promise<number> {
    const now = nowIso();
    const values = {
      account_id: accountId,
      ...columnsOf(doc),
      journey_step: extras.journeyStep ?? -1,
      cod_received: extras.codReceived ?? false,
      auto_reserved: extras.autoReserved ?? false,
      created_at: doc.creationDate,
      updated_at: now,
      status_at: now,
      version: 0,
    };
    const events = orderEventsOf(null, doc);
    if (this.kind === 'postgres') {
      const row = await db
        .with('written', (q) =>
          q
            .insertInto('orders')
            .values({ ...values, doc_packed: this.encode(doc) })
            .returning('id'),
        )
        .insertInto('order_events')
        .columns(OUTBOX_COLUMNS)
        .expression(eventsSelect('written', accountId, doc.shopId, events, now))
        .returning('order_id')
        .executeTakeFirstOrThrow();
      return row.order_id;
    }
    // The row, then its events with the row's id: a recipe (sqlite-writer.ts), which outside a transaction runs in the
    // writer's thread, grouped with the orders arriving with it, and packs the document there
    // (the column holds the document's text until then)
    const unpacked = JSON.stringify(doc) as unknown as Buffer;
    const recipe: Recipe = [
      sqliteInsertStep('orders', [{ ...values, doc_packed: unpacked }], { packed: 'doc_packed' }),
    ];
    const rows = outboxRows(accountId, doc.shopId, 0, events, now);
    if (rows.length) recipe.push(sqliteInsertStep('order_events', rows, { firstId: 'order_id' }));
    return db.isTransaction ? runRecipe(db as Transaction<Tables>, recipe) : this.writes.recipe(recipe);
  }

  /** Many orders at once (imports, data sets): one statement per chunk. */
  async insertMany(accountId: number, docs: OrderDoc[], extras: RowExtras = {}, db: Db = this.db): Promise<void> {
    const now = nowIso();
    for (let start = 0; start < docs.length; start += 200) {
      const rows = docs.slice(start, start + 200).map((doc) => ({
        account_id: accountId,
        ...columnsOf(doc),
        journey_step: extras.journeyStep ?? -1,
        cod_received: extras.codReceived ?? false,
        auto_reserved: extras.autoReserved ?? false,
        created_at: doc.creationDate,
        updated_at: now,
        status_at: now,
        version: 0,
        doc_packed: this.encode(doc),
      }));
      await withinTransaction(db, async (trx) => {
        const ids = (await trx.insertInto('orders').values(rows).returning('id').execute())
          .map((row) => row.id)
          .sort((a, b) => a - b);
        const chunk = docs.slice(start, start + 200);
        await writeOrderEvents(
          trx,
          chunk.flatMap((doc, index) => outboxRows(accountId, doc.shopId, ids[index], orderEventsOf(null, doc), now)),
        );
      });
    }
  }

  /**
   * Writes a new version of the order read as `before`, with the events the change makes
   * (orders/events.ts) in the same statement or transaction; false, and nothing written,
   * when someone else changed the order since it was read.
   */
  async update(
    accountId: number,
    before: OrderRecord,
    doc: OrderDoc,
    extras: RowExtras = {},
    db: Db = this.db,
  ): Promise<boolean> {
    const now = nowIso();
    const events = orderEventsOf(before, doc);
    const statusAt = before.status !== doc.status ? { status_at: now } : {};
    const write = (q: QueryCreator<Tables>) =>
      q
        .updateTable('orders')
        .set({
          ...columnsOf(doc),
          ...extrasOf(extras),
          ...statusAt,
          updated_at: now,
          version: before.version + 1,
          doc_packed: this.encode(doc),
        })
        .where('account_id', '=', accountId)
        .where('id', '=', before.id)
        .where('version', '=', before.version);
    if (events.length === 0) return Number((await write(db).executeTakeFirst()).numUpdatedRows) > 0;
    if (this.kind === 'postgres') {
      const rows = await db
        .with('written', (q) => write(q).returning('id'))
        .insertInto('order_events')
        .columns(OUTBOX_COLUMNS)
        .expression(eventsSelect('written', accountId, doc.shopId, events, now))
        .returning('order_id')
        .execute();
      return rows.length > 0;
    }
    return withinTransaction(db, async (trx) => {
      if (Number((await write(trx).executeTakeFirst()).numUpdatedRows) === 0) return false;
      await writeOrderEvents(trx, outboxRows(accountId, doc.shopId, before.id, events, now));
      return true;
    });
  }

  async get(accountId: number, id: number, db: Db = this.db): Promise<OrderRecord | undefined> {
    const row = await db
      .selectFrom('orders')
      .select(RECORD_COLUMNS)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** The orders of `ids` (locked for the transaction on PostgreSQL). */
  async getMany(accountId: number, ids: number[], db: Db = this.db, lock = false): Promise<Map<number, OrderRecord>> {
    if (ids.length === 0) return new Map();
    let query = db
      .selectFrom('orders')
      .select(RECORD_COLUMNS)
      .where('account_id', '=', accountId)
      .where('id', 'in', [...new Set(ids)]);
    if (lock && this.kind === 'postgres') query = query.forUpdate();
    const rows = await query.execute();
    return new Map(rows.map((row) => [row.id, toRecord(row)]));
  }

  /** Tracking lookups: by id, cms id or track number; newest first. */
  async find(
    accountId: number,
    by: { id?: number; cmsId?: string; trackNumber?: string },
    shopId: number | null,
  ): Promise<OrderRecord | undefined> {
    let query = this.db.selectFrom('orders').select(RECORD_COLUMNS).where('account_id', '=', accountId);
    if (by.id !== undefined) query = query.where('id', '=', by.id);
    if (by.cmsId !== undefined) query = query.where('cms_id', '=', by.cmsId);
    if (by.trackNumber !== undefined) query = query.where('track_number', '=', by.trackNumber);
    if (shopId !== null) query = query.where('shop_id', '=', shopId);
    const row = await query.orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  // ---------------------------------------------------------------- lists (list-store.ts)

  /** A page of orders, newest first, as gzip assembled from their packed documents, with its ids. */
  listGzipped(
    accountId: number,
    filter: OrderFilter,
    limit: number,
    start: PageStart,
    wantsPlain: boolean,
  ): Promise<GzippedPage> {
    return this.lists.listGzipped(accountId, filter, limit, start, wantsPlain);
  }

  /** The ids of a page, newest first, as a query. */
  pageIds(accountId: number, filter: OrderFilter, limit: number, start: PageStart) {
    return this.lists.pageIds(accountId, filter, limit, start);
  }

  /** A page of the orders matching the filter in id order after `afterId`. */
  scanPage(
    accountId: number,
    filter: OrderFilter,
    afterId: number,
    limit: number,
  ): Promise<Array<{ id: number; doc: Buffer }>> {
    return this.lists.scanPage(accountId, filter, afterId, limit);
  }

  /** A page of the orders handed over (or delivered) in a period, in the order of that instant and id, after `after`. */
  scanPeriodPage(
    accountId: number,
    filter: OrderFilter,
    by: 'handed_over_at' | 'delivered_at',
    after: { at: string; id: number } | null,
    limit: number,
  ): Promise<Array<{ id: number; at: string; doc: Buffer }>> {
    return this.lists.scanPeriodPage(accountId, filter, by, after, limit);
  }

  count(accountId: number, filter: OrderFilter): Promise<number> {
    return this.lists.count(accountId, filter);
  }

  /** A list's directory bounds, over the ids `range` of it. */
  boundsOf(accountId: number, filter: OrderFilter, range?: IdRange): Promise<ListBounds> {
    return this.lists.boundsOf(accountId, filter, range);
  }

  /** How many rows of a list are in the ids `range`. */
  countIn(accountId: number, filter: OrderFilter, range: IdRange): Promise<number> {
    return this.lists.countIn(accountId, filter, range);
  }

  /**
   * Process-facing (every account): orders promised before `before`, not yet found late, still
   * on their way (confirmed, ready or in transit: lists 2 and 3), at most `limit`.
   */
  async pastPromises(before: string, limit: number): Promise<Array<{ accountId: number; id: number }>> {
    const rows = await this.db
      .selectFrom('orders')
      .select(['account_id', 'id'])
      .where('promised_by', '<', before)
      .where('late', '=', false)
      .where('list_code', 'in', [...LATE_LISTS])
      .orderBy('promised_by')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ accountId: row.account_id, id: Number(row.id) }));
  }

  /** Carrier-facing (no account): the orders of a company with this track number. */
  async byTrackNumber(companyId: number, trackNumbers: string[]): Promise<OrderRecord[]> {
    if (trackNumbers.length === 0) return [];
    const rows = await this.db
      .selectFrom('orders')
      .select(RECORD_COLUMNS)
      .where('track_number', 'in', [...new Set(trackNumbers)])
      .where('company_id', '=', companyId)
      .execute();
    return rows.map(toRecord);
  }

  /** Public (no account): the latest order with this track number, of any company (a track number is printed on the parcel). */
  async latestWithTrackNumber(trackNumber: string): Promise<OrderRecord | undefined> {
    const row = await this.db
      .selectFrom('orders')
      .select(RECORD_COLUMNS)
      .where('track_number', '=', trackNumber)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Carrier-facing (no account): registered orders still travelling with these companies, for the tracking poll. */
  async travelling(
    companyIds: number[],
    statuses: readonly number[],
    limit: number,
  ): Promise<Array<{ accountId: number; companyId: number; trackNumber: string }>> {
    if (companyIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('orders')
      .select(['account_id', 'company_id', 'track_number'])
      .where('status', 'in', [...statuses])
      .where('company_id', 'in', companyIds)
      .where('track_number', 'is not', null)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      accountId: row.account_id,
      companyId: row.company_id,
      trackNumber: row.track_number as string,
    }));
  }

  /** Carrier-facing (no account): orders at a point whose storage ends by `date` and are not marked yet. */
  async storageEnding(date: string, limit: number): Promise<OrderRecord[]> {
    const rows = await this.db
      .selectFrom('orders')
      .select(RECORD_COLUMNS)
      .where('status', '=', 42)
      .where('hold_until', '<=', date)
      .where('storaging_ends', '=', false)
      // earliest first: the caller skips those not yet due in their account's zone, which are the latest dates
      .orderBy('hold_until')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  /** Events about an order that come with no change of it (goods found missing when it could not be confirmed). */
  async recordEvents(
    accountId: number,
    record: OrderRecord,
    drafts: OrderEventDraft[],
    db: Db = this.db,
  ): Promise<void> {
    await writeOrderEvents(db, outboxRows(accountId, record.shopId, record.id, drafts, nowIso()));
  }

  /**
   * Orders of a warehouse ready for shipment (13) that leave on `date` by pickup type `type`:
   * named in the order, or (`byDefault`) the warehouse's default when the order names none; of
   * `companyIds` when given. Oldest first.
   */
  async readyForPickup(
    accountId: number,
    filter: { warehouseId: number; date: string; type: number; byDefault: boolean; companyIds?: number[] },
    limit: number,
  ): Promise<OrderRecord[]> {
    let query = this.db
      .selectFrom('orders')
      .select(RECORD_COLUMNS)
      .where('account_id', '=', accountId)
      .where('warehouse_id', '=', filter.warehouseId)
      .where('status', '=', 13)
      .where('pickup_date', '=', filter.date)
      .where((eb) =>
        filter.byDefault
          ? eb.or([eb('pickup_type', '=', filter.type), eb('pickup_type', 'is', null)])
          : eb('pickup_type', '=', filter.type),
      );
    if (filter.companyIds) query = query.where('company_id', 'in', filter.companyIds.length ? filter.companyIds : [-1]);
    return (await query.orderBy('id').limit(limit).execute()).map(toRecord);
  }

  /** Preorders (reservation 1) of orders from these warehouses of the account, oldest first. */
  async preorders(accountId: number, warehouseIds: number[], limit: number): Promise<OrderRecord[]> {
    if (warehouseIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('orders')
      .select(RECORD_COLUMNS)
      .where('account_id', '=', accountId)
      .where('reservation_status', '=', 1)
      .where('warehouse_id', 'in', warehouseIds)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }
}
