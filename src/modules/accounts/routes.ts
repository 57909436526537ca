import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/schemas.js';
import type { AccountService } from './service.js';
import { LoginBody, LoginResponse } from './schemas.js';


/** The services these routes use, and no other. */
export interface AccountsRouteServices {
  accounts: AccountService;
}
export function accountRoutes(app: App, services: AccountsRouteServices): void {
  app.post(
    '/v2/auth/login',
    {
      config: { public: true },
      schema: { operation: { id: 'logIn' },
        tags: ['Authentication'],
        summary: 'Log in as an employee',
        description: 'Exchanges an employee e-mail and password for a bearer token. Wrong credentials give 401.',
        security: [],
        body: LoginBody,
        response: { 200: LoginResponse, ...errorResponses() },
      },
    },
    async (request) => services.accounts.login(request.body.email, request.body.password),
  );
}
