import type { Flag, Id, Instant, Json } from '../../platform/db/column-types.js';

export interface WarehouseTables {
  warehouses: {
    id: Id;
    account_id: number;
    name: string;
    search_name: string;
    type: number;
    pickup_type: number;
    fulfilment_warehouse_id: number | null;
    fulfilment_auto_reserve: Flag;
    sender_other_entity: Json;
    address: Json;
    contact: Json;
    holidays: Json;
    schedule: Json;
    mark_completed_orders: Flag;
    /** JSON array of {companyId, pointId} (migration 0022). */
    drop_off_points: Json;
    /** What the federal address register made of `address` (migration 0112); null: not checked. */
    address_register: Json | null;
    created_at: Instant;
    updated_at: Instant;
  };
  /** The service's own fulfilment warehouses: reference data, shared by all accounts. */
  fulfilment_warehouses: {
    id: number;
    name: string;
    address: Json;
    contact: Json;
    schedule: Json;
    holidays: Json;
    auto_reserve_available: Flag;
    integration_marketplace_ids: Json;
  };
}
