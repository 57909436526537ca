/**
 * The dashboard's cookie session through HTTP: sign-in sets an HttpOnly, SameSite=Strict cookie
 * and answers the CSRF token; every /v2 route takes the cookie; unsafe calls without the
 * session's CSRF token (missing, forged, another session's) are refused and change nothing;
 * sign-out revokes; an expired or revoked session's cookie is refused; Bearer tokens as before.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';

let t: TestApp;
let accountId: number;
let ownerToken: string;
const EMAIL = 'packer@shop.example';
const PASSWORD = 'a long enough password';

beforeAll(async () => {
  t = await createTestApp();
  const account = await t.newAccount('Cookie shop');
  accountId = account.accountId;
  ownerToken = account.token;
  await t.runtime.services.accounts.addEmployee(accountId, { name: 'Упаковщик', email: EMAIL, password: PASSWORD });
});
afterAll(async () => t?.close());

interface Session {
  cookies: string;
  csrfToken: string;
  setCookie: string[];
}

function cookiesOf(response: LightMyRequestResponse): string[] {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

async function signIn(): Promise<Session> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v2/auth/session',
    payload: { email: EMAIL, password: PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  const setCookie = cookiesOf(response);
  const cookies = setCookie.map((line) => line.split(';')[0]).join('; ');
  return { cookies, csrfToken: response.json().csrfToken, setCookie };
}

const boxBody = { dimensions: { width: 10, height: 10, length: 10 } };
const boxCount = async () => Number((await t.client(ownerToken).get('/v2/boxes?perPage=1')).headers['x-total-count']);

describe('the dashboard session (cookie and CSRF token)', () => {
  it('signs in with an HttpOnly, SameSite=Strict cookie; reads and writes with it and the CSRF token', async () => {
    const session = await signIn();
    const sessionCookie = session.setCookie.find((line) => line.startsWith('dashboard_session='));
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/SameSite=Strict/);
    expect(sessionCookie).toMatch(/Path=\//);
    expect(session.csrfToken).toEqual(expect.any(String));

    const who = await t.app.inject({ method: 'GET', url: '/v2/auth/session', headers: { cookie: session.cookies } });
    expect(who.statusCode).toBe(200);
    expect(who.json()).toMatchObject({
      kind: 'employee',
      accountId,
      accountName: 'Cookie shop',
      timeZone: expect.any(String),
      csrfToken: expect.any(String),
    });

    const listed = await t.app.inject({
      method: 'GET',
      url: '/v2/orders?list=0',
      headers: { cookie: session.cookies },
    });
    expect(listed.statusCode).toBe(200);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/boxes',
      payload: boxBody,
      headers: { cookie: session.cookies, 'x-csrf-token': session.csrfToken },
    });
    expect(created.statusCode).toBe(201);
    // a token the page fetched again after a reload works as well
    const again = await t.app.inject({
      method: 'POST',
      url: '/v2/boxes',
      payload: boxBody,
      headers: { cookie: session.cookies, 'x-csrf-token': who.json().csrfToken },
    });
    expect(again.statusCode).toBe(201);
  });

  it("refuses an unsafe call with a missing, forged or another session's CSRF token, writing nothing", async () => {
    const session = await signIn();
    const other = await signIn();
    const before = await boxCount();
    for (const token of [undefined, 'forged-token', other.csrfToken]) {
      const headers: Record<string, string> = { cookie: session.cookies };
      if (token) headers['x-csrf-token'] = token;
      const refused = await t.app.inject({ method: 'POST', url: '/v2/boxes', payload: boxBody, headers });
      expect(refused.statusCode, String(token)).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'csrf_token_invalid', logId: expect.any(String) });
    }
    expect(await boxCount()).toBe(before);
  });

  it('signs out: the cookie is cleared and the session no longer works anywhere', async () => {
    const session = await signIn();
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/v2/auth/session',
      headers: { cookie: session.cookies, 'x-csrf-token': session.csrfToken },
    });
    expect(out.statusCode).toBe(204);
    expect(cookiesOf(out).some((line) => line.startsWith('dashboard_session=;'))).toBe(true);
    const after = await t.app.inject({ method: 'GET', url: '/v2/orders?list=0', headers: { cookie: session.cookies } });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('session_expired');
  });

  it('refuses an expired session cookie, and a wrong password (401, no cookie)', async () => {
    const session = await signIn();
    await t.runtime.database.db
      .updateTable('access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('employee_id', 'is not', null)
      .execute();
    t.runtime.services.tokens.forgetAll();
    const expired = await t.app.inject({
      method: 'GET',
      url: '/v2/auth/session',
      headers: { cookie: session.cookies },
    });
    expect(expired.statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/session',
      payload: { email: EMAIL, password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('invalid_credentials');
    expect(cookiesOf(wrong).some((line) => line.startsWith('dashboard_session='))).toBe(false);
    const bad = await t.app.inject({ method: 'POST', url: '/v2/auth/session', payload: { email: '' } });
    expect(bad.statusCode).toBe(400);
  });

  it('leaves Bearer tokens as they were: no CSRF token needed, a cookie beside one is ignored, an account token cannot sign out', async () => {
    const session = await signIn();
    const before = await boxCount();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/boxes',
      payload: boxBody,
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    expect(created.statusCode).toBe(201);
    // the Authorization header wins: a wrong Bearer token is refused even with a good cookie
    const wrongBearer = await t.app.inject({
      method: 'GET',
      url: '/v2/boxes',
      headers: { authorization: 'Bearer acc_nope', cookie: session.cookies },
    });
    expect(wrongBearer.statusCode).toBe(401);
    expect(wrongBearer.json().code).toBe('invalid_token');
    const who = await t.app.inject({
      method: 'GET',
      url: '/v2/auth/session',
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    expect(who.json()).toMatchObject({ kind: 'account', csrfToken: null, expiresAt: null });
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/v2/auth/session',
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    expect(out.statusCode).toBe(409);
    expect((await t.client(ownerToken).get('/v2/boxes')).status).toBe(200);
    expect(await boxCount()).toBe(before + 1);
    // no token at all: 401 as ever
    expect((await t.app.inject({ method: 'GET', url: '/v2/boxes' })).statusCode).toBe(401);
  });
});

describe('GET /v2/lists/localities', () => {
  it('finds cities by the start of their name, the largest first; refuses an empty query and no token', async () => {
    const found = await t.client(ownerToken).get('/v2/lists/localities?q=' + encodeURIComponent('Моск'));
    expect(found.status).toBe(200);
    expect(found.body[0]).toMatchObject({ name: 'Москва', fias: expect.any(String), countryCode: 'RU' });
    expect((await t.client(ownerToken).get('/v2/lists/localities?q=')).status).toBe(400);
    expect((await t.client().get('/v2/lists/localities?q=a')).status).toBe(401);
  });
});
