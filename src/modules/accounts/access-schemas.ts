/** TypeBox models of the one-time links, sessions and second factor (extensions under /v2/auth and /v2/employees). */
import Type, { type Static } from 'typebox';

const LinkToken = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The token of the link: what follows '#' in the address it opens",
});
const NewPassword = Type.String({
  minLength: 1,
  maxLength: 1024,
  description:
    'At least 10 characters, not one character repeated, not the e-mail, not a common password (422 password_too_weak)',
});
const Email = Type.String({ minLength: 1, maxLength: 254, examples: ['owner@shop.example'] });
const Code = Type.String({
  maxLength: 32,
  description: "The authenticator app's 6-digit code, or one of the recovery codes",
});
const Purpose = Type.Union(
  [Type.Literal('setup'), Type.Literal('invitation'), Type.Literal('reset'), Type.Literal('signup')],
  { description: 'What the link is for: a token of another purpose is refused as unknown' },
);

export const LinkCheckBody = Type.Object({ purpose: Purpose, token: LinkToken });

export const LinkView = Type.Object(
  {
    purpose: Purpose,
    email: Type.Union([Type.String(), Type.Null()], { description: 'The address the link was sent to' }),
    accountName: Type.Union([Type.String(), Type.Null()]),
    expiresAt: Type.String({ format: 'date-time' }),
    needsPassword: Type.Boolean({
      description: 'The page asks for a password (a sign-up confirmed with its own has none to ask)',
    }),
  },
  { description: 'LinkView' },
);

export const SetupBody = Type.Object({
  token: LinkToken,
  email: Email,
  password: NewPassword,
  name: Type.Optional(Type.String({ maxLength: 200 })),
});

export const InvitationAcceptBody = Type.Object({
  token: LinkToken,
  password: NewPassword,
  name: Type.Optional(Type.String({ maxLength: 200 })),
});

export const ResetRequestBody = Type.Object({ email: Email });

export const ResetBody = Type.Object({ token: LinkToken, password: NewPassword, code: Type.Optional(Code) });

export const SignUpBody = Type.Object({
  email: Email,
  password: NewPassword,
  accountName: Type.String({ minLength: 1, maxLength: 200, description: 'The shop or company the account is for' }),
});

export const SignUpConfirmBody = Type.Object({
  token: LinkToken,
  password: Type.Optional(NewPassword),
});

export const Accepted = Type.Object(
  {
    message: Type.String({
      description: 'The same for every e-mail, known or not: a link is on its way when there is one to send',
    }),
  },
  { description: 'Accepted' },
);

export const SignInSetupBody = Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 1024 }) });

export const SecondFactorSetupView = Type.Object(
  {
    secret: Type.String({ description: 'The secret in base32, to type into an app that cannot read the QR code' }),
    uri: Type.String({ description: 'The otpauth:// URI the QR code holds' }),
    qrCode: Type.String({ description: 'The QR code, an SVG data URI' }),
  },
  { description: 'SecondFactorSetup' },
);

export const SecondFactorConfirmBody = Type.Object({ code: Code });

export const RecoveryCodesView = Type.Object(
  { recoveryCodes: Type.Array(Type.String(), { description: 'Shown once: each signs in once instead of a code' }) },
  { description: 'RecoveryCodes' },
);

export const SecondFactorStatus = Type.Object(
  {
    enabled: Type.Boolean(),
    required: Type.Boolean({ description: "The account's owners require a second factor of every employee" }),
    recoveryCodesLeft: Type.Integer(),
  },
  { description: 'SecondFactorStatus' },
);

export const PasswordBody = Type.Object({ password: Type.String({ minLength: 1, maxLength: 1024 }) });

export const SessionEntry = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union([Type.Literal('dashboard'), Type.Literal('api')], {
      description: 'dashboard: a browser session (cookie); api: a token of POST /v2/auth/login',
    }),
    current: Type.Boolean({ description: 'The session (or token) of this request' }),
    createdAt: Type.String({ format: 'date-time' }),
    lastSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When last used, to within about five minutes',
    }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    userAgent: Type.Union([Type.String(), Type.Null()], { description: 'The browser or client that signed in' }),
    address: Type.Union([Type.String(), Type.Null()], { description: 'The IP address it signed in from' }),
  },
  { description: 'SessionEntry' },
);

export const InvitationView = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    name: Type.String(),
    role: Type.Union([Type.Literal('owner'), Type.Literal('manager')], {
      description: 'The role the invitee signs in with: owner (the whole account) or manager (the shops given)',
    }),
    shopIds: Type.Array(Type.Integer()),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time' }),
    expired: Type.Boolean({ description: 'The link has expired: re-send it' }),
  },
  { description: 'Invitation' },
);

export const SecurityPolicy = Type.Object(
  {
    secondFactorRequired: Type.Boolean({
      description: 'Every employee signs in with a second factor; those without one set it up at their next sign-in',
    }),
  },
  { description: 'SecurityPolicy' },
);

export type LinkView = Static<typeof LinkView>;
