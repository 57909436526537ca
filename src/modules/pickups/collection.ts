/**
 * Whether an order leaves its warehouse with a pickup (a courier booked to collect it), which
 * the pickups area knows from the warehouse: such an order waits at 13 until a pickup collects
 * it. Given to tracking at its construction (services.ts), so tracking and pickups need not
 * know each other's services.
 */
import { processScope } from '../../platform/auth.js';
import type { PickupCollection } from '../orders/tracking.js';
import { WAREHOUSE_TYPE, type Warehouse } from '../warehouses/schemas.js';
import type { WarehouseService } from '../warehouses/service.js';

export function pickupCollection(warehouses: Pick<WarehouseService, 'get'>): PickupCollection {
  return async (accountId, doc) => {
    if (doc.warehouseId === null || !doc.pickup.date) return false;
    let warehouse: Warehouse;
    try {
      warehouse = await warehouses.get(processScope(accountId), doc.warehouseId);
    } catch {
      return false;
    }
    const type = doc.pickup.type ?? warehouse.pickupType;
    return warehouse.type === WAREHOUSE_TYPE.own && (type === 3 || type === 4);
  };
}
