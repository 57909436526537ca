/** modules/fulfilment, the area definition (src/modules.ts lists it): Fulfilment stock, supplies to the fulfilment warehouses and their staff, the movement report (the documents area serves it, contract 4.5). */
import { defineModule } from '../../platform/module.js';
import { fulfilmentCommand } from './commands.js';
import { fulfilmentRoutes, type FulfilmentRouteServices } from './routes.js';
import { ReturnInspection, Supply } from './schemas.js';
import { returnInspections } from './migrations/0107_return_inspections.js';
import { defectStock } from './migrations/0108_defect_stock.js';
import type { FulfilmentTables } from './tables.js';

export const fulfilmentModule = defineModule<FulfilmentRouteServices, FulfilmentTables>({
  area: 'fulfilment',
  purpose:
    'Fulfilment stock, supplies to the fulfilment warehouses and their staff, the movement report (the documents area serves it, contract 4.5).',
  offers: ['stock', 'supplies', 'movementReport', 'returnInspections'],
  dependsOn: ['warehouses', 'products', 'kits', 'shops', 'accounts', 'orders'],
  migrationHistory: ['0012_fulfilment', '0019_marketplace_followup'],
  migrations: [returnInspections, defectStock],
  tags: [
    {
      name: 'Fulfilment supplies',
      description:
        'Contract 4.11: supplies of goods to the fulfilment warehouses of the service, their acts and statuses.',
    },
    {
      name: 'Fulfilment returns inspection (extension)',
      description:
        'Extension: returned parcels at a fulfilment warehouse wait for the staff, who put each line back in stock, in the defect stock, or write it off, with a reason; recorded once however often a scan or a submit repeats.',
    },
    {
      name: 'Fulfilment warehouse staff (extension)',
      description:
        'Extension: the staff of a fulfilment warehouse mark supplies arrived and accepted, with the counted goods (operator tokens from the CLI).',
    },
  ],
  schemas: { Supply, ReturnInspection },
  routes: fulfilmentRoutes,
  jobs: (worker, services) => {
    services.supplies.registerJobs(worker);
  },
  commands: { fulfilment: fulfilmentCommand },
});
