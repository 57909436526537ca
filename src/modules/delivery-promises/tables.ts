/** The delivery promises' tables as Kysely sees them (migration 0100). */
import type { DateText, Flag, Id, Instant } from '../../platform/db/column-types.js';

export interface DeliveryPromiseTables {
  /** One arrived parcel: its route, hand-over and arrival days, and what was promised. */
  transit_observations: {
    id: Id;
    account_id: number;
    order_id: number | null;
    company_id: number;
    delivery_type: number;
    tariff: string | null;
    from_locality: number;
    to_locality: number;
    from_name: string;
    to_name: string;
    from_region: string;
    to_region: string;
    from_lat: number;
    from_lon: number;
    to_lat: number;
    to_lon: number;
    handed_over: DateText;
    arrived: DateText;
    /** Business days from hand-over to arrival. */
    days: number;
    promised_days: number | null;
    promised_by: DateText | null;
    promise_basis: string | null;
    declared_days: number | null;
    generated: Flag;
    created_at: Instant;
  };
  /** The instance's distributions: parcels of a key (route, regions, distance band, company) that took `days`. */
  transit_stats: {
    key: string;
    days: number;
    parcels: number;
  };
}
