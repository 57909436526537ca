import type { DateText, Flag, Id, Instant } from '../../platform/db/column-types.js';

/**
 * One row per order: the filterable fields as indexed columns, the order as it is
 * answered (GET /v2/orders/{id}) as one packed JSON object (platform/json-pieces.ts), so
 * pages are assembled from the stored bytes, neither parsed nor compressed again.
 */
export interface OrderTables {
  orders: {
    id: Id;
    account_id: number;
    shop_id: number | null;
    warehouse_id: number | null;
    /** Status code of field-notes.md. */
    status: number;
    /** The order's own error (unpriced delivery, refused registration), else null. */
    error: string | null;
    /** The list (`GET /v2/orders?list=`, 1 to 8) its status puts it in, 0 for none: one indexed equality per list. */
    list_code: number;
    /** In the problems list (a problem status or an error): the one list a status alone does not decide. */
    problem: Flag;
    created_at: Instant;
    updated_at: Instant;
    status_at: Instant;
    /** Its first status of 14 or later (`handedOverAt`): the orders billed in a period are one index range. */
    handed_over_at: Instant | null;
    /** Its first 44/47 (`deliveredAt`): the orders remitted in a period are one index range. */
    delivered_at: Instant | null;
    company_id: number;
    /** The account's own delivery method (convention 12) the order travels by; `company_id` is then 0. */
    own_method_id: number | null;
    delivery_type: number;
    point_id: number | null;
    cms_id: string | null;
    track_number: string | null;
    /** Lower-cased id, cmsId, track number, recipient name and phone digits. */
    search_text: string;
    /** Lower-cased recipient locality name. */
    recipient_city: string;
    recipient_country: string;
    /** 1 prepaid, 2 cash on delivery, 3 card on delivery. */
    payment_type: number;
    with_cod: Flag;
    cod_received: Flag;
    sticker_formed: Flag;
    was_in_act: Flag;
    is_packed: Flag;
    /** 0 none, 1 Preorder, 2 In reserve, 3 Reserve cancelled. */
    reservation_status: number;
    auto_reserved: Flag;
    /** Last day of storage at the pickup point. */
    hold_until: DateText | null;
    /** One day of storage is left (`delivery.point.storagingEnds`). */
    storaging_ends: Flag;
    /** Position in the simulated journey of a built-in company (-1: not simulated). */
    journey_step: number;
    /** The pickup type the order names (`pickup.type`); null: its warehouse's default applies. */
    pickup_type: number | null;
    /** The day the parcel leaves the warehouse (`pickup.date`): a pickup of that day collects it. */
    pickup_date: DateText | null;
    /** The promised delivery date (`delivery.promise.byDate`), null without a promise (migration 0101). */
    promised_by: DateText | null;
    /** Found past its promised date and not yet arrived (`delivery.promise.late`): in the problems list. */
    late: Flag;
    /** Optimistic lock: every write checks and bumps it. */
    version: number;
    /** The order without its id, packed. */
    doc_packed: Buffer;
  };
}
