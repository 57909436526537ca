/**
 * A signed-in employee's own security (extension): their sessions, ended one by one or all but
 * this one; their second factor. And the owners' side: pending invitations (re-send, withdraw) and
 * whether every employee must sign in with a second factor. Every ending of a session goes through
 * TokenResolver.revoke, so no process keeps serving it.
 */
import Type from 'typebox';
import { bearerToken, requireOwner } from '../../platform/auth.js';
import { hashToken } from '../../platform/crypto.js';
import { fieldError, notFound } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import {
  InvitationView,
  PasswordBody,
  RecoveryCodesView,
  SecondFactorConfirmBody,
  SecondFactorSetupView,
  SecondFactorStatus,
  SecurityPolicy,
  SessionEntry,
} from './access-schemas.js';
import type { AccountsRouteServices } from './routes.js';
import { requireEmployee } from './second-factor.js';

const tags = ['Authentication'];
const employeeTags = ['Employees (extension)'];
const OWNERS_ONLY = 'Only the account token and owners (403 for managers and shop keys).';

export function securityRoutes(app: App, services: AccountsRouteServices): void {
  const currentTokenHash = (request: Parameters<typeof bearerToken>[0]) => {
    const token = request.sessionToken ?? bearerToken(request);
    return token ? hashToken(token) : null;
  };

  app.get(
    '/v2/auth/sessions',
    {
      schema: {
        operation: { id: 'listSessions' },
        tags,
        summary: "The signed-in employee's sessions and login tokens, newest first",
        description: 'Account tokens and shop keys have none (409 not_a_login).',
        response: { 200: Type.Array(SessionEntry), ...errorResponses(409) },
      },
    },
    async (request) => {
      const employeeId = requireEmployee(request.scope);
      const current = currentTokenHash(request);
      return (await services.access.sessions(request.scope.accountId, employeeId)).map((session) => ({
        id: session.id,
        kind: session.label === 'dashboard' ? ('dashboard' as const) : ('api' as const),
        current: session.tokenHash === current,
        createdAt: session.createdAt,
        lastSeenAt: session.lastSeenAt,
        expiresAt: session.expiresAt,
        userAgent: session.userAgent,
        address: session.address,
      }));
    },
  );

  app.delete(
    '/v2/auth/sessions/:id',
    {
      schema: {
        operation: { id: 'endOneSession' },
        tags,
        summary: 'End one of your sessions: its cookie or token stops working at once, in every process',
        description: 'Only your own sessions (another one is 404).',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { scope } = request;
      const employeeId = scope.kind === 'employee' ? scope.employeeId : null;
      if (
        employeeId === null ||
        !(await services.access.endSessions(scope.accountId, employeeId, { id: request.params.id }))
      )
        throw notFound('Session', request.params.id);
      services.tokens.revoke(scope.accountId);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/auth/sessions',
    {
      schema: {
        operation: { id: 'endOtherSessions' },
        tags,
        summary: 'End every session of yours but this one',
        response: { 204: NoContent, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const employeeId = requireEmployee(request.scope);
      await services.access.endSessions(request.scope.accountId, employeeId, { allBut: currentTokenHash(request) });
      services.tokens.revoke(request.scope.accountId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v2/auth/second-factor',
    {
      schema: {
        operation: { id: 'getSecondFactor' },
        tags,
        summary: 'Whether you sign in with a second factor, whether the owners require one, recovery codes left',
        response: { 200: SecondFactorStatus, ...errorResponses(409) },
      },
    },
    async (request) => services.secondFactor.status(request.scope),
  );

  app.post(
    '/v2/auth/second-factor',
    {
      schema: {
        operation: { id: 'beginSecondFactor' },
        tags,
        summary: 'Start setting up a second factor: a new secret and its QR code for an authenticator app',
        description:
          'Nothing changes until a code of it is confirmed (POST /v2/auth/second-factor/confirm); a second start replaces the first.',
        response: { 200: SecondFactorSetupView, ...errorResponses(409) },
      },
    },
    async (request) => {
      const employeeId = requireEmployee(request.scope);
      const email = (await services.access.emailOf(request.scope.accountId, employeeId)) ?? '';
      return services.secondFactor.begin(request.scope.accountId, employeeId, email);
    },
  );

  app.post(
    '/v2/auth/second-factor/confirm',
    {
      config: { credentials: true },
      schema: {
        operation: { id: 'confirmSecondFactor' },
        tags,
        summary: 'Turn the second factor on with a code of the app; answers the recovery codes once',
        description: 'A wrong code is 400 naming `code`. Recovery codes made before end.',
        body: SecondFactorConfirmBody,
        response: { 200: RecoveryCodesView, ...errorResponses(409) },
      },
    },
    async (request) => {
      const employeeId = requireEmployee(request.scope);
      const record = await services.secondFactor.record(request.scope.accountId, employeeId);
      const recoveryCodes = await services.secondFactor.confirm(record, request.body.code);
      if (!recoveryCodes) throw fieldError('code', 'is not a code of the authenticator app');
      return { recoveryCodes };
    },
  );

  app.post(
    '/v2/auth/second-factor/disable',
    {
      config: { credentials: true },
      schema: {
        operation: { id: 'disableSecondFactor' },
        tags,
        summary: 'Turn the second factor off (your password is asked)',
        description:
          'A wrong password is 403 invalid_credentials; when the owners require a second factor, 409 second_factor_enforced.',
        body: PasswordBody,
        response: { 204: NoContent, ...errorResponses(403, 409) },
      },
    },
    async (request, reply) => {
      await services.accounts.confirmOwnPassword(request.scope, request.body.password);
      await services.secondFactor.disable(request.scope);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v2/employees/invitations',
    {
      schema: {
        operation: { id: 'listInvitations' },
        tags: employeeTags,
        summary: 'Invitations not accepted yet (expired ones too, to re-send), newest first',
        description: OWNERS_ONLY,
        response: { 200: Type.Array(InvitationView), ...errorResponses(403) },
      },
    },
    async (request) => services.access.invitations(request.scope),
  );

  app.post(
    '/v2/employees/invitations/:id/resend',
    {
      schema: {
        operation: { id: 'resendInvitation' },
        tags: employeeTags,
        summary: 'Send an invitation again: a new link, valid 7 days; the one sent before stops working',
        description: OWNERS_ONLY,
        params: IdParams,
        response: { 200: InvitationView, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.access.resendInvitation(request.scope, request.params.id),
  );

  app.delete(
    '/v2/employees/invitations/:id',
    {
      schema: {
        operation: { id: 'withdrawInvitation' },
        tags: employeeTags,
        summary: 'Withdraw an invitation: its link stops working',
        description: OWNERS_ONLY,
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.access.withdrawInvitation(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v2/employees/security',
    {
      schema: {
        operation: { id: 'getSecurityPolicy' },
        tags: employeeTags,
        summary: "The account's sign-in policy: whether every employee needs a second factor",
        description: OWNERS_ONLY,
        response: { 200: SecurityPolicy, ...errorResponses(403) },
      },
    },
    async (request) => {
      requireOwner(request.scope, 'see the sign-in policy');
      return { secondFactorRequired: await services.access.secondFactorRequired(request.scope.accountId) };
    },
  );

  app.put(
    '/v2/employees/security',
    {
      schema: {
        operation: { id: 'setSecurityPolicy' },
        tags: employeeTags,
        summary: 'Require (or not) a second factor of every employee',
        description: `${OWNERS_ONLY} Employees without one are asked to set it up at their next sign-in; sessions already started go on.`,
        body: SecurityPolicy,
        response: { 200: SecurityPolicy, ...errorResponses(403) },
      },
    },
    async (request) => {
      requireOwner(request.scope, 'change the sign-in policy');
      await services.access.setSecondFactorRequired(request.scope.accountId, request.body.secondFactorRequired);
      return { secondFactorRequired: request.body.secondFactorRequired };
    },
  );
}
