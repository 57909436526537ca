import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { addDays, todayIn } from '../../platform/clock.js';

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
});
afterAll(async () => t.close());

async function total(client: ApiClient, query = ''): Promise<number> {
  return Number((await client.get(`/v2/warehouses?perPage=1${query}`)).headers['x-total-count']);
}

describe('warehouses: happy path', () => {
  it('creates an own warehouse and reads back every field', async () => {
    const today = todayIn('Europe/Moscow');
    const body = warehouseBody({
      senderOtherEntity: {
        enabled: true,
        company: { TIN: '7707083893', name: 'ООО Ромашка', director: 'Петров П. П.' },
      },
      holidays: [addDays(today, 10), '2020-01-01', addDays(today, 3), addDays(today, 10)],
      pickupType: 3,
      markCompletedOrders: true,
    });
    const created = await owner.post('/v2/warehouses', body);
    expect(created.status).toBe(201);
    const read = await owner.get(`/v2/warehouses/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: created.body.id,
      name: 'Склад на Складской',
      type: 1,
      pickupType: 3,
      senderOtherEntity: {
        enabled: true,
        company: { TIN: '7707083893', name: 'ООО Ромашка', director: 'Петров П. П.' },
      },
      fulfilmentWarehouseId: null,
      fulfilmentAutoReserve: false,
      // what the register made of it is beside the address as typed (warehouse-address.test.ts)
      address: { ...body.address, register: expect.objectContaining({ quality: 'check' }) },
      contact: body.contact,
      holidays: [addDays(today, 3), addDays(today, 10)],
      schedule: body.schedule,
      markCompletedOrders: true,
      dropOffPoints: [],
    });
    expect(read.body).not.toHaveProperty('fulfilmentAutoReserveAvailable');
  });

  it('lists the service fulfilment warehouses with hold=1, filterable', async () => {
    const hold = await owner.get('/v2/warehouses?hold=1');
    expect(hold.status).toBe(200);
    expect(hold.body.length).toBeGreaterThanOrEqual(3);
    for (const item of hold.body) {
      expect(item.type).toBe(2);
      expect(typeof item.fulfilmentAutoReserveAvailable).toBe('boolean');
      expect(item.schedule).toHaveLength(7);
    }
    const byName = await owner.get(`/v2/warehouses?hold=1&name=${encodeURIComponent('екатеринбург')}`);
    expect(byName.body.map((item: { id: number }) => item.id)).toEqual([103]);
    const integrated = await owner.get('/v2/warehouses?hold=1&integrationMarketplaceId=3');
    expect(integrated.body.map((item: { id: number }) => item.id)).toEqual([101]);
  });

  it('creates a fulfilment warehouse tied to a hold=1 warehouse, with auto reserve where available', async () => {
    const created = await owner.post(
      '/v2/warehouses',
      warehouseBody({ name: 'Фулфилмент', type: 2, fulfilmentWarehouseId: 101, fulfilmentAutoReserve: true }),
    );
    expect(created.status).toBe(201);
    const read = await owner.get(`/v2/warehouses/${created.body.id}`);
    expect(read.body).toMatchObject({
      type: 2,
      fulfilmentWarehouseId: 101,
      fulfilmentAutoReserve: true,
      fulfilmentAutoReserveAvailable: true,
    });
    const viaMarketplace = await owner.get('/v2/warehouses?integrationMarketplaceId=3');
    expect(viaMarketplace.body.map((item: { id: number }) => item.id)).toEqual([created.body.id]);
  });

  it('replaces an own warehouse, filters by name and merged pickup, pages newest first', async () => {
    const a = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Северный склад', pickupType: 2 }))).body.id;
    const b = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Южный склад' }))).body.id;
    const put = await owner.put(
      `/v2/warehouses/${b}`,
      warehouseBody({
        name: 'Южный СКЛАД №2',
        pickupType: 3,
        schedule: ['09:00-18:00', '9:00 - 18:00', '', null, { from: '10:00', to: '16:00' }, null, null],
      }),
    );
    expect(put.status).toBe(204);
    const read = (await owner.get(`/v2/warehouses/${b}`)).body;
    expect(read.name).toBe('Южный СКЛАД №2');
    expect(read.schedule).toEqual([
      { from: '09:00', to: '18:00' },
      { from: '09:00', to: '18:00' },
      null,
      null,
      { from: '10:00', to: '16:00' },
      null,
      null,
    ]);
    const merged = await owner.get('/v2/warehouses?onlyMergedPickup=1&perPage=100');
    const mergedIds = merged.body.map((item: { id: number }) => item.id);
    expect(mergedIds).toEqual(expect.arrayContaining([a, b]));
    expect(mergedIds.indexOf(b)).toBeLessThan(mergedIds.indexOf(a));
    expect(
      (await owner.get(`/v2/warehouses?name=${encodeURIComponent('южный склад')}`)).body.map(
        (item: { id: number }) => item.id,
      ),
    ).toEqual([b]);
  });

  it('takes a PHP form-encoded warehouse', async () => {
    const body = warehouseBody({
      name: 'Form warehouse',
      schedule: ['09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', '', ''],
    });
    const created = await owner.post('/v2/warehouses', body, { form: true });
    expect(created.status).toBe(201);
    const read = (await owner.get(`/v2/warehouses/${created.body.id}`)).body;
    expect(read.schedule[5]).toBeNull();
    expect(read.address.city.name).toBe('Москва');
    expect(read.type).toBe(1);
  });

  it('deletes a warehouse no shop uses', async () => {
    const id = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    expect((await owner.delete(`/v2/warehouses/${id}`)).status).toBe(204);
    expect((await owner.get(`/v2/warehouses/${id}`)).status).toBe(404);
  });
});

describe('warehouses: bad input and rules', () => {
  it('names every missing required field and writes nothing', async () => {
    const before = await total(owner);
    const response = await owner.post('/v2/warehouses', { name: 'x' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    const fields = response.body.errors.map((error: { field: string }) => error.field);
    expect(fields).toEqual(expect.arrayContaining(['type', 'address', 'contact', 'schedule']));
    expect(await total(owner)).toBe(before);
  });

  it('refuses a schedule without 7 values, bad hours, a bad phone, a bad country and a bad TIN', async () => {
    const response = await owner.post(
      '/v2/warehouses',
      warehouseBody({
        schedule: [null, null],
        contact: { name: 'A', phone: 'call me' },
        address: { street: 'x', city: { countryCode: 'Russia', name: 'Москва' } },
        senderOtherEntity: { enabled: true, company: { TIN: '123', name: 'X' } },
      }),
    );
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'schedule', message: 'must hold exactly 7 values' },
        { field: 'contact.phone', message: 'must be a phone number of digits, with an optional leading +' },
        { field: 'address.city.countryCode', message: 'must be a two-letter country code (ISO 3166-1), e.g. RU' },
        { field: 'senderOtherEntity.company.TIN', message: 'must be a taxpayer number (TIN) of 10 or 12 digits' },
      ]),
    );
    const hours = await owner.post(
      '/v2/warehouses',
      warehouseBody({ schedule: [{ from: '18:00', to: '09:00' }, null, null, null, null, null, '25:00-26:00'] }),
    );
    expect(hours.body.errors).toEqual([
      { field: 'schedule[0]', message: 'must end after it starts' },
      { field: 'schedule[6]', message: 'must hold times between 00:00 and 24:00' },
    ]);
    const country = await owner.post(
      '/v2/warehouses',
      warehouseBody({ address: { street: 'x', city: { countryCode: 'QQ', name: 'Москва' } } }),
    );
    expect(country.body.errors).toEqual([
      { field: 'address.city.countryCode', message: '"QQ" is not a known country code' },
    ]);
  });

  it('applies the fulfilment rules', async () => {
    const before = await total(owner);
    const noTarget = await owner.post('/v2/warehouses', warehouseBody({ type: 2 }));
    expect(noTarget.body.errors[0].field).toBe('fulfilmentWarehouseId');
    const unknownTarget = await owner.post('/v2/warehouses', warehouseBody({ type: 2, fulfilmentWarehouseId: 999 }));
    expect(unknownTarget.body.errors[0]).toEqual({
      field: 'fulfilmentWarehouseId',
      message: '999 is not one of the fulfilment warehouses of GET /v2/warehouses?hold=1',
    });
    const noAutoReserve = await owner.post(
      '/v2/warehouses',
      warehouseBody({ type: 2, fulfilmentWarehouseId: 103, fulfilmentAutoReserve: true }),
    );
    expect(noAutoReserve.body.errors).toEqual([
      { field: 'fulfilmentAutoReserve', message: 'fulfilment warehouse 103 does not support automatic reservation' },
    ]);
    const ownWithTarget = await owner.post('/v2/warehouses', warehouseBody({ type: 1, fulfilmentWarehouseId: 101 }));
    expect(ownWithTarget.body.errors).toEqual([
      { field: 'fulfilmentWarehouseId', message: 'is only for fulfilment warehouses (type 2)' },
    ]);
    const badType = await owner.post('/v2/warehouses', warehouseBody({ type: 5 }));
    expect(badType.body.errors).toEqual([{ field: 'type', message: 'must be one of: 1, 2' }]);
    expect(await total(owner)).toBe(before);
  });

  it('keeps a fulfilment warehouse as created, and an own warehouse of its type (409)', async () => {
    const fulfilment = (await owner.post('/v2/warehouses', warehouseBody({ type: 2, fulfilmentWarehouseId: 102 }))).body
      .id;
    const edit = await owner.put(
      `/v2/warehouses/${fulfilment}`,
      warehouseBody({ type: 2, fulfilmentWarehouseId: 102, name: 'Renamed' }),
    );
    expect(edit.status).toBe(409);
    expect(edit.body.code).toBe('warehouse_not_editable');
    expect((await owner.get(`/v2/warehouses/${fulfilment}`)).body.name).toBe('Склад на Складской');
    const own = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    const retype = await owner.put(`/v2/warehouses/${own}`, warehouseBody({ type: 2, fulfilmentWarehouseId: 101 }));
    expect(retype.status).toBe(409);
    expect(retype.body.code).toBe('warehouse_type_immutable');
  });

  it('does not delete a warehouse a shop uses (409), and does once the shop moves', async () => {
    const used = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    const other = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    const shop = (await owner.post('/v2/shops', shopBody(used))).body.id;
    const refused = await owner.delete(`/v2/warehouses/${used}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('warehouse_in_use');
    expect(refused.body.message).toContain(`shop ${shop}`);
    expect((await owner.put(`/v2/shops/${shop}`, shopBody(other))).status).toBe(204);
    expect((await owner.delete(`/v2/warehouses/${used}`)).status).toBe(204);
  });
});

describe('warehouses: security', () => {
  it('needs a token', async () => {
    expect((await t.client().get('/v2/warehouses')).status).toBe(401);
    expect((await t.client().post('/v2/warehouses', warehouseBody())).status).toBe(401);
  });

  it("answers 404 for another account's warehouse and changes nothing", async () => {
    const id = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Мой' }))).body.id;
    expect((await stranger.get(`/v2/warehouses/${id}`)).status).toBe(404);
    expect((await stranger.put(`/v2/warehouses/${id}`, warehouseBody({ name: 'Чужой' }))).status).toBe(404);
    expect((await stranger.delete(`/v2/warehouses/${id}`)).status).toBe(404);
    expect((await stranger.get('/v2/warehouses')).body.map((item: { id: number }) => item.id)).not.toContain(id);
    expect((await owner.get(`/v2/warehouses/${id}`)).body.name).toBe('Мой');
  });

  it('limits a shop API key to its shop warehouse, read-only', async () => {
    const mine = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Shop A warehouse' }))).body.id;
    const theirs = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Shop B warehouse' }))).body.id;
    const shopA = (await owner.post('/v2/shops', shopBody(mine))).body.id;
    await owner.post('/v2/shops', shopBody(theirs));
    const key = (await owner.get(`/v2/shops/${shopA}`)).body.apiKey;
    const shopClient = owner.withToken(key);
    expect((await shopClient.get('/v2/warehouses')).body.map((item: { id: number }) => item.id)).toEqual([mine]);
    expect((await shopClient.get(`/v2/warehouses/${mine}`)).status).toBe(200);
    expect((await shopClient.get(`/v2/warehouses/${theirs}`)).status).toBe(403);
    expect((await shopClient.get('/v2/warehouses?hold=1')).body.length).toBeGreaterThan(0);
    expect((await shopClient.post('/v2/warehouses', warehouseBody())).status).toBe(403);
    expect((await shopClient.put(`/v2/warehouses/${mine}`, warehouseBody())).status).toBe(403);
    expect((await shopClient.delete(`/v2/warehouses/${theirs}`)).status).toBe(403);
  });
});
