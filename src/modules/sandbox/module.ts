/** modules/sandbox, the area definition (src/modules.ts lists it): What a test account would wait days for, run now. */
import { defineModule } from '../../platform/module.js';
import { sandboxCommand } from './commands.js';
import type { AccountService } from '../accounts/service.js';
import { sandboxRoutes, type SandboxRouteServices } from './routes.js';

export const sandboxModule = defineModule<SandboxRouteServices & { accounts: AccountService }>({
  area: 'sandbox',
  purpose: 'What a test account would wait days for, run now.',
  offers: ['sandbox'],
  dependsOn: ['reports', 'pickups', 'orders', 'carrier-integrations', 'delivery-promises', 'warehouses'],
  migrationHistory: [],
  tags: [
    {
      name: 'Sandbox (extension)',
      description:
        'Extension: for an account testing against the simulated companies, what would take days runs now: close the billing period, have a pickup collected, move an order one status. Refused for accounts with a live contract.',
    },
  ],
  routes: sandboxRoutes,
  commands: { sandbox: sandboxCommand },
});
