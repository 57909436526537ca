import Type from 'typebox';

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254, description: 'E-mail of an employee', examples: ['owner@shop.example'] }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const LoginResponse = Type.Object({
  token: Type.String({ description: 'Bearer token; send it as the header `Authorization: Bearer TOKEN`' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the token stops working' }),
});

export const SessionView = Type.Object(
  {
    kind: Type.Union([Type.Literal('account'), Type.Literal('employee'), Type.Literal('shop')], { description: 'What the caller signed in with' }),
    accountId: Type.Integer(),
    accountName: Type.String(),
    employeeId: Type.Union([Type.Integer(), Type.Null()]),
    timeZone: Type.String({ description: "The account's time zone (IANA): dates are shown in it" }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the session (or token) stops working; null: never' }),
    csrfToken: Type.Union([Type.String(), Type.Null()], { description: 'With the session cookie: send it as the header `X-CSRF-Token` on every POST, PUT, PATCH and DELETE. Null for Bearer callers.' }),
  },
  { description: 'SessionView' },
);
