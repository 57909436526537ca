import type { Flag, Id, Instant, Json } from '../../platform/db/column-types.js';

export interface CarrierIntegrationTables {
  carrier_integrations: {
    id: Id;
    account_id: number;
    /** A real company of carriers/contracts.ts. */
    company_id: number;
    /** The contract's parameters as a JSON object, sealed with the instance secret (AES-256-GCM). */
    credentials: string;
    /** The same keys with masked values, what GET shows. */
    masked: Json;
    /** The company's test environment (where it has one). */
    test_mode: Flag;
    connected_at: Instant;
    updated_at: Instant;
  };
}
