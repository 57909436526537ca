/** modules/fulfilment, the area definition (src/modules.ts lists it): Fulfilment stock, supplies to the fulfilment warehouses and their staff, the movement report (the documents area serves it, contract 4.5). */
import { defineModule } from '../../platform/module.js';
import { fulfilmentCommand } from './commands.js';
import { fulfilmentRoutes, type FulfilmentRouteServices } from './routes.js';
import { Supply } from './schemas.js';
import type { FulfilmentTables } from './tables.js';

export const fulfilmentModule = defineModule<FulfilmentRouteServices, FulfilmentTables>({
  area: 'fulfilment',
  purpose:
    'Fulfilment stock, supplies to the fulfilment warehouses and their staff, the movement report (the documents area serves it, contract 4.5).',
  offers: ['stock', 'supplies', 'movementReport'],
  dependsOn: ['warehouses', 'products', 'kits', 'shops', 'accounts', 'orders'],
  migrationHistory: ['0012_fulfilment', '0019_marketplace_followup'],
  tags: [
    {
      name: 'Fulfilment supplies',
      description:
        'Contract 4.11: supplies of goods to the fulfilment warehouses of the service, their acts and statuses.',
    },
    {
      name: 'Fulfilment warehouse staff (extension)',
      description:
        'Extension: the staff of a fulfilment warehouse mark supplies arrived and accepted, with the counted goods (operator tokens from the CLI).',
    },
  ],
  schemas: { Supply },
  routes: fulfilmentRoutes,
  jobs: (worker, services) => {
    services.supplies.registerJobs(worker);
  },
  commands: { fulfilment: fulfilmentCommand },
});
