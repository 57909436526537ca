/**
 * The address routes through HTTP: our own, the widget's, the DaData-compatible ones, the account's
 * DaData key (sealed, never shown) and DaData asked where the register has no house (a fake DaData
 * from its documentation: 401 wrong key, 403 spent limit, 429 too fast).
 */
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  DADATA_FAST_KEY,
  DADATA_KEY,
  DADATA_SECRET,
  DADATA_SPENT_KEY,
  startFakeDadata,
  type FakeDadata,
} from '../../../test/support/fake-dadata.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { FIXTURE_IDS, fixtureGuid, writeAddressFixture } from './test-fixture.js';

const PAGE = 'https://shop.example';
let t: TestApp;
let fake: FakeDadata;
let owner: ApiClient;
let ownerToken: string;
let shopKey: ApiClient;
let widgetKey: string;
let other: ApiClient;

beforeAll(async () => {
  fake = await startFakeDadata();
  t = await createTestApp({ env: { DADATA_SUGGESTIONS_URL: fake.url, DADATA_CLEANER_URL: fake.url } });
  await writeAddressFixture(t.runtime.database.db);
  t.runtime.services.addresses.forgetLoaded();
  const account = await t.newAccount('Addresses');
  owner = account.client;
  ownerToken = account.token;
  other = (await t.newAccount('Other')).client;
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  const shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
  shopKey = t.client((await owner.get(`/v2/shops/${shopId}`)).body.apiKey);
  widgetKey = (await owner.post(`/v2/shops/${shopId}/widget-key`, { allowedOrigins: [PAGE] })).body.publicKey;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const houseGuid = async (key: string) => {
  const row = await t.runtime.database.db
    .selectFrom('address_houses')
    .select(['guid'])
    .where('parent_id', '=', 100)
    .where('search_key', '=', key)
    .executeTakeFirstOrThrow();
  return row.guid;
};

describe('our routes', () => {
  it('suggests with an account token and with a shop key; refuses no token and bad input', async () => {
    const answer = await owner.get('/v2/addresses/suggest?query=москва%20ленина%205&count=3');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.suggestions.map((each: { value: string }) => each.value)).toEqual([
      'г Москва, ул Ленина, д 5',
      'г Москва, ул Ленина, д 5 к 1',
      'г Москва, ул Ленина, д 5 к 2',
    ]);
    expect((await shopKey.get('/v2/addresses/suggest?query=мос')).status).toBe(200);
    expect((await t.client().get('/v2/addresses/suggest?query=мос')).status).toBe(401);
    const tooMany = await owner.get('/v2/addresses/suggest?query=мос&count=21');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'count' }] });
    expect(typeof tooMany.body.message).toBe('string');
    const badLevel = await owner.get('/v2/addresses/suggest?query=мос&toLevel=planet');
    expect(badLevel.status).toBe(400);
    expect(badLevel.body.errors[0].field).toBe('toLevel');
    const badLocality = await owner.get('/v2/addresses/suggest?query=мос&locality=moscow');
    expect(badLocality.body.errors[0].field).toBe('locality');
    const russian = await owner.get('/v2/addresses/suggest?query=мос&count=0', {
      headers: { 'accept-language': 'ru' },
    });
    expect(russian.body.message).toMatch(/[а-я]/);
  });

  it('finds an address by its FIAS id: a city, a street, a house, a flat', async () => {
    const city = await owner.get(`/v2/addresses/${FIXTURE_IDS.kazan}`);
    expect(city.status, city.text).toBe(200);
    expect(city.body).toMatchObject({ value: 'г Казань', data: { cityFiasId: FIXTURE_IDS.kazan, fiasLevel: 4 } });
    const street = await owner.get(`/v2/addresses/${fixtureGuid('o', 100)}`);
    expect(street.body).toMatchObject({ value: 'г Москва, ул Ленина', data: { fiasLevel: 7 } });
    const house = await owner.get(`/v2/addresses/${await houseGuid('5к2')}`);
    expect(house.body).toMatchObject({ value: 'г Москва, ул Ленина, д 5 к 2', data: { fiasLevel: 8, qcGeo: 0 } });
    const flat = await owner.get(`/v2/addresses/${fixtureGuid('f', 100_001)}`);
    expect(flat.body).toMatchObject({ data: { fiasLevel: 9, flat: '1' } });
    const unknown = await owner.get('/v2/addresses/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    const bad = await owner.get('/v2/addresses/not-a-fias-id');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('fiasId');
  });

  it('geolocates the houses nearest a point, nearest first', async () => {
    const house = (await owner.get(`/v2/addresses/${await houseGuid('3')}`)).body;
    const answer = await owner.get(
      `/v2/addresses/geolocate?lat=${house.data.geoLat}&lon=${house.data.geoLon}&radius=50&count=2`,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.suggestions[0].value).toBe('г Москва, ул Ленина, д 3');
    expect(answer.body.suggestions.length).toBeLessThanOrEqual(2);
    const bad = await owner.get('/v2/addresses/geolocate?lat=91&lon=37');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('lat');
  });
});

describe("the account's DaData key", () => {
  it('is set by an account token, kept sealed, shown masked, never returned', async () => {
    expect((await owner.get('/v2/account/address-settings')).body).toEqual({
      dadataApiKey: null,
      dadataSecretKey: null,
    });
    const set = await owner.put('/v2/account/address-settings', {
      dadataApiKey: DADATA_KEY,
      dadataSecretKey: DADATA_SECRET,
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({
      dadataApiKey: `****${DADATA_KEY.slice(-4)}`,
      dadataSecretKey: `****${DADATA_SECRET.slice(-4)}`,
    });
    expect(set.text).not.toContain(DADATA_KEY);
    const stored = await sql<{ dadata_keys: string }>`select dadata_keys from address_settings`.execute(
      t.runtime.database.db,
    );
    expect(stored.rows[0].dadata_keys).not.toContain(DADATA_KEY);
    expect(stored.rows[0].dadata_keys).not.toContain(DADATA_SECRET);
    expect((await shopKey.put('/v2/account/address-settings', { dadataApiKey: DADATA_KEY })).status).toBe(403);
    expect((await shopKey.get('/v2/account/address-settings')).status).toBe(403);
    const short = await owner.put('/v2/account/address-settings', { dadataApiKey: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.errors[0].field).toBe('dadataApiKey');
    expect((await t.client().get('/v2/account/address-settings')).status).toBe(401);
    expect((await other.get('/v2/account/address-settings')).body.dadataApiKey).toBeNull();
  });

  it('asks DaData where the register has no house, remembers its answer, and cleans with it', async () => {
    await owner.put('/v2/account/address-settings', { dadataApiKey: DADATA_KEY, dadataSecretKey: DADATA_SECRET });
    const before = fake.calls.length;
    const first = await owner.get('/v2/addresses/suggest?query=москва%20ленина%2077');
    expect(first.body.suggestions[0]).toMatchObject({
      value: 'г Москва, ул Ленина, д 77',
      data: { house: '77', fiasLevel: 8, houseFiasId: '7d0f3e5a-0000-4000-8000-000000000077' },
    });
    expect(fake.calls.length).toBe(before + 1);
    expect(fake.calls[fake.calls.length - 1]).toMatchObject({ path: '/suggest/address', key: DADATA_KEY });
    await owner.get('/v2/addresses/suggest?query=москва%20ленина%2077');
    expect(fake.calls.length).toBe(before + 1);
    // a house the register has: DaData is not asked
    await owner.get('/v2/addresses/suggest?query=москва%20ленина%2012');
    expect(fake.calls.length).toBe(before + 1);
    // another account without a key: the register alone
    const withoutKey = await other.get('/v2/addresses/suggest?query=москва%20ленина%2077');
    expect(withoutKey.body.suggestions.every((each: { data: { fiasLevel: number } }) => each.data.fiasLevel < 8)).toBe(
      true,
    );
    const cleaned = (await owner.post('/v2/addresses/clean', { address: 'Москва, Ленина 77' })).body.addresses[0];
    expect(cleaned).toMatchObject({ quality: 'certain', house: '77', result: 'г Москва, ул Ленина, д 77' });
    expect(fake.calls[fake.calls.length - 1]).toMatchObject({
      path: '/clean/address',
      key: DADATA_KEY,
      secret: DADATA_SECRET,
    });
  });

  it("remembers the register's answer for every caller until the register changes, never one DaData may give", async () => {
    const path = '/v2/addresses/suggest?query=москва%20тверс&count=5';
    const first = await other.get(path);
    expect(first.body.suggestions[0].value).toBe('г Москва, ул Тверская');
    // the same bytes to another account and another key: the register is the same for everyone
    expect((await owner.get(path)).text).toBe(first.text);
    expect((await shopKey.get(path)).text).toBe(first.text);
    // remembered gzipped: a browser, which takes gzip, is sent those bytes; the others the plain ones
    const zipped = await t.app.inject({
      url: `/v2/addresses/suggest?query=${encodeURIComponent('москва тверс')}&count=5`,
      headers: { authorization: `Bearer ${ownerToken}`, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(first.text);
    // each route in its own shape, remembered apart
    const dadata = await t.app.inject({
      method: 'POST',
      url: '/dadata/suggestions/api/4_1/rs/suggest/address',
      headers: { authorization: `Token ${ownerToken}` },
      payload: { query: 'москва тверс', count: 5 },
    });
    expect(dadata.json().suggestions[0]).toMatchObject({ value: 'г Москва, ул Тверская', data: { fias_level: '7' } });
    // the register changes (an import makes the directory read it again): the answer is made anew
    await t.runtime.database.db
      .updateTable('address_objects')
      .set({ popularity: 5000 })
      .where('name', '=', 'Тверской')
      .execute();
    t.runtime.services.addresses.forgetLoaded();
    expect((await other.get(path)).body.suggestions[0].value).toBe('г Москва, б-р Тверской');
    // a house the register lacks: asked first by an account without a key, then by the owner, whose DaData answers
    const house = '/v2/addresses/suggest?query=москва%20ленина%2077&count=3';
    expect(
      (await other.get(house)).body.suggestions.every(
        (each: { data: { fiasLevel: number } }) => each.data.fiasLevel < 8,
      ),
    ).toBe(true);
    expect((await owner.get(house)).body.suggestions[0]).toMatchObject({ value: 'г Москва, ул Ленина, д 77' });
  });

  it("answers from the register alone when DaData refuses the key, the day's limit or the pace", async () => {
    for (const key of ['wrong-dadata-key-00000000', DADATA_SPENT_KEY, DADATA_FAST_KEY]) {
      await owner.put('/v2/account/address-settings', { dadataApiKey: key, dadataSecretKey: DADATA_SECRET });
      const answer = await owner.get(`/v2/addresses/suggest?query=${encodeURIComponent(`москва ленина 76 ${key}`)}`);
      expect(answer.status, answer.text).toBe(200);
      const cleaned = await owner.post('/v2/addresses/clean', { address: 'Москва, Ленина 78' });
      expect(cleaned.status).toBe(200);
      expect(cleaned.body.addresses[0].quality).toBe('check');
    }
    await owner.put('/v2/account/address-settings', { dadataApiKey: null });
    expect((await owner.get('/v2/account/address-settings')).body.dadataApiKey).toBeNull();
  });
});

describe("the widget's suggestions", () => {
  it("answer a page of the key's origin, refuse another origin and a missing key", async () => {
    const url = `/widget/v1/api/addresses/suggest?key=${widgetKey}&query=${encodeURIComponent('москва твер')}`;
    const answer = await t.app.inject({ method: 'GET', url, headers: { origin: PAGE } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(PAGE);
    // an answer that differs by origin says so beside its encoding, so no cache hands it to another page
    expect(answer.headers.vary).toBe('Origin, Accept-Encoding');
    expect(JSON.parse(answer.body).suggestions[0].value).toMatch(/^г Москва, (ул Тверская|б-р Тверской)/);
    const elsewhere = await t.app.inject({ method: 'GET', url, headers: { origin: 'https://evil.example' } });
    expect(elsewhere.statusCode).toBe(403);
    const noKey = await t.app.inject({ method: 'GET', url: '/widget/v1/api/addresses/suggest?query=мос' });
    expect(noKey.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'GET',
      url: `/widget/v1/api/addresses/suggest?key=${widgetKey}&query=`,
      headers: { origin: PAGE },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the DaData-compatible routes', () => {
  const dadata = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/dadata${path}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });

  it("suggest in DaData's shapes with DaData's Token header: an account token, a shop key, a widget key", async () => {
    const body = {
      query: 'москва ленина 5к2',
      count: 5,
      locations: [{ city_fias_id: FIXTURE_IDS.moscow }],
      from_bound: { value: 'street' },
      to_bound: { value: 'house' },
    };
    const answer = await dadata('/suggestions/api/4_1/rs/suggest/address', body, {
      authorization: `Token ${ownerToken}`,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const [first] = JSON.parse(answer.body).suggestions;
    expect(first).toMatchObject({
      value: 'г Москва, ул Ленина, д 5 к 2',
      unrestricted_value: '101000, г Москва, ул Ленина, д 5 к 2',
      data: {
        postal_code: '101000',
        region_fias_id: FIXTURE_IDS.moscow,
        city_with_type: 'г Москва',
        street_with_type: 'ул Ленина',
        house_type: 'д',
        house: '5',
        block_type: 'к',
        block: '2',
        fias_level: '8',
        qc_geo: '0',
        metro: null,
      },
    });
    expect(typeof first.data.geo_lat).toBe('string');
    const shop = await dadata(
      '/suggestions/api/4_1/rs/suggest/address',
      { query: 'мос' },
      {
        authorization: `Token ${shopKey.token}`,
      },
    );
    expect(shop.statusCode).toBe(200);
    const page = await dadata(
      '/suggestions/api/4_1/rs/suggest/address',
      { query: 'мос' },
      {
        authorization: `Token ${widgetKey}`,
        origin: PAGE,
      },
    );
    expect(page.statusCode).toBe(200);
    expect(page.headers['access-control-allow-origin']).toBe(PAGE);
    const elsewhere = await dadata(
      '/suggestions/api/4_1/rs/suggest/address',
      { query: 'мос' },
      {
        authorization: `Token ${widgetKey}`,
        origin: 'https://evil.example',
      },
    );
    expect(elsewhere.statusCode).toBe(403);
    expect((await dadata('/suggestions/api/4_1/rs/suggest/address', { query: 'мос' })).statusCode).toBe(401);
    const wrong = await dadata(
      '/suggestions/api/4_1/rs/suggest/address',
      { query: 'мос' },
      {
        authorization: 'Token nonsense',
      },
    );
    expect(wrong.statusCode).toBe(401);
    const bad = await dadata(
      '/suggestions/api/4_1/rs/suggest/address',
      { query: 'мос', count: 100 },
      {
        authorization: `Token ${ownerToken}`,
      },
    );
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).errors[0].field).toBe('count');
  });

  it("answers the browser's preflight of a DaData component on a shop's page", async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/dadata/suggestions/api/4_1/rs/suggest/address',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.statusCode).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe(PAGE);
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
  });

  it('answers the status and the IP location its components ask for', async () => {
    const auth = { authorization: `Token ${widgetKey}`, origin: PAGE };
    const status = await t.app.inject({
      method: 'GET',
      url: '/dadata/suggestions/api/4_1/rs/status/address',
      headers: auth,
    });
    expect(status.statusCode, status.body).toBe(200);
    expect(JSON.parse(status.body)).toMatchObject({ search: true, enrich: true });
    const located = await t.app.inject({
      method: 'GET',
      url: '/dadata/suggestions/api/4_1/rs/iplocate/address',
      headers: auth,
    });
    expect(JSON.parse(located.body)).toEqual({ location: null });
    const anonymous = await t.app.inject({ method: 'GET', url: '/dadata/suggestions/api/4_1/rs/status/address' });
    expect(anonymous.statusCode).toBe(401);
  });

  it("finds by id and geolocates in DaData's shapes", async () => {
    const auth = { authorization: `Token ${ownerToken}` };
    const found = await dadata('/suggestions/api/4_1/rs/findById/address', { query: FIXTURE_IDS.kazan }, auth);
    expect(JSON.parse(found.body).suggestions[0]).toMatchObject({ value: 'г Казань', data: { city: 'Казань' } });
    const none = await dadata('/suggestions/api/4_1/rs/findById/address', { query: 'nothing' }, auth);
    expect(JSON.parse(none.body)).toEqual({ suggestions: [] });
    const house = (await owner.get(`/v2/addresses/${await houseGuid('3')}`)).body;
    const near = await dadata(
      '/suggestions/api/4_1/rs/geolocate/address',
      { lat: house.data.geoLat, lon: house.data.geoLon, radius_meters: 30, count: 1 },
      auth,
    );
    expect(JSON.parse(near.body).suggestions[0].value).toBe('г Москва, ул Ленина, д 3');
  });

  it("cleans in DaData's shape with Token and X-Secret; a widget key cannot clean", async () => {
    const answer = await dadata('/api/v1/clean/address', ['мск сухонская 11 89', 'ул. Ленина 5к2 кв 3, мск'], {
      authorization: `Token ${ownerToken}`,
      'x-secret': 'anything',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const [unknown, known] = JSON.parse(answer.body);
    expect(unknown).toMatchObject({ source: 'мск сухонская 11 89', qc: 1, qc_house: 10 });
    expect(known).toMatchObject({
      source: 'ул. Ленина 5к2 кв 3, мск',
      result: 'г Москва, ул Ленина, д 5 к 2, кв 3',
      postal_code: '101000',
      region: 'Москва',
      street: 'Ленина',
      house: '5',
      block: '2',
      flat: '3',
      qc: 0,
      qc_complete: 0,
      qc_house: 2,
      qc_geo: 0,
    });
    const page = await dadata('/api/v1/clean/address', ['Москва'], {
      authorization: `Token ${widgetKey}`,
      origin: PAGE,
    });
    expect(page.statusCode).toBe(401);
    const tooMany = await dadata(
      '/api/v1/clean/address',
      Array.from({ length: 51 }, () => 'Москва'),
      {
        authorization: `Token ${ownerToken}`,
      },
    );
    expect(tooMany.statusCode).toBe(400);
  });
});

describe('refusals in the caller’s language', () => {
  it('says in Russian what is wrong with a FIAS id and an empty cleaning body', async () => {
    const ru = { headers: { 'accept-language': 'ru-RU,ru;q=0.9' } };
    const badId = await owner.get('/v2/addresses/not-a-fias-id', ru);
    expect(badId.body.errors[0].message).toMatch(/^должно быть идентификатором ФИАС/);
    const empty = await owner.post('/v2/addresses/clean', {}, ru);
    expect(empty.body.errors[0].message).toMatch(/^укажите address/);
    expect(empty.body.message).toMatch(/^Проверьте поле address/);
  });
});
