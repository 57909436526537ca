/** modules/warehouses, the area definition (src/modules.ts lists it): Sender warehouses and the service's fulfilment warehouses. */
import { defineModule } from '../../platform/module.js';
import { warehouseRoutes, type WarehousesRouteServices } from './routes.js';
import { Warehouse } from './schemas.js';
import type { WarehouseTables } from './tables.js';
import { warehouseRegister } from './migrations/0112_warehouse_register.js';

export const warehousesModule = defineModule<WarehousesRouteServices, WarehouseTables>({
  area: 'warehouses',
  purpose: "Sender warehouses and the service's fulfilment warehouses.",
  offers: ['warehouses'],
  dependsOn: ['companies', 'addresses'],
  migrationHistory: ['0001_foundation', '0022_warehouse_drop_off_points'],
  migrations: [warehouseRegister],
  tags: [{ name: 'Warehouses', description: 'Contract 4.3, and shipment methods from a place (4.1).' }],
  schemas: { Warehouse },
  routes: warehouseRoutes,
});
