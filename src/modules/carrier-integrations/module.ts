/** modules/carrier-integrations, the area definition (src/modules.ts lists it): The accounts' own contracts with real delivery companies, their point imports and status webhooks. */
import { defineModule } from '../../platform/module.js';
import { carrierIntegrationRoutes, type CarrierIntegrationsRouteServices } from './routes.js';
import type { CarrierPointImport } from './points-import.js';
import { CarrierIntegration, ConnectionCheck } from './schemas.js';
import type { CarrierIntegrationTables } from './tables.js';

export const carrierIntegrationsModule = defineModule<
  CarrierIntegrationsRouteServices & { carrierPoints: CarrierPointImport },
  CarrierIntegrationTables
>({
  area: 'carrier-integrations',
  purpose: "The accounts' own contracts with real delivery companies, their point imports and status webhooks.",
  offers: ['carrierIntegrations', 'contractCompanies', 'carrierPoints', 'carrierWebhooks'],
  dependsOn: ['companies', 'orders'],
  migrationHistory: ['0016_carrier_accounts', '0021_carrier_retired_contracts'],
  tags: [
    {
      name: 'Delivery company contracts (extension)',
      description:
        'Extension: an account connects its own contract with a real delivery company (CDEK, Boxberry, Russian Post, Yandex Delivery); without one it ships with the simulated companies (the sandbox).',
    },
  ],
  schemas: { CarrierIntegration, ConnectionCheck },
  routes: carrierIntegrationRoutes,
  jobs: (worker, services) => {
    services.carrierPoints.registerJobs(worker);
    services.carrierWebhooks.registerJobs(worker);
  },
  schedules: async (services) => {
    await services.carrierPoints.scheduleRounds();
  },
});
