import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { productBody, shopBody, warehouseBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
});
afterAll(async () => t.close());

async function countProducts(client: ApiClient): Promise<number> {
  return Number((await client.get('/v2/products?perPage=1')).headers['x-total-count']);
}

const ids = (response: { body: { id: number }[] }) => response.body.map((product) => product.id);

describe('products: happy path', () => {
  it('creates, reads, replaces, patches and deletes a product', async () => {
    const created = await owner.post('/v2/products', productBody({ vendorCode: 'CYCLE-1' }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number) });
    const id = created.body.id;

    const read = await owner.get(`/v2/products/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ id, ...productBody({ vendorCode: 'CYCLE-1' }), quantity: null, rests: [] });

    const replaced = await owner.put(`/v2/products/${id}`, {
      name: 'Футболка синяя',
      vendorCode: 'CYCLE-1',
      weight: 0.3,
    });
    expect(replaced.status).toBe(204);
    expect(replaced.text).toBe('');
    expect((await owner.get(`/v2/products/${id}`)).body).toEqual({
      id,
      name: 'Футболка синяя',
      nameEn: null,
      vendorCode: 'CYCLE-1',
      vat: null,
      priceDeclared: null,
      priceCod: null,
      weight: 0.3,
      volume: null,
      dimensions: { width: null, height: null, length: null },
      quantity: null,
      rests: [],
      expirityDays: null,
      photo: null,
      tnved: null,
      barcodes: [],
      brand: null,
      producingCountry: null,
      markCodeRequired: false,
      batchAccounting: false,
      bindings: [],
    });

    const patched = await owner.patch(`/v2/products/${id}`, {
      dimensions: { height: 4 },
      vat: 10,
      priceCod: 99.99,
      barcodes: ['123'],
      producingCountry: 'cn',
    });
    expect(patched.status).toBe(204);
    const afterPatch = (await owner.get(`/v2/products/${id}`)).body;
    expect(afterPatch).toMatchObject({
      name: 'Футболка синяя',
      weight: 0.3,
      dimensions: { width: null, height: 4, length: null },
      vat: 10,
      priceCod: 99.99,
      barcodes: ['123'],
      producingCountry: 'CN',
    });
    expect((await owner.patch(`/v2/products/${id}`, { weight: null })).status).toBe(204);
    expect((await owner.get(`/v2/products/${id}`)).body).toMatchObject({ weight: null, vat: 10 });

    expect((await owner.delete(`/v2/products/${id}`)).status).toBe(204);
    expect((await owner.get(`/v2/products/${id}`)).status).toBe(404);
    expect((await owner.delete(`/v2/products/${id}`)).status).toBe(404);
    // The vendor code is free again once the product left the catalogue.
    expect((await owner.post('/v2/products', productBody({ vendorCode: 'CYCLE-1' }))).status).toBe(201);
  });

  it('lists with every filter, sort, paging headers and newest first', async () => {
    const account = (await t.newAccount('Lister')).client;
    const made: number[] = [];
    for (const [name, vendorCode, tnved, barcodes, priceCod] of [
      ['Ёлочная игрушка', 'TOY-001', '9505100000', ['4600000000017'], 300],
      ['Шар ЁЛОЧНЫЙ красный', 'TOY-002', '9505100000', ['4600000000024', '2000000000015'], 150],
      ['Гирлянда 100%', 'LIGHT_1', '9405400000', [], 990],
    ] as const) {
      made.push(
        (await account.post('/v2/products', productBody({ name, vendorCode, tnved, barcodes, priceCod }))).body.id,
      );
    }
    const all = await account.get('/v2/products?perPage=2');
    expect(all.status).toBe(200);
    expect(all.headers['x-total-count']).toBe('3');
    expect(all.headers['x-page']).toBe('1');
    expect(all.headers['x-per-page']).toBe('2');
    expect(ids(all)).toEqual([made[2], made[1]]);
    expect(ids(await account.get('/v2/products?perPage=2&page=2'))).toEqual([made[0]]);
    expect((await account.get('/v2/products?perPage=2&page=2')).headers['x-total-count']).toBe('3');
    const beyond = await account.get('/v2/products?perPage=2&page=5');
    expect(beyond.body).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('3');
    expect(
      (await account.get(`/v2/products?name=${encodeURIComponent('ёлочн')}&perPage=1`)).headers['x-total-count'],
    ).toBe('2');

    expect(ids(await account.get(`/v2/products?name=${encodeURIComponent('ёлочн')}`)).sort()).toEqual(
      [made[0], made[1]].sort(),
    );
    expect(ids(await account.get(`/v2/products?name=${encodeURIComponent('ЕЛОЧНЫЙ')}`))).toEqual([made[1]]);
    expect(ids(await account.get(`/v2/products?name=${encodeURIComponent('100%')}`))).toEqual([made[2]]);
    expect((await account.get(`/v2/products?name=${encodeURIComponent('%')}`)).body).toHaveLength(1);
    expect(ids(await account.get('/v2/products?vendorCode=toy-00'))).toEqual([made[1], made[0]]);
    expect(ids(await account.get('/v2/products?vendorCode=t_1'))).toEqual([made[2]]);
    expect(ids(await account.get('/v2/products?tnved=9405'))).toEqual([made[2]]);
    expect(ids(await account.get('/v2/products?barcode=00000000015'))).toEqual([made[1]]);
    expect(ids(await account.get(`/v2/products?ids[]=${made[0]}&ids[]=${made[2]}`))).toEqual([made[2], made[0]]);
    expect(ids(await account.get(`/v2/products?ids=${made[0]},${made[1]}`))).toEqual([made[1], made[0]]);
    expect(
      ids(await account.get('/v2/products?vendorCodes[0]=TOY-001&vendorCodes[1]=LIGHT_1&vendorCodes[2]=TOY-00')),
    ).toEqual([made[2], made[0]]);
    expect(ids(await account.get('/v2/products?sort=priceCod'))).toEqual([made[1], made[0], made[2]]);
    expect(ids(await account.get('/v2/products?sort=priceCod&desc=true'))).toEqual([made[2], made[0], made[1]]);
    expect(ids(await account.get('/v2/products?sort=name&desc=false'))).toEqual([made[2], made[0], made[1]]);
    expect(ids(await account.get('/v2/products?sort=id&desc=false'))).toEqual(made);
    const unpriced = (await account.post('/v2/products', productBody({ vendorCode: 'NO-PRICE', priceCod: null }))).body
      .id;
    expect(ids(await account.get('/v2/products?sort=priceCod')).at(-1)).toBe(unpriced);
    expect(ids(await account.get('/v2/products?sort=priceCod&desc=true')).at(-1)).toBe(unpriced);
    expect((await account.delete(`/v2/products/${unpriced}`)).status).toBe(204);
    // No goods are stored at fulfilment warehouses until the fulfilment area adds stock.
    const atFulfilment = await account.get('/v2/products?fulfilmentWarehouseId=1');
    expect(atFulfilment.status).toBe(200);
    expect(atFulfilment.body).toEqual([]);
    expect(atFulfilment.headers['x-total-count']).toBe('0');
  });

  it('keeps substring search in step with creates, changes, imports and deletes', async () => {
    const account = (await t.newAccount('Search sync')).client;
    const id = (await account.post('/v2/products', productBody({ vendorCode: 'SYNC-1', name: 'Самовар тульский' })))
      .body.id;
    const byName = async (needle: string) => ids(await account.get(`/v2/products?name=${encodeURIComponent(needle)}`));
    expect(await byName('тульск')).toEqual([id]);
    expect((await account.patch(`/v2/products/${id}`, { name: 'Чайник электрический' })).status).toBe(204);
    expect(await byName('тульск')).toEqual([]);
    expect(await byName('ЭЛЕКТРИЧ')).toEqual([id]);
    expect(
      (await account.put(`/v2/products/${id}`, { name: 'Чайник заварочный', vendorCode: 'SYNC-RENAMED' })).status,
    ).toBe(204);
    expect(ids(await account.get('/v2/products?vendorCode=renamed'))).toEqual([id]);
    expect(await byName('чайник')).toEqual([id]);
    const quoted = (
      await account.post('/v2/products', productBody({ vendorCode: 'QUOTE-1', name: 'Конфеты "Мишка" (1/2 кг)' }))
    ).body.id;
    for (const needle of ['"мишка"', 'ка" (', '"', 'ет', '(1/2', 'AND', 'мишка OR']) {
      expect(await byName(needle), needle).toEqual(needle === 'AND' || needle === 'мишка OR' ? [] : [quoted]);
    }
    expect((await account.delete(`/v2/products/${id}`)).status).toBe(204);
    expect(await byName('чайник')).toEqual([]);
    expect(ids(await account.get('/v2/products?vendorCode=sync'))).toEqual([]);
  });

  it('publishes the allowed sort fields in OpenAPI', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const sort = document.paths['/v2/products'].get.parameters.find(
      (parameter: { name: string }) => parameter.name === 'sort',
    );
    expect(sort.schema.enum).toEqual([
      'id',
      'name',
      'vendorCode',
      'priceDeclared',
      'priceCod',
      'weight',
      'brand',
      'tnved',
    ]);
    expect(document.paths['/v2/products/import/template'].get).toBeDefined();
    expect(document.paths['/v2/products/import'].post).toBeDefined();
  });

  it('takes the PHP form-encoded spelling of the same product', async () => {
    const json = await owner.post(
      '/v2/products',
      productBody({ vendorCode: 'FORM-JSON', bindings: [{ marketplaceId: 3, sku: 'YM-1' }] }),
    );
    const form = await owner.post(
      '/v2/products',
      {
        ...productBody({ vendorCode: 'FORM-PHP', bindings: [{ marketplaceId: 3, sku: 'YM-2' }] }),
        id: 999,
        quantity: 5,
        rests: [{ a: 1 }],
        unknownField: 'x',
      },
      { form: true },
    );
    expect(form.status).toBe(201);
    const [a, b] = await Promise.all([
      owner.get(`/v2/products/${json.body.id}`),
      owner.get(`/v2/products/${form.body.id}`),
    ]);
    expect({ ...b.body, id: 0, vendorCode: '', bindings: [] }).toEqual({
      ...a.body,
      id: 0,
      vendorCode: '',
      bindings: [],
    });
    expect(b.body.bindings).toEqual([{ marketplaceId: 3, sku: 'YM-2' }]);
    const patched = await owner.patch(
      `/v2/products/${form.body.id}`,
      'vat=0&markCodeRequired=1&dimensions%5Bwidth%5D=11',
      { form: true },
    );
    expect(patched.status).toBe(204);
    expect((await owner.get(`/v2/products/${form.body.id}`)).body).toMatchObject({
      vat: 0,
      markCodeRequired: true,
      dimensions: { width: 11, height: 3, length: 25 },
    });
  });
});

describe('products: bad input', () => {
  it('refuses values outside the contract, naming every field, writing nothing', async () => {
    const before = await countProducts(owner);
    const response = await owner.post(
      '/v2/products',
      productBody({ vendorCode: 'BAD-1', dimensions: { width: 0, height: 1000, length: 1.5 } }),
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors).toEqual([
      { field: 'dimensions.width', message: 'must be at least 1' },
      { field: 'dimensions.height', message: 'must be at most 999' },
      // "... or null" once Nullable reports the type list; either reads well.
      { field: 'dimensions.length', message: expect.stringMatching(/^must be a whole number( or null)?$/) },
    ]);
    const cases: [Record<string, unknown>, { field: string; message: string }][] = [
      [{ vat: 18 }, { field: 'vat', message: 'must be one of: 0, 10, 20, null' }],
      [{ expirityDays: 1000 }, { field: 'expirityDays', message: 'must be at most 999' }],
      [{ photo: 'not a url' }, { field: 'photo', message: 'must be an http:// or https:// URL' }],
      [{ photo: 'ftp://example.com/a.jpg' }, { field: 'photo', message: 'must be an http:// or https:// URL' }],
      [{ barcodes: [{ code: 1 }] }, { field: 'barcodes[0]', message: 'must be a string' }],
      [
        { producingCountry: 'RUS' },
        { field: 'producingCountry', message: 'must be a two-letter country code (ISO 3166-1), e.g. RU' },
      ],
      [{ markCodeRequired: 'perhaps' }, { field: 'markCodeRequired', message: 'must be true or false (1 or 0)' }],
    ];
    for (const [override, error] of cases) {
      const refused = await owner.post('/v2/products', productBody({ vendorCode: 'BAD-1', ...override }));
      expect(refused.status, JSON.stringify(override)).toBe(400);
      expect(refused.body.errors, JSON.stringify(override)).toEqual([error]);
    }
    const missing = await owner.post('/v2/products', { brand: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'is required' },
        { field: 'vendorCode', message: 'is required' },
      ]),
    );
    expect(await countProducts(owner)).toBe(before);
  });

  it('refuses weights finer than a gram, prices finer than a kopeck, unknown countries, blank names', async () => {
    const cases: [Record<string, unknown>, { field: string; message: string }][] = [
      [{ weight: 0.0005 }, { field: 'weight', message: 'must be at least 0.001' }],
      [{ weight: 1.2345 }, { field: 'weight', message: 'must be given to the gram (at most 3 decimals)' }],
      [
        { priceDeclared: 10.001 },
        { field: 'priceDeclared', message: 'must be given to the kopeck (at most 2 decimals)' },
      ],
      [{ priceCod: -1 }, { field: 'priceCod', message: 'must be at least 0' }],
      [{ producingCountry: 'ZZ' }, { field: 'producingCountry', message: '"ZZ" is not a known country code' }],
      [{ name: '   ' }, { field: 'name', message: 'must not be empty' }],
      [{ expirityDays: 0 }, { field: 'expirityDays', message: 'must be at least 1' }],
    ];
    const before = await countProducts(owner);
    for (const [override, error] of cases) {
      const response = await owner.post('/v2/products', productBody({ vendorCode: 'BAD-2', ...override }));
      expect(response.status, JSON.stringify(override)).toBe(400);
      expect(response.body.errors).toEqual([error]);
    }
    expect(await countProducts(owner)).toBe(before);
  });

  it('refuses a duplicate vendor code with 409 on create, replace and patch', async () => {
    const first = (await owner.post('/v2/products', productBody({ vendorCode: 'DUP-1' }))).body.id;
    const second = (await owner.post('/v2/products', productBody({ vendorCode: 'DUP-2' }))).body.id;
    const duplicate = await owner.post('/v2/products', productBody({ vendorCode: ' DUP-1 ' }));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('duplicate_vendor_code');
    expect(duplicate.body.message).toContain('"DUP-1" already exists');
    expect(duplicate.body.errors).toEqual([
      { field: 'vendorCode', message: `vendorCode "DUP-1" is already used by product ${first} of this account.` },
    ]);
    expect((await owner.put(`/v2/products/${second}`, productBody({ vendorCode: 'DUP-1' }))).status).toBe(409);
    expect((await owner.patch(`/v2/products/${second}`, { vendorCode: 'DUP-1' })).status).toBe(409);
    expect((await owner.get(`/v2/products/${second}`)).body.vendorCode).toBe('DUP-2');
    // The same code in another account is fine: uniqueness is per account.
    expect((await stranger.post('/v2/products', productBody({ vendorCode: 'DUP-1' }))).status).toBe(201);
  });

  it('lets exactly one of several concurrent creates with one vendor code win', async () => {
    const account = (await t.newAccount('Race')).client;
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        account.post('/v2/products', productBody({ vendorCode: 'RACE-1', name: `Гонка ${index}` })),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(
      responses
        .filter((response) => response.status === 409)
        .every((response) => response.body.code === 'duplicate_vendor_code'),
    ).toBe(true);
    expect((await account.get('/v2/products?vendorCodes[]=RACE-1')).body).toHaveLength(1);
  });

  it('refuses unknown sort fields and bad filters with 400', async () => {
    for (const query of [
      'sort=color',
      'desc=maybe',
      'ids[0]=abc',
      'fulfilmentWarehouseId=x',
      'perPage=1001',
      'page=0',
    ]) {
      const response = await owner.get(`/v2/products?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.errors[0].field.startsWith(query.split(/[=[]/)[0]), query).toBe(true);
    }
  });

  it('answers 404 for a product that does not exist, on every verb', async () => {
    expect((await owner.get('/v2/products/999999')).status).toBe(404);
    expect((await owner.put('/v2/products/999999', productBody())).status).toBe(404);
    expect((await owner.patch('/v2/products/999999', { name: 'x' })).status).toBe(404);
    expect((await owner.delete('/v2/products/999999')).status).toBe(404);
    expect((await owner.get('/v2/products/abc')).status).toBe(400);
  });
});

describe('products: security', () => {
  it('needs a token', async () => {
    const anonymous = t.client();
    expect((await anonymous.get('/v2/products')).status).toBe(401);
    expect((await anonymous.post('/v2/products', productBody())).status).toBe(401);
    expect((await anonymous.get('/v2/products/1')).status).toBe(401);
    expect((await t.client('acc_forged').delete('/v2/products/1')).status).toBe(401);
  });

  it("hides one account's products from another (404) and changes nothing", async () => {
    const id = (await owner.post('/v2/products', productBody({ vendorCode: 'PRIVATE-1', name: 'Private' }))).body.id;
    expect((await stranger.get(`/v2/products/${id}`)).status).toBe(404);
    expect((await stranger.put(`/v2/products/${id}`, productBody())).status).toBe(404);
    expect((await stranger.patch(`/v2/products/${id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await stranger.delete(`/v2/products/${id}`)).status).toBe(404);
    expect((await stranger.get('/v2/products?name=Private')).body).toEqual([]);
    expect((await stranger.get(`/v2/products?ids[]=${id}`)).body).toEqual([]);
    expect((await owner.get(`/v2/products/${id}`)).body.name).toBe('Private');
  });

  it('lets a shop API key use the account catalogue (products are account-wide)', async () => {
    const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    const shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    const apiKey = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey;
    const shopClient = owner.withToken(apiKey);
    const id = (await shopClient.post('/v2/products', productBody({ vendorCode: 'FROM-PLUGIN' }))).body.id;
    expect((await owner.get(`/v2/products/${id}`)).body.vendorCode).toBe('FROM-PLUGIN');
    expect((await shopClient.get(`/v2/products/${id}`)).status).toBe(200);
  });
});
