import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { startFakeMarketplaces, type FakeMarketplaces } from '../../../test/support/fake-marketplaces.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let fake: FakeMarketplaces;
let owner: ApiClient;
let stranger: ApiClient;
let shopKey: ApiClient;
const logLines: string[] = [];

beforeAll(async () => {
  fake = await startFakeMarketplaces();
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString()));
  t = await createTestApp({
    env: {
      LOG_LEVEL: 'trace',
      MARKETPLACE_OZON_URL: fake.baseUrl,
      MARKETPLACE_WILDBERRIES_URL: fake.baseUrl,
      MARKETPLACE_YANDEX_URL: fake.baseUrl,
    },
    logStream,
  });
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
  const warehouse = await owner.post('/v2/warehouses', warehouseBody());
  const shop = await owner.post('/v2/shops', shopBody(warehouse.body.id));
  shopKey = t.client((await owner.get(`/v2/shops/${shop.body.id}`)).body.apiKey);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function integrations(client: ApiClient) {
  return (await client.get('/v2/marketplaces')).body as Array<{
    id: number;
    connected: boolean;
    integrationParams: Array<{ key: string; value: string }>;
    settings: unknown;
  }>;
}

describe('reference list', () => {
  it('lists Ozon, Wildberries, Yandex Market and the sandbox with their parameters and binding names', async () => {
    const list = await owner.get('/v2/marketplaces');
    expect(list.status).toBe(200);
    expect(list.body.map((item: { id: number; name: string }) => [item.id, item.name])).toEqual([
      [1, 'Ozon'],
      [2, 'Wildberries'],
      [3, 'Яндекс Маркет'],
      [4, 'Песочница (демо-маркетплейс)'],
    ]);
    expect(list.body[0]).toMatchObject({
      logo: 'http://delivery.test/logos/marketplaces/ozon.svg',
      legalEntity: { TIN: '7704217370' },
      fbs: true,
      connected: false,
      settings: null,
      integrationParams: [
        { key: 'clientId', value: '', name: { en: 'Client ID' } },
        { key: 'apiKey', value: '' },
      ],
      bindingNames: { offerId: expect.any(Object), sku: expect.any(Object) },
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/logos/marketplaces/ozon.svg' })).headers['content-type'],
    ).toMatch(/svg/);
  });

  it('filters by shipping mode and by integration with the fulfilment warehouses (the same data as GET /v2/warehouses?integrationMarketplaceId=)', async () => {
    expect((await owner.get('/v2/marketplaces?shippingMode=2')).body.map((item: { id: number }) => item.id)).toEqual([
      1, 2, 3,
    ]);
    expect(
      (await owner.get('/v2/marketplaces?isIntegration=true')).body.map((item: { id: number }) => item.id),
    ).toEqual([1, 2, 3]);
    expect((await owner.get('/v2/marketplaces?isIntegration=0')).body.map((item: { id: number }) => item.id)).toEqual([
      4,
    ]);
    expect((await owner.get('/v2/marketplaces?onlyWithIntegration=1')).body).toHaveLength(4);
    const bad = await owner.get('/v2/marketplaces?shippingMode=7');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('shippingMode');
  });

  it('needs a token, every endpoint of the area', async () => {
    const anonymous = t.client();
    const answers = await Promise.all([
      anonymous.get('/v2/marketplaces'),
      anonymous.get(
        '/v2/marketplaces/warehouses?marketplaceId=1&shippingMode=1&fias=29251dcf-00a1-4e34-98d4-5c47484a36d4',
      ),
      anonymous.post('/v2/marketplaces/integration/4', { token: 'demo' }),
      anonymous.post('/v2/marketplaces/settings/4', { fbsEnabled: true }),
      anonymous.delete('/v2/marketplaces/integration/4'),
      anonymous.get('/v2/marketplace-orders/1'),
      anonymous.get('/v2/marketplace-orders/bundles?id=x'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 401, 401]);
    expect(await t.runtime.database.db.selectFrom('marketplace_integrations').select('id').execute()).toEqual([]);
  });
});

describe('marketplace warehouses', () => {
  it('answers the warehouses of a marketplace for a mode in a locality, with the address', async () => {
    const podolsk = await owner.get(
      '/v2/marketplaces/warehouses?marketplaceId=1&shippingMode=1&fias=29251dcf-00a1-4e34-98d4-5c47484a36d4',
    );
    expect(podolsk.status).toBe(200);
    expect(podolsk.body).toEqual([
      {
        id: 1020000101,
        name: expect.stringContaining('Подольск'),
        address: {
          street: 'Комсомольская улица',
          house: '1',
          bulk: 'стр. 4',
          flat: null,
          zipCode: '142100',
          city: {
            countryCode: 'RU',
            name: 'Подольск',
            fias: '29251dcf-00a1-4e34-98d4-5c47484a36d4',
            type: 'г',
            region: 'Московская область',
          },
        },
      },
    ]);
    expect(
      (
        await owner.get(
          '/v2/marketplaces/warehouses?marketplaceId=1&shippingMode=2&fias=29251dcf-00a1-4e34-98d4-5c47484a36d4',
        )
      ).body,
    ).toEqual([]);
  });

  it('requires all three parameters; an unknown marketplace is 404', async () => {
    const missing = await owner.get('/v2/marketplaces/warehouses?marketplaceId=1');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['fias', 'shippingMode']);
    expect((await owner.get('/v2/marketplaces/warehouses?marketplaceId=99&shippingMode=1&fias=x')).status).toBe(404);
  });
});

describe('integration', () => {
  it('names unknown and missing keys (400) and stores nothing', async () => {
    const response = await owner.post('/v2/marketplaces/integration/1', { clientId: '123456', apikey: 'x' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors).toEqual([
      { field: 'apikey', message: expect.stringContaining('is not an integration parameter of Ozon') },
      { field: 'apiKey', message: 'is required' },
    ]);
    expect((await integrations(owner))[0]?.connected).toBe(false);
    expect(fake.calls).toHaveLength(0);
  });

  it('refuses credentials the marketplace refuses (422 with its reason), stores nothing', async () => {
    const ozon = await owner.post('/v2/marketplaces/integration/1', { clientId: '123456', apiKey: 'wrong-key-1234' });
    expect(ozon.status).toBe(422);
    expect(ozon.body).toMatchObject({
      code: 'marketplace_auth_failed',
      message: expect.stringContaining('Invalid Api-Key'),
    });
    const wb = await owner.post('/v2/marketplaces/integration/2', { token: 'not-the-token' });
    expect(wb.body).toMatchObject({
      code: 'marketplace_auth_failed',
      message: expect.stringContaining('token is malformed'),
    });
    const ym = await owner.post('/v2/marketplaces/integration/3', { campaignId: '99', apiKey: fake.yandex.apiKey });
    expect(ym.body).toMatchObject({
      code: 'marketplace_auth_failed',
      message: expect.stringContaining('Access to the campaign is denied'),
    });
    expect((await integrations(owner)).every((item) => !item.connected)).toBe(true);
  });

  it('answers 503 when the marketplace does not answer', async () => {
    const down = await createTestApp({ env: { MARKETPLACE_OZON_URL: 'http://127.0.0.1:9' } });
    try {
      const client = (await down.newAccount()).client;
      const response = await client.post('/v2/marketplaces/integration/1', { clientId: '1', apiKey: 'k' });
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('marketplace_unavailable');
    } finally {
      await down.close();
    }
  });

  it('connects with good credentials (JSON or form), checked with the marketplace with its auth headers, and shows them masked', async () => {
    expect(
      (await owner.post('/v2/marketplaces/integration/1', { clientId: fake.ozon.clientId, apiKey: fake.ozon.apiKey }))
        .status,
    ).toBe(204);
    const check = fake.calls.filter((call) => call.url === '/v1/warehouse/list').at(-1);
    expect(check?.headers).toMatchObject({ 'client-id': fake.ozon.clientId, 'api-key': fake.ozon.apiKey });
    expect(
      (await owner.post('/v2/marketplaces/integration/2', `token=${fake.wildberries.token}`, { form: true })).status,
    ).toBe(204);
    expect(
      (
        await owner.post('/v2/marketplaces/integration/3', {
          campaignId: fake.yandex.campaignId,
          apiKey: fake.yandex.apiKey,
        })
      ).status,
    ).toBe(204);
    const list = await integrations(owner);
    expect(list.slice(0, 3).map((item) => item.connected)).toEqual([true, true, true]);
    expect(list[0]?.integrationParams.map((param) => param.value)).toEqual(['****', '****6789']);
    expect(list[0]?.settings).toEqual({ fbsEnabled: true, fboEnabled: true, dbsEnabled: true });
    expect(list[1]?.integrationParams[0]?.value).toBe('****mnop');
    // another account sees none of it
    expect((await integrations(stranger)).every((item) => !item.connected)).toBe(true);
  });

  it('is account-wide: a shop key is 403; an unknown marketplace 404', async () => {
    expect((await shopKey.post('/v2/marketplaces/integration/4', { token: 'demo' })).status).toBe(403);
    expect((await owner.post('/v2/marketplaces/integration/77', { token: 'demo' })).status).toBe(404);
  });
});

describe('settings', () => {
  it('changes the modes read; only modes the marketplace offers', async () => {
    expect((await owner.post('/v2/marketplaces/settings/1', { fboEnabled: false })).status).toBe(204);
    expect((await integrations(owner))[0]?.settings).toEqual({ fbsEnabled: true, fboEnabled: false, dbsEnabled: true });
    expect((await owner.post('/v2/marketplaces/integration/4', { token: 'demo-token' })).status).toBe(204);
    const before = (await integrations(owner))[3]?.settings;
    const refused = await owner.post('/v2/marketplaces/settings/4', 'fboEnabled=1&fbsEnabled=0', { form: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    expect(refused.body.errors).toEqual([{ field: 'fboEnabled', message: expect.stringContaining('offers no FBO') }]);
    const empty = await owner.post('/v2/marketplaces/settings/4', {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((error: { field: string }) => error.field)).toEqual(['fbsEnabled']);
    const notFlag = await owner.post('/v2/marketplaces/settings/4', { fbsEnabled: 'maybe' });
    expect(notFlag.status).toBe(400);
    expect(notFlag.body.errors.map((error: { field: string }) => error.field)).toEqual(['fbsEnabled']);
    // nothing written by any of them
    expect((await integrations(owner))[3]?.settings).toEqual(before);
  });

  it('is 409 for a marketplace not connected, 404 unknown, 403 for a shop key', async () => {
    const response = await stranger.post('/v2/marketplaces/settings/1', { fbsEnabled: true });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('marketplace_not_connected');
    expect((await owner.post('/v2/marketplaces/settings/99', { fbsEnabled: true })).status).toBe(404);
    expect((await shopKey.post('/v2/marketplaces/settings/1', { fbsEnabled: true })).status).toBe(403);
  });
});

describe('credentials at rest and in logs', () => {
  it('never appear in clear in any table of the database, any response or any log line', async () => {
    const secrets = [fake.ozon.apiKey, fake.wildberries.token, fake.yandex.apiKey];
    const db = t.runtime.database.db;
    const dump: string[] = [];
    if (t.runtime.database.kind === 'sqlite') {
      const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
      for (const { name } of tables.rows)
        dump.push(JSON.stringify((await sql`select * from ${sql.table(name)}`.execute(db)).rows));
    } else {
      const tables = await sql<{
        name: string;
      }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db);
      for (const { name } of tables.rows)
        dump.push(JSON.stringify((await sql`select row_to_json(t) as row from ${sql.table(name)} t`.execute(db)).rows));
    }
    const text = dump.join('\n');
    // the credentials are there, sealed
    expect(text).toMatch(/v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./);
    expect(text).toContain('****6789');
    expect(text.length).toBeGreaterThan(1000);
    const responses = JSON.stringify([await integrations(owner)]);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(responses).not.toContain(secret);
      expect(logLines.join('')).not.toContain(secret);
    }
    expect(logLines.length).toBeGreaterThan(10);
  });
});

describe('product bindings', () => {
  it("are validated against the marketplace's bindingNames and stored normalised", async () => {
    const good = await owner.post('/v2/products', {
      name: 'Кружка',
      vendorCode: 'MUG-1',
      bindings: [{ marketplaceId: '1', offerId: ' MUG-OZ ', sku: 12345 }],
    });
    expect(good.status).toBe(201);
    expect((await owner.get(`/v2/products/${good.body.id}`)).body.bindings).toEqual([
      { marketplaceId: 1, offerId: 'MUG-OZ', sku: '12345' },
    ]);
    const bad = await owner.post('/v2/products', {
      name: 'Кружка',
      vendorCode: 'MUG-2',
      bindings: [{ marketplaceId: 2, sku: 'x' }, { marketplaceId: 42, article: 'y' }, { marketplaceId: 3 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'bindings[0].sku', message: expect.stringContaining('is not a binding of Wildberries') },
      { field: 'bindings[1].marketplaceId', message: expect.stringContaining('must be the id of a marketplace') },
      { field: 'bindings[2]', message: expect.stringContaining('names no identifier') },
    ]);
    expect((await owner.get('/v2/products?vendorCode=MUG-2')).body).toEqual([]);
  });

  it('keep an identifier to one product per marketplace within the account (409), other accounts and marketplaces apart', async () => {
    const taken = await owner.post('/v2/products', {
      name: 'Кружка 2',
      vendorCode: 'MUG-3',
      bindings: [{ marketplaceId: 1, offerId: 'MUG-OZ' }],
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('duplicate_binding');
    expect((await owner.get('/v2/products?vendorCode=MUG-3')).body).toEqual([]);
    expect(
      (
        await owner.post('/v2/products', {
          name: 'Кружка 2',
          vendorCode: 'MUG-3',
          bindings: [{ marketplaceId: 3, sku: 'MUG-OZ' }],
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await stranger.post('/v2/products', {
          name: 'Кружка',
          vendorCode: 'MUG-1',
          bindings: [{ marketplaceId: 1, offerId: 'MUG-OZ' }],
        })
      ).status,
    ).toBe(201);
    // freed by a change of the first product
    const [first] = (await owner.get('/v2/products?vendorCodes[]=MUG-1')).body;
    expect((await owner.patch(`/v2/products/${first.id}`, { bindings: [] })).status).toBe(204);
    expect(
      (
        await owner.post('/v2/products', {
          name: 'Кружка 4',
          vendorCode: 'MUG-4',
          bindings: [{ marketplaceId: 1, offerId: 'MUG-OZ' }],
        })
      ).status,
    ).toBe(201);
  });
});

describe('disconnect (extension)', () => {
  it('deletes the integration and its sealed credentials, keeps the orders read, and connects again from the start', async () => {
    const seller = await t.newAccount('Disconnecting seller');
    expect((await seller.client.post('/v2/marketplaces/integration/4', { token: 'demo-token' })).status).toBe(204);
    expect((await seller.client.post('/v2/marketplaces/settings/4', { dbsEnabled: false })).status).toBe(204);
    await t.runtime.services.marketplaceOrders.poll(seller.accountId, 4);
    const read = (await seller.client.get('/v2/marketplace-orders?perPage=1000')).body as unknown[];
    expect(read.length).toBeGreaterThan(0);

    // another account's, a shop key and an unknown marketplace touch nothing
    expect((await stranger.delete('/v2/marketplaces/integration/4')).status).toBe(404);
    expect((await owner.delete('/v2/marketplaces/integration/77')).status).toBe(404);
    expect((await shopKey.delete('/v2/marketplaces/integration/1')).status).toBe(403);
    expect((await integrations(seller.client)).find((item) => item.id === 4)?.connected).toBe(true);

    expect((await seller.client.delete('/v2/marketplaces/integration/4')).status).toBe(204);
    expect((await integrations(seller.client)).find((item) => item.id === 4)).toMatchObject({ connected: false });
    const stored = await t.runtime.database.db
      .selectFrom('marketplace_integrations')
      .select('marketplace_id')
      .where('account_id', '=', seller.accountId)
      .execute();
    expect(stored).toEqual([]);
    // nothing more is read; what was read stays
    expect(await t.runtime.services.marketplaceOrders.poll(seller.accountId, 4)).toMatchObject({
      fetched: 0,
      stored: 0,
    });
    expect((await seller.client.get('/v2/marketplace-orders?perPage=1000')).body).toHaveLength(read.length);
    expect((await seller.client.delete('/v2/marketplaces/integration/4')).status).toBe(404);
    expect((await seller.client.post('/v2/marketplaces/settings/4', { fbsEnabled: true })).status).toBe(409);

    // connected again: the settings start over, and the orders read before are not stored twice
    expect((await seller.client.post('/v2/marketplaces/integration/4', { token: 'demo-token' })).status).toBe(204);
    expect((await integrations(seller.client)).find((item) => item.id === 4)?.settings).toMatchObject({
      fbsEnabled: true,
      dbsEnabled: true,
    });
    await t.runtime.services.marketplaceOrders.poll(seller.accountId, 4);
    const again = (await seller.client.get('/v2/marketplace-orders?perPage=1000')).body as Array<{
      marketplaceOrderNumber: string;
    }>;
    expect(new Set(again.map((order) => order.marketplaceOrderNumber)).size).toBe(again.length);
  });
});
