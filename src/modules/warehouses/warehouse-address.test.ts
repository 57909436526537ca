/**
 * A warehouse's address checked against the federal address register (the sample loaded on a
 * first start), through HTTP: POST and PUT keep the address as typed and what the register made
 * of it beside it in `address.register` (extension, read-only); an address less than a house, a
 * foreign one or a register that fails never refuses the warehouse; a warehouse saved before the
 * check reads exactly as it did; bad input is refused as before, writing nothing; another
 * account's warehouse is still 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { warehouseBody } from '../../../test/support/fixtures.js';
import { MOSCOW_FIAS, placeHouse, sampleHouse, type SampleHouse } from '../../../test/support/register-houses.js';

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let tverskaya: SampleHouse;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
  tverskaya = await sampleHouse(owner, MOSCOW_FIAS, 'ул Тверская');
});
afterAll(async () => t.close());

function atHouse(house: SampleHouse, overrides: Record<string, unknown> = {}) {
  const body = warehouseBody(overrides);
  return { ...body, address: { ...body.address, street: house.street, house: house.house } };
}

const count = async (client: ApiClient) =>
  Number((await client.get('/v2/warehouses?perPage=1')).headers['x-total-count']);

describe("a warehouse's address and the register: happy path", () => {
  it('a house the register knows: its FIAS id, postcode and point beside the address as typed', async () => {
    await placeHouse(t, tverskaya.houseFiasId, 55.7649, 37.6055);
    const body = atHouse(tverskaya);
    const created = await owner.post('/v2/warehouses', body);
    expect(created.status, created.text).toBe(201);
    const read = (await owner.get(`/v2/warehouses/${created.body.id}`)).body;
    expect(read.address).toEqual({
      ...body.address,
      register: {
        fiasId: tverskaya.houseFiasId,
        fiasLevel: 8,
        houseFiasId: tverskaya.houseFiasId,
        postalCode: expect.stringMatching(/^\d{6}$/),
        latitude: 55.7649,
        longitude: 37.6055,
        geoPrecision: 0,
        quality: 'certain',
        result: expect.stringContaining('ул Тверская'),
        finding: null,
      },
    });
    // the list and a shop's embedded warehouse carry it too
    const listed = (await owner.get('/v2/warehouses?perPage=100')).body.find(
      (item: { id: number }) => item.id === created.body.id,
    );
    expect(listed.address.register.houseFiasId).toBe(tverskaya.houseFiasId);
  });

  it('an address less than a house is kept, with a finding, and the warehouse works as any other', async () => {
    const created = await owner.post('/v2/warehouses', warehouseBody({ name: 'Без дома' }));
    expect(created.status).toBe(201);
    const read = (await owner.get(`/v2/warehouses/${created.body.id}`)).body;
    expect(read.address.street).toBe('Складская улица');
    expect(read.address.register).toMatchObject({ houseFiasId: null, quality: 'check' });
    expect(read.address.register.geoPrecision).toBeGreaterThan(1);
    expect(read.address.register.finding).toMatch(/not to the house.*measured from the locality's centre/);
  });

  it('PUT checks the address again; what a client sends as register is ignored', async () => {
    const id = (await owner.post('/v2/warehouses', warehouseBody({ name: 'Переезд' }))).body.id;
    const before = (await owner.get(`/v2/warehouses/${id}`)).body;
    expect(before.address.register.houseFiasId).toBeNull();
    // a client that sends back what it read, with a register of its own making
    const sent = atHouse(tverskaya, { name: 'Переезд' });
    const put = await owner.put(`/v2/warehouses/${id}`, {
      ...sent,
      address: { ...sent.address, register: { ...before.address.register, latitude: 1, geoPrecision: 0 } },
    });
    expect(put.status, put.text).toBe(204);
    const after = (await owner.get(`/v2/warehouses/${id}`)).body;
    expect(after.address.register).toMatchObject({ houseFiasId: tverskaya.houseFiasId, finding: null });
    expect(after.address.register.latitude).not.toBe(1);
  });

  it('a foreign warehouse is not looked up in the register', async () => {
    const body = warehouseBody({ name: 'Алматы' });
    const created = await owner.post('/v2/warehouses', {
      ...body,
      address: { ...body.address, city: { countryCode: 'KZ', name: 'Алматы' } },
    });
    expect(created.status, created.text).toBe(201);
    expect((await owner.get(`/v2/warehouses/${created.body.id}`)).body.address).not.toHaveProperty('register');
  });

  it('a warehouse saved before the check reads exactly as it did, and is checked on its next PUT', async () => {
    const body = warehouseBody({ name: 'Старый' });
    const id = (await owner.post('/v2/warehouses', body)).body.id as number;
    await t.runtime.database.db
      .updateTable('warehouses')
      .set({ address_register: null })
      .where('id', '=', id)
      .execute();
    // the read cache of shops is not involved: warehouses are read from the database
    const read = (await owner.get(`/v2/warehouses/${id}`)).body;
    expect(read.address).toEqual(body.address);
    expect((await owner.put(`/v2/warehouses/${id}`, body)).status).toBe(204);
    expect((await owner.get(`/v2/warehouses/${id}`)).body.address.register.quality).toBe('check');
  });

  it('a fulfilment warehouse is checked when created, and stays not editable', async () => {
    const hold = (await owner.get('/v2/warehouses?hold=1')).body[0].id as number;
    const body = atHouse(tverskaya, { name: 'Фулфилмент', type: 2, fulfilmentWarehouseId: hold });
    const created = await owner.post('/v2/warehouses', body);
    expect(created.status, created.text).toBe(201);
    const read = (await owner.get(`/v2/warehouses/${created.body.id}`)).body;
    expect(read.address.register.houseFiasId).toBe(tverskaya.houseFiasId);
    const put = await owner.put(
      `/v2/warehouses/${created.body.id}`,
      warehouseBody({ type: 2, fulfilmentWarehouseId: hold }),
    );
    expect(put.status).toBe(409);
    expect((await owner.get(`/v2/warehouses/${created.body.id}`)).body.address).toEqual(read.address);
  });
});

describe("a warehouse's address and the register: bad input", () => {
  it('is refused as before, naming the field, and writes nothing', async () => {
    const before = await count(owner);
    const body = atHouse(tverskaya);
    const refused = await owner.post('/v2/warehouses', {
      ...body,
      address: { ...body.address, street: '', city: { ...body.address.city, countryCode: 'XX' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((item: { field: string }) => item.field)).toContain('address.street');
    const unknownCountry = await owner.post('/v2/warehouses', {
      ...body,
      address: { ...body.address, city: { ...body.address.city, countryCode: 'XX' } },
    });
    expect(unknownCountry.status).toBe(400);
    expect(unknownCountry.body.errors).toEqual([{ field: 'address.city.countryCode', message: expect.any(String) }]);
    expect(await count(owner)).toBe(before);
  });

  it('a PUT refused leaves the register as it was', async () => {
    const id = (await owner.post('/v2/warehouses', atHouse(tverskaya, { name: 'Неизменный' }))).body.id;
    const before = (await owner.get(`/v2/warehouses/${id}`)).body;
    const refused = await owner.put(`/v2/warehouses/${id}`, warehouseBody({ schedule: [] }));
    expect(refused.status).toBe(400);
    expect((await owner.get(`/v2/warehouses/${id}`)).body).toEqual(before);
  });
});

describe("a warehouse's address and the register: security", () => {
  it("another account's warehouse is 404 and its register unchanged", async () => {
    const id = (await owner.post('/v2/warehouses', atHouse(tverskaya, { name: 'Мой склад' }))).body.id;
    const before = (await owner.get(`/v2/warehouses/${id}`)).body;
    expect((await stranger.get(`/v2/warehouses/${id}`)).status).toBe(404);
    expect((await stranger.put(`/v2/warehouses/${id}`, warehouseBody({ name: 'Чужой' }))).status).toBe(404);
    expect((await owner.get(`/v2/warehouses/${id}`)).body).toEqual(before);
  });

  it('a token is needed to create one', async () => {
    expect((await t.client().post('/v2/warehouses', atHouse(tverskaya))).status).toBe(401);
  });
});
