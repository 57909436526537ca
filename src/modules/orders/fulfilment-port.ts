/**
 * What orders of fulfilment shops need of stock: the fulfilment area provides it (wired in
 * services.ts). Every write takes the order's transaction, so the order and its stock
 * change together or not at all.
 */
import type { Scope } from '../../platform/auth.js';
import type { OrderDoc } from './document.js';
import type { Db } from './store.js';

/** Goods an order lacks (check-rests' missingProducts item). */
export interface GoodsShortage {
  id: number | null;
  name: string | null;
  vendorCode: string | null;
  /** Available now at the order's fulfilment warehouse. */
  restCount: number;
  missingCount: number;
}

/** Who moves stock: written on every movement. */
export interface StockActor {
  actor: string;
  employeeId: number | null;
}

/**
 * What an order takes from stock, worked out before its transaction (on SQLite a transaction
 * holds the only connection: nothing else may be read inside it).
 */
export interface ReservationPlan {
  /** The service's warehouse holding the goods; null: the order's warehouse keeps no stock. */
  fulfilmentWarehouseId: number | null;
  /** Units per product, kits expanded. */
  needs: Array<{ productId: number; count: number; name: string | null; vendorCode: string | null }>;
  /** Lines that name no product or kit: never reservable. */
  unknown: Array<{ name: string | null; vendorCode: string | null; count: number }>;
  /** Shops kept at that warehouse that want a notice when a product's available stock falls to their border. */
  borders: Array<{ shopId: number; border: number }>;
}

export interface OrderFulfilment {
  plan(scope: Scope, doc: OrderDoc): Promise<ReservationPlan>;
  /** Reserves the plan, all or nothing: the shortages, and nothing held, when any good is short. */
  reserve(
    db: Db,
    accountId: number,
    orderId: number,
    plan: ReservationPlan,
    actor: StockActor,
  ): Promise<GoodsShortage[]>;
  /** What the order would lack now (no writes). */
  shortages(scope: Scope, doc: OrderDoc): Promise<GoodsShortage[]>;
  /** Gives back whatever the order holds. */
  release(db: Db, accountId: number, orderId: number, actor: StockActor): Promise<void>;
  /** The parcel was handed to the delivery company: what it holds leaves the warehouse. */
  ship(db: Db, accountId: number, orderId: number, actor: StockActor): Promise<void>;
  /**
   * The returned parcel reached the warehouse: what came back (all it took, or a partial
   * buyout's refused lines) waits for the staff's inspection; nothing is on hand before it.
   * True when the parcel joined the queue (false: nothing to inspect, or queued already).
   */
  receiveReturn(db: Db, accountId: number, orderId: number, actor: StockActor, doc: OrderDoc): Promise<boolean>;
  /**
   * A return parcel (modules/returns) reached the warehouse with these goods of the delivered
   * order `goodsOrderId`: they wait for the staff's inspection like a refused parcel's.
   */
  receiveReturnParcel(
    db: Db,
    parcel: {
      accountId: number;
      parcelOrderId: number;
      goodsOrderId: number;
      returnId: number;
      lines: { productId: number; count: number }[];
    },
  ): Promise<boolean>;
}

function everythingMissing(doc: OrderDoc): GoodsShortage[] {
  return doc.products.map((line) => ({
    id: line.id,
    name: line.name,
    vendorCode: line.vendorCode,
    restCount: 0,
    missingCount: line.count,
  }));
}

/** Orders of a service without fulfilment stock: nothing is ever available. */
export const NO_FULFILMENT: OrderFulfilment = {
  async plan(_scope, doc) {
    return {
      fulfilmentWarehouseId: null,
      needs: [],
      unknown: doc.products.map((line) => ({ name: line.name, vendorCode: line.vendorCode, count: line.count })),
      borders: [],
    };
  },
  async reserve(_db, _accountId, _orderId, plan) {
    return plan.unknown.map((line) => ({ id: null, ...line, restCount: 0, missingCount: line.count }));
  },
  async shortages(_scope, doc) {
    return everythingMissing(doc);
  },
  async release() {},
  async ship() {},
  async receiveReturn() {
    return false;
  },
  async receiveReturnParcel() {
    return false;
  },
};

/** The actor of a caller: the employee, the shop key or the account token. */
export function actorOf(scope: Scope): StockActor {
  if (scope.employeeId !== null) return { actor: `employee:${scope.employeeId}`, employeeId: scope.employeeId };
  if (scope.shopKeyShopId !== null) return { actor: `shop:${scope.shopKeyShopId}`, employeeId: null };
  return { actor: 'account', employeeId: null };
}
