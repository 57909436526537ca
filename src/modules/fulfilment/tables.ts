import type { Generated } from 'kysely';
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
    /** Returned units found unfit (migration 0108): kept apart, never available. */
    defective: Generated<number>;
    updated_at: Instant;
  };
  /** Every change of a stock row; never rewritten. */
  stock_movements: {
    id: Id;
    account_id: number;
    stock_id: number;
    fulfilment_warehouse_id: number;
    product_id: number;
    /** supply | reserve | release | ship | return | defect | write_off | correction */
    kind: string;
    quantity_delta: number;
    reserved_delta: number;
    /** Change of the defect stock (kind defect). */
    defective_delta: Generated<number>;
    /** The inspected line of a returned parcel that made it (unique per kind: a line moves stock once). */
    inspection_line_id: number | null;
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
  /** Returned parcels at a fulfilment warehouse, waiting for (or done with) their inspection (migration 0107). */
  return_inspections: {
    id: Id;
    account_id: number;
    order_id: number;
    shop_id: number | null;
    fulfilment_warehouse_id: number;
    /** refusal | partial-buyout | return */
    source: string;
    return_id: number | null;
    track_number: string | null;
    /** JSON: [{productId, count}] the parcel brought back */
    lines: Json;
    /** waiting | done */
    status: string;
    arrived_at: Instant;
    inspected_at: Instant | null;
    actor: string | null;
  };
  /** Each inspected line's outcome, once per parcel, product and outcome. */
  return_inspection_lines: {
    id: Id;
    account_id: number;
    inspection_id: number;
    product_id: number;
    /** stock | defect | write_off */
    outcome: string;
    count: number;
    reason: string;
    actor: string;
    at: Instant;
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
