import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { boxBody, shopBody, warehouseBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
});
afterAll(async () => t.close());

async function countBoxes(client: ApiClient): Promise<number> {
  const response = await client.get('/v2/boxes?perPage=1');
  return Number(response.headers['x-total-count']);
}

describe('boxes: happy path', () => {
  it('creates, reads, replaces, patches and deletes a box', async () => {
    const created = await owner.post('/v2/boxes', boxBody());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number) });
    const id = created.body.id;

    const read = await owner.get(`/v2/boxes/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id,
      name: 'Коробка S',
      dimensions: { width: 20, height: 10, length: 30 },
      weight: 0.15,
    });

    const replaced = await owner.put(`/v2/boxes/${id}`, {
      name: 'Коробка M',
      dimensions: { width: 30, height: 20, length: 40 },
    });
    expect(replaced.status).toBe(204);
    expect(replaced.text).toBe('');
    expect((await owner.get(`/v2/boxes/${id}`)).body).toEqual({
      id,
      name: 'Коробка M',
      dimensions: { width: 30, height: 20, length: 40 },
      weight: null,
    });

    const patched = await owner.patch(`/v2/boxes/${id}`, { dimensions: { height: 25 }, weight: 0.2 });
    expect(patched.status).toBe(204);
    expect((await owner.get(`/v2/boxes/${id}`)).body).toEqual({
      id,
      name: 'Коробка M',
      dimensions: { width: 30, height: 25, length: 40 },
      weight: 0.2,
    });

    expect((await owner.delete(`/v2/boxes/${id}`)).status).toBe(204);
    expect((await owner.get(`/v2/boxes/${id}`)).status).toBe(404);
  });

  it('lists with every filter, paging headers and newest first', async () => {
    const ids: number[] = [];
    for (const [name, width, weight] of [
      ['Малая коробка', 10, 0.1],
      ['Средняя КОРОБКА', 20, 0.25],
      ['Пакет', 20, 0.015],
    ] as const) {
      ids.push(
        (await owner.post('/v2/boxes', boxBody({ name, dimensions: { width, height: 5, length: 30 }, weight }))).body
          .id,
      );
    }
    const all = await owner.get('/v2/boxes?perPage=2');
    expect(all.status).toBe(200);
    expect(all.headers['x-total-count']).toBe('3');
    expect(all.headers['x-page']).toBe('1');
    expect(all.headers['x-per-page']).toBe('2');
    expect(all.body.map((box: { id: number }) => box.id)).toEqual([ids[2], ids[1]]);
    expect((await owner.get('/v2/boxes?perPage=2&page=2')).body.map((box: { id: number }) => box.id)).toEqual([ids[0]]);

    const byName = await owner.get(`/v2/boxes?name=${encodeURIComponent('коробка')}`);
    expect(byName.body.map((box: { name: string }) => box.name).sort()).toEqual(['Малая коробка', 'Средняя КОРОБКА']);
    expect((await owner.get('/v2/boxes?width=20')).body).toHaveLength(2);
    expect(
      (await owner.get('/v2/boxes?width=20&height=5&length=30&weight=0.015')).body.map((box: { id: number }) => box.id),
    ).toEqual([ids[2]]);
    expect((await owner.get('/v2/boxes?height=6')).body).toEqual([]);
    expect((await owner.get('/v2/boxes?name=' + encodeURIComponent('%'))).body).toEqual([]);
  });

  it('takes the PHP form-encoded spelling of the same box', async () => {
    const json = await owner.post('/v2/boxes', boxBody({ name: 'Form box' }));
    const form = await owner.post(
      '/v2/boxes',
      'name=Form+box&dimensions%5Bwidth%5D=20&dimensions%5Bheight%5D=10&dimensions%5Blength%5D=30&weight=0.150&id=999&extra=1',
      { form: true },
    );
    expect(form.status).toBe(201);
    const [a, b] = await Promise.all([owner.get(`/v2/boxes/${json.body.id}`), owner.get(`/v2/boxes/${form.body.id}`)]);
    expect({ ...b.body, id: 0 }).toEqual({ ...a.body, id: 0 });
  });
});

describe('boxes: bad input', () => {
  it('refuses sizes outside 1..999, fractions and missing sides, writing nothing', async () => {
    const before = await countBoxes(owner);
    const response = await owner.post('/v2/boxes', { name: 'x', dimensions: { width: 0, height: 1000, length: 1.5 } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'dimensions.width', message: 'must be at least 1' },
        { field: 'dimensions.height', message: 'must be at most 999' },
        { field: 'dimensions.length', message: 'must be a whole number' },
      ]),
    );
    const missing = await owner.post('/v2/boxes', { name: 'x', dimensions: { width: 1 } });
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([{ field: 'dimensions.height', message: 'is required' }]),
    );
    expect(await countBoxes(owner)).toBe(before);
  });

  it('refuses a weight under a gram or finer than a gram', async () => {
    const light = await owner.post('/v2/boxes', boxBody({ weight: 0.0005 }));
    expect(light.status).toBe(400);
    expect(light.body.errors).toEqual([{ field: 'weight', message: 'must be at least 0.001' }]);
    const fine = await owner.post('/v2/boxes', boxBody({ weight: 1.2345 }));
    expect(fine.status).toBe(400);
    expect(fine.body.errors).toEqual([{ field: 'weight', message: 'must be given to the gram (at most 3 decimals)' }]);
  });

  it('refuses bad paging and filters with 400, not a silent default', async () => {
    for (const query of ['perPage=0', 'perPage=1001', 'page=0', 'page=abc', 'width=wide']) {
      const response = await owner.get(`/v2/boxes?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.errors[0].field).toBe(query.split('=')[0]);
    }
  });

  it('refuses a body that is not JSON', async () => {
    const response = await owner.call('POST', '/v2/boxes', undefined, {
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/v2/boxes',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(broken.statusCode).toBe(400);
    expect(JSON.parse(broken.body).code).toBe('invalid_json');
  });

  it('answers 404 for a box that does not exist, on every verb', async () => {
    expect((await owner.get('/v2/boxes/999999')).status).toBe(404);
    expect((await owner.put('/v2/boxes/999999', boxBody())).status).toBe(404);
    expect((await owner.patch('/v2/boxes/999999', { name: 'x' })).status).toBe(404);
    expect((await owner.delete('/v2/boxes/999999')).status).toBe(404);
    expect((await owner.get('/v2/boxes/abc')).status).toBe(400);
  });
});

describe('boxes: security', () => {
  it('needs a token', async () => {
    const anonymous = t.client();
    expect((await anonymous.get('/v2/boxes')).status).toBe(401);
    expect((await anonymous.post('/v2/boxes', boxBody())).status).toBe(401);
    expect((await t.client('acc_forged').delete('/v2/boxes/1')).status).toBe(401);
  });

  it("hides one account's boxes from another (404, never 403) and changes nothing", async () => {
    const id = (await owner.post('/v2/boxes', boxBody({ name: 'Private' }))).body.id;
    expect((await stranger.get(`/v2/boxes/${id}`)).status).toBe(404);
    expect((await stranger.put(`/v2/boxes/${id}`, boxBody())).status).toBe(404);
    expect((await stranger.patch(`/v2/boxes/${id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await stranger.delete(`/v2/boxes/${id}`)).status).toBe(404);
    expect((await stranger.get('/v2/boxes?name=Private')).body).toEqual([]);
    expect((await owner.get(`/v2/boxes/${id}`)).body.name).toBe('Private');
  });

  it('lets a shop API key use the account boxes (they are account-wide packing material)', async () => {
    const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    const shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    const apiKey = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey;
    const shopClient = owner.withToken(apiKey);
    const id = (await shopClient.post('/v2/boxes', boxBody({ name: 'From the shop plugin' }))).body.id;
    expect((await owner.get(`/v2/boxes/${id}`)).body.name).toBe('From the shop plugin');
  });
});
