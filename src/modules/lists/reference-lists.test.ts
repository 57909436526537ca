import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let shopId: number;
let fulfilmentShopId: number;
const MOSCOW = '0c5b2444-70a0-4932-980c-b4dc0d3f02b5';
const nextYear = `${new Date().getUTCFullYear() + 1}-03-02`;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
  shopId = (await owner.post('/v2/shops', shopBody((await owner.post('/v2/warehouses', warehouseBody())).body.id))).body
    .id;
  const fulfilment = (
    await owner.post('/v2/warehouses', warehouseBody({ name: 'Фулфилмент', type: 2, fulfilmentWarehouseId: 101 }))
  ).body.id;
  fulfilmentShopId = (await owner.post('/v2/shops', shopBody(fulfilment, { name: 'ФФ' }))).body.id;
});
afterAll(async () => t.close());

describe('reference lists of delivery', () => {
  it('lists delivery and packing services; fulfilment services only for a shop tied to a fulfilment warehouse', async () => {
    const plain = await owner.get('/v2/lists/services');
    expect(plain.status).toBe(200);
    expect(plain.body.delivery.map((item: { id: number }) => item.id)).toEqual([1, 4, 6, 7, 18, 19, 22]);
    expect(plain.body.packing.map((item: { id: number }) => item.id)).toEqual([2, 3, 5, 8, 16]);
    expect(plain.body.delivery[0]).toEqual({ id: 1, name: 'Проверка целостности упаковки' });
    expect((await owner.get(`/v2/lists/services?shopId=${shopId}`)).body).toEqual(plain.body);
    const fulfilment = await owner.get(`/v2/lists/services?shopId=${fulfilmentShopId}`);
    expect(fulfilment.body.packing.map((item: { id: number }) => item.id)).toEqual(
      expect.arrayContaining([9, 10, 11, 12, 13, 14, 15, 17, 20, 21]),
    );
  });

  it('lists delivery companies (at least 8, with types) and return companies', async () => {
    const companies = await owner.get('/v2/lists/delivery-companies');
    expect(companies.body.length).toBeGreaterThanOrEqual(8);
    expect(companies.body[0]).toEqual({
      id: 1,
      name: 'Пунктир',
      logo: 'http://delivery.test/logos/punktir.svg',
      deliveryTypes: [1, 2],
    });
    const types = new Set(companies.body.flatMap((company: { deliveryTypes: number[] }) => company.deliveryTypes));
    expect([...types].sort()).toEqual([1, 2, 3]);
    const logo = await t.client().get('/logos/punktir.svg');
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(logo.text).toContain('>П</text>');
    // a real company's card (under an account's contract) names a logo here too
    expect((await t.client().get('/logos/cdek.svg')).headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((await t.client().get('/logos/nobody.svg')).status).toBe(404);
    const returns = await owner.get('/v2/lists/return-companies');
    expect(returns.body.map((company: { id: number }) => company.id)).toEqual([1, 3, 5, 6]);
    expect(Object.keys(returns.body[0]).sort()).toEqual(['id', 'logo', 'name']);
  });

  it('lists pickup points with every filter and paging', async () => {
    const moscow = await owner.get(`/v2/lists/points?cityFias=${MOSCOW}&perPage=5`);
    expect(moscow.status).toBe(200);
    expect(Number(moscow.headers['x-total-count'])).toBeGreaterThan(300);
    expect(moscow.body).toHaveLength(5);
    const point = moscow.body[0];
    expect(Object.keys(point.limits).sort()).toEqual([
      'maxCod',
      'maxSizeA',
      'maxSizeB',
      'maxSizeC',
      'maxSizeSum',
      'maxVolume',
      'maxWeight',
      'minWeight',
    ]);
    expect(point.schedule).toHaveLength(7);
    expect(point.address).toMatch(/^Москва, /);

    const lockers = await owner.get(`/v2/lists/points?cityFias=${MOSCOW}&companyId=1&types[0]=2&perPage=1000`);
    expect(lockers.body.length).toBeGreaterThan(10);
    for (const item of lockers.body) expect(item).toMatchObject({ deliveryCompanyId: 1, type: 2 });
    expect(lockers.body[0].name).toMatch(/^Постамат Пунктир №\d+$/);
    // a network whose own name says "Постамат" names its lockers without saying it twice (the widget, the dashboard and stickers show the name as it is)
    const lockerNetwork = await owner.get(`/v2/lists/points?cityFias=${MOSCOW}&companyId=2&perPage=1000`);
    expect(lockerNetwork.body.length).toBeGreaterThan(10);
    for (const item of lockerNetwork.body) expect(item.name).toMatch(/^Постамат 24 №\d+$/);
    const posts = await owner.get('/v2/lists/points?types[]=3&country=RU&perPage=2&page=3');
    expect(posts.headers['x-page']).toBe('3');
    for (const item of posts.body) expect(item.type).toBe(3);
    const one = await owner.get(`/v2/lists/points?id=${point.id}`);
    expect(one.body).toEqual([point]);
    expect((await owner.get('/v2/lists/points?country=KZ')).body).toEqual([]);
    expect((await owner.get('/v2/lists/points?cityFias=00000000-0000-0000-0000-000000000000')).body).toEqual([]);
    const small = await owner.get('/v2/lists/points?cityFias=gn:452949');
    expect(small.body.length).toBeGreaterThan(0);
  });

  it('gives courier intervals of a company in a locality, with one default', async () => {
    const query = `cityFias=${MOSCOW}&cityType=г&cityName=${encodeURIComponent('Москва')}&cityRegion=${encodeURIComponent('Москва')}&shopId=${shopId}&date=${nextYear}`;
    const express = await owner.get(`/v2/couriers/schedule?${query}&companyId=4`);
    expect(express.status).toBe(200);
    expect(express.body).toHaveLength(4);
    expect(express.body.filter((item: { isDefault: boolean }) => item.isDefault)).toEqual([
      { id: 402, timeFrom: '13:00', timeTo: '16:00', isDefault: true },
    ]);
    expect((await owner.get(`/v2/couriers/schedule?${query}&companyId=2`)).body).toEqual([]);
    const town = `cityFias=x&cityType=г&cityName=${encodeURIComponent('Подольск')}&cityRegion=${encodeURIComponent('Московская область')}&shopId=${shopId}&date=${nextYear}&companyId=1`;
    expect((await owner.get(`/v2/couriers/schedule?${town}`)).body).toEqual([
      { id: 101, timeFrom: '09:00', timeTo: '18:00', isDefault: true },
    ]);
    const nowhere = `cityFias=x&cityType=г&cityName=${encodeURIComponent('Удомля')}&cityRegion=${encodeURIComponent('Тверская область')}&shopId=${shopId}&date=${nextYear}&companyId=4`;
    expect((await owner.get(`/v2/couriers/schedule?${nowhere}`)).body).toEqual([]);
  });

  it('validates every parameter of the courier schedule', async () => {
    const missing = await owner.get('/v2/couriers/schedule');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'cityFias',
      'cityName',
      'cityRegion',
      'cityType',
      'companyId',
      'date',
      'shopId',
    ]);
    const base = `cityFias=${MOSCOW}&cityType=г&cityName=${encodeURIComponent('Москва')}&cityRegion=${encodeURIComponent('Москва')}&shopId=${shopId}`;
    expect((await owner.get(`/v2/couriers/schedule?${base}&companyId=4&date=01.02.2030`)).body.errors[0].field).toBe(
      'date',
    );
    expect((await owner.get(`/v2/couriers/schedule?${base}&companyId=4&date=2000-01-01`)).body.errors[0]).toEqual({
      field: 'date',
      message: 'must be today or later',
    });
    expect((await owner.get(`/v2/couriers/schedule?${base}&companyId=999&date=${nextYear}`)).body.code).toBe(
      'unknown_company',
    );
    expect(
      (
        await owner.get(
          `/v2/couriers/schedule?cityFias=x&cityType=г&cityName=Nowhere&cityRegion=x&shopId=${shopId}&companyId=4&date=${nextYear}`,
        )
      ).body.code,
    ).toBe('unknown_locality');
  });
});

describe('reference lists: security', () => {
  it('needs a token on every list', async () => {
    const anonymous = t.client();
    for (const url of [
      '/v2/lists/services',
      '/v2/lists/delivery-companies',
      '/v2/lists/return-companies',
      '/v2/lists/points',
      '/v2/couriers/schedule',
    ]) {
      expect((await anonymous.get(url)).status, url).toBe(401);
    }
  });

  it("does not reveal another account's shop", async () => {
    expect((await stranger.get(`/v2/lists/services?shopId=${shopId}`)).status).toBe(404);
    const query = `cityFias=${MOSCOW}&cityType=г&cityName=${encodeURIComponent('Москва')}&cityRegion=${encodeURIComponent('Москва')}&shopId=${shopId}&date=${nextYear}&companyId=4`;
    expect((await stranger.get(`/v2/couriers/schedule?${query}`)).status).toBe(404);
  });

  it('keeps a shop key to its own shop', async () => {
    const apiKey = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey;
    const shopClient = owner.withToken(apiKey);
    expect((await shopClient.get(`/v2/lists/services?shopId=${shopId}`)).status).toBe(200);
    expect((await shopClient.get(`/v2/lists/services?shopId=${fulfilmentShopId}`)).status).toBe(403);
  });
});
