import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { containsPattern, flag, fromJson, nowIso, searchText, toJson } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { Warehouse } from './schemas.js';

/** A warehouse as stored: the API model without the fields computed on reading. */
export type WarehouseRecord = Omit<Warehouse, 'fulfilmentAutoReserveAvailable'>;
export type WarehouseValues = Omit<WarehouseRecord, 'id'>;

export interface WarehouseFilter {
  nameContains?: string;
  pickupTypes?: number[];
  /** Only this warehouse (a shop key sees its shop's warehouse only). */
  onlyId?: number;
  /** Only fulfilment-type warehouses attached to one of these fulfilment warehouses. */
  fulfilmentWarehouseIds?: number[];
}

export interface FulfilmentWarehouseRecord {
  id: number;
  name: string;
  address: Warehouse['address'];
  contact: Warehouse['contact'];
  schedule: Warehouse['schedule'];
  holidays: string[];
  autoReserveAvailable: boolean;
  integrationMarketplaceIds: number[];
}

type WarehouseRow = Selectable<Tables['warehouses']>;

function toRecord(row: WarehouseRow): WarehouseRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    pickupType: row.pickup_type,
    senderOtherEntity: fromJson(row.sender_other_entity),
    fulfilmentWarehouseId: row.fulfilment_warehouse_id,
    fulfilmentAutoReserve: flag(row.fulfilment_auto_reserve),
    address: addressOf(row),
    contact: fromJson(row.contact),
    holidays: fromJson(row.holidays),
    schedule: fromJson(row.schedule),
    markCompletedOrders: flag(row.mark_completed_orders),
    dropOffPoints: fromJson(row.drop_off_points),
  };
}

/** The address as typed, with what the register made of it where it was checked (a warehouse saved before has none). */
function addressOf(row: WarehouseRow): Warehouse['address'] {
  const typed = fromJson<Warehouse['address']>(row.address);
  const register =
    row.address_register === null ? null : fromJson<Warehouse['address']['register']>(row.address_register);
  return register ? { ...typed, register } : typed;
}

function toColumns(values: WarehouseValues) {
  const { register, ...typed } = values.address;
  return {
    name: values.name,
    search_name: searchText(values.name),
    type: values.type,
    pickup_type: values.pickupType,
    fulfilment_warehouse_id: values.fulfilmentWarehouseId,
    fulfilment_auto_reserve: values.fulfilmentAutoReserve,
    sender_other_entity: toJson(values.senderOtherEntity),
    address: toJson(typed),
    address_register: register ? toJson(register) : null,
    contact: toJson(values.contact),
    holidays: toJson(values.holidays),
    schedule: toJson(values.schedule),
    mark_completed_orders: values.markCompletedOrders,
    drop_off_points: toJson(values.dropOffPoints),
  };
}

/** SQL of warehouses (scoped by account) and of the service's fulfilment warehouses. */
export class WarehouseStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** The account's first sender warehouse, or null. */
  async firstId(accountId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('warehouses')
      .select('id')
      .where('account_id', '=', accountId)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return row ? Number(row.id) : null;
  }

  async list(accountId: number, filter: WarehouseFilter, paging: Paging): Promise<Page<WarehouseRecord>> {
    let query = this.db.selectFrom('warehouses').where('account_id', '=', accountId);
    if (filter.nameContains) query = query.where('search_name', 'like', containsPattern(filter.nameContains));
    if (filter.pickupTypes) query = query.where('pickup_type', 'in', filter.pickupTypes);
    if (filter.onlyId !== undefined) query = query.where('id', '=', filter.onlyId);
    if (filter.fulfilmentWarehouseIds) {
      if (filter.fulfilmentWarehouseIds.length === 0) return { items: [], total: 0 };
      query = query.where('type', '=', 2).where('fulfilment_warehouse_id', 'in', filter.fulfilmentWarehouseIds);
    }
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRecord), total: Number(count.total) };
  }

  async get(accountId: number, id: number): Promise<WarehouseRecord | undefined> {
    const row = await this.db
      .selectFrom('warehouses')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async getMany(accountId: number, ids: number[]): Promise<Map<number, WarehouseRecord>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('warehouses')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((row) => [row.id, toRecord(row)]));
  }

  async insert(accountId: number, values: WarehouseValues): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('warehouses')
      .values({ account_id: accountId, ...toColumns(values), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(accountId: number, id: number, values: WarehouseValues): Promise<boolean> {
    const result = await this.db
      .updateTable('warehouses')
      .set({ ...toColumns(values), updated_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('warehouses')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async listFulfilment(): Promise<FulfilmentWarehouseRecord[]> {
    const rows = await this.db.selectFrom('fulfilment_warehouses').selectAll().orderBy('id').execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      address: fromJson(row.address),
      contact: fromJson(row.contact),
      schedule: fromJson(row.schedule),
      holidays: fromJson(row.holidays),
      autoReserveAvailable: flag(row.auto_reserve_available),
      integrationMarketplaceIds: fromJson(row.integration_marketplace_ids),
    }));
  }

  /** Loads the reference list: new warehouses are added, known ones updated, none removed. */
  async upsertFulfilment(records: FulfilmentWarehouseRecord[]): Promise<void> {
    for (const record of records) {
      const columns = {
        name: record.name,
        address: toJson(record.address),
        contact: toJson(record.contact),
        schedule: toJson(record.schedule),
        holidays: toJson(record.holidays),
        auto_reserve_available: record.autoReserveAvailable,
        integration_marketplace_ids: toJson(record.integrationMarketplaceIds),
      };
      await this.db
        .insertInto('fulfilment_warehouses')
        .values({ id: record.id, ...columns })
        .onConflict((oc) => oc.column('id').doUpdateSet(columns))
        .execute();
    }
  }
}
