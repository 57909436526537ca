import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let owner: ApiClient;
let ownerAccountId: number;
let stranger: ApiClient;
let warehouseId: number;
let fulfilmentWarehouseId: number;

beforeAll(async () => {
  t = await createTestApp();
  const account = await t.newAccount('Owner');
  owner = account.client;
  ownerAccountId = account.accountId;
  stranger = (await t.newAccount('Stranger')).client;
  warehouseId = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Основной склад', pickupType: 1 }))).body.id;
  fulfilmentWarehouseId = (
    await owner.post('/v2/warehouses', warehouseBody({ name: 'Фулфилмент', type: 2, fulfilmentWarehouseId: 101 }))
  ).body.id;
});
afterAll(async () => t.close());

const EVERY_EVENT_OFF = {
  events: {
    ordersExpirationInPickupPoint: false,
    ordersSentForReturn: false,
    newOrder: false,
    newProblemOrder: false,
    fulfillmentReceivedReturns: false,
    productEndsInFulfilment: { enabled: false, border: null },
    orderProductsNotAvailableInFulfilment: false,
    deliveryAcceptedForFulfillment: false,
  },
  currentAccount: { enabled: false },
  employees: { enabled: false, ids: [] },
};

async function shopCount(client: ApiClient): Promise<number> {
  return Number((await client.get('/v2/shops?perPage=1')).headers['x-total-count']);
}

describe('shops: happy path', () => {
  it('creates a shop with an API key and returns the full warehouse', async () => {
    const created = await owner.post('/v2/shops', shopBody(warehouseId, { apiKey: 'ignored', id: 5 }));
    expect(created.status).toBe(201);
    const shop = await owner.get(`/v2/shops/${created.body.id}`);
    expect(shop.status).toBe(200);
    expect(shop.body).toMatchObject({
      id: created.body.id,
      name: 'Мой магазин',
      brand: 'МойБренд',
      platform: 'woocommerce',
      cmsProductsAutocomplete: false,
      emailNotifications: false,
      carrierACalling: false,
      disableQuantityControlInCheckout: false,
      sendQuantityToCMS: false,
      notifications: EVERY_EVENT_OFF,
    });
    expect(shop.body.apiKey).toMatch(/^shp_[A-Za-z0-9_-]{43}$/);
    expect(shop.body.warehouse).toEqual((await owner.get(`/v2/warehouses/${warehouseId}`)).body);
  });

  it('takes the warehouse as a bare id and every setting, and PUT replaces them', async () => {
    const employeeId = await t.runtime.services.accounts.addEmployee(ownerAccountId, {
      name: 'Менеджер',
      email: 'manager@shop.example',
      password: 'correct horse',
    });
    const notifications = {
      events: { ...EVERY_EVENT_OFF.events, newOrder: true, productEndsInFulfilment: { enabled: true, border: 5 } },
      currentAccount: { enabled: true },
      employees: { enabled: true, ids: [employeeId] },
    };
    const id = (
      await owner.post('/v2/shops', {
        ...shopBody(warehouseId),
        warehouse: warehouseId,
        emailNotifications: true,
        sendQuantityToCMS: true,
        notifications,
      })
    ).body.id;
    const read = (await owner.get(`/v2/shops/${id}`)).body;
    expect(read.warehouse.id).toBe(warehouseId);
    expect(read.emailNotifications).toBe(true);
    expect(read.sendQuantityToCMS).toBe(true);
    expect(read.notifications).toEqual(notifications);

    const put = await owner.put(`/v2/shops/${id}`, {
      name: 'Новое имя',
      brand: 'Бренд',
      warehouse: { id: fulfilmentWarehouseId },
      platform: 'Bitrix',
    });
    expect(put.status).toBe(204);
    const after = (await owner.get(`/v2/shops/${id}`)).body;
    expect(after).toMatchObject({
      name: 'Новое имя',
      platform: 'bitrix',
      emailNotifications: false,
      notifications: EVERY_EVENT_OFF,
    });
    expect(after.warehouse).toMatchObject({ id: fulfilmentWarehouseId, type: 2, fulfilmentAutoReserveAvailable: true });
    expect(after.apiKey).toBe(read.apiKey);
  });

  it('lists with every filter', async () => {
    const other = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Консолидация', pickupType: 2 }))).body.id;
    const a = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Цветы у дома', brand: 'ФлораМаркет' })))
      .body.id;
    const b = (
      await owner.post('/v2/shops', shopBody(fulfilmentWarehouseId, { name: 'Книжная лавка', brand: 'Букинист' }))
    ).body.id;
    const c = (await owner.post('/v2/shops', shopBody(other, { name: 'Цветочный склад', brand: 'Флора Опт' }))).body.id;
    const ids = async (query: string) =>
      (await owner.get(`/v2/shops?perPage=1000&${query}`)).body.map((shop: { id: number }) => shop.id);
    expect(await ids(`name=${encodeURIComponent('ЦВЕТ')}`)).toEqual([c, a]);
    expect(await ids(`brand=${encodeURIComponent('флора')}`)).toEqual([c, a]);
    expect(await ids(`warehouseId=${other}`)).toEqual([c]);
    expect(await ids('onlyFulfilment=1')).toContain(b);
    expect(await ids('onlyFulfilment=1')).not.toContain(a);
    expect(await ids('onlyMergedPickup=1')).toEqual([c]);
    expect(await ids('onlyMergedPickup=0')).toEqual(expect.arrayContaining([a, b, c]));
    const paged = await owner.get('/v2/shops?perPage=2&page=1');
    expect(paged.body).toHaveLength(2);
    expect(Number(paged.headers['x-total-count'])).toBeGreaterThanOrEqual(3);
  });

  it('takes the PHP form-encoded spelling and gives the same shop as JSON', async () => {
    const body = shopBody(warehouseId, {
      name: 'Form shop',
      carrierACalling: true,
      notifications: { events: { newOrder: true }, employees: { enabled: false } },
    });
    const json = (await owner.post('/v2/shops', body)).body.id;
    const form = await owner.post('/v2/shops', body, { form: true });
    expect(form.status).toBe(201);
    const [a, b] = await Promise.all([owner.get(`/v2/shops/${json}`), owner.get(`/v2/shops/${form.body.id}`)]);
    expect({ ...b.body, id: 0, apiKey: '' }).toEqual({ ...a.body, id: 0, apiKey: '' });
    expect(b.body.carrierACalling).toBe(true);
  });

  it('deletes a shop and its API key stops working', async () => {
    const id = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    const key = (await owner.get(`/v2/shops/${id}`)).body.apiKey;
    expect((await owner.withToken(key).get('/v2/shops')).status).toBe(200);
    expect((await owner.delete(`/v2/shops/${id}`)).status).toBe(204);
    expect((await owner.get(`/v2/shops/${id}`)).status).toBe(404);
    expect((await owner.withToken(key).get('/v2/shops')).status).toBe(401);
  });

  it('replaces an API key: the old one stops working at once', async () => {
    const id = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    const oldKey = (await owner.get(`/v2/shops/${id}`)).body.apiKey;
    const rotated = await owner.post(`/v2/shops/${id}/api-key`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.apiKey).not.toBe(oldKey);
    expect((await owner.withToken(oldKey).get('/v2/shops')).status).toBe(401);
    expect(
      (await owner.withToken(rotated.body.apiKey).get('/v2/shops')).body.map((shop: { id: number }) => shop.id),
    ).toEqual([id]);
  });
});

describe('shops: lists are never stale', () => {
  it('shows every write at once: new, renamed, moved and deleted shops, and warehouse edits', async () => {
    const list = async () =>
      (await owner.get('/v2/shops?perPage=1000')).body as Array<{
        id: number;
        name: string;
        warehouse: { id: number; name: string };
      }>;
    const warehouse = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Кэш-склад' }))).body.id;
    await list();
    const id = (await owner.post('/v2/shops', shopBody(warehouse, { name: 'Fresh' }))).body.id;
    expect((await list()).find((shop) => shop.id === id)?.name).toBe('Fresh');
    await owner.put(`/v2/shops/${id}`, shopBody(warehouse, { name: 'Renamed' }));
    expect((await list()).find((shop) => shop.id === id)?.name).toBe('Renamed');
    await owner.put(`/v2/warehouses/${warehouse}`, warehouseBody({ name: 'Кэш-склад 2' }));
    expect((await list()).find((shop) => shop.id === id)?.warehouse.name).toBe('Кэш-склад 2');
    await owner.delete(`/v2/shops/${id}`);
    expect((await list()).find((shop) => shop.id === id)).toBeUndefined();
  });
});

describe('shops: bad input', () => {
  it('names the missing required fields and writes nothing', async () => {
    const before = await shopCount(owner);
    const response = await owner.post('/v2/shops', { platform: 'woocommerce' });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'is required' },
        { field: 'brand', message: 'is required' },
        { field: 'warehouse', message: 'is required' },
      ]),
    );
    expect(await shopCount(owner)).toBe(before);
  });

  it("refuses a warehouse that is not the account's and employees that do not exist", async () => {
    const before = await shopCount(owner);
    const foreignWarehouse = (await stranger.post('/v2/warehouses', warehouseBody())).body.id;
    const response = await owner.post(
      '/v2/shops',
      shopBody(foreignWarehouse, { notifications: { employees: { enabled: true, ids: [987654] } } }),
    );
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { field: 'warehouse.id', message: `warehouse ${foreignWarehouse} does not exist in this account` },
      { field: 'notifications.employees.ids[0]', message: 'employee 987654 does not exist in this account' },
    ]);
    const badShape = await owner.post('/v2/shops', shopBody(warehouseId, { warehouse: 'main' }));
    expect(badShape.body.errors).toEqual([
      { field: 'warehouse', message: 'must be {"id": <warehouse id>} or a warehouse id' },
    ]);
    const badBorder = await owner.post(
      '/v2/shops',
      shopBody(warehouseId, { notifications: { events: { productEndsInFulfilment: { enabled: true, border: -1 } } } }),
    );
    expect(badBorder.body.errors).toEqual([
      { field: 'notifications.events.productEndsInFulfilment.border', message: 'must be at least 0' },
    ]);
    expect(await shopCount(owner)).toBe(before);
  });
});

describe('shops: security', () => {
  it('needs a token', async () => {
    expect((await t.client().get('/v2/shops')).status).toBe(401);
    expect((await t.client().post('/v2/shops', shopBody(warehouseId))).status).toBe(401);
    expect((await t.client('shp_forged').get('/v2/shops')).status).toBe(401);
  });

  it("answers 404 for another account's shop and changes nothing", async () => {
    const id = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Private shop' }))).body.id;
    expect((await stranger.get(`/v2/shops/${id}`)).status).toBe(404);
    expect((await stranger.put(`/v2/shops/${id}`, shopBody(warehouseId))).status).toBe(404);
    expect((await stranger.delete(`/v2/shops/${id}`)).status).toBe(404);
    expect((await stranger.post(`/v2/shops/${id}/api-key`)).status).toBe(404);
    expect((await stranger.get('/v2/shops?name=Private')).body).toEqual([]);
    expect((await owner.get(`/v2/shops/${id}`)).body.name).toBe('Private shop');
  });

  it('limits a shop API key to its own shop', async () => {
    const mine = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Shop A' }))).body.id;
    const theirs = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Shop B' }))).body.id;
    const key = owner.withToken((await owner.get(`/v2/shops/${mine}`)).body.apiKey);
    expect((await key.get('/v2/shops')).body.map((shop: { id: number }) => shop.id)).toEqual([mine]);
    expect((await key.get(`/v2/shops/${mine}`)).status).toBe(200);
    expect((await key.get(`/v2/shops/${theirs}`)).status).toBe(403);
    expect((await key.put(`/v2/shops/${theirs}`, shopBody(warehouseId))).status).toBe(403);
    expect((await key.delete(`/v2/shops/${theirs}`)).status).toBe(403);
    expect((await key.post('/v2/shops', shopBody(warehouseId))).status).toBe(403);
    expect((await key.delete(`/v2/shops/${mine}`)).status).toBe(403);
    expect((await key.post(`/v2/shops/${mine}/api-key`)).status).toBe(403);
    expect((await key.put(`/v2/shops/${mine}`, shopBody(warehouseId, { name: 'Shop A renamed' }))).status).toBe(204);
    expect((await owner.get(`/v2/shops/${theirs}`)).body.name).toBe('Shop B');
  });

  it('stores shop API keys encrypted and hashed, never in clear', async () => {
    const id = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    const key = (await owner.get(`/v2/shops/${id}`)).body.apiKey as string;
    const row = await t.runtime.database.db
      .selectFrom('shops')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.api_key_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
