/**
 * SQL of supplies (scoped by account) and of the warehouse staff's tokens. The calls made for
 * warehouse staff read across accounts by fulfilment warehouse: they are marked so.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, nowIso, toJson } from '../../platform/db/values.js';
import type { Paging } from '../../platform/paging.js';
import type { SupplyStatusItem } from './schemas.js';
import type { Db } from './stock-store.js';
import { outboxRows, withinTransaction, writeOrderEvents } from '../events/outbox.js';

/** A line as kept: what the act declares and, once accepted, what was counted. */
export interface StoredLine {
  id: number;
  name: string;
  vendorCode: string;
  barcodes: string[];
  batch: string | null;
  expires: string | null;
  count: number;
  accepted: number | null;
  damaged: number | null;
}

export interface SupplyRecord {
  id: number;
  accountId: number;
  fulfilmentWarehouseId: number;
  date: string;
  type: 'boxes' | 'pallets';
  places: number;
  status: number;
  statusHistory: SupplyStatusItem[];
  lines: StoredLine[];
  employeeId: number | null;
  file: string | null;
}

export type NewSupply = Omit<SupplyRecord, 'id' | 'accountId' | 'file'>;

export interface SupplyFilter {
  fulfilmentWarehouseId?: number;
  status?: number;
}

type Row = Selectable<Tables['supplies']>;

function toRecord(row: Row): SupplyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    fulfilmentWarehouseId: row.fulfilment_warehouse_id,
    date: row.date,
    type: row.type as SupplyRecord['type'],
    places: row.places,
    status: row.status,
    statusHistory: fromJson(row.status_history),
    lines: fromJson(row.products),
    employeeId: row.employee_id,
    file: row.file,
  };
}

export class SupplyStore {
  constructor(readonly db: Kysely<Tables>) {}

  async insert(accountId: number, supply: NewSupply): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('supplies')
      .values({
        account_id: accountId,
        fulfilment_warehouse_id: supply.fulfilmentWarehouseId,
        date: supply.date,
        type: supply.type,
        places: supply.places,
        status: supply.status,
        status_history: toJson(supply.statusHistory),
        products: toJson(supply.lines),
        employee_id: supply.employeeId,
        file: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async setFile(accountId: number, id: number, file: string): Promise<void> {
    await this.db
      .updateTable('supplies')
      .set({ file })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  async get(accountId: number, id: number, db: Db = this.db): Promise<SupplyRecord | undefined> {
    const row = await db
      .selectFrom('supplies')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async list(
    accountId: number,
    filter: SupplyFilter,
    paging: Paging,
  ): Promise<{ items: SupplyRecord[]; total: number }> {
    let query = this.db.selectFrom('supplies').where('account_id', '=', accountId);
    if (filter.fulfilmentWarehouseId !== undefined)
      query = query.where('fulfilment_warehouse_id', '=', filter.fulfilmentWarehouseId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRecord), total: Number(count.total) };
  }

  /** Warehouse staff (every account): a supply of their warehouse. */
  async atWarehouse(fulfilmentWarehouseId: number, id: number): Promise<SupplyRecord | undefined> {
    const row = await this.db
      .selectFrom('supplies')
      .selectAll()
      .where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Warehouse staff (every account): supplies on the way to, or at, their warehouse. */
  async listAtWarehouse(
    fulfilmentWarehouseId: number,
    statuses: number[],
    paging: Paging,
  ): Promise<{ items: SupplyRecord[]; total: number }> {
    const query = this.db
      .selectFrom('supplies')
      .where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId)
      .where('status', 'in', statuses);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRecord), total: Number(count.total) };
  }

  /**
   * Moves a supply on if it is still in `from` (compare-and-set): false when someone else
   * moved it first. The move writes its supply.status_changed event with it (webhooks).
   */
  async move(
    db: Db,
    accountId: number,
    id: number,
    from: number,
    change: { status: number; statusHistory: SupplyStatusItem[]; lines?: StoredLine[] },
  ): Promise<boolean> {
    return withinTransaction(db, async (trx) => {
      const result = await trx
        .updateTable('supplies')
        .set({
          status: change.status,
          status_history: toJson(change.statusHistory),
          ...(change.lines ? { products: toJson(change.lines) } : {}),
          updated_at: nowIso(),
        })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .where('status', '=', from)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      // a supply is the account's, no order's (order id 0) and no shop's
      const event = {
        type: 'supply.status_changed' as const,
        statusFrom: from,
        statusTo: change.status,
        payload: { cmsId: null, trackNumber: null, supplyId: id },
      };
      await writeOrderEvents(trx, outboxRows(accountId, null, 0, [event], nowIso()));
      return true;
    });
  }

  async insertOperatorToken(fulfilmentWarehouseId: number, name: string, tokenHash: string): Promise<number> {
    const row = await this.db
      .insertInto('operator_tokens')
      .values({ fulfilment_warehouse_id: fulfilmentWarehouseId, name, token_hash: tokenHash, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async operatorByTokenHash(tokenHash: string): Promise<{ id: number; fulfilmentWarehouseId: number } | undefined> {
    const row = await this.db
      .selectFrom('operator_tokens')
      .select(['id', 'fulfilment_warehouse_id'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ? { id: row.id, fulfilmentWarehouseId: row.fulfilment_warehouse_id } : undefined;
  }
}
