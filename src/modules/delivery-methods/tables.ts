import type { Flag, Id, Instant, Json } from '../../platform/db/column-types.js';

/** An account's own delivery methods and their pickup points (tenant data: scoped by account). */
export interface DeliveryMethodTables {
  delivery_methods: {
    id: Id;
    account_id: number;
    name: string;
    /** 1 pickup point, 2 courier, 3 post. */
    type: number;
    /** FIAS (or `gn:<GeoNames id>`) ids of the localities served. */
    localities: Json;
    /** Served within this distance of the sender's locality, km; null: only the listed localities. */
    radius_km: number | null;
    /** `PriceRule[]` in kopecks and grams, first match wins. */
    price_rules: Json;
    free_from_kopecks: number | null;
    days_min: number;
    days_max: number;
    cash_payment: Flag;
    card_payment: Flag;
    /** Bumped by every change: the calculator's remembered answers name it. */
    version: number;
    created_at: Instant;
    updated_at: Instant;
  };
  delivery_method_points: {
    id: Id;
    account_id: number;
    method_id: number;
    name: string;
    address: string;
    latitude: number;
    longitude: number;
    schedule: Json | null;
    description: string | null;
    zip_code: string | null;
  };
}
