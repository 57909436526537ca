/** modules/pickups, the area definition (src/modules.ts lists it): Couriers booked to collect a warehouse's orders (contract 4.10). */
import { defineModule } from '../../platform/module.js';
import { pickupRoutes, type PickupsRouteServices } from './routes.js';
import type { PickupTables } from './tables.js';

export const pickupsModule = defineModule<PickupsRouteServices, PickupTables>({
  area: 'pickups',
  purpose: "Couriers booked to collect a warehouse's orders (contract 4.10).",
  offers: ['pickups'],
  dependsOn: ['warehouses', 'shops', 'companies', 'orders', 'accounts'],
  migrationHistory: ['0013_pickups'],
  tags: [
    {
      name: 'Pickups',
      description:
        "Contract 4.10: couriers booked to collect a warehouse's prepared orders (consolidated pickup or direct shipment), their status and handover act.",
    },
  ],
  routes: pickupRoutes,
  jobs: (worker, services) => {
    services.pickups.registerJobs(worker);
  },
});
