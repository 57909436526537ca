import type { Generated } from 'kysely';
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
    /** pdf, zpl or png. */
    output: Generated<string>;
    /** Printer resolution of zpl and png sets; null for pdf. */
    dpi: number | null;
    /** ready, or pending / failed while / after a job writes a large set. */
    status: Generated<string>;
    labels_total: Generated<number>;
    labels_done: Generated<number>;
    /** The file store name of `file_url` (answers 202 while the set is pending). */
    file_name: string | null;
  };
  /** The resolution of a warehouse's label printer, when its staff set one. */
  warehouse_label_printers: {
    account_id: number;
    warehouse_id: number;
    dpi: number;
    updated_at: Instant;
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
