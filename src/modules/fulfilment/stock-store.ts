/**
 * SQL of fulfilment stock, scoped by account. A stock row changes only together with the
 * movement that says why, in the caller's transaction; every decrease of what is available
 * is a guarded UPDATE (`... where quantity - reserved >= n`), so concurrent reservations
 * can never take more than there is, on SQLite and PostgreSQL alike.
 */
import { outboxRows, writeOrderEvents } from '../events/outbox.js';
import { sql, type Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { StockReads, type Db, type MovementKind } from './stock-reads.js';
import { nowIso } from '../../platform/db/values.js';

export type { Db, MovementKind } from './stock-reads.js';

export interface StockRow {
  id: number;
  fulfilmentWarehouseId: number;
  productId: number;
  /** '' without batch accounting. */
  batch: string;
  expires: string | null;
  quantity: number;
  reserved: number;
  /** Returned units found unfit: the defect stock, never available. */
  defective: number;
}

/** Who changes stock and why; written on the movement. */
export interface MovementNote {
  actor: string;
  employeeId: number | null;
  reason: string;
  supplyId?: number | null;
  orderId?: number | null;
  marketplaceOrderId?: number | null;
  /** The inspected line of a returned parcel (return-inspections.ts): a line moves stock once per kind. */
  inspectionLineId?: number | null;
}

/** Who holds goods: an order of the orders area or a marketplace order (their ids are of different tables). */
export type StockHolder = { orderId: number } | { marketplaceOrderId: number };

export interface Allocation {
  id: number;
  stockId: number;
  quantity: number;
  state: 'reserved' | 'shipped' | 'returned';
}

const STOCK_COLUMNS = [
  'id',
  'fulfilment_warehouse_id',
  'product_id',
  'batch',
  'expires',
  'quantity',
  'reserved',
  'defective',
] as const;

function toRow(row: {
  id: number;
  fulfilment_warehouse_id: number;
  product_id: number;
  batch: string;
  expires: string | null;
  quantity: number;
  reserved: number;
  defective: number;
}): StockRow {
  return {
    id: row.id,
    fulfilmentWarehouseId: row.fulfilment_warehouse_id,
    productId: row.product_id,
    batch: row.batch,
    expires: row.expires,
    quantity: Number(row.quantity),
    reserved: Number(row.reserved),
    defective: Number(row.defective),
  };
}

/** Writes of stock (reads of its ledger for reports: stock-reads.ts). */
export class StockStore extends StockReads {
  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Every stock row of these products, at any fulfilment warehouse. */
  async rowsOf(accountId: number, productIds: number[], db: Db = this.db): Promise<StockRow[]> {
    if (productIds.length === 0) return [];
    const rows = await db
      .selectFrom('stock')
      .select(STOCK_COLUMNS)
      .where('account_id', '=', accountId)
      .where('product_id', 'in', productIds)
      .orderBy('id')
      .execute();
    return rows.map(toRow);
  }

  /** Rows of these products at one warehouse, first-expiring first (no expiry last), then oldest row. */
  async rowsAt(
    accountId: number,
    fulfilmentWarehouseId: number,
    productIds: number[],
    db: Db = this.db,
  ): Promise<StockRow[]> {
    if (productIds.length === 0) return [];
    const rows = await db
      .selectFrom('stock')
      .select(STOCK_COLUMNS)
      .where('account_id', '=', accountId)
      .where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId)
      .where('product_id', 'in', productIds)
      .orderBy(sql`case when expires is null then 1 else 0 end`)
      .orderBy('expires')
      .orderBy('id')
      .execute();
    return rows.map(toRow);
  }

  async row(accountId: number, stockId: number, db: Db = this.db): Promise<StockRow | undefined> {
    const row = await db
      .selectFrom('stock')
      .select(STOCK_COLUMNS)
      .where('account_id', '=', accountId)
      .where('id', '=', stockId)
      .executeTakeFirst();
    return row ? toRow(row) : undefined;
  }

  /** Products with goods on hand at the warehouse. */
  async productIdsAt(accountId: number, fulfilmentWarehouseId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('stock')
      .select('product_id')
      .distinct()
      .where('account_id', '=', accountId)
      .where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId)
      .where('quantity', '>', 0)
      .execute();
    return rows.map((row) => row.product_id);
  }

  /** Goods entering stock (a supply accepted): the row is made on first arrival. */
  async receive(
    db: Db,
    accountId: number,
    goods: { fulfilmentWarehouseId: number; productId: number; batch: string; expires: string | null },
    count: number,
    note: MovementNote,
  ): Promise<number> {
    const now = nowIso();
    const row = await db
      .insertInto('stock')
      .values({
        account_id: accountId,
        fulfilment_warehouse_id: goods.fulfilmentWarehouseId,
        product_id: goods.productId,
        batch: goods.batch,
        expires: goods.expires,
        quantity: count,
        reserved: 0,
        updated_at: now,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['account_id', 'fulfilment_warehouse_id', 'product_id', 'batch'])
          .doUpdateSet({ quantity: sql`stock.quantity + ${count}`, updated_at: now }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.record(
      db,
      accountId,
      { id: row.id, fulfilmentWarehouseId: goods.fulfilmentWarehouseId, productId: goods.productId },
      'supply',
      count,
      0,
      note,
      now,
    );
    return row.id;
  }

  /** Holds `count` for an order if that much is available now; false (nothing written) otherwise. */
  async reserve(db: Db, accountId: number, stock: StockRow, count: number, note: MovementNote): Promise<boolean> {
    const now = nowIso();
    const result = await db
      .updateTable('stock')
      .set({ reserved: sql`reserved + ${count}`, updated_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', stock.id)
      .where(sql<number>`quantity - reserved`, '>=', count)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await this.record(db, accountId, stock, 'reserve', 0, count, note, now);
    await db
      .insertInto('stock_allocations')
      .values({
        account_id: accountId,
        order_id: note.orderId ?? 0,
        marketplace_order_id: note.marketplaceOrderId ?? null,
        stock_id: stock.id,
        quantity: count,
        state: 'reserved',
        updated_at: now,
      })
      .execute();
    return true;
  }

  /** Gives back what an allocation holds (reserve cancelled, order cancelled). */
  async release(
    db: Db,
    accountId: number,
    allocation: Allocation,
    stock: Pick<StockRow, 'id' | 'fulfilmentWarehouseId' | 'productId'>,
    note: MovementNote,
  ): Promise<void> {
    const now = nowIso();
    await this.guarded(
      db,
      accountId,
      stock.id,
      { reserved: sql`reserved - ${allocation.quantity}` },
      sql<boolean>`reserved >= ${allocation.quantity}`,
      now,
    );
    await this.record(db, accountId, stock, 'release', 0, -allocation.quantity, note, now);
    await db
      .deleteFrom('stock_allocations')
      .where('account_id', '=', accountId)
      .where('id', '=', allocation.id)
      .execute();
  }

  /** The parcel left with the delivery company: the held goods leave the warehouse. */
  async ship(
    db: Db,
    accountId: number,
    allocation: Allocation,
    stock: Pick<StockRow, 'id' | 'fulfilmentWarehouseId' | 'productId'>,
    note: MovementNote,
  ): Promise<void> {
    const now = nowIso();
    const n = allocation.quantity;
    await this.guarded(
      db,
      accountId,
      stock.id,
      { quantity: sql`quantity - ${n}`, reserved: sql`reserved - ${n}` },
      sql<boolean>`reserved >= ${n}`,
      now,
    );
    await this.record(db, accountId, stock, 'ship', -n, -n, note, now);
    await this.setState(db, accountId, allocation.id, 'shipped', now);
  }

  /**
   * A stock row for goods coming back without one of their own (a buyer's return parcel): the
   * product's row without batch at the warehouse, made on first need.
   */
  async plainRow(
    db: Db,
    accountId: number,
    fulfilmentWarehouseId: number,
    productId: number,
  ): Promise<Pick<StockRow, 'id' | 'fulfilmentWarehouseId' | 'productId'>> {
    const now = nowIso();
    await db
      .insertInto('stock')
      .values({
        account_id: accountId,
        fulfilment_warehouse_id: fulfilmentWarehouseId,
        product_id: productId,
        batch: '',
        expires: null,
        quantity: 0,
        reserved: 0,
        updated_at: now,
      })
      .onConflict((conflict) =>
        conflict.columns(['account_id', 'fulfilment_warehouse_id', 'product_id', 'batch']).doNothing(),
      )
      .execute();
    const row = await db
      .selectFrom('stock')
      .select('id')
      .where('account_id', '=', accountId)
      .where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId)
      .where('product_id', '=', productId)
      .where('batch', '=', '')
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), fulfilmentWarehouseId, productId };
  }

  /**
   * One inspected line of a returned parcel: back on hand (`stock`), into the row's defect
   * stock (`defect`), or written off (`write_off`: recorded as come back and written off the
   * same moment, so the movement report shows both and nothing is on hand). The movements carry
   * the line's id: the unique key refuses a second movement of the same line and kind.
   */
  async inspected(
    db: Db,
    accountId: number,
    stock: Pick<StockRow, 'id' | 'fulfilmentWarehouseId' | 'productId'>,
    outcome: 'stock' | 'defect' | 'write_off',
    count: number,
    note: MovementNote,
  ): Promise<void> {
    const now = nowIso();
    if (outcome === 'defect') {
      await this.guarded(db, accountId, stock.id, { defective: sql`defective + ${count}` }, sql<boolean>`1 = 1`, now);
      await this.record(db, accountId, stock, 'defect', 0, 0, note, now, count);
      return;
    }
    if (outcome === 'stock')
      await this.guarded(db, accountId, stock.id, { quantity: sql`quantity + ${count}` }, sql<boolean>`1 = 1`, now);
    await this.record(db, accountId, stock, 'return', count, 0, note, now);
    if (outcome === 'write_off') await this.record(db, accountId, stock, 'write_off', -count, 0, note, now);
  }

  async allocationsOf(
    db: Db,
    accountId: number,
    holder: StockHolder,
  ): Promise<Array<Allocation & { fulfilmentWarehouseId: number; productId: number }>> {
    const rows = await db
      .selectFrom('stock_allocations')
      .innerJoin('stock', 'stock.id', 'stock_allocations.stock_id')
      .select([
        'stock_allocations.id',
        'stock_allocations.stock_id',
        'stock_allocations.quantity',
        'stock_allocations.state',
        'stock.fulfilment_warehouse_id',
        'stock.product_id',
      ])
      .where('stock_allocations.account_id', '=', accountId)
      .where((eb) =>
        'orderId' in holder
          ? eb('stock_allocations.order_id', '=', holder.orderId)
          : eb('stock_allocations.marketplace_order_id', '=', holder.marketplaceOrderId),
      )
      .orderBy('stock_allocations.id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      stockId: row.stock_id,
      quantity: Number(row.quantity),
      state: row.state as Allocation['state'],
      fulfilmentWarehouseId: row.fulfilment_warehouse_id,
      productId: row.product_id,
    }));
  }

  private async setState(
    db: Db,
    accountId: number,
    allocationId: number,
    state: Allocation['state'],
    now: string,
  ): Promise<void> {
    await db
      .updateTable('stock_allocations')
      .set({ state, updated_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', allocationId)
      .execute();
  }

  /** An UPDATE of one row that must apply: a guard that fails means the books are broken, and the transaction must not commit. */
  private async guarded(
    db: Db,
    accountId: number,
    stockId: number,
    set: Record<string, unknown>,
    guard: ReturnType<typeof sql<boolean>>,
    now: string,
  ): Promise<void> {
    const result = await db
      .updateTable('stock')
      .set({ ...set, updated_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', stockId)
      .where(guard)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1)
      throw new Error(`stock row ${stockId} of account ${accountId} does not hold what its allocation says`);
  }

  private async record(
    db: Db,
    accountId: number,
    stock: Pick<StockRow, 'id' | 'fulfilmentWarehouseId' | 'productId'>,
    kind: MovementKind,
    quantityDelta: number,
    reservedDelta: number,
    note: MovementNote,
    at: string,
    defectiveDelta = 0,
  ): Promise<void> {
    await db
      .insertInto('stock_movements')
      .values({
        account_id: accountId,
        stock_id: stock.id,
        fulfilment_warehouse_id: stock.fulfilmentWarehouseId,
        product_id: stock.productId,
        kind,
        quantity_delta: quantityDelta,
        reserved_delta: reservedDelta,
        supply_id: note.supplyId ?? null,
        order_id: note.orderId ?? null,
        marketplace_order_id: note.marketplaceOrderId ?? null,
        employee_id: note.employeeId,
        actor: note.actor,
        reason: note.reason,
        at,
        defective_delta: defectiveDelta,
        inspection_line_id: note.inspectionLineId ?? null,
      })
      .execute();
    // what is available changed: told in the same transaction (a shop's CMS shows the quantity; webhooks carry it)
    if (quantityDelta - reservedDelta !== 0) {
      const payload = {
        cmsId: null,
        trackNumber: null,
        productId: stock.productId,
        fulfilmentWarehouseId: stock.fulfilmentWarehouseId,
      };
      await writeOrderEvents(
        db,
        outboxRows(
          accountId,
          null,
          note.orderId ?? 0,
          [{ type: 'fulfilment.stock_changed', statusFrom: null, statusTo: null, payload }],
          at,
        ),
      );
    }
  }
}
