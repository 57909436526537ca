/**
 * Reads of the stock ledger for reports (the movement report, the stock balance, storage
 * charged): balances before an instant and the movements of a period, read in keyset pages.
 * The writes are stock-store.ts, whose store extends this one.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';

export type Db = Kysely<Tables> | Transaction<Tables>;

export type MovementKind = 'supply' | 'reserve' | 'release' | 'ship' | 'return' | 'defect' | 'write_off' | 'correction';

export class StockReads {
  constructor(readonly db: Kysely<Tables>) {}

  /** The fulfilment warehouses that have ever held any of these products, with those products (ascending ids). */
  async warehousesOf(accountId: number, productIds: number[]): Promise<Map<number, number[]>> {
    const held = new Map<number, number[]>();
    if (productIds.length === 0) return held;
    const rows = await this.db
      .selectFrom('stock')
      .select(['fulfilment_warehouse_id', 'product_id'])
      .distinct()
      .where('account_id', '=', accountId)
      .where('product_id', 'in', productIds)
      .orderBy('fulfilment_warehouse_id')
      .orderBy('product_id')
      .execute();
    for (const row of rows)
      held.set(row.fulfilment_warehouse_id, [...(held.get(row.fulfilment_warehouse_id) ?? []), row.product_id]);
    return held;
  }

  /** On hand per product at a warehouse just before `before` (the sum of the movements until then). */
  async balancesBefore(
    accountId: number,
    fulfilmentWarehouseId: number,
    productIds: number[],
    before: string,
  ): Promise<Map<number, number>> {
    if (productIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('stock_movements')
      .select(['product_id', sql<number>`sum(quantity_delta)`.as('quantity')])
      .where('account_id', '=', accountId)
      .where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId)
      .where('product_id', 'in', productIds)
      .where('at', '<', before)
      .groupBy('product_id')
      .execute();
    return new Map(rows.map((row) => [row.product_id, Number(row.quantity)]));
  }

  /**
   * The movements that change what is on hand, product by product in time order, read in
   * pages (keyset on product, time, id): a year of a large catalogue is never read at once.
   */
  async *onHandMovements(
    accountId: number,
    fulfilmentWarehouseId: number,
    productIds: number[],
    from: string,
    to: string,
    pageSize = 5000,
  ): AsyncGenerator<{ productId: number; at: string; kind: MovementKind; delta: number; defectiveDelta: number }> {
    if (productIds.length === 0) return;
    let after: { productId: number; at: string; id: number } | null = null;
    for (;;) {
      let query = this.db
        .selectFrom('stock_movements')
        .select(['id', 'product_id', 'at', 'kind', 'quantity_delta', 'defective_delta'])
        .where('account_id', '=', accountId)
        .where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId)
        .where('product_id', 'in', productIds)
        .where('at', '>=', from)
        .where('at', '<', to)
        // what is on hand changed, or the defect stock did (its own column of the report)
        .where((eb) => eb.or([eb('quantity_delta', '!=', 0), eb('defective_delta', '!=', 0)]));
      if (after) {
        const { productId, at, id } = after;
        query = query.where((eb) =>
          eb.or([
            eb('product_id', '>', productId),
            eb.and([
              eb('product_id', '=', productId),
              eb.or([eb('at', '>', at), eb.and([eb('at', '=', at), eb('id', '>', id)])]),
            ]),
          ]),
        );
      }
      const rows = await query.orderBy('product_id').orderBy('at').orderBy('id').limit(pageSize).execute();
      for (const row of rows)
        yield {
          productId: row.product_id,
          at: row.at,
          kind: row.kind as MovementKind,
          delta: Number(row.quantity_delta),
          defectiveDelta: Number(row.defective_delta),
        };
      if (rows.length < pageSize) return;
      const last = rows[rows.length - 1];
      after = { productId: last.product_id, at: last.at, id: last.id };
    }
  }

  /** On hand per warehouse and product of the account just before `before`, goods with any on hand (a warehouse alone when given). */
  async onHandBefore(
    accountId: number,
    before: string,
    fulfilmentWarehouseId?: number,
  ): Promise<Array<{ fulfilmentWarehouseId: number; productId: number; quantity: number }>> {
    let query = this.db
      .selectFrom('stock_movements')
      .select(['fulfilment_warehouse_id', 'product_id', sql<number>`sum(quantity_delta)`.as('quantity')])
      .where('account_id', '=', accountId)
      .where('at', '<', before);
    if (fulfilmentWarehouseId !== undefined) query = query.where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId);
    const rows = await query
      .groupBy(['fulfilment_warehouse_id', 'product_id'])
      .orderBy('fulfilment_warehouse_id')
      .orderBy('product_id')
      .execute();
    return rows
      .map((row) => ({
        fulfilmentWarehouseId: row.fulfilment_warehouse_id,
        productId: row.product_id,
        quantity: Number(row.quantity),
      }))
      .filter((row) => row.quantity !== 0);
  }

  /** The account's on-hand movements in [from, to), only `kinds` and one warehouse when given (one filter for reading and counting). */
  private movementsIn(
    accountId: number,
    from: string,
    to: string,
    options: { kinds?: MovementKind[]; fulfilmentWarehouseId?: number },
  ) {
    let query = this.db
      .selectFrom('stock_movements')
      .where('account_id', '=', accountId)
      .where('at', '>=', from)
      .where('at', '<', to)
      .where('quantity_delta', '!=', 0);
    if (options.kinds?.length) query = query.where('kind', 'in', options.kinds);
    if (options.fulfilmentWarehouseId !== undefined)
      query = query.where('fulfilment_warehouse_id', '=', options.fulfilmentWarehouseId);
    return query;
  }

  /** How many movements `movementsBetween` would read (a report's size before it is written). */
  async countMovementsBetween(
    accountId: number,
    from: string,
    to: string,
    options: { kinds?: MovementKind[]; fulfilmentWarehouseId?: number } = {},
  ): Promise<number> {
    const row = await this.movementsIn(accountId, from, to, options)
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Stock lines (product × warehouse) the account has, at one warehouse when given: at most the rows of a stock report. */
  async countStockLines(accountId: number, fulfilmentWarehouseId?: number): Promise<number> {
    let query = this.db
      .selectFrom('stock')
      .select(sql<number>`count(*)`.as('count'))
      .where('account_id', '=', accountId);
    if (fulfilmentWarehouseId !== undefined) query = query.where('fulfilment_warehouse_id', '=', fulfilmentWarehouseId);
    return Number((await query.executeTakeFirst())?.count ?? 0);
  }

  /** The account's on-hand movements in [from, to) in time order, read in keyset pages; only `kinds` when given. */
  async *movementsBetween(
    accountId: number,
    from: string,
    to: string,
    options: { kinds?: MovementKind[]; fulfilmentWarehouseId?: number } = {},
    pageSize = 5000,
  ): AsyncGenerator<{
    fulfilmentWarehouseId: number;
    productId: number;
    orderId: number | null;
    marketplaceOrderId: number | null;
    kind: MovementKind;
    delta: number;
    at: string;
  }> {
    let after: { at: string; id: number } | null = null;
    for (;;) {
      let query = this.movementsIn(accountId, from, to, options).select([
        'id',
        'fulfilment_warehouse_id',
        'product_id',
        'order_id',
        'marketplace_order_id',
        'kind',
        'quantity_delta',
        'at',
      ]);
      if (after) {
        const { at, id } = after;
        query = query.where((eb) => eb.or([eb('at', '>', at), eb.and([eb('at', '=', at), eb('id', '>', id)])]));
      }
      const rows = await query.orderBy('at').orderBy('id').limit(pageSize).execute();
      for (const row of rows)
        yield {
          fulfilmentWarehouseId: row.fulfilment_warehouse_id,
          productId: row.product_id,
          orderId: row.order_id,
          marketplaceOrderId: row.marketplace_order_id ?? null,
          kind: row.kind as MovementKind,
          delta: Number(row.quantity_delta),
          at: row.at,
        };
      if (rows.length < pageSize) return;
      const last = rows[rows.length - 1];
      after = { at: last.at, id: last.id };
    }
  }
}
