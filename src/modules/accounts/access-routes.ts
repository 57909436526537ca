/**
 * The one-time links' routes (extension): public (the link, or the password, is the credential),
 * refused from another site's page (`sameSiteOnly`: a link that signs in must not be usable to sign
 * a victim's browser in as someone else), limited per address and link (`credentials`), and those
 * that e-mail a link limited per e-mail an hour (`sendsMail`). A link that signs in starts the
 * dashboard's cookie session, as a sign-in does.
 */
import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/schemas.js';
import {
  Accepted,
  InvitationAcceptBody,
  LinkCheckBody,
  LinkView,
  ResetBody,
  ResetRequestBody,
  SecondFactorSetupView,
  SetupBody,
  SignInSetupBody,
  SignUpBody,
  SignUpConfirmBody,
} from './access-schemas.js';
import type { SignedUp } from './access.js';
import { type AccountsRouteServices, signInMeta, startSignedInSession } from './routes.js';
import { SessionView } from './schemas.js';

const tags = ['Authentication'];
const PUBLIC_LINK = { public: true, sameSiteOnly: true, credentials: true } as const;
const ACCEPTED_MESSAGE = 'If this e-mail can be sent a link, it is on its way; it works once and expires.';

export function accessRoutes(app: App, services: AccountsRouteServices): void {
  const signIn = async (
    request: Parameters<typeof signInMeta>[0],
    reply: Parameters<typeof startSignedInSession>[2],
    signedUp: SignedUp,
  ) =>
    startSignedInSession(
      services,
      request,
      reply,
      await services.accounts.issueLoginToken(
        signedUp.accountId,
        signedUp.employeeId,
        signInMeta(request, 'dashboard'),
      ),
    );

  app.post(
    '/v2/auth/links/check',
    {
      config: PUBLIC_LINK,
      schema: {
        operation: { id: 'checkLink' },
        tags,
        summary: 'What a one-time link is for, before it is used (the page of the link asks)',
        description:
          'Uses nothing. A link that is unknown, used, expired or of another purpose is 404 link_invalid, whichever it is.',
        security: [],
        body: LinkCheckBody,
        response: { 200: LinkView, ...errorResponses(404) },
      },
    },
    async (request) => services.access.checkLink(request.body.token, request.body.purpose),
  );

  app.post(
    '/v2/auth/setup',
    {
      config: PUBLIC_LINK,
      schema: {
        operation: { id: 'completeSetup' },
        tags,
        summary: "Set up an account's first owner by its set-up link, and sign in",
        description:
          'The link comes from the first start (printed beside the API token) or `npm run cli -- account setup-link --id N`: valid 7 days, used once. The owner chooses their e-mail and password; the answer starts a dashboard session.',
        security: [],
        body: SetupBody,
        response: { 200: SessionView, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) =>
      signIn(request, reply, await services.access.completeSetup(request.body.token, request.body)),
  );

  app.post(
    '/v2/auth/invitation',
    {
      config: PUBLIC_LINK,
      schema: {
        operation: { id: 'acceptInvitation' },
        tags,
        summary: 'Accept an invitation: choose a password and sign in with the role and shops given',
        description:
          'The link comes by e-mail (POST /v2/employees): valid 7 days, used once. An e-mail that already signs in to an account is 409 email_taken (one e-mail signs in to one account).',
        security: [],
        body: InvitationAcceptBody,
        response: { 200: SessionView, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) =>
      signIn(request, reply, await services.access.acceptInvitation(request.body.token, request.body)),
  );

  app.post(
    '/v2/auth/password-reset',
    {
      config: { ...PUBLIC_LINK, sendsMail: true },
      schema: {
        operation: { id: 'requestPasswordReset' },
        tags,
        summary: 'E-mail a password reset link',
        description:
          'Always 202 with the same body, whether or not an employee signs in with the e-mail (nothing is sent then). The link works once, for an hour.',
        security: [],
        body: ResetRequestBody,
        response: { 202: Accepted, ...errorResponses() },
      },
    },
    async (request, reply) => {
      await services.access.requestReset(request.body.email);
      return reply.code(202).send({ message: ACCEPTED_MESSAGE });
    },
  );

  app.post(
    '/v2/auth/password-reset/confirm',
    {
      config: PUBLIC_LINK,
      schema: {
        operation: { id: 'resetPassword' },
        tags,
        summary: 'Choose a new password by a reset link: every other session and token of the employee ends',
        description:
          'Signs in (a dashboard session). An employee with a second factor sends its `code` too (401 second_factor_required without it; the link is not used until it comes).',
        security: [],
        body: ResetBody,
        response: { 200: SessionView, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { token, password, code } = request.body;
      const signedUp = await services.access.completeReset(token, password, code || undefined);
      services.tokens.revoke(signedUp.accountId);
      return signIn(request, reply, signedUp);
    },
  );

  app.post(
    '/v2/auth/signup',
    {
      config: { ...PUBLIC_LINK, sendsMail: true },
      schema: {
        operation: { id: 'signUp' },
        tags,
        summary: 'Sign up: a new account, made once the e-mail is confirmed by the link sent to it',
        description:
          'With SIGNUP=open only (SIGNUP=off: 404 signup_closed; SIGNUP=invite: 403 signup_invite_only). Always 202 with the same body for a valid request, whether or not the e-mail already signs in (it is then told so by e-mail). The new account ships with the sandbox companies, as every new account.',
        security: [],
        body: SignUpBody,
        response: { 202: Accepted, ...errorResponses(403, 404, 422) },
      },
    },
    async (request, reply) => {
      await services.access.signUp(request.body);
      return reply.code(202).send({ message: ACCEPTED_MESSAGE });
    },
  );

  app.post(
    '/v2/auth/signup/confirm',
    {
      config: PUBLIC_LINK,
      schema: {
        operation: { id: 'confirmSignUp' },
        tags,
        summary: 'Confirm a sign-up by its link: the account and its owner are made, and signed in',
        description:
          "A link of the operator's sign-up invitation (SIGNUP=invite) carries no password: send one. SIGNUP=off: 404 signup_closed.",
        security: [],
        body: SignUpConfirmBody,
        response: { 200: SessionView, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) =>
      signIn(request, reply, await services.access.confirmSignUp(request.body.token, request.body.password)),
  );

  app.post(
    '/v2/auth/second-factor/sign-in-setup',
    {
      config: { public: true, sameSiteOnly: true, credentials: true },
      schema: {
        operation: { id: 'setUpSecondFactorAtSignIn' },
        tags,
        summary: 'Set up the second factor the owners require, at sign-in (e-mail and password)',
        description:
          'For an employee whose sign-in answered 401 second_factor_setup_required: answers a new secret and its QR code; the sign-in then sends a code of it, which turns it on and answers the recovery codes once.',
        security: [],
        body: SignInSetupBody,
        response: { 200: SecondFactorSetupView, ...errorResponses(409) },
      },
    },
    async (request) => {
      const employee = await services.accounts.verifyPassword(request.body.email, request.body.password);
      return services.secondFactor.beginRequired(employee.accountId, employee.id, request.body.email.trim());
    },
  );
}
