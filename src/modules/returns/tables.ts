/** The returns' tables as Kysely sees them (migrations 0103, 0104). */
import type { Id, Instant, Json } from '../../platform/db/column-types.js';

export interface ReturnTables {
  returns: {
    id: Id;
    account_id: number;
    shop_id: number;
    /** The delivered order the goods come back from. */
    order_id: number;
    /** The order's cmsId, copied: lists show it without reading the order. */
    order_number: string | null;
    /** requested, approved, refused, cancelled, in_transit, received, closed (rules.ts RETURN_STATUSES). */
    status: string;
    /** What the buyer shows at the point or to the courier (and its QR): unique on the instance. */
    code: string;
    /** point, courier, post */
    way: string;
    company_id: number;
    /** The company's point the buyer drops the parcel at (way point or post). */
    point_id: number | null;
    /** The return's delivery cost (the reverse parcel's price), kopecks; who pays it: shop or buyer. */
    cost_kopecks: number;
    payer: string;
    /** What the shop refunds: the returned lines' prices, kopecks (less the buyer's share of the cost when the buyer pays). */
    goods_kopecks: number;
    /** ReturnLine[] (rules.ts). */
    lines: Json;
    /** ReturnPhoto[]: names of files in the file store. */
    photos: Json;
    /** buyer (the returns page) or shop (POST /v2/returns). */
    created_by: string;
    /** rules, shop: who approved it. */
    approved_by: string | null;
    refusal_reason: string | null;
    /** The reverse order (orders.returnOf) made on approval. */
    parcel_order_id: number | null;
    language: string;
    created_at: Instant;
    updated_at: Instant;
  };
  return_settings: {
    account_id: number;
    shop_id: number;
    /** ReturnSettings (rules.ts). */
    settings: Json;
    updated_at: Instant;
  };
}
