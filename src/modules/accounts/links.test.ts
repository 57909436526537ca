/**
 * One-time links through HTTP on a real database: the first owner's set-up, an invitation, a
 * password reset and a sign-up. For each: the happy path signs in with a session cookie; an
 * expired, used, altered or other-purpose token is the same 404 link_invalid; requests that send a
 * link answer alike for known and unknown e-mails; SIGNUP off, invite and open; the password policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { catchLinks, PASSWORD, sessionOf, type LinkCatcher } from '../../../test/support/links.js';
import { orderBody, orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';

let t: TestApp;
let links: LinkCatcher;

beforeAll(async () => {
  // wrong links are counted per address like wrong passwords: this file tries many on purpose (limits.test.ts tests the limit)
  t = await createTestApp({ env: { SIGNUP: 'open', LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '0' } });
  links = catchLinks(t);
});
afterAll(async () => t?.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });

async function expire(token: string): Promise<void> {
  const { hashToken } = await import('../../platform/crypto.js');
  await t.runtime.database.db
    .updateTable('account_links')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('token_hash', '=', hashToken(token))
    .execute();
}

function altered(token: string): string {
  const last = token.at(-1) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -1)}${last}`;
}

async function expectInvalid(url: string, body: Record<string, unknown>): Promise<void> {
  const response = await post(url, body);
  expect(response.statusCode, response.body).toBe(404);
  expect(response.json()).toMatchObject({ code: 'link_invalid', logId: expect.any(String) });
}

describe('the set-up link of a first owner', () => {
  it('sets the e-mail and password and signs in; used once; a fresh one is refused once someone signs in', async () => {
    const { accountId } = await t.newAccount('Первый магазин');
    const { url } = await t.runtime.services.access.setupLink(accountId);
    expect(url).toMatch(/^http:\/\/delivery\.test\/app\/setup#stp_[\w-]{43}$/);
    const token = url.split('#')[1];
    const check = await post('/v2/auth/links/check', { purpose: 'setup', token });
    expect(check.json()).toMatchObject({ purpose: 'setup', accountName: 'Первый магазин', needsPassword: true });

    const done = await post('/v2/auth/setup', { token, email: 'Owner@First.example', password: PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ kind: 'employee', role: 'owner', accountId, csrfToken: expect.any(String) });
    const session = sessionOf(done);
    const who = await t.app.inject({ method: 'GET', url: '/v2/auth/session', headers: { cookie: session.cookie } });
    expect(who.json()).toMatchObject({ accountId, kind: 'employee' });
    expect((await t.client().post('/v2/auth/login', { email: 'owner@first.example', password: PASSWORD })).status).toBe(
      200,
    );

    await expectInvalid('/v2/auth/setup', { token, email: 'other@first.example', password: PASSWORD });
    await expect(t.runtime.services.access.setupLink(accountId)).rejects.toMatchObject({ statusCode: 409 });
  });

  it('refuses an expired, altered or other-purpose token, and a weak password (422, in Russian too)', async () => {
    const { accountId } = await t.newAccount('Второй');
    const token = (await t.runtime.services.access.setupLink(accountId)).url.split('#')[1];
    await expectInvalid('/v2/auth/setup', { token: altered(token), email: 'a@second.example', password: PASSWORD });
    await expectInvalid('/v2/auth/invitation', { token, password: PASSWORD });
    await expectInvalid('/v2/auth/password-reset/confirm', { token, password: PASSWORD });
    await expectInvalid('/v2/auth/links/check', { purpose: 'invitation', token });

    for (const [password, rule] of [
      ['short', 'must be at least 10 characters long'],
      ['aaaaaaaaaaaa', 'must not be one character repeated'],
      ['weak@second.example', 'must not be the e-mail address'],
      ['Qwerty123456', 'is one of the most common passwords'],
    ]) {
      const weak = await post('/v2/auth/setup', { token, email: 'weak@second.example', password });
      expect(weak.statusCode, password).toBe(422);
      expect(weak.json()).toMatchObject({ code: 'password_too_weak', errors: [{ field: 'password', message: rule }] });
    }
    const russian = await post(
      '/v2/auth/setup',
      { token, email: 'weak@second.example', password: 'short' },
      { 'accept-language': 'ru-RU,ru;q=0.9' },
    );
    expect(russian.json()).toMatchObject({
      code: 'password_too_weak',
      message: expect.stringMatching(/^Пароль слишком простой/),
      errors: [{ field: 'password', message: 'должно быть не короче 10 символов' }],
    });

    // a second link replaces the first; an expired one is refused like any other
    const fresh = (await t.runtime.services.access.setupLink(accountId)).url.split('#')[1];
    await expectInvalid('/v2/auth/setup', { token, email: 'a@second.example', password: PASSWORD });
    await expire(fresh);
    await expectInvalid('/v2/auth/links/check', { purpose: 'setup', token: fresh });
    await expectInvalid('/v2/auth/setup', { token: fresh, email: 'a@second.example', password: PASSWORD });
  });
});

describe('an invitation', () => {
  let shop: OrderingAccount;
  let otherOrderId: number;

  beforeAll(async () => {
    shop = await orderingAccount(t, { name: 'Приглашающий' });
    const other = await shop.owner.post('/v2/orders', orderBody({ shopId: shop.otherShopId, pointId: shop.pointId }), {
      headers: { 'shop-id': String(shop.otherShopId) },
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    otherOrderId = other.body.id as number;
  });

  it('signs the invitee in with exactly the role and shops given; a manager sees only their shops', async () => {
    const invited = await shop.owner.post('/v2/employees', {
      name: 'Коллега',
      email: 'colleague@inviting.example',
      role: 'manager',
      shopIds: [shop.shopId],
    });
    expect(invited.status).toBe(201);
    const pending = await shop.owner.get('/v2/employees/invitations');
    expect(pending.body).toEqual([
      expect.objectContaining({
        id: invited.body.id,
        email: 'colleague@inviting.example',
        role: 'manager',
        expired: false,
      }),
    ]);
    const token = await links.tokenFor('colleague@inviting.example', 'invitation');
    expect((await post('/v2/auth/links/check', { purpose: 'invitation', token })).json()).toMatchObject({
      email: 'colleague@inviting.example',
      accountName: 'Приглашающий',
    });
    const accepted = await post('/v2/auth/invitation', { token, password: PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ role: 'manager', managedShops: [{ id: shop.shopId }] });
    const { cookie } = sessionOf(accepted);
    const own = await t.app.inject({ method: 'GET', url: '/v2/orders?perPage=100', headers: { cookie } });
    expect(own.statusCode).toBe(200);
    expect(own.json().map((order: { id: number }) => order.id)).not.toContain(otherOrderId);
    const foreign = await t.app.inject({ method: 'GET', url: `/v2/orders/${otherOrderId}`, headers: { cookie } });
    expect(foreign.statusCode).toBe(403);
    expect((await shop.owner.get('/v2/employees/invitations')).body).toEqual([]);
    await expectInvalid('/v2/auth/invitation', { token, password: PASSWORD });
  });

  it('re-sends (the old link stops working), withdraws, expires', async () => {
    const id = (await shop.owner.post('/v2/employees', { email: 'later@inviting.example', role: 'owner' })).body.id;
    const first = await links.tokenFor('later@inviting.example');
    const resent = await shop.owner.post(`/v2/employees/invitations/${id}/resend`);
    expect(resent.status).toBe(200);
    const second = await links.tokenFor('later@inviting.example');
    expect(second).not.toBe(first);
    await expectInvalid('/v2/auth/invitation', { token: first, password: PASSWORD });
    await expire(second);
    await expectInvalid('/v2/auth/invitation', { token: second, password: PASSWORD });
    expect((await shop.owner.get('/v2/employees/invitations')).body[0]).toMatchObject({ id, expired: true });
    await shop.owner.post(`/v2/employees/invitations/${id}/resend`);
    const third = await links.tokenFor('later@inviting.example');
    // another account's owner finds no such invitation, and changes nothing
    const stranger = (await t.newAccount('Чужой')).client;
    expect((await stranger.post(`/v2/employees/invitations/${id}/resend`)).status).toBe(404);
    expect((await stranger.delete(`/v2/employees/invitations/${id}`)).status).toBe(404);
    expect((await stranger.post('/v2/employees/invitations/abc/resend')).status).toBe(400);
    expect((await shop.owner.get('/v2/employees/invitations')).body.map((item: { id: number }) => item.id)).toContain(
      id,
    );
    expect((await shop.owner.delete(`/v2/employees/invitations/${id}`)).status).toBe(204);
    await expectInvalid('/v2/auth/invitation', { token: third, password: PASSWORD });
    expect((await shop.owner.delete(`/v2/employees/invitations/${id}`)).status).toBe(404);
  });

  it("of an e-mail that signs in elsewhere: the owner's answer is as any other, the invitee is told", async () => {
    const elsewhere = await t.newAccount('Где-то ещё');
    await t.runtime.services.accounts.addEmployee(elsewhere.accountId, {
      name: 'Занят',
      email: 'busy@elsewhere.example',
      password: PASSWORD,
    });
    const answer = await shop.owner.post('/v2/employees', { email: 'busy@elsewhere.example', role: 'owner' });
    const plain = await shop.owner.post('/v2/employees', { email: 'free@elsewhere.example', role: 'owner' });
    expect([answer.status, Object.keys(answer.body)]).toEqual([plain.status, Object.keys(plain.body)]);
    const token = await links.tokenFor('busy@elsewhere.example');
    const refused = await post('/v2/auth/invitation', { token, password: PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('email_taken');
    // not used by the refusal
    expect((await post('/v2/auth/links/check', { purpose: 'invitation', token })).statusCode).toBe(200);
  });
});

describe('a password reset', () => {
  const EMAIL = 'forgetful@reset.example';
  let accountId: number;

  beforeAll(async () => {
    accountId = (await t.newAccount('Забывчивый')).accountId;
    await t.runtime.services.accounts.addEmployee(accountId, { name: 'Забывчивый', email: EMAIL, password: PASSWORD });
  });

  it('answers a known and an unknown e-mail alike, and sends a link only to the known one', async () => {
    const before = links.links.length;
    const known = await post('/v2/auth/password-reset', { email: EMAIL });
    const unknown = await post('/v2/auth/password-reset', { email: 'nobody@reset.example' });
    expect(known.statusCode).toBe(202);
    expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
    await links.deliver();
    expect(links.links.slice(before).map((entry) => entry.to)).toEqual([EMAIL]);
  });

  it('sets a new password, ends every other session, signs in; used once; expires', async () => {
    const old = sessionOf(await post('/v2/auth/session', { email: EMAIL, password: PASSWORD }));
    await post('/v2/auth/password-reset', { email: EMAIL });
    const token = await links.tokenFor(EMAIL, 'reset');
    expect((await post('/v2/auth/links/check', { purpose: 'reset', token })).json()).toMatchObject({ email: EMAIL });
    const NEW = 'a brand new password';
    const reset = await post('/v2/auth/password-reset/confirm', { token, password: NEW });
    expect(reset.statusCode, reset.body).toBe(200);
    const fresh = sessionOf(reset);
    const ended = await t.app.inject({ method: 'GET', url: '/v2/auth/session', headers: { cookie: old.cookie } });
    expect(ended.statusCode).toBe(401);
    const live = await t.app.inject({ method: 'GET', url: '/v2/auth/session', headers: { cookie: fresh.cookie } });
    expect(live.statusCode).toBe(200);
    expect((await t.client().post('/v2/auth/login', { email: EMAIL, password: PASSWORD })).status).toBe(401);
    expect((await t.client().post('/v2/auth/login', { email: EMAIL, password: NEW })).status).toBe(200);
    await expectInvalid('/v2/auth/password-reset/confirm', { token, password: 'yet another password' });

    await post('/v2/auth/password-reset', { email: EMAIL });
    const late = await links.tokenFor(EMAIL, 'reset');
    await expire(late);
    await expectInvalid('/v2/auth/password-reset/confirm', { token: late, password: 'yet another password' });
    await expectInvalid('/v2/auth/password-reset/confirm', { token: altered(late), password: 'yet another password' });
  });
});

describe('sign-up (SIGNUP=open)', () => {
  it('answers a new and a taken e-mail alike; the new one confirms by its link into a new account', async () => {
    await t.runtime.services.accounts.addEmployee((await t.newAccount('Занятый')).accountId, {
      name: 'Есть',
      email: 'exists@signup.example',
      password: PASSWORD,
    });
    const fresh = await post('/v2/auth/signup', {
      email: 'new@signup.example',
      password: PASSWORD,
      accountName: 'Лавка',
    });
    const taken = await post('/v2/auth/signup', {
      email: 'exists@signup.example',
      password: PASSWORD,
      accountName: 'Лавка',
    });
    expect(fresh.statusCode).toBe(202);
    expect([taken.statusCode, taken.body]).toEqual([fresh.statusCode, fresh.body]);
    await links.deliver();
    expect(links.links.find((entry) => entry.to === 'exists@signup.example')).toMatchObject({
      kind: 'signup-existing',
      link: 'http://delivery.test/app/',
    });

    const token = await links.tokenFor('new@signup.example', 'signup');
    expect((await post('/v2/auth/links/check', { purpose: 'signup', token })).json()).toMatchObject({
      accountName: 'Лавка',
      needsPassword: false,
    });
    const confirmed = await post('/v2/auth/signup/confirm', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ accountName: 'Лавка', role: 'owner', kind: 'employee' });
    // a new account ships with the sandbox's simulated companies, as the CLI's do
    const { cookie } = sessionOf(confirmed);
    const companies = await t.app.inject({ method: 'GET', url: '/v2/lists/delivery-companies', headers: { cookie } });
    expect(companies.json().length).toBeGreaterThan(0);
    await expectInvalid('/v2/auth/signup/confirm', { token });
    const weak = await post('/v2/auth/signup', { email: 'weak@signup.example', password: 'short', accountName: 'x' });
    expect(weak.statusCode).toBe(422);
  });
});

describe('SIGNUP=off and invite', () => {
  it('off: neither the sign-up page nor its endpoints answer', async () => {
    const off = await createTestApp();
    try {
      const signUp = await off.app.inject({
        method: 'POST',
        url: '/v2/auth/signup',
        payload: { email: 'a@off.example', password: PASSWORD, accountName: 'x' },
      });
      expect(signUp.statusCode).toBe(404);
      expect(signUp.json().code).toBe('signup_closed');
      const confirm = await off.app.inject({
        method: 'POST',
        url: '/v2/auth/signup/confirm',
        payload: { token: 'sgn_x' },
      });
      expect(confirm.json().code).toBe('signup_closed');
      const page = await off.app.inject({ method: 'GET', url: '/app/signup' });
      expect([page.statusCode, page.json().code]).toEqual([404, 'signup_closed']);
      await expect(off.runtime.services.access.inviteSignUp('a@off.example', 'x')).rejects.toMatchObject({
        code: 'signup_closed',
      });
    } finally {
      await off.close();
    }
  });

  it("invite: the public form is refused; the operator's invitation makes an account with the password chosen", async () => {
    const invite = await createTestApp({ env: { SIGNUP: 'invite' } });
    try {
      const signUp = await invite.app.inject({
        method: 'POST',
        url: '/v2/auth/signup',
        payload: { email: 'a@invite.example', password: PASSWORD, accountName: 'x' },
      });
      expect(signUp.statusCode).toBe(403);
      expect(signUp.json().code).toBe('signup_invite_only');
      const { url } = await invite.runtime.services.access.inviteSignUp('guest@invite.example', 'Гостевая лавка');
      const token = url.split('#')[1];
      const check = await invite.app.inject({
        method: 'POST',
        url: '/v2/auth/links/check',
        payload: { purpose: 'signup', token },
      });
      expect(check.json()).toMatchObject({ needsPassword: true, email: 'guest@invite.example' });
      const noPassword = await invite.app.inject({
        method: 'POST',
        url: '/v2/auth/signup/confirm',
        payload: { token },
      });
      expect(noPassword.statusCode).toBe(400);
      const done = await invite.app.inject({
        method: 'POST',
        url: '/v2/auth/signup/confirm',
        payload: { token, password: PASSWORD },
      });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ accountName: 'Гостевая лавка', role: 'owner' });
    } finally {
      await invite.close();
    }
  });
});
