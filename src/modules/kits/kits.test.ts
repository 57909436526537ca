import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { kitBody, productBody, shopBody, warehouseBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let shopA: number;
let shopB: number;
let keyA: ApiClient;
let products: number[];
let strangerProduct: number;
let strangerShop: number;

async function newShop(client: ApiClient, name: string): Promise<number> {
  const warehouseId = (await client.post('/v2/warehouses', warehouseBody())).body.id;
  return (await client.post('/v2/shops', shopBody(warehouseId, { name }))).body.id;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
  shopA = await newShop(owner, 'Shop A');
  shopB = await newShop(owner, 'Shop B');
  keyA = owner.withToken((await owner.get(`/v2/shops/${shopA}`)).body.apiKey);
  products = [];
  for (const vendorCode of ['P-1', 'P-2', 'P-3'])
    products.push((await owner.post('/v2/products', productBody({ vendorCode, name: `Товар ${vendorCode}` }))).body.id);
  strangerProduct = (await stranger.post('/v2/products', productBody({ vendorCode: 'S-1' }))).body.id;
  strangerShop = await newShop(stranger, 'Stranger shop');
});
afterAll(async () => t.close());

async function countKits(client: ApiClient): Promise<number> {
  return Number((await client.get('/v2/kits?perPage=1')).headers['x-total-count']);
}

const kitIds = (response: { body: { id: number }[] }) => response.body.map((kit) => kit.id);

describe('kits: happy path', () => {
  it('creates, reads, replaces and deletes a kit; GET carries full products with count', async () => {
    const created = await owner.post(
      '/v2/kits',
      kitBody(shopA, [products[0], products[1]], { vendorCode: 'KIT-CYCLE' }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number) });
    const id = created.body.id;

    const read = await owner.get(`/v2/kits/${id}`);
    expect(read.status).toBe(200);
    const product0 = (await owner.get(`/v2/products/${products[0]}`)).body;
    const product1 = (await owner.get(`/v2/products/${products[1]}`)).body;
    expect(read.body).toEqual({
      id,
      shopId: shopA,
      name: 'Набор футболок',
      vendorCode: 'KIT-CYCLE',
      discount: 5,
      products: [
        { ...product0, count: 1 },
        { ...product1, count: 2 },
      ],
    });

    const replaced = await owner.put(`/v2/kits/${id}`, {
      name: 'Другой набор',
      vendorCode: 'KIT-CYCLE',
      products: [{ id: products[2], count: 3 }],
    });
    expect(replaced.status).toBe(204);
    expect(replaced.text).toBe('');
    const after = (await owner.get(`/v2/kits/${id}`)).body;
    expect(after).toMatchObject({ id, shopId: shopA, name: 'Другой набор', discount: 0 });
    expect(after.products.map((product: { id: number; count: number }) => [product.id, product.count])).toEqual([
      [products[2], 3],
    ]);

    expect((await owner.delete(`/v2/kits/${id}`)).status).toBe(204);
    expect((await owner.get(`/v2/kits/${id}`)).status).toBe(404);
  });

  it('keeps showing a product that was deleted from the catalogue', async () => {
    const doomed = (await owner.post('/v2/products', productBody({ vendorCode: 'DOOMED', name: 'Снятый товар' }))).body
      .id;
    const id = (await owner.post('/v2/kits', kitBody(shopA, [products[0], doomed], { vendorCode: 'KIT-DOOMED' }))).body
      .id;
    expect((await owner.delete(`/v2/products/${doomed}`)).status).toBe(204);
    const kit = (await owner.get(`/v2/kits/${id}`)).body;
    expect(
      kit.products.map((product: { id: number; name: string; count: number }) => [
        product.id,
        product.name,
        product.count,
      ]),
    ).toEqual([
      [products[0], 'Товар P-1', 1],
      [doomed, 'Снятый товар', 2],
    ]);
    // A deleted product cannot be put into a kit any more.
    const refused = await owner.put(`/v2/kits/${id}`, kitBody(shopA, [doomed], { vendorCode: 'KIT-DOOMED' }));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'products[0].id', message: `product ${doomed} does not exist in this account` },
    ]);
  });

  it('takes the shop from the Shop-Id header or from the shop API key when shopId is left out', async () => {
    const byHeader = await owner.post(
      '/v2/kits',
      { name: 'По заголовку', vendorCode: 'KIT-HEADER', products: [{ id: products[0], count: 1 }] },
      { headers: { 'Shop-Id': String(shopB) } },
    );
    expect(byHeader.status).toBe(201);
    expect((await owner.get(`/v2/kits/${byHeader.body.id}`)).body.shopId).toBe(shopB);
    const byKey = await keyA.post('/v2/kits', {
      name: 'Ключом',
      vendorCode: 'KIT-KEY',
      products: [{ id: products[0], count: 1 }],
    });
    expect(byKey.status).toBe(201);
    expect((await owner.get(`/v2/kits/${byKey.body.id}`)).body.shopId).toBe(shopA);
  });

  it('lists with name, vendorCode, search and shop filters, newest first with paging headers', async () => {
    const account = (await t.newAccount('Kit lister')).client;
    const shop = await newShop(account, 'Lister shop');
    const other = await newShop(account, 'Lister shop 2');
    const product = (await account.post('/v2/products', productBody({ vendorCode: 'L-1' }))).body.id;
    const made: number[] = [];
    for (const [name, vendorCode, shopId] of [
      ['Новогодний НАБОР', 'NY-2027', shop],
      ['Подарочный набор', 'GIFT-ёлка', shop],
      ['Ёлочка', 'TREE-1', other],
    ] as const) {
      made.push((await account.post('/v2/kits', kitBody(shopId, [product], { name, vendorCode }))).body.id);
    }
    const page = await account.get('/v2/kits?perPage=2');
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers['x-per-page']).toBe('2');
    expect(kitIds(page)).toEqual([made[2], made[1]]);
    expect(kitIds(await account.get(`/v2/kits?name=${encodeURIComponent('набор')}`))).toEqual([made[1], made[0]]);
    expect(kitIds(await account.get('/v2/kits?vendorCode=ny-20'))).toEqual([made[0]]);
    expect(kitIds(await account.get(`/v2/kits?search=${encodeURIComponent('ЕЛ')}`))).toEqual([made[2], made[1]]);
    expect(kitIds(await account.get(`/v2/kits?shopId=${other}`))).toEqual([made[2]]);
    expect(kitIds(await account.get('/v2/kits', { headers: { 'shop-id': String(shop) } }))).toEqual([made[1], made[0]]);
    expect((await account.get('/v2/kits?search=nothing')).body).toEqual([]);
  });

  it('takes the PHP form-encoded spelling of the same kit', async () => {
    const body = kitBody(shopA, [products[0], products[2]], { vendorCode: 'KIT-FORM', unknown: 'x' });
    const form = await owner.post('/v2/kits', body, { form: true });
    expect(form.status).toBe(201);
    const kit = (await owner.get(`/v2/kits/${form.body.id}`)).body;
    expect(kit).toMatchObject({ shopId: shopA, name: 'Набор футболок', vendorCode: 'KIT-FORM', discount: 5 });
    expect(kit.products.map((product: { id: number; count: number }) => [product.id, product.count])).toEqual([
      [products[0], 1],
      [products[2], 2],
    ]);
  });

  it('keeps vendor codes unique within a shop only (409 in the same shop)', async () => {
    const first = (await owner.post('/v2/kits', kitBody(shopA, [products[0]], { vendorCode: 'KIT-UNIQUE' }))).body.id;
    const duplicate = await owner.post('/v2/kits', kitBody(shopA, [products[1]], { vendorCode: 'KIT-UNIQUE' }));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('duplicate_vendor_code');
    expect(duplicate.body.errors).toEqual([
      { field: 'vendorCode', message: `is already used by kit ${first} of shop ${shopA}` },
    ]);
    expect((await owner.post('/v2/kits', kitBody(shopB, [products[1]], { vendorCode: 'KIT-UNIQUE' }))).status).toBe(
      201,
    );
    const second = (await owner.post('/v2/kits', kitBody(shopA, [products[1]], { vendorCode: 'KIT-UNIQUE-2' }))).body
      .id;
    expect(
      (await owner.put(`/v2/kits/${second}`, kitBody(shopA, [products[1]], { vendorCode: 'KIT-UNIQUE' }))).status,
    ).toBe(409);
  });
});

describe('kits: shop removal', () => {
  it('deletes the kits of a deleted shop with it', async () => {
    const shop = await newShop(owner, 'Short-lived shop');
    const id = (await owner.post('/v2/kits', kitBody(shop, [products[0]], { vendorCode: 'KIT-GONE' }))).body.id;
    expect((await owner.delete(`/v2/shops/${shop}`)).status).toBe(204);
    expect((await owner.get(`/v2/kits/${id}`)).status).toBe(404);
    expect((await owner.get(`/v2/products/${products[0]}`)).status).toBe(200);
  });
});

describe('kits: bad input', () => {
  it('refuses missing and out-of-range fields, naming them, writing nothing', async () => {
    const before = await countKits(owner);
    const cases: [Record<string, unknown>, { field: string; message: string }[]][] = [
      [
        { shopId: shopA },
        [
          { field: 'name', message: 'is required' },
          { field: 'vendorCode', message: 'is required' },
          { field: 'products', message: 'is required' },
        ],
      ],
      [kitBody(shopA, [], { vendorCode: 'K-BAD' }), [{ field: 'products', message: 'must not be empty' }]],
      [
        kitBody(shopA, [products[0]], { vendorCode: 'K-BAD', discount: 101 }),
        [{ field: 'discount', message: 'must be at most 100' }],
      ],
      [
        kitBody(shopA, [products[0]], { vendorCode: 'K-BAD', discount: -1 }),
        [{ field: 'discount', message: 'must be at least 0' }],
      ],
      [
        kitBody(shopA, [products[0]], { vendorCode: 'K-BAD', products: [{ id: products[0], count: 0 }] }),
        [{ field: 'products[0].count', message: 'must be at least 1' }],
      ],
      [
        kitBody(shopA, [999999], { vendorCode: 'K-BAD' }),
        [{ field: 'products[0].id', message: 'product 999999 does not exist in this account' }],
      ],
      [
        kitBody(shopA, [products[0], strangerProduct], { vendorCode: 'K-BAD' }),
        [{ field: 'products[1].id', message: `product ${strangerProduct} does not exist in this account` }],
      ],
      [
        kitBody(shopA, [products[0], products[0]], { vendorCode: 'K-BAD' }),
        [
          {
            field: 'products[1].id',
            message: `product ${products[0]} is already listed at products[0]; raise its count instead`,
          },
        ],
      ],
      [
        kitBody(999999, [products[0]], { vendorCode: 'K-BAD' }),
        [{ field: 'shopId', message: 'shop 999999 does not exist in this account' }],
      ],
      [
        kitBody(strangerShop, [products[0]], { vendorCode: 'K-BAD' }),
        [{ field: 'shopId', message: `shop ${strangerShop} does not exist in this account` }],
      ],
      [
        { ...kitBody(shopA, [products[0]], { vendorCode: 'K-BAD' }), shopId: undefined },
        [{ field: 'shopId', message: 'is required (or send the Shop-Id header)' }],
      ],
      [kitBody(shopA, [products[0]], { vendorCode: '  ' }), [{ field: 'vendorCode', message: 'must not be empty' }]],
    ];
    for (const [body, errors] of cases) {
      const response = await owner.post('/v2/kits', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errors, JSON.stringify(body)).toEqual(errors);
    }
    const foreignHeader = await owner.post(
      '/v2/kits',
      { ...kitBody(shopA, [products[0]], { vendorCode: 'K-BAD' }), shopId: undefined },
      { headers: { 'Shop-Id': String(strangerShop) } },
    );
    expect(foreignHeader.status).toBe(400);
    expect(foreignHeader.body.code).toBe('unknown_shop');
    expect(await countKits(owner)).toBe(before);
  });

  it('answers 404 for a kit that does not exist, on every verb, and 400 for bad filters', async () => {
    expect((await owner.get('/v2/kits/999999')).status).toBe(404);
    expect((await owner.put('/v2/kits/999999', kitBody(shopA, [products[0]]))).status).toBe(404);
    expect((await owner.delete('/v2/kits/999999')).status).toBe(404);
    expect((await owner.get('/v2/kits/abc')).status).toBe(400);
    expect((await owner.get('/v2/kits?shopId=x')).status).toBe(400);
    expect((await owner.get('/v2/kits?perPage=5000')).status).toBe(400);
  });
});

describe('kits: security', () => {
  it('needs a token', async () => {
    const anonymous = t.client();
    expect((await anonymous.get('/v2/kits')).status).toBe(401);
    expect((await anonymous.post('/v2/kits', kitBody(shopA, [products[0]]))).status).toBe(401);
    expect((await anonymous.delete('/v2/kits/1')).status).toBe(401);
  });

  it("hides one account's kits from another (404) and changes nothing", async () => {
    const id = (
      await owner.post('/v2/kits', kitBody(shopA, [products[0]], { vendorCode: 'KIT-PRIVATE', name: 'Private kit' }))
    ).body.id;
    expect((await stranger.get(`/v2/kits/${id}`)).status).toBe(404);
    expect((await stranger.put(`/v2/kits/${id}`, kitBody(strangerShop, [strangerProduct]))).status).toBe(404);
    expect((await stranger.delete(`/v2/kits/${id}`)).status).toBe(404);
    expect((await stranger.get('/v2/kits?name=Private')).body).toEqual([]);
    expect((await owner.get(`/v2/kits/${id}`)).body.name).toBe('Private kit');
  });

  it("refuses a shop key on another shop's kits (403) and lists only its own shop", async () => {
    const inB = (await owner.post('/v2/kits', kitBody(shopB, [products[0]], { vendorCode: 'KIT-IN-B' }))).body.id;
    const inA = (await keyA.post('/v2/kits', kitBody(shopA, [products[0]], { vendorCode: 'KIT-IN-A' }))).body.id;
    expect((await keyA.get(`/v2/kits/${inA}`)).status).toBe(200);
    for (const response of [
      await keyA.get(`/v2/kits/${inB}`),
      await keyA.put(`/v2/kits/${inB}`, kitBody(shopB, [products[1]], { vendorCode: 'KIT-IN-B' })),
      await keyA.delete(`/v2/kits/${inB}`),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('forbidden');
    }
    expect((await keyA.post('/v2/kits', kitBody(shopB, [products[0]], { vendorCode: 'KIT-SNEAK' }))).status).toBe(403);
    expect((await keyA.put(`/v2/kits/${inA}`, kitBody(shopB, [products[0]], { vendorCode: 'KIT-IN-A' }))).status).toBe(
      403,
    );
    expect((await keyA.get(`/v2/kits?shopId=${shopB}`)).status).toBe(403);
    const seen = (await keyA.get('/v2/kits?perPage=1000')).body as { shopId: number }[];
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((kit) => kit.shopId === shopA)).toBe(true);
    expect((await owner.get(`/v2/kits/${inB}`)).body.products).toHaveLength(1);
  });
});
