/** modules/accounts, the area definition (src/modules.ts lists it): Accounts, their employees and tokens; employee login. */
import { defineModule } from '../../platform/module.js';
import { accountCommand } from './commands.js';
import { accountRoutes, type AccountsRouteServices } from './routes.js';
import { LoginResponse, SessionView } from './schemas.js';
import type { AccountTables } from './tables.js';

export const accountsModule = defineModule<AccountsRouteServices, AccountTables>({
  area: 'accounts',
  purpose: 'Accounts, their employees and tokens; employee login.',
  offers: ['accounts'],
  dependsOn: [],
  migrationHistory: ['0001_foundation'],
  tags: [
    { name: 'Authentication', description: 'Employee login (extension; contract 5 leaves credentials open). Send the header `Authorization: Bearer YOUR_TOKEN` (the token from the first start, the CLI or POST /v2/auth/login).' },
  ],
  schemas: { LoginResult: LoginResponse, SessionView },
  routes: accountRoutes,
  commands: { account: accountCommand },
});
