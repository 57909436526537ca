import type { Id, Instant } from '../../platform/db/column-types.js';

export interface BoxTables {
  boxes: {
    id: Id;
    account_id: number;
    name: string | null;
    search_name: string;
    width: number;
    height: number;
    length: number;
    weight_grams: number | null;
    created_at: Instant;
    updated_at: Instant;
  };
}
