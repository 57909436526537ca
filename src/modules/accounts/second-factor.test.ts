/**
 * The TOTP second factor through HTTP: set up by a signed-in employee (QR code, confirmed by a
 * code, recovery codes shown once); sign-in then needs the code, refuses a wrong or replayed one,
 * takes a recovery code once; owners may require it of everyone, and an employee without one sets
 * it up at sign-in. Codes are made with `otpauth` from the secret the setup answered.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { PASSWORD, sessionOf } from '../../../test/support/links.js';

let t: TestApp;
let ownerToken: string;
const EMAIL = 'careful@totp.example';
const COLLEAGUE = 'relaxed@totp.example';

beforeAll(async () => {
  // this file signs the same e-mail in many times and tries wrong codes on purpose (sessions-and-limits.test.ts tests the limits)
  t = await createTestApp({ env: { LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '0', LOGIN_RATE_LIMIT_PER_MINUTE: '0' } });
  const account = await t.newAccount('Осторожный');
  ownerToken = account.token;
  await t.runtime.services.accounts.addEmployee(account.accountId, {
    name: 'Осторожный',
    email: EMAIL,
    password: PASSWORD,
  });
  await t.runtime.services.accounts.addEmployee(account.accountId, {
    name: 'Беспечный',
    email: COLLEAGUE,
    password: PASSWORD,
  });
});
afterAll(async () => t?.close());

const codeOf = (secret: string, offsetSteps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offsetSteps * 30_000 });

const signIn = (email: string, code?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/auth/session',
    payload: { email, password: PASSWORD, ...(code ? { code } : {}) },
  });

describe('a second factor an employee sets up', () => {
  let secret: string;
  let recoveryCodes: string[];

  it('is set up with a QR code and turned on by a code of it; recovery codes are shown once', async () => {
    const session = sessionOf(await signIn(EMAIL));
    const headers = { cookie: session.cookie, 'x-csrf-token': session.csrfToken };
    const begun = await t.app.inject({ method: 'POST', url: '/v2/auth/second-factor', headers });
    expect(begun.statusCode, begun.body).toBe(200);
    ({ secret } = begun.json());
    expect(begun.json()).toMatchObject({
      uri: expect.stringMatching(/^otpauth:\/\/totp\/.*secret=/),
      qrCode: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
    });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/second-factor/confirm',
      headers,
      payload: { code: '000000' === codeOf(secret) ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/second-factor/confirm',
      headers,
      payload: { code: codeOf(secret) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    recoveryCodes = confirmed.json().recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    const status = await t.app.inject({ method: 'GET', url: '/v2/auth/second-factor', headers });
    expect(status.json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    const listed = await t.client(ownerToken).get('/v2/employees');
    expect(listed.body.find((employee: { email: string }) => employee.email === EMAIL).secondFactor).toBe(true);
  });

  it('makes sign-in need the code; refuses a wrong one and the same one twice', async () => {
    const without = await signIn(EMAIL);
    expect(without.statusCode).toBe(401);
    expect(without.json().code).toBe('second_factor_required');
    expect(without.headers['set-cookie']).toBeUndefined();
    const wrong = await signIn(EMAIL, '123456' === codeOf(secret, 1) ? '654321' : '123456');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('second_factor_invalid');
    // the code of the next step (a clock a little ahead): accepted once; the current one is older, so refused after it
    const next = codeOf(secret, 1);
    expect((await signIn(EMAIL, next)).statusCode).toBe(200);
    expect((await signIn(EMAIL, next)).json().code).toBe('second_factor_invalid');
    expect((await signIn(EMAIL, codeOf(secret))).json().code).toBe('second_factor_invalid');
    // the API login too
    expect((await t.client().post('/v2/auth/login', { email: EMAIL, password: PASSWORD })).status).toBe(401);
  });

  it('takes a recovery code once', async () => {
    const [first] = recoveryCodes;
    expect((await signIn(EMAIL, first.toUpperCase())).statusCode).toBe(200);
    const again = await signIn(EMAIL, first);
    expect(again.json().code).toBe('second_factor_invalid');
    const session = sessionOf(await signIn(EMAIL, recoveryCodes[1]));
    const status = await t.app.inject({
      method: 'GET',
      url: '/v2/auth/second-factor',
      headers: { cookie: session.cookie },
    });
    expect(status.json().recoveryCodesLeft).toBe(8);
  });

  it('is turned off with the password (a wrong one is 403)', async () => {
    const session = sessionOf(await signIn(EMAIL, recoveryCodes[2]));
    const headers = { cookie: session.cookie, 'x-csrf-token': session.csrfToken };
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/second-factor/disable',
      headers,
      payload: { password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(403);
    const off = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/second-factor/disable',
      headers,
      payload: { password: PASSWORD },
    });
    expect(off.statusCode).toBe(204);
    expect((await signIn(EMAIL)).statusCode).toBe(200);
  });
});

describe('a second factor the owners require', () => {
  it('asks an employee without one to set it up at sign-in, then needs it; it cannot be turned off', async () => {
    const policy = await t.client(ownerToken).put('/v2/employees/security', { secondFactorRequired: true });
    expect(policy.body).toEqual({ secondFactorRequired: true });
    const refused = await signIn(COLLEAGUE);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('second_factor_setup_required');

    const wrongPassword = await t.client().post('/v2/auth/second-factor/sign-in-setup', {
      email: COLLEAGUE,
      password: 'not the password',
    });
    expect(wrongPassword.status).toBe(401);
    const setup = await t
      .client()
      .post('/v2/auth/second-factor/sign-in-setup', { email: COLLEAGUE, password: PASSWORD });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const signedIn = await signIn(COLLEAGUE, codeOf(setup.body.secret));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().recoveryCodes).toHaveLength(10);
    expect((await signIn(COLLEAGUE)).json().code).toBe('second_factor_required');
    const again = await t
      .client()
      .post('/v2/auth/second-factor/sign-in-setup', { email: COLLEAGUE, password: PASSWORD });
    expect(again.status).toBe(409);

    const session = sessionOf(await signIn(COLLEAGUE, signedIn.json().recoveryCodes[0]));
    const off = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/second-factor/disable',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
      payload: { password: PASSWORD },
    });
    expect(off.statusCode).toBe(409);
    expect(off.json().code).toBe('second_factor_enforced');
    await t.client(ownerToken).put('/v2/employees/security', { secondFactorRequired: false });
  });
});
