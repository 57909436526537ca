/**
 * An account's own contracts with real delivery companies, through HTTP against loopback
 * fakes: connecting (checked with the company, sealed, masked, never logged), the contracted
 * company in the account's calculator only, an order registered with it, disconnecting.
 */
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  startFakeBoxberry,
  startFakeCdek,
  startFakeRussianPost,
  type FakeRealCarrier,
} from '../../../test/support/fake-real-carriers.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';

let t: TestApp;
let cdek: FakeRealCarrier;
let boxberry: FakeRealCarrier;
let post: FakeRealCarrier;
let account: OrderingAccount;
let stranger: ApiClient;
const logLines: string[] = [];
const CDEK = 1001;

beforeAll(async () => {
  [cdek, boxberry, post] = await Promise.all([startFakeCdek(), startFakeBoxberry(), startFakeRussianPost()]);
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString()));
  t = await createTestApp({
    env: {
      LOG_LEVEL: 'trace',
      CARRIER_CDEK_URL: `${cdek.baseUrl}/v2`,
      CARRIER_CDEK_TEST_URL: `${cdek.baseUrl}/v2`,
      CARRIER_BOXBERRY_URL: `${boxberry.baseUrl}/json.php`,
      CARRIER_RUSSIAN_POST_URL: post.baseUrl,
      CARRIER_RUSSIAN_POST_TRACKING_URL: `${post.baseUrl}/rtm34`,
      CARRIER_TIMEOUT_MS: '2000',
    },
    logStream,
  });
  account = await orderingAccount(t);
  stranger = (await t.newAccount('Stranger')).client;
});
afterAll(async () => {
  await t.close();
  await Promise.all([cdek.close(), boxberry.close(), post.close()]);
});

const cdekParams = { params: { clientId: 'good-id', clientSecret: 'good-secret' } };

describe('GET /v2/carrier-integrations', () => {
  it('lists CDEK, Boxberry, Russian Post and Yandex Delivery, none connected, with their parameters', async () => {
    const list = await account.owner.get('/v2/carrier-integrations');
    expect(list.status).toBe(200);
    expect(list.body.map((item: { companyId: number; code: string }) => [item.companyId, item.code])).toEqual([
      [1001, 'cdek'],
      [1002, 'boxberry'],
      [1003, 'russian-post'],
      [1004, 'yandex-delivery'],
    ]);
    expect(list.body[0]).toMatchObject({
      name: 'СДЭК',
      connected: false,
      testMode: false,
      hasTestEnvironment: true,
      connectedAt: null,
      integrationParams: [
        { key: 'clientId', value: '' },
        { key: 'clientSecret', value: '' },
      ],
    });
    expect((await t.client().get('/v2/carrier-integrations')).status).toBe(401);
  });
});

describe('POST /v2/carrier-integrations/{companyId}', () => {
  it('refuses malformed parameters with every field named, storing nothing', async () => {
    const bad = await account.owner.post(`/v2/carrier-integrations/${CDEK}`, {
      params: { clientId: 'good-id', other: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'params.clientSecret',
      'params.other',
    ]);
    const noTestEnvironment = await account.owner.post('/v2/carrier-integrations/1002', {
      params: { token: 'good-token' },
      testMode: true,
    });
    expect(noTestEnvironment.status).toBe(400);
    expect(noTestEnvironment.body.errors[0].field).toBe('testMode');
    expect((await account.owner.post('/v2/carrier-integrations/999', cdekParams)).status).toBe(404);
    expect((await account.owner.post('/v2/carrier-integrations/abc', cdekParams)).status).toBe(400);
    expect(await t.runtime.database.db.selectFrom('carrier_integrations').selectAll().execute()).toHaveLength(0);
  });

  it('refuses credentials the company refuses (422), and a company that does not answer (503)', async () => {
    const refused = await account.owner.post(`/v2/carrier-integrations/${CDEK}`, {
      params: { clientId: 'good-id', clientSecret: 'wrong-secret' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'carrier_auth_failed', errors: [], logId: expect.any(String) });
    cdek.mode = '500';
    try {
      // the token call answers 500 three times: retried? no: auth is once, so one 503
      const down = await account.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams);
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('carrier_unavailable');
    } finally {
      cdek.mode = 'ok';
    }
    expect(await t.runtime.database.db.selectFrom('carrier_integrations').selectAll().execute()).toHaveLength(0);
  });

  it('is for account tokens: a shop key is 403, no token 401, and nothing is stored', async () => {
    const denied = await t.client(account.shopKey).post(`/v2/carrier-integrations/${CDEK}`, cdekParams);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
    expect((await t.client().post(`/v2/carrier-integrations/${CDEK}`, cdekParams)).status).toBe(401);
    expect((await t.client().delete(`/v2/carrier-integrations/${CDEK}`)).status).toBe(401);
    expect(await t.runtime.database.db.selectFrom('carrier_integrations').selectAll().execute()).toHaveLength(0);
  });

  it('stores checked credentials sealed, shows them masked, never logs them; form bodies work too', async () => {
    const connected = await account.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams);
    expect(connected.status, JSON.stringify(connected.body)).toBe(204);
    const form = await t.app.inject({
      method: 'POST',
      url: '/v2/carrier-integrations/1003',
      headers: {
        authorization: account.owner.token ? `Bearer ${account.owner.token}` : '',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload:
        'params[accessToken]=good-token&params[login]=shop&params[password]=pass&params[indexFrom]=125009&params[trackingLogin]=tl&params[trackingPassword]=tp',
    });
    expect(form.statusCode, form.body).toBe(204);
    const list = (await account.owner.get('/v2/carrier-integrations')).body;
    expect(list[0]).toMatchObject({
      connected: true,
      testMode: false,
      integrationParams: [
        { key: 'clientId', value: '****' },
        { key: 'clientSecret', value: '****cret' },
      ],
    });
    expect(list[2].connected).toBe(true);
    const rows = await sql<{ credentials: string }>`SELECT credentials FROM carrier_integrations`.execute(
      t.runtime.database.db,
    );
    expect(rows.rows).toHaveLength(2);
    for (const row of rows.rows) expect(row.credentials).not.toMatch(/good-secret|good-token|pass/);
    expect(logLines.join('')).not.toMatch(/good-secret|good-token|client_secret=/);
    // another account sees nothing of it
    expect((await stranger.get('/v2/carrier-integrations')).body[0].connected).toBe(false);
  });
});

describe("a contracted company in the account's calculator and orders", () => {
  const calculatorBody = { reception: { cityName: 'Санкт-Петербург' }, sender: { cityName: 'Москва' }, pickupType: 1 };

  it('quotes CDEK (deliveryDriver cdek) for the account with the contract only', async () => {
    const mine = await account.owner.post('/v2/calculator', calculatorBody);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const courier = mine.body['2'].find((option: { deliveryCompanyId: number }) => option.deliveryCompanyId === CDEK);
    expect(courier).toMatchObject({
      deliveryDriver: 'cdek',
      deliveryCompanyName: 'СДЭК',
      priceDelivery: 510,
      tariffName: 'Посылка дверь-дверь',
    });
    const post3 = mine.body['3'].find((option: { deliveryCompanyId: number }) => option.deliveryCompanyId === 1003);
    expect(post3).toMatchObject({ deliveryDriver: 'russian-post', priceDelivery: 420 });
    const theirs = await stranger.post('/v2/calculator', calculatorBody);
    expect(theirs.body['2'].some((option: { deliveryCompanyId: number }) => option.deliveryCompanyId === CDEK)).toBe(
      false,
    );
    const text = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(text.body).toMatch(
      /delivery_carrier_remote_calls_total\{company="cdek",operation="quote",outcome="ok"\} \d/,
    );
  });

  it("shows CDEK's own insurance sum for the declared value", async () => {
    const answer = await account.owner.post('/v2/calculator', {
      ...calculatorBody,
      priceDeclared: 1500.5,
      priceCod: 1000,
    });
    const courier = answer.body['2'].find((option: { deliveryCompanyId: number }) => option.deliveryCompanyId === CDEK);
    // the fake CDEK's INSURANCE: 0.8% of 1500.50 = 12.00; COD at CDEK's public 3% of 1000
    expect(courier).toMatchObject({
      priceDelivery: 510,
      priceCommissionDeclared: 12,
      priceCommissionCod: 30,
      percentCommissionCod: 3,
    });
    expect(courier.percentCommissionDeclared).toBeCloseTo(0.8, 2);
  });

  it("registers an order with CDEK through the contract: the track number is CDEK's", async () => {
    const body = orderBody(
      { shopId: account.shopId, pointId: account.pointId },
      { cmsId: 'CDEK-1', delivery: { company: { id: CDEK }, type: 2 } },
    );
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, body);
    expect(trackNumber).toBe(cdek.created.get(String(id))?.track);
    expect(
      logLines.some(
        (line) =>
          line.includes('"company":"cdek"') &&
          line.includes('"operation":"register"') &&
          line.includes('"outcome":"ok"'),
      ),
    ).toBe(true);
  });

  it('another account cannot order with a company it has no contract with', async () => {
    const other = await orderingAccount(t, { name: 'No contract' });
    const refused = await other.owner.post(
      '/v2/orders',
      orderBody({ shopId: other.shopId, pointId: other.pointId }, { delivery: { company: { id: CDEK }, type: 2 } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('delivery.company.id');
  });
});

describe('DELETE /v2/carrier-integrations/{companyId}', () => {
  it("disconnects (204), then 404; another account's contract is not there for a stranger (404)", async () => {
    expect((await stranger.delete(`/v2/carrier-integrations/${CDEK}`)).status).toBe(404);
    expect((await t.client(account.shopKey).delete(`/v2/carrier-integrations/${CDEK}`)).status).toBe(403);
    expect((await account.owner.delete(`/v2/carrier-integrations/${CDEK}`)).status).toBe(204);
    expect((await account.owner.delete(`/v2/carrier-integrations/${CDEK}`)).status).toBe(404);
    expect((await account.owner.get('/v2/carrier-integrations')).body[0].connected).toBe(false);
  });
});
