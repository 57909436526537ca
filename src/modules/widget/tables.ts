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
  /** The dashboard's preview keys (migration 0094): one per shop, valid until expires_at. */
  widget_preview_keys: {
    account_id: number;
    shop_id: number;
    preview_key: string;
    expires_at: Instant;
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
