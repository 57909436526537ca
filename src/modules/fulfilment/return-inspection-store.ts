/**
 * SQL of the returned parcels' inspection queue (migration 0107). The queue has one row per
 * parcel (unique account and order: a repeated arrival inserts nothing); an inspection is
 * finished by a compare-and-set from `waiting` to `done`, so of two submits only one writes
 * the outcomes (on PostgreSQL the second waits on the row lock, then finds it done).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, toJson } from '../../platform/db/values.js';
import type { Paging } from '../../platform/paging.js';

export type Db = Kysely<Tables> | Transaction<Tables>;

export type ReturnSource = 'refusal' | 'partial-buyout' | 'return';
export type InspectionOutcome = 'stock' | 'defect' | 'write_off';

export interface InspectionRecord {
  id: number;
  accountId: number;
  orderId: number;
  shopId: number | null;
  fulfilmentWarehouseId: number;
  source: ReturnSource;
  returnId: number | null;
  trackNumber: string | null;
  lines: Array<{ productId: number; count: number }>;
  status: 'waiting' | 'done';
  arrivedAt: string;
  inspectedAt: string | null;
}

export interface OutcomeRecord {
  id: number;
  productId: number;
  outcome: InspectionOutcome;
  count: number;
  reason: string;
  at: string;
}

type Row = {
  id: number;
  account_id: number;
  order_id: number;
  shop_id: number | null;
  fulfilment_warehouse_id: number;
  source: string;
  return_id: number | null;
  track_number: string | null;
  lines: unknown;
  status: string;
  arrived_at: string;
  inspected_at: string | null;
};

function toRecord(row: Row): InspectionRecord {
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    orderId: Number(row.order_id),
    shopId: row.shop_id === null ? null : Number(row.shop_id),
    fulfilmentWarehouseId: Number(row.fulfilment_warehouse_id),
    source: row.source as ReturnSource,
    returnId: row.return_id === null ? null : Number(row.return_id),
    trackNumber: row.track_number,
    lines: fromJson(row.lines),
    status: row.status as InspectionRecord['status'],
    arrivedAt: new Date(row.arrived_at).toISOString(),
    inspectedAt: row.inspected_at === null ? null : new Date(row.inspected_at).toISOString(),
  };
}

const COLUMNS = [
  'id',
  'account_id',
  'order_id',
  'shop_id',
  'fulfilment_warehouse_id',
  'source',
  'return_id',
  'track_number',
  'lines',
  'status',
  'arrived_at',
  'inspected_at',
] as const;

/** Where a list looks: the staff's warehouse (every account), or one account (its shop alone under a shop key). */
export type InspectionFilter =
  | { fulfilmentWarehouseId: number; status: 'waiting' | 'done'; search?: { orderId: number | null; code: string } }
  | { accountId: number; shopId: number | null; status?: 'waiting' | 'done' };

export class ReturnInspectionStore {
  constructor(readonly db: Kysely<Tables>) {}

  /** Adds the parcel to the queue; false when it is there already (the unique key decides, not a read). */
  async insert(db: Db, parcel: Omit<InspectionRecord, 'id' | 'status' | 'inspectedAt'>): Promise<boolean> {
    const inserted = await db
      .insertInto('return_inspections')
      .values({
        account_id: parcel.accountId,
        order_id: parcel.orderId,
        shop_id: parcel.shopId,
        fulfilment_warehouse_id: parcel.fulfilmentWarehouseId,
        source: parcel.source,
        return_id: parcel.returnId,
        track_number: parcel.trackNumber,
        lines: toJson(parcel.lines),
        status: 'waiting',
        arrived_at: parcel.arrivedAt,
      })
      .onConflict((conflict) => conflict.columns(['account_id', 'order_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** The order's shop and track number, read in the caller's transaction (the queue shows them without the orders area). */
  async orderFacts(
    db: Db,
    accountId: number,
    orderId: number,
  ): Promise<
    | {
        shopId: number | null;
        trackNumber: string | null;
        warehouseId: number | null;
        cmsId: string | null;
        status: number;
      }
    | undefined
  > {
    const row = await db
      .selectFrom('orders')
      .select(['shop_id', 'track_number', 'warehouse_id', 'cms_id', 'status'])
      .where('account_id', '=', accountId)
      .where('id', '=', orderId)
      .executeTakeFirst();
    return row
      ? {
          shopId: row.shop_id === null ? null : Number(row.shop_id),
          trackNumber: row.track_number,
          warehouseId: row.warehouse_id === null ? null : Number(row.warehouse_id),
          cmsId: row.cms_id,
          status: Number(row.status),
        }
      : undefined;
  }

  /** The fulfilment warehouse of a sender warehouse of the account (null: it keeps no goods at the service). */
  async fulfilmentWarehouseOf(db: Db, accountId: number, warehouseId: number): Promise<number | null> {
    const row = await db
      .selectFrom('warehouses')
      .select('fulfilment_warehouse_id')
      .where('account_id', '=', accountId)
      .where('id', '=', warehouseId)
      .executeTakeFirst();
    return row?.fulfilment_warehouse_id == null ? null : Number(row.fulfilment_warehouse_id);
  }

  async get(db: Db, accountId: number, orderId: number): Promise<InspectionRecord | undefined> {
    const row = await db
      .selectFrom('return_inspections')
      .select(COLUMNS)
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** A parcel at a warehouse by its order id (order ids are unique across accounts). */
  async atWarehouse(fulfilmentWarehouseId: number, orderId: number): Promise<InspectionRecord | undefined> {
    const row = await this.db
      .selectFrom('return_inspections')
      .select(COLUMNS)
      .where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId)
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async list(filter: InspectionFilter, paging: Paging): Promise<{ items: InspectionRecord[]; total: number }> {
    let query = this.db.selectFrom('return_inspections');
    if ('fulfilmentWarehouseId' in filter) {
      query = query
        .where('fulfilment_warehouse_id', '=', filter.fulfilmentWarehouseId)
        .where('status', '=', filter.status);
      const search = filter.search;
      if (search)
        query = query.where((eb) =>
          search.orderId === null
            ? eb('track_number', '=', search.code)
            : eb.or([eb('order_id', '=', search.orderId), eb('track_number', '=', search.code)]),
        );
    } else {
      query = query.where('account_id', '=', filter.accountId);
      if (filter.shopId !== null) query = query.where('shop_id', '=', filter.shopId);
      if (filter.status) query = query.where('status', '=', filter.status);
    }
    const [rows, count] = await Promise.all([
      query.select(COLUMNS).orderBy('id').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRecord), total: Number(count.total) };
  }

  /** waiting → done, if still waiting: true for the one submit that may write the outcomes. */
  async finish(db: Db, id: number, actor: string, at: string): Promise<boolean> {
    const result = await db
      .updateTable('return_inspections')
      .set({ status: 'done', inspected_at: at, actor })
      .where('id', '=', id)
      .where('status', '=', 'waiting')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** One outcome of a line (the unique key refuses a second of the same parcel, product and outcome). */
  async insertOutcome(
    db: Db,
    accountId: number,
    inspectionId: number,
    line: { productId: number; outcome: InspectionOutcome; count: number; reason: string },
    actor: string,
    at: string,
  ): Promise<number> {
    const row = await db
      .insertInto('return_inspection_lines')
      .values({
        account_id: accountId,
        inspection_id: inspectionId,
        product_id: line.productId,
        outcome: line.outcome,
        count: line.count,
        reason: line.reason,
        actor,
        at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async outcomesOf(inspectionIds: number[]): Promise<Map<number, OutcomeRecord[]>> {
    const answer = new Map<number, OutcomeRecord[]>();
    if (inspectionIds.length === 0) return answer;
    const rows = await this.db
      .selectFrom('return_inspection_lines')
      .select(['id', 'inspection_id', 'product_id', 'outcome', 'count', 'reason', 'at'])
      .where('inspection_id', 'in', inspectionIds)
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const list = answer.get(Number(row.inspection_id)) ?? [];
      list.push({
        id: Number(row.id),
        productId: Number(row.product_id),
        outcome: row.outcome as InspectionOutcome,
        count: Number(row.count),
        reason: row.reason,
        at: new Date(row.at).toISOString(),
      });
      answer.set(Number(row.inspection_id), list);
    }
    return answer;
  }
}
