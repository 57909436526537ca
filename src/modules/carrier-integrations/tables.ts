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
  /** A disconnected contract kept until the work after disconnecting has run (migration 0021). */
  carrier_retired_contracts: {
    id: Id;
    account_id: number;
    company_id: number;
    /** Sealed as in carrier_integrations; erased with the row once its work ran (or gave up). */
    credentials: string;
    test_mode: Flag;
    retired_at: Instant;
  };
}
