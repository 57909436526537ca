import type { Id, Instant } from '../../platform/db/column-types.js';

/** Sets of documents formed for an account: what `GET /v2/orders/stickers` and `GET /v2/orders/waybills` list. */
export interface DocumentTables {
  sticker_sets: {
    id: Id;
    account_id: number;
    /** The shop when every order of the set is one shop's (a shop key lists only its own); else null. */
    shop_id: number | null;
    /** 1, 2, 3, or null: all three formats (a ZIP). */
    format: number | null;
    /** The file answered: a PDF, or the ZIP. */
    file_url: string;
    /** JSON text: [{type, file}] — one PDF per format in the set. */
    files: string;
    /** JSON text: the order ids. */
    order_ids: string;
    created_at: Instant;
  };
  waybill_sets: {
    id: Id;
    account_id: number;
    shop_id: number | null;
    warehouse_id: number | null;
    company_id: number;
    company_name: string;
    /** Handover date, YYYY-MM-DD. */
    date: string;
    count_orders: number;
    act_url: string;
    /** The waybill, only for companies that need one. */
    waybill_url: string | null;
    /** JSON text: the warehouse as printed ({id, name, address}). */
    warehouse: string;
    order_ids: string;
    created_at: Instant;
  };
}
