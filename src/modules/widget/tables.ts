import type { Id, Instant, Json } from '../../platform/db/column-types.js';

/** The checkout widget's keys and selections (tenant data: scoped by account). */
export interface WidgetTables {
  widget_keys: {
    account_id: number;
    shop_id: number;
    public_key: string;
    allowed_origins: Json;
    created_at: Instant;
  };
  widget_selections: {
    id: Id;
    account_id: number;
    shop_id: number;
    token_hash: string;
    selection: Json;
    expires_at: Instant;
    used_at: Instant | null;
    order_id: number | null;
    created_at: Instant;
  };
}
