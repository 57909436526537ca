import type { Flag, Id, Instant, Json } from '../../platform/db/column-types.js';

export interface MarketplaceTables {
  marketplace_integrations: {
    id: Id;
    account_id: number;
    marketplace_id: number;
    /** The shop whose `newOrder` notifications the orders raise (null: the account's first shop). */
    shop_id: number | null;
    /** The credentials as a JSON object, sealed with the instance secret (AES-256-GCM). */
    credentials: string;
    /** The same keys with masked values, what GET shows. */
    masked: Json;
    fbs_enabled: Flag;
    fbo_enabled: Flag;
    dbs_enabled: Flag;
    /** Where the next poll goes on (the adapter's own shape). */
    cursor: Json | null;
    connected_at: Instant;
    last_poll_at: Instant | null;
    last_error: string | null;
    updated_at: Instant;
  };
}
