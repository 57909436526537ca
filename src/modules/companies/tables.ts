import type { ColumnType } from 'kysely';
import type { Instant, Json } from '../../platform/db/column-types.js';

/** Reference data (not tenant data): localities, pickup points, and which data version is loaded. */
export interface ReferenceTables {
  localities: {
    id: number;
    country_code: string;
    name: string;
    name_en: string;
    type: string;
    region: string;
    region_code: string;
    latitude: number;
    longitude: number;
    population: number;
    fias: string | null;
    zip: string | null;
  };
  delivery_points: {
    id: number;
    company_id: number;
    locality_id: number;
    type: number;
    country_code: string;
    /** The whole point as served (JSON). */
    data: Json;
    /** A real company's own code of an imported point; null for generated points. */
    code: string | null;
    /** An imported point gone from its company's directory: kept for the orders naming it, listed nowhere. */
    hidden: ColumnType<boolean | number, boolean | undefined, boolean>;
  };
  reference_versions: {
    name: string;
    version: string;
    loaded_at: Instant;
  };
}
