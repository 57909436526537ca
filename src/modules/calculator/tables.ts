import type { Instant, Json } from '../../platform/db/column-types.js';

/** Widget settings and shipping rules of a shop (tenant data: scoped by account). */
export interface CalculatorTables {
  widget_settings: {
    account_id: number;
    shop_id: number;
    settings: Json;
    updated_at: Instant;
  };
  /** Every version of a shop's shipping rules; the highest is the current one (migration 0099). */
  shipping_rule_versions: {
    account_id: number;
    shop_id: number;
    version: number;
    rules: Json;
    rule_count: number;
    comment: string | null;
    reverted_from: number | null;
    created_by_kind: string;
    created_by_employee: number | null;
    created_at: Instant;
  };
}
