import type { Flag, Id, Instant, Json } from '../../platform/db/column-types.js';

export interface MarketplaceOrderTables {
  marketplace_orders: {
    id: Id;
    account_id: number;
    marketplace_id: number;
    shop_id: number | null;
    marketplace_order_number: string;
    marketplace_created_at: Instant | null;
    shipping_mode: number | null;
    /** Our status code (MARKETPLACE_ORDER_STATUSES), the `list` groups. */
    status_code: number;
    /** The marketplace's own status name. */
    status_name: string;
    status_history: Json;
    accept_planned_at: Instant | null;
    accepted_at: Instant | null;
    /** kopecks */
    delivery_price: number;
    delivery_price_fact: number | null;
    price_declared: number;
    products: Json;
    dimensions: Json;
    shipping_warehouse_id: number | null;
    shipping_warehouse: Json | null;
    delivery_address: Json;
    bundle_key: string | null;
    is_fulfilment: Flag;
    errors: Json | null;
    search_text: string;
    /** 0 nothing to hold, 1 waiting for goods, 2 goods held at the fulfilment warehouse, 3 given back, 4 shipped. */
    reservation_status: number;
    /** JSON [{product, message}]: goods short at the last attempt. */
    reservation_errors: Json | null;
    /** When its status was last asked for after the first read; null: never. */
    status_checked_at: Instant | null;
    created_at: Instant;
  };
}
