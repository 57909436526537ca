/**
 * An employee's sessions through HTTP: listed with when they began and were last seen, the
 * browser and the address; ending one makes its cookie useless at once, ending the others keeps
 * this one. And the limits on the credential routes: 429 in the house body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { PASSWORD, sessionOf } from '../../../test/support/links.js';

const EMAIL = 'many@sessions.example';

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const { accountId } = await t.newAccount('Сеансы');
    await t.runtime.services.accounts.addEmployee(accountId, { name: 'Много', email: EMAIL, password: PASSWORD });
  });
  afterAll(async () => t?.close());

  const signIn = async (userAgent: string) =>
    sessionOf(
      await t.app.inject({
        method: 'POST',
        url: '/v2/auth/session',
        payload: { email: EMAIL, password: PASSWORD },
        headers: { 'user-agent': userAgent },
      }),
    );

  it('lists them; ending one makes its cookie useless; ending the others keeps this one', async () => {
    const laptop = await signIn('Laptop browser');
    const phone = await signIn('Phone browser');
    const tablet = await signIn('Tablet browser');
    const listed = await t.app.inject({ method: 'GET', url: '/v2/auth/sessions', headers: { cookie: laptop.cookie } });
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json() as Array<{ id: number; userAgent: string; current: boolean; kind: string }>;
    expect(sessions.map((session) => [session.userAgent, session.current])).toEqual([
      ['Tablet browser', false],
      ['Phone browser', false],
      ['Laptop browser', true],
    ]);
    expect(sessions[0]).toMatchObject({
      kind: 'dashboard',
      address: '127.0.0.1',
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });

    const phoneId = sessions[1].id;
    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/v2/auth/sessions/${phoneId}`,
      headers: { cookie: laptop.cookie, 'x-csrf-token': laptop.csrfToken },
    });
    expect(ended.statusCode).toBe(204);
    const useless = await t.app.inject({ method: 'GET', url: '/v2/orders?list=0', headers: { cookie: phone.cookie } });
    expect(useless.statusCode).toBe(401);
    expect(useless.json().code).toBe('session_expired');
    // without the CSRF token nothing ends
    const forged = await t.app.inject({
      method: 'DELETE',
      url: '/v2/auth/sessions',
      headers: { cookie: laptop.cookie },
    });
    expect(forged.statusCode).toBe(403);
    const others = await t.app.inject({
      method: 'DELETE',
      url: '/v2/auth/sessions',
      headers: { cookie: laptop.cookie, 'x-csrf-token': laptop.csrfToken },
    });
    expect(others.statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v2/auth/session', headers: { cookie: tablet.cookie } })).statusCode,
    ).toBe(401);
    const left = await t.app.inject({ method: 'GET', url: '/v2/auth/sessions', headers: { cookie: laptop.cookie } });
    expect(left.json()).toHaveLength(1);
    // another employee's session id is not found
    const stranger = await t.newAccount('Чужие сеансы');
    expect((await stranger.client.delete(`/v2/auth/sessions/${left.json()[0].id}`)).status).toBe(404);
    expect((await stranger.client.get('/v2/auth/sessions')).status).toBe(409);
  });
});

describe('limits on the credential routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SIGNUP: 'open',
        LOGIN_RATE_LIMIT_PER_MINUTE: '3',
        LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '4',
        LINK_MAILS_PER_ADDRESS_PER_HOUR: '2',
      },
    });
  });
  afterAll(async () => t?.close());

  const expectLimited = (response: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) => {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({
      code: 'rate_limited',
      message: expect.any(String),
      logId: expect.any(String),
    });
    expect(response.headers['retry-after']).toBeDefined();
  };

  it('limits the e-mails of resets and sign-ups per address, known or not', async () => {
    const reset = () =>
      t.app.inject({ method: 'POST', url: '/v2/auth/password-reset', payload: { email: 'flooded@limits.example' } });
    expect((await reset()).statusCode).toBe(202);
    expect((await reset()).statusCode).toBe(202);
    expectLimited(await reset());
    const signUp = () =>
      t.app.inject({
        method: 'POST',
        url: '/v2/auth/signup',
        payload: { email: 'signup@limits.example', password: PASSWORD, accountName: 'Лимит' },
      });
    expect((await signUp()).statusCode).toBe(202);
    expect((await signUp()).statusCode).toBe(202);
    expectLimited(await signUp());
    // ever new e-mails from one address (each sign-up hashes a password): 4 × 2 an hour, the six above counted
    const fresh = (index: number) =>
      t.app.inject({
        method: 'POST',
        url: '/v2/auth/signup',
        payload: { email: `fresh-${index}@limits.example`, password: PASSWORD, accountName: 'Лимит' },
      });
    expect((await fresh(1)).statusCode).toBe(202);
    expect((await fresh(2)).statusCode).toBe(202);
    const refused = await fresh(3);
    expectLimited(refused);
    expect(refused.json().message).toContain('from one IP address');
    // another address is not refused for this one's flood
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/password-reset',
      payload: { email: 'someone@limits.example' },
      remoteAddress: '10.1.2.3',
    });
    expect(elsewhere.statusCode).toBe(202);
  });

  it('limits tries of one link from one address, and wrong links from one address over all links', async () => {
    const check = (token: string) =>
      t.app.inject({ method: 'POST', url: '/v2/auth/links/check', payload: { purpose: 'invitation', token } });
    for (let index = 0; index < 3; index++) expect((await check('inv_same')).statusCode).toBe(404);
    expectLimited(await check('inv_same'));
    // one more wrong link reaches the address's limit of 4 wrong guesses a minute, whatever the link
    expect((await check('inv_other')).statusCode).toBe(404);
    expectLimited(await check('inv_third'));
    expectLimited(
      await t.app.inject({
        method: 'POST',
        url: '/v2/auth/setup',
        payload: { token: 'stp_x', email: 'a@b.example', password: PASSWORD },
      }),
    );
  });
});
