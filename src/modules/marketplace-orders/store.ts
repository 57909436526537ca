/** SQL of marketplace orders, always scoped by account; new ones write their event in the same transaction. */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { containsPattern, flag, fromJson, nowIso, toJson } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';
import { outboxRows, writeOrderEvents } from '../events/outbox.js';
import type { MarketplaceAddress } from '../../marketplaces/types.js';

export type OrderRow = Selectable<Tables['marketplace_orders']>;

export interface StatusChange {
  code: number;
  name: string;
  date: string;
}

export interface StoredProduct {
  productId: number | null;
  vendorCode: string | null;
  name: string;
  count: number;
  priceKopecks: number;
  identifiers: Record<string, string>;
}

export interface NewMarketplaceOrder {
  marketplaceId: number;
  shopId: number | null;
  number: string;
  createdAt: string | null;
  shippingMode: number;
  statusCode: number;
  statusName: string;
  statusHistory: StatusChange[];
  acceptPlannedAt: string | null;
  acceptedAt: string | null;
  deliveryPriceKopecks: number;
  deliveryPriceFactKopecks: number | null;
  priceDeclaredKopecks: number;
  products: StoredProduct[];
  dimensions: { width: number; height: number; length: number; weightGrams: number };
  shippingWarehouse: { id: number; name: string } | null;
  deliveryAddress: MarketplaceAddress;
  bundleKey: string | null;
  isFulfilment: boolean;
  errors: Array<{ product: number; message: string }> | null;
  reservationStatus: ReservationStatus;
}

/** Where a marketplace order's hold on fulfilment goods stands. */
export const RESERVATION = { none: 0, waiting: 1, held: 2, released: 3, shipped: 4 } as const;
export type ReservationStatus = (typeof RESERVATION)[keyof typeof RESERVATION];

export type ProductError = { product: number; message: string };

/** Our statuses after which a marketplace order changes no more. */
export const FINAL_STATUSES = [4, 5];

export interface MarketplaceOrderFilter {
  statusCodes?: number[];
  createdFrom?: string;
  createdBefore?: string;
  search?: string;
  marketplaceIds?: number[];
  shippingMode?: number;
  warehouseId?: number;
  acceptExpired?: { value: boolean; now: string };
  shopId?: number;
}

/** Statuses in which an order still waits for the marketplace's acceptance. */
const AWAITING_ACCEPTANCE = [1, 2];

export class MarketplaceOrderStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * Stores the orders not stored yet (the unique index on the marketplace's number decides,
   * not a read before), each new one with its `marketplace_order.created` event. Answers the
   * ids of the new ones.
   */
  async insertNew(accountId: number, orders: NewMarketplaceOrder[]): Promise<number[]> {
    if (orders.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      const created: number[] = [];
      const now = nowIso();
      for (const order of orders) {
        const row = await trx
          .insertInto('marketplace_orders')
          .values({
            account_id: accountId,
            marketplace_id: order.marketplaceId,
            shop_id: order.shopId,
            marketplace_order_number: order.number,
            marketplace_created_at: order.createdAt,
            shipping_mode: order.shippingMode,
            status_code: order.statusCode,
            status_name: order.statusName,
            status_history: toJson(order.statusHistory),
            accept_planned_at: order.acceptPlannedAt,
            accepted_at: order.acceptedAt,
            delivery_price: order.deliveryPriceKopecks,
            delivery_price_fact: order.deliveryPriceFactKopecks,
            price_declared: order.priceDeclaredKopecks,
            products: toJson(order.products),
            dimensions: toJson(order.dimensions),
            shipping_warehouse_id: order.shippingWarehouse?.id ?? null,
            shipping_warehouse: order.shippingWarehouse ? toJson(order.shippingWarehouse) : null,
            delivery_address: toJson(order.deliveryAddress),
            bundle_key: order.bundleKey,
            is_fulfilment: order.isFulfilment,
            errors: order.errors ? toJson(order.errors) : null,
            search_text: searchTextOf(order.number, order.products),
            created_at: now,
            reservation_status: order.reservationStatus,
          })
          .onConflict((conflict) =>
            conflict.columns(['account_id', 'marketplace_id', 'marketplace_order_number']).doNothing(),
          )
          .returning('id')
          .executeTakeFirst();
        if (!row) continue;
        created.push(row.id);
        const payload = {
          cmsId: order.number,
          trackNumber: null,
          marketplaceOrderId: row.id,
          marketplaceId: order.marketplaceId,
        };
        // orderId 0: the event is of no order of the orders area; the marketplace order is in the payload
        await writeOrderEvents(
          trx,
          outboxRows(
            accountId,
            order.shopId,
            0,
            [{ type: 'marketplace_order.created', statusFrom: null, statusTo: order.statusCode, payload }],
            now,
          ),
        );
      }
      return created;
    });
  }

  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  private ofMarketplace(accountId: number, marketplaceId: number) {
    return this.db
      .selectFrom('marketplace_orders')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('marketplace_id', '=', marketplaceId);
  }

  /** Orders of one marketplace waiting for goods, oldest first. */
  async waitingForGoods(accountId: number, marketplaceId: number, limit: number): Promise<OrderRow[]> {
    return this.ofMarketplace(accountId, marketplaceId)
      .where('reservation_status', '=', RESERVATION.waiting)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Orders of one marketplace holding goods or waiting for them. */
  async withGoodsInPlay(accountId: number, marketplaceId: number): Promise<OrderRow[]> {
    return this.ofMarketplace(accountId, marketplaceId)
      .where('reservation_status', 'in', [RESERVATION.waiting, RESERVATION.held])
      .orderBy('id')
      .execute();
  }

  /**
   * Moves an order's reservation from one state to another; false when it was not in `from`
   * any more (another run moved it first): the caller then does nothing.
   */
  async moveReservation(
    trx: Transaction<Tables>,
    accountId: number,
    id: number,
    from: ReservationStatus,
    to: ReservationStatus,
    errors: ProductError[] | null,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('marketplace_orders')
      .set({ reservation_status: to, reservation_errors: errors ? toJson(errors) : null })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('reservation_status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Orders not final with products no binding named at their last match, oldest first. */
  async unmatchedOpen(accountId: number, marketplaceId: number, limit: number): Promise<OrderRow[]> {
    return this.ofMarketplace(accountId, marketplaceId)
      .where('errors', 'is not', null)
      .where('status_code', 'not in', FINAL_STATUSES)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * An order's products matched anew; only while it still has unmatched products and holds
   * no goods (one poll of a marketplace runs at a time; a repeat would write the same).
   */
  async rematch(
    accountId: number,
    row: OrderRow,
    update: {
      products: StoredProduct[];
      errors: ProductError[] | null;
      dimensions: NewMarketplaceOrder['dimensions'];
      reservationStatus: ReservationStatus;
    },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('marketplace_orders')
      .set({
        products: toJson(update.products),
        errors: update.errors ? toJson(update.errors) : null,
        dimensions: toJson(update.dimensions),
        reservation_status: update.reservationStatus,
        search_text: searchTextOf(row.marketplace_order_number, update.products),
      })
      .where('account_id', '=', accountId)
      .where('id', '=', row.id)
      .where('errors', 'is not', null)
      .where('reservation_status', '=', RESERVATION.none)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Orders whose status may still change, those never asked about (then the longest unasked) first. */
  async notFinal(accountId: number, marketplaceId: number, limit: number): Promise<OrderRow[]> {
    return this.ofMarketplace(accountId, marketplaceId)
      .where('status_code', 'not in', FINAL_STATUSES)
      .orderBy(sql`status_checked_at is not null`)
      .orderBy('status_checked_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async markChecked(accountId: number, ids: number[], at: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('marketplace_orders')
      .set({ status_checked_at: at })
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * A new status of a stored order, appended to its history; guarded by the status it was
   * read in, so two runs never append the same change twice. False when it had moved on.
   */
  async changeStatus(
    trx: Transaction<Tables>,
    accountId: number,
    row: OrderRow,
    change: StatusChange & { acceptedAt: string | null },
  ): Promise<boolean> {
    const history = [
      ...fromJson<StatusChange[]>(row.status_history),
      { code: change.code, name: change.name, date: change.date },
    ];
    const result = await trx
      .updateTable('marketplace_orders')
      .set({
        status_code: change.code,
        status_name: change.name,
        status_history: toJson(history),
        accepted_at: row.accepted_at ?? change.acceptedAt,
        status_checked_at: change.date,
      })
      .where('account_id', '=', accountId)
      .where('id', '=', row.id)
      .where('status_code', '=', row.status_code)
      .where('status_name', '=', row.status_name)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async list(accountId: number, filter: MarketplaceOrderFilter, paging: Paging): Promise<Page<OrderRow>> {
    let query = this.db.selectFrom('marketplace_orders').where('account_id', '=', accountId);
    // an empty set (a list and statuses that share no code) matches nothing; `in ()` is no SQL
    if (filter.statusCodes)
      query = filter.statusCodes.length
        ? query.where('status_code', 'in', filter.statusCodes)
        : query.where(sql<boolean>`1 = 0`);
    if (filter.createdFrom) query = query.where('marketplace_created_at', '>=', filter.createdFrom);
    if (filter.createdBefore) query = query.where('marketplace_created_at', '<', filter.createdBefore);
    if (filter.search) query = query.where('search_text', 'like', containsPattern(filter.search));
    if (filter.marketplaceIds?.length) query = query.where('marketplace_id', 'in', filter.marketplaceIds);
    if (filter.shippingMode !== undefined) query = query.where('shipping_mode', '=', filter.shippingMode);
    if (filter.warehouseId !== undefined) query = query.where('shipping_warehouse_id', '=', filter.warehouseId);
    if (filter.shopId !== undefined) query = query.where('shop_id', '=', filter.shopId);
    if (filter.acceptExpired) {
      const { now, value } = filter.acceptExpired;
      query = query.where((eb) => {
        if (value)
          return eb.and([
            eb('accepted_at', 'is', null),
            eb('accept_planned_at', '<', now),
            eb('status_code', 'in', AWAITING_ACCEPTANCE),
          ]);
        // spelt out rather than NOT(...): a null planned date would make NOT(...) null, hiding the row
        return eb.or([
          eb('accepted_at', 'is not', null),
          eb('accept_planned_at', 'is', null),
          eb('accept_planned_at', '>=', now),
          eb('status_code', 'not in', AWAITING_ACCEPTANCE),
        ]);
      });
    }
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows, total: Number(count.total) };
  }

  async get(accountId: number, id: number): Promise<OrderRow | undefined> {
    return this.db
      .selectFrom('marketplace_orders')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async byBundle(accountId: number, bundleKey: string, shopId?: number): Promise<OrderRow[]> {
    let query = this.db
      .selectFrom('marketplace_orders')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('bundle_key', '=', bundleKey);
    if (shopId !== undefined) query = query.where('shop_id', '=', shopId);
    return query.orderBy('id').execute();
  }

  /** How many orders each bundle holds. */
  async bundleSizes(accountId: number, bundleKeys: string[]): Promise<Map<string, number>> {
    if (bundleKeys.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('marketplace_orders')
      .select(['bundle_key', (eb) => eb.fn.countAll<number>().as('size')])
      .where('account_id', '=', accountId)
      .where('bundle_key', 'in', [...new Set(bundleKeys)])
      .groupBy('bundle_key')
      .execute();
    return new Map(rows.map((row) => [row.bundle_key as string, Number(row.size)]));
  }
}

/** What the list's `search` looks in: the number, and each product's name, vendor code and identifiers. */
function searchTextOf(number: string, products: StoredProduct[]): string {
  return [
    number,
    ...products.flatMap((product) => [product.name, product.vendorCode ?? '', ...Object.values(product.identifiers)]),
  ]
    .join(' ')
    .toLowerCase()
    .replace(/ё/g, 'е');
}

export function rowFlags(row: OrderRow) {
  return {
    isFulfilment: flag(row.is_fulfilment),
    products: fromJson<StoredProduct[]>(row.products),
    statusHistory: fromJson<StatusChange[]>(row.status_history),
    dimensions: fromJson<NewMarketplaceOrder['dimensions']>(row.dimensions),
    shippingWarehouse:
      row.shipping_warehouse === null ? null : fromJson<{ id: number; name: string }>(row.shipping_warehouse),
    deliveryAddress: fromJson<MarketplaceAddress>(row.delivery_address),
    // the goods short at the last reservation attempt are errors of the order as well
    errors: mergedErrors(
      row.errors === null ? null : fromJson<ProductError[]>(row.errors),
      row.reservation_errors === null ? null : fromJson<ProductError[]>(row.reservation_errors),
    ),
  };
}

function mergedErrors(binding: ProductError[] | null, reservation: ProductError[] | null): ProductError[] | null {
  const all = [...(binding ?? []), ...(reservation ?? [])];
  return all.length ? all : null;
}
