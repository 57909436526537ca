/** modules/accounts, the area definition (src/modules.ts lists it): Accounts, their employees and tokens; employee login. */
import { defineModule } from '../../platform/module.js';
import { accountCommand } from './commands.js';
import { invitedEmployees } from './migrations/0090_invited_employees.js';
import { accountLinks } from './migrations/0095_account_links.js';
import { apiKeys } from './migrations/0110_api_keys.js';
import { accessRoutes } from './access-routes.js';
import { apiKeyRoutes } from './api-key-routes.js';
import { ApiKeyCreated, ApiKeyView } from './api-key-schemas.js';
import { InvitationView, LinkView, SecondFactorSetupView, SessionEntry } from './access-schemas.js';
import { employeeRoutes } from './employee-routes.js';
import type { LinkMailer } from './link-mail.js';
import { accountRoutes, type AccountsRouteServices } from './routes.js';
import { EmployeeView, LoginResponse, SessionView } from './schemas.js';
import { securityRoutes } from './security-routes.js';
import type { AccountTables } from './tables.js';

export const accountsModule = defineModule<AccountsRouteServices & { linkMail: LinkMailer }, AccountTables>({
  area: 'accounts',
  purpose:
    'Accounts, their employees (owners and shop managers) and tokens; sign-in, one-time links (set-up, invitation, reset, sign-up), sessions and the second factor.',
  offers: ['accounts', 'employees', 'access', 'secondFactor', 'linkMail', 'apiKeys'],
  dependsOn: [],
  migrationHistory: ['0001_foundation', '0080_employee_roles'],
  migrations: [invitedEmployees, accountLinks, apiKeys],
  tags: [
    {
      name: 'Employees (extension)',
      description:
        "Extension: owners invite employees as owners or shop managers; a manager sees only the shops given to them, each request acting for one of them (the Shop-Id header, default the first), as that shop's API key would.",
    },
    {
      name: 'API keys (extension)',
      description:
        'Extension: keys an owner limits to scopes (read, orders, documents, catalogue, fulfilment, pickups, billing, settings), and optionally to shops, an expiry and an IP allow-list. The scope an operation needs is derived from it: a read needs `read` or its area, a change its area. Account tokens, shop keys and sessions keep their full meaning.',
    },
    {
      name: 'Authentication',
      description:
        'Employee login (extension; contract 5 leaves credentials open). Send the header `Authorization: Bearer YOUR_TOKEN` (the token from the first start, the CLI or POST /v2/auth/login).',
    },
  ],
  schemas: {
    LoginResult: LoginResponse,
    SessionView,
    Employee: EmployeeView,
    Invitation: InvitationView,
    LinkView,
    SessionEntry,
    SecondFactorSetup: SecondFactorSetupView,
    ApiKey: ApiKeyView,
    ApiKeyCreated,
  },
  routes: (app, services) => {
    accountRoutes(app, services);
    accessRoutes(app, services);
    securityRoutes(app, services);
    employeeRoutes(app, services);
    apiKeyRoutes(app, services);
  },
  jobs: (worker, services, log) => services.linkMail.registerJobs(worker, log),
  hourly: (services) => ({ 'expired link purge': () => services.access.purgeExpired() }),
  commands: { account: accountCommand },
});
