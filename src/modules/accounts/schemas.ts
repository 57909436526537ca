import Type, { type Static } from 'typebox';

export const LoginBody = Type.Object({
  email: Type.String({
    minLength: 1,
    maxLength: 254,
    description: 'E-mail of an employee',
    examples: ['owner@shop.example'],
  }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  code: Type.Optional(
    Type.String({
      maxLength: 32,
      description:
        "The authenticator app's 6-digit code, or a recovery code: for an employee with a second factor (without it: 401 second_factor_required)",
    }),
  ),
});

export const PasswordChange = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: 1024 }),
  newPassword: Type.String({
    minLength: 1,
    maxLength: 1024,
    description:
      'At least 10 characters, not one character repeated, not the e-mail, not a common password (422 password_too_weak)',
  }),
});

const RecoveryCodes = Type.Union([Type.Array(Type.String()), Type.Null()], {
  description:
    'Shown once: the recovery codes of a second factor this sign-in turned on (the owners require one); null otherwise',
});

export const LoginResponse = Type.Object({
  token: Type.String({ description: 'Bearer token; send it as the header `Authorization: Bearer TOKEN`' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the token stops working' }),
  recoveryCodes: Type.Optional(RecoveryCodes),
});

export const SessionView = Type.Object(
  {
    kind: Type.Union([Type.Literal('account'), Type.Literal('employee'), Type.Literal('shop')], {
      description: 'What the caller signed in with',
    }),
    accountId: Type.Integer(),
    accountName: Type.String(),
    employeeId: Type.Union([Type.Integer(), Type.Null()]),
    timeZone: Type.String({ description: "The account's time zone (IANA): dates are shown in it" }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the session (or token) stops working; null: never',
    }),
    csrfToken: Type.Union([Type.String(), Type.Null()], {
      description:
        'With the session cookie: send it as the header `X-CSRF-Token` on every POST, PUT, PATCH and DELETE. Null for Bearer callers.',
    }),
    role: Type.Optional(
      Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Null()], {
        description: "An employee's role; null for account tokens and shop keys",
      }),
    ),
    recoveryCodes: Type.Optional(RecoveryCodes),
    managedShops: Type.Optional(
      Type.Union([Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })), Type.Null()], {
        description:
          "A manager's shops (the first is the default; choose another with the Shop-Id header); null when not a manager",
      }),
    ),
  },
  { description: 'SessionView' },
);

const Role = Type.Union([Type.Literal('owner'), Type.Literal('manager')], {
  description:
    'owner: the whole account, its employees and tokens; manager: only the shops given (each request acts for one of them, chosen by the Shop-Id header, default the first)',
});
const ShopIds = Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), {
  maxItems: 1000,
  description: "A manager's shops, the first being the default; must be empty for an owner",
});

export const EmployeeView = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    role: Role,
    shopIds: ShopIds,
    secondFactor: Type.Boolean({ description: 'Whether they sign in with a second factor (an authenticator app)' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { description: 'Employee' },
);

export const EmployeeInvite = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.String({
    minLength: 1,
    maxLength: 254,
    description: 'Where the invitation goes: a link to choose a password, valid 7 days, used once',
  }),
  role: Role,
  shopIds: Type.Optional(ShopIds),
});

export const EmployeeChange = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  role: Role,
  shopIds: Type.Optional(ShopIds),
});

export type EmployeeView = Static<typeof EmployeeView>;
export type EmployeeInvite = Static<typeof EmployeeInvite>;
export type EmployeeChange = Static<typeof EmployeeChange>;
