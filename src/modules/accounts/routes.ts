import type { ApiKeyService } from './api-keys.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../platform/http.js';
import { bearerToken, type Scope, type TokenResolver } from '../../platform/auth.js';
import { errorResponses, NoContent } from '../../platform/schemas.js';
import { csrfTokenFor, endSession, startSession } from '../../platform/session.js';
import type { AccessService } from './access.js';
import type { AccountService, LoginMeta } from './service.js';
import type { EmployeeService } from './employees.js';
import type { SecondFactorService } from './second-factor.js';
import { LoginBody, LoginResponse, PasswordChange, SessionView } from './schemas.js';

/** The services these routes use, and no other. */
export interface AccountsRouteServices {
  accounts: AccountService;
  tokens: TokenResolver;
  employees: EmployeeService;
  access: AccessService;
  secondFactor: SecondFactorService;
  apiKeys: ApiKeyService;
}

/** What the sessions list shows of a sign-in: the browser and the address it came from. */
export function signInMeta(request: FastifyRequest, label: 'dashboard' | 'login', code?: string): LoginMeta {
  const userAgent = request.headers['user-agent'];
  return { label, code, userAgent: typeof userAgent === 'string' ? userAgent : null, address: request.ip };
}

/** Starts the dashboard session of a signed-in employee: the cookie, and the view the page adopts. */
export async function startSignedInSession(
  services: AccountsRouteServices,
  request: FastifyRequest,
  reply: FastifyReply,
  login: { token: string; expiresAt: string; recoveryCodes?: string[] | null },
) {
  const scope = await services.tokens.resolve(login.token);
  if (!scope) throw new Error('a login token that does not resolve');
  const csrfToken = startSession(request, reply, login.token, login.expiresAt);
  return {
    ...(await whoIs(services, scope)),
    expiresAt: login.expiresAt,
    csrfToken,
    recoveryCodes: login.recoveryCodes ?? null,
  };
}

/** Who the scope is: the session view's part that does not depend on how it authenticated. */
async function whoIs(services: AccountsRouteServices, scope: Scope) {
  return {
    kind: scope.kind,
    accountId: scope.accountId,
    accountName: await services.accounts.nameOf(scope.accountId),
    employeeId: scope.employeeId,
    timeZone: scope.timeZone,
    role: scope.role ?? null,
    managedShops: await services.employees.managedShops(scope),
  };
}

export function accountRoutes(app: App, services: AccountsRouteServices): void {
  const tags = ['Authentication'];
  app.post(
    '/v2/auth/login',
    {
      config: { public: true, credentials: true },
      schema: {
        operation: { id: 'logIn' },
        tags,
        summary: 'Log in as an employee',
        description:
          'Exchanges an employee e-mail and password for a bearer token. Wrong credentials give 401. An employee with a second factor sends its `code` too (without it: 401 second_factor_required).',
        security: [],
        body: LoginBody,
        response: { 200: LoginResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { token, expiresAt, recoveryCodes } = await services.accounts.login(
        request.body.email,
        request.body.password,
        signInMeta(request, 'login', request.body.code),
      );
      return { token, expiresAt, recoveryCodes };
    },
  );

  app.post(
    '/v2/auth/session',
    {
      config: { public: true, sameSiteOnly: true, credentials: true },
      schema: {
        operation: { id: 'startDashboardSession' },
        tags,
        summary: "Sign in to the dashboard: the login token in an HttpOnly cookie, and the session's CSRF token",
        description:
          'For the browser app at /app/: the token is set as an HttpOnly, SameSite=Strict cookie that page scripts cannot read; the answer carries the CSRF token to send as `X-CSRF-Token` on unsafe calls. Wrong credentials give 401.',
        security: [],
        body: LoginBody,
        response: { 200: SessionView, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const login = await services.accounts.login(
        request.body.email,
        request.body.password,
        signInMeta(request, 'dashboard', request.body.code),
      );
      return startSignedInSession(services, request, reply, login);
    },
  );

  app.get(
    '/v2/auth/session',
    {
      schema: {
        operation: { id: 'getSession' },
        tags,
        summary: 'Who is signed in (the session cookie or the Bearer token), with the CSRF token of a cookie session',
        response: { 200: SessionView, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const { scope } = request;
      reply.header('cache-control', 'no-store');
      return {
        ...(await whoIs(services, scope)),
        expiresAt: scope.expiresAtMs === undefined ? null : new Date(scope.expiresAtMs).toISOString(),
        csrfToken: request.sessionToken ? csrfTokenFor(reply, request.sessionToken) : null,
      };
    },
  );

  app.post(
    '/v2/auth/password',
    {
      config: { credentials: true },
      schema: {
        operation: { id: 'changePassword' },
        tags,
        summary: "Change the signed-in employee's password: every other sign-in of theirs ends",
        description:
          'For an employee signed in with a password (the dashboard cookie or a login token). The session or token making the change stays; every other one of the employee stops working in every process. A wrong current password is 403 invalid_credentials; account tokens and shop keys have no password (409 not_a_login).',
        body: PasswordChange,
        response: { 204: NoContent, ...errorResponses(403, 409) },
      },
    },
    async (request, reply) => {
      const token = request.sessionToken ?? bearerToken(request);
      await services.accounts.changePassword(
        request.scope,
        token,
        request.body.currentPassword,
        request.body.newPassword,
      );
      services.tokens.revoke(request.scope.accountId);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/auth/session',
    {
      config: { sameSiteOnly: true },
      schema: {
        operation: { id: 'endSession' },
        tags,
        summary:
          "Sign out: the employee's login token (cookie or Bearer) stops working in every process, and the cookie is cleared",
        description: 'Account tokens and shop keys are not ended this way (409 not_a_login).',
        response: { 204: NoContent, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const token = request.sessionToken ?? bearerToken(request);
      if (token) await services.accounts.revokeLoginToken(request.scope, token);
      services.tokens.revoke(request.scope.accountId);
      endSession(reply);
      return reply.code(204).send();
    },
  );
}
