import type { Id, Instant } from '../../platform/db/column-types.js';

/** Notifications made from order events, one row per person (and event and type). */
export interface NotificationTables {
  notifications: {
    id: Id;
    account_id: number;
    /** "account" (the account owner, read with an account token) or "employee:<id>". */
    recipient: string;
    employee_id: number | null;
    /** The order event it was made from (its public id). */
    event_id: number;
    /** The shop flag that asked for it: newOrder, newProblemOrder, ... */
    type: string;
    order_id: number | null;
    shop_id: number | null;
    text: string;
    /** Where it is e-mailed (null: not e-mailed). */
    email_to: string | null;
    /** none | pending | sent | failed */
    email_status: string;
    emailed_at: Instant | null;
    created_at: Instant;
    read_at: Instant | null;
  };
}
