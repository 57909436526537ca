import type { Flag, Id, Instant, Json } from '../../platform/db/column-types.js';

export interface ShopTables {
  shops: {
    id: Id;
    account_id: number;
    name: string;
    brand: string;
    search_name: string;
    search_brand: string;
    platform: string | null;
    cms_products_autocomplete: Flag;
    email_notifications: Flag;
    carrier_a_calling: Flag;
    disable_quantity_control_in_checkout: Flag;
    send_quantity_to_cms: Flag;
    warehouse_id: number;
    notifications: Json;
    /** SHA-256 of the shop's API key, for lookup at authentication. */
    api_key_hash: string;
    /** The API key encrypted with the instance secret, so GET can show it to the owner. */
    api_key_cipher: string;
    /** When the current API key first authenticated a call (migration 0093); null: not yet, or replaced since. */
    api_key_used_at: Instant | null;
    created_at: Instant;
    updated_at: Instant;
  };
}
