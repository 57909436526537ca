/**
 * What a new shop and an integrator met on their first afternoon, over HTTP: each item of the
 * fit-and-finish findings that an API call shows, with the call that showed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import type { ApiClient } from './support/client.js';
import { orderBody, orderingAccount } from './support/orders.js';

let t: TestApp;
let owner: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('First afternoon')).client;
});
afterAll(async () => t?.close());

describe('a JSON body sent as a form (curl -d)', () => {
  it('is refused as what it is, not as a body missing its fields', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/v2/orders/stickers',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '{"ids":[1]}',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      code: 'json_sent_as_form',
      message: expect.stringContaining('Content-Type: application/json'),
    });
    // the same bytes as JSON are read
    const json = await owner.post('/v2/orders/stickers', { ids: [1] });
    expect(json.body.code).not.toBe('json_sent_as_form');
    // and a real form body with braces in a value is a form
    const form = await owner.post('/v2/orders/stickers', 'ids[0]=1&comment={x}', { form: true });
    expect(form.body.code).not.toBe('json_sent_as_form');
  });
});

describe('refusals in the caller’s language (Accept-Language)', () => {
  it('answers English by default and to en, Russian to ru, field errors translated the same way', async () => {
    const body = { name: '', dimensions: { width: 'wide', height: 10, length: 1000 } };
    const english = await owner.post('/v2/boxes', body);
    expect(english.status).toBe(400);
    expect(english.body.message).toMatch(/^[A-Za-z]/);
    const asEn = await owner.post('/v2/boxes', body, { headers: { 'accept-language': 'en-US,en;q=0.9,ru;q=0.5' } });
    expect(asEn.body).toEqual({ ...english.body, logId: asEn.body.logId });
    const russian = await owner.post('/v2/boxes', body, { headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' } });
    expect(russian.status).toBe(400);
    expect(russian.body.code).toBe('validation_failed');
    expect(russian.body.message).toMatch(/^Проверьте поле/);
    expect(russian.body.errors.map((item: { field: string }) => item.field)).toEqual(
      english.body.errors.map((item: { field: string }) => item.field),
    );
    for (const item of russian.body.errors as Array<{ message: string }>) expect(item.message).toMatch(/[а-я]/);
  });

  it('gives every code of the catalogue its Russian sentence: a missing token, an unknown route, a refused login', async () => {
    const ru = { 'accept-language': 'ru' };
    const noToken = await t.client().get('/v2/orders', { headers: ru });
    expect(noToken.body).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/авторизация/) });
    const noRoute = await owner.get('/v2/nothing-here', { headers: ru });
    expect(noRoute.body).toMatchObject({ code: 'route_not_found', message: 'Такой операции нет.' });
    const login = await t
      .client()
      .post('/v2/auth/login', { email: 'x@y.example', password: 'wrong one' }, { headers: ru });
    expect(login.body).toMatchObject({ code: 'invalid_credentials', message: 'Неверный e-mail или пароль.' });
  });
});

describe('an unknown destination city', () => {
  it('is named as the cause of an order draft, not the company', async () => {
    const account = await orderingAccount(t, { name: 'Unknown city' });
    const created = await account.owner.post(
      '/v2/orders',
      orderBody(
        { shopId: account.shopId, pointId: account.pointId },
        {
          cmsId: 'NOWHERE-1',
          deliveryAddress: { city: { countryCode: 'RU', name: 'Нетакогогорода' }, street: 'Ленина', house: '1' },
          delivery: { company: { id: 1 }, type: 2 },
        },
      ),
    );
    expect(created.status).toBe(201);
    const order = (await account.owner.get(`/v2/orders/${created.body.id}`)).body;
    expect(order.error).toContain('Нетакогогорода');
    expect(order.error).toContain('not in the directory');
    expect(order.error).not.toMatch(/cannot deliver this order/);
  });
});

describe('file links: public for FILE_LINK_HOURS, then for the account’s tokens; token-only at the account’s choice', () => {
  it('serves a new link without a token, and an older one only to its account', async () => {
    const mine = await t.newAccount('Labels owner');
    const stranger = await t.newAccount('Someone else');
    const file = await t.runtime.services.files.put(mine.accountId, {
      bytes: Buffer.from('%PDF-1.4 Анна Смирнова +79215556677'),
      contentType: 'application/pdf',
      extension: 'pdf',
    });
    const path = new URL(file.url).pathname;
    expect(t.config.fileLinkHours).toBe(72);
    expect((await t.client().get(path)).status).toBe(200);
    // the link's public hours are over
    await t.runtime.database.db
      .updateTable('files')
      .set({ public_until: new Date(Date.now() - 1000).toISOString() })
      .where('name', '=', file.name)
      .execute();
    const anonymous = await t.client().get(path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toContain('token');
    expect((await stranger.client.get(path)).status).toBe(404);
    const owned = await mine.client.get(path);
    expect(owned.status).toBe(200);
    expect(owned.text).toContain('%PDF');
  });

  it('lets an owner choose token-only downloads: new files need a token from the start', async () => {
    const mine = await t.newAccount('Token-only shop');
    expect((await mine.client.get('/v2/files/settings')).body).toEqual({ tokenOnly: false });
    expect((await mine.client.put('/v2/files/settings', { tokenOnly: 'maybe' })).status).toBe(400);
    expect((await t.client().put('/v2/files/settings', { tokenOnly: true })).status).toBe(401);
    const changed = await mine.client.put('/v2/files/settings', { tokenOnly: 1 }, { form: true });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ tokenOnly: true });
    const file = await t.runtime.services.files.put(mine.accountId, {
      bytes: Buffer.from('%PDF-1.4'),
      contentType: 'application/pdf',
      extension: 'pdf',
    });
    const path = new URL(file.url).pathname;
    expect((await t.client().get(path)).status).toBe(401);
    expect((await mine.client.get(path)).status).toBe(200);
    // another account's choice is its own
    const other = await t.newAccount('Links shop');
    expect((await other.client.get('/v2/files/settings')).body).toEqual({ tokenOnly: false });
  });
});
