import type { DateText, Id, Instant, Json } from '../../platform/db/column-types.js';

/**
 * Fulfilment stock (Saleor's habit: a stock row per place and goods, allocations per order,
 * and every change a recorded movement), supplies of goods and the warehouse staff's tokens.
 */
export interface FulfilmentTables {
  /** Goods of an account at one of the service's fulfilment warehouses, per batch where kept. */
  stock: {
    id: Id;
    account_id: number;
    fulfilment_warehouse_id: number;
    product_id: number;
    /** '' for goods without batch accounting. */
    batch: string;
    /** Expiry date of the batch, null when not kept. */
    expires: DateText | null;
    /** On hand. */
    quantity: number;
    /** Held for orders; available = quantity - reserved, never below zero. */
    reserved: number;
    updated_at: Instant;
  };
  /** Every change of a stock row; never rewritten. */
  stock_movements: {
    id: Id;
    account_id: number;
    stock_id: number;
    fulfilment_warehouse_id: number;
    product_id: number;
    /** supply | reserve | release | ship | return | write_off | correction */
    kind: string;
    quantity_delta: number;
    reserved_delta: number;
    supply_id: number | null;
    order_id: number | null;
    /** The marketplace order of a reserve/release (order_id is null then). */
    marketplace_order_id: number | null;
    employee_id: number | null;
    /** Who made it: "account", "employee:<id>", "shop:<id>", "operator:<id>" or "process:<job>". */
    actor: string;
    reason: string;
    at: Instant;
  };
  /** What an order holds of a stock row (Saleor's Allocation). */
  stock_allocations: {
    id: Id;
    account_id: number;
    /** 0 for a marketplace order's allocation. */
    order_id: number;
    marketplace_order_id: number | null;
    stock_id: number;
    quantity: number;
    /** reserved | shipped | returned */
    state: string;
    updated_at: Instant;
  };
  /** Supplies of goods to a fulfilment warehouse (contract 2.10). */
  supplies: {
    id: Id;
    account_id: number;
    fulfilment_warehouse_id: number;
    date: DateText;
    /** boxes | pallets */
    type: string;
    places: number;
    /** 1 Draft, 2 Confirmed, 3 Arrived, 4 Accepted, 5 Canceled */
    status: number;
    /** JSON: [{status, name, date, comment}] latest first */
    status_history: Json;
    /** JSON: the lines, declared and (once accepted) counted */
    products: Json;
    employee_id: number | null;
    file: string | null;
    created_at: Instant;
    updated_at: Instant;
  };
  /** Tokens of fulfilment warehouse staff: they move supplies of every account at their warehouse. */
  operator_tokens: {
    id: Id;
    fulfilment_warehouse_id: number;
    name: string;
    token_hash: string;
    created_at: Instant;
  };
}
