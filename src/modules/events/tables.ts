import type { Id, Instant, Json } from '../../platform/db/column-types.js';

/** The order events outbox and the positions its consumers have read up to. */
export interface EventTables {
  order_events: {
    id: Id;
    /** PostgreSQL: the public position, given once the writing transaction has committed (null until then). SQLite: unused, the id is the position. */
    seq: number | null;
    account_id: number;
    shop_id: number | null;
    order_id: number;
    /** order.created, order.status_changed, ... (EVENT_TYPES) */
    type: string;
    status_from: number | null;
    status_to: number | null;
    at: Instant;
    payload: Json;
  };
  event_consumers: {
    /** The consumer, e.g. "notifications". */
    name: string;
    /** The last event position it has handled. */
    position: number;
    updated_at: Instant;
  };
}
