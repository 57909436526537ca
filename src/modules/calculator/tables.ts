import type { Instant, Json } from '../../platform/db/column-types.js';

/** Widget settings of a shop (tenant data: scoped by account). */
export interface CalculatorTables {
  widget_settings: {
    account_id: number;
    shop_id: number;
    settings: Json;
    updated_at: Instant;
  };
}
