import type { DateText, Id, Instant, Json } from '../../platform/db/column-types.js';

/** Pickups (contract 2.9): a courier booked to collect a warehouse's parcels on a day. */
export interface PickupTables {
  pickups: {
    id: Id;
    account_id: number;
    warehouse_id: number;
    company_id: number;
    /** The company as the same-day rule sees it: `company_id` for direct shipment (4), 0 for the consolidated pickup (3: one per warehouse and day). */
    company_key: number;
    /** 3 consolidated pickup, 4 direct shipment */
    type: number;
    date: DateText;
    /** 1 New, 2 Scheduled, 3 Done, 4 Canceled, 5 Error */
    status: number;
    /** JSON: [{code, name, date}] latest first */
    status_history: Json;
    /** The company's number of the booking. */
    number: string | null;
    time_from: string | null;
    time_to: string | null;
    /** The weight the sender declared (default 1 kg), used while no order is covered. */
    weight_grams: number;
    comment: string | null;
    error: string | null;
    /** URL of the handover act. */
    file: string | null;
    /** JSON: the order ids the act at `file` lists. */
    act_orders: Json | null;
    /** JSON: the order ids covered when the pickup ended (Done, Canceled, Error); null while it is current. */
    order_ids: Json | null;
    /** What the pickup cost when it was Done (0 when free); null before. */
    price_kopecks: number | null;
    /** When the courier collected (Done). */
    done_at: Instant | null;
    created_at: Instant;
    updated_at: Instant;
  };
}
