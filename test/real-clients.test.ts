/**
 * Replays of what real shop clients send: a Python order-sync service, a
 * WordPress shop plugin, a plugin's settings check, a Joomla client that POSTs everything;
 * and the money and rules of the contract that checking every field found wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import type { ApiClient } from './support/client.js';
import { boxBody } from './support/fixtures.js';
import { dropOffPointOf, orderBody, orderingAccount, type OrderingAccount } from './support/orders.js';

let t: TestApp;
let a: OrderingAccount;
let stranger: OrderingAccount;

beforeAll(async () => {
  t = await createTestApp();
  a = await orderingAccount(t);
  stranger = await orderingAccount(t, { name: 'Stranger' });
});
afterAll(async () => t.close());

/** The Python order-sync client: requests' `params=` dict, no body. */
const pythonGet = (client: ApiClient, path: string, params: Record<string, string | number>) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) query.append(key, String(value));
  return client.get(`${path}?${query.toString()}`);
};

const shopHeader = (id: number | string) => ({ headers: { 'Shop-Id': String(id) } });

describe('a Python order-sync client (item 1)', () => {
  it('pages through every order without `list`', async () => {
    const draft = (await a.owner.post('/v2/orders', orderBody(a, { cmsId: 'PY-1' }))).body.id as number;
    const canceled = (await a.owner.post('/v2/orders', orderBody(a, { cmsId: 'PY-2' }))).body.id as number;
    expect((await a.owner.post('/v2/orders/cancel', { ids: [canceled] })).status).toBe(204);
    const page = await pythonGet(a.owner, '/v2/orders', { page: 1, perPage: 50 });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const ids = (page.body as Array<{ id: number }>).map((order) => order.id);
    expect(ids).toEqual(expect.arrayContaining([draft, canceled]));
    const all = await a.owner.get('/v2/orders?list=0&page=1&perPage=50');
    expect(page.headers['x-total-count']).toBe(all.headers['x-total-count']);
    expect(ids).toEqual((all.body as Array<{ id: number }>).map((order) => order.id));
  });
});

describe('overall sizes of 0 from a WordPress plugin (item 3)', () => {
  const goods =
    'products[0][weight]=0.4&products[0][count]=1&products[0][dimensions][width]=20&products[0][dimensions][height]=10&products[0][dimensions][length]=30';
  const reception =
    'reception[cityName]=%D0%A1%D0%B0%D0%BD%D0%BA%D1%82-%D0%9F%D0%B5%D1%82%D0%B5%D1%80%D0%B1%D1%83%D1%80%D0%B3&reception[countryCode]=RU&type=2';

  it('prices a parcel whose overall dimensions are 0 or empty by its goods, as if none were sent', async () => {
    const calculate = (extra: string) =>
      a.owner.post('/v2/calculator', `${reception}&${goods}${extra}`, { form: true, ...shopHeader(a.shopId) });
    const without = await calculate('');
    expect(without.status).toBe(200);
    for (const extra of [
      '&dimensions[width]=0&dimensions[height]=0&dimensions[length]=0',
      '&dimensions[width]=&dimensions[height]=&dimensions[length]=',
    ]) {
      const zero = await calculate(extra);
      expect(zero.status, JSON.stringify(zero.body)).toBe(200);
      expect(zero.body['2']).toEqual(without.body['2']);
    }
  });

  it('still refuses negative and over-limit overall sizes, and creates orders with sizes of 0 as not given', async () => {
    for (const [value, message] of [
      ['-1', 'must be at least 0'],
      ['1000', 'must be at most 999'],
    ]) {
      const refused = await a.owner.post('/v2/calculator', `${reception}&${goods}&dimensions[width]=${value}`, {
        form: true,
        ...shopHeader(a.shopId),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ field: 'dimensions.width', message }]);
    }
    const created = await a.owner.post(
      '/v2/orders',
      orderBody(a, { dimensions: { width: 0, height: 0, length: 0, places: 1 } }),
      { form: true },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const order = (await a.owner.get(`/v2/orders/${created.body.id}`)).body;
    expect(order.dimensions).toMatchObject({ width: null, height: null, length: null, places: 1 });
    expect(order.error).toBeNull();
  });
});

describe('Shop-Id is checked on every endpoint that receives it (item 4)', () => {
  it('refuses a Shop-Id naming no shop of the account, also on lists that do not need one', async () => {
    for (const path of ['/v2/lists/order-statuses', '/v2/boxes', '/v2/lists/delivery-companies', '/v2/orders?list=0']) {
      for (const header of ['999999', String(stranger.shopId)]) {
        const response = await a.owner.get(path, shopHeader(header));
        expect(response.status, `${path} ${header}`).toBe(400);
        expect(response.body).toMatchObject({
          code: 'unknown_shop',
          errors: [{ field: 'Shop-Id', message: 'is not a shop of this account' }],
        });
      }
      expect((await a.owner.get(path, shopHeader('abc'))).body.code).toBe('invalid_shop_id');
      expect((await a.owner.get(path, shopHeader(a.shopId))).status, path).toBe(200);
    }
  });

  it('refuses a shop key naming another shop with 403, and writes nothing under a bad Shop-Id', async () => {
    const shopKey = t.client(a.shopKey);
    expect((await shopKey.get('/v2/lists/order-statuses', shopHeader(a.otherShopId))).status).toBe(403);
    expect((await shopKey.get('/v2/lists/order-statuses', shopHeader(a.shopId))).status).toBe(200);
    const before = (await a.owner.get('/v2/boxes')).headers['x-total-count'];
    const refused = await a.owner.post('/v2/boxes', boxBody({ name: 'Чужая' }), shopHeader(999999));
    expect(refused.status).toBe(400);
    expect((await a.owner.get('/v2/boxes')).headers['x-total-count']).toBe(before);
  });
});

describe('a Joomla client that sends every call as POST (item 5)', () => {
  it('reads the reference lists by POST with the filters in a form body, as GET does with a query', async () => {
    const byGet = await a.owner.get('/v2/lists/points?companyId=1&types%5B0%5D=2&perPage=5&page=2');
    const byPost = await a.owner.post('/v2/lists/points', 'companyId=1&types%5B0%5D=2&perPage=5&page=2', {
      form: true,
    });
    expect(byPost.status, JSON.stringify(byPost.body)).toBe(200);
    expect(byPost.body).toEqual(byGet.body);
    expect(byPost.headers['x-total-count']).toBe(byGet.headers['x-total-count']);
    expect(byPost.body).toHaveLength(5);
    expect((await a.owner.post('/v2/lists/points', { companyId: 1, types: [2], perPage: 5, page: 2 })).body).toEqual(
      byGet.body,
    );

    expect((await a.owner.post('/v2/lists/order-statuses', 'lang=en', { form: true })).body['10']).toBe(
      'Canceled by sender',
    );
    expect((await a.owner.post('/v2/lists/order-statuses', '', { form: true })).body['11']).toBe('Черновик');
    const companies = await a.owner.post('/v2/lists/delivery-companies', '', { form: true });
    expect(companies.body).toEqual((await a.owner.get('/v2/lists/delivery-companies')).body);
    const services = await a.owner.post('/v2/lists/services', `shopId=${a.shopId}`, { form: true });
    expect(services.body).toEqual((await a.owner.get(`/v2/lists/services?shopId=${a.shopId}`)).body);
  });

  it('refuses bad filters in the body with field errors, and still needs a token', async () => {
    const bad = await a.owner.post('/v2/lists/points', 'types%5B0%5D=7&perPage=5000', { form: true });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['perPage', 'types[0]']);
    expect((await a.owner.post('/v2/lists/order-statuses', { lang: 'de' })).body.errors).toEqual([
      { field: 'lang', message: 'must be one of: "ru", "en"' },
    ]);
    expect((await t.client().post('/v2/lists/points', 'companyId=1', { form: true })).status).toBe(401);
    expect((await a.owner.post('/v2/lists/services', `shopId=${stranger.shopId}`, { form: true })).status).toBe(404);
  });
});

describe('money and rules of the contract (items 7-11)', () => {
  const courierOrder = (overrides: Record<string, unknown> = {}) =>
    orderBody(a, { delivery: { company: { id: 1 }, type: 2 }, ...overrides });
  const goodsAt = (priceDeclared: number | null) => [
    {
      name: 'Пальто',
      vendorCode: 'COAT-1',
      ...(priceDeclared === null ? {} : { priceDeclared }),
      priceCod: 3500,
      count: 1,
      weight: 1,
    },
  ];
  const delivery = async (body: Record<string, unknown>) => {
    const created = await a.owner.post('/v2/orders', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return (await a.owner.get(`/v2/orders/${created.body.id}`)).body;
  };

  it("applies an order's priceDeclared only when no good has a declared value (item 7)", async () => {
    const goodsOnly = await delivery(courierOrder({ products: goodsAt(3500) }));
    const both = await delivery(courierOrder({ products: goodsAt(3500), priceDeclared: 100000 }));
    expect(both.delivery.priceCommissionDeclared).toBe(goodsOnly.delivery.priceCommissionDeclared);
    expect(both.delivery.totalPrice).toBe(goodsOnly.delivery.totalPrice);
    const orderOnly = await delivery(courierOrder({ products: goodsAt(null), priceDeclared: 100000 }));
    expect(orderOnly.delivery.priceCommissionDeclared).toBeGreaterThan(goodsOnly.delivery.priceCommissionDeclared);
  });

  it('prices overall dimensions as the whole shipment, however many places (item 8)', async () => {
    const calculate = async (itemCount: number) => {
      const response = await a.owner.post(
        '/v2/calculator',
        {
          reception: { cityName: 'Санкт-Петербург' },
          type: 2,
          weight: 2,
          dimensions: { width: 40, height: 30, length: 30 },
          itemCount,
        },
        shopHeader(a.shopId),
      );
      expect(response.status).toBe(200);
      return (response.body['2'] as Array<{ deliveryCompanyId: number; priceDelivery: number }>).find(
        (company) => company.deliveryCompanyId === 1,
      )?.priceDelivery;
    };
    const one = await calculate(1);
    expect(one).toBeGreaterThan(0);
    expect(await calculate(3)).toBe(one);
    const single = await delivery(
      courierOrder({
        products: goodsAt(1000),
        dimensions: { width: 40, height: 30, length: 30, weight: 2, places: 1 },
      }),
    );
    const three = await delivery(
      courierOrder({
        products: goodsAt(1000),
        dimensions: { width: 40, height: 30, length: 30, weight: 2, places: 3 },
      }),
    );
    expect(three.delivery.priceDelivery).toBe(single.delivery.priceDelivery);
  });

  it('gives a courier order the default interval, and refuses an interval the company does not offer there (item 9)', async () => {
    const schedule = await a.owner.get(
      `/v2/couriers/schedule?cityFias=x&cityType=${encodeURIComponent('г')}&cityName=${encodeURIComponent('Санкт-Петербург')}&cityRegion=${encodeURIComponent('Санкт-Петербург')}&shopId=${a.shopId}&companyId=1&date=2099-01-01`,
    );
    const intervals = schedule.body as Array<{ id: number; isDefault: boolean }>;
    expect(intervals.length).toBeGreaterThan(1);
    const byDefault = await delivery(courierOrder());
    expect(byDefault.clientCourierTime).toBe(intervals.find((interval) => interval.isDefault)?.id);
    const chosen = intervals.find((interval) => !interval.isDefault)?.id as number;
    expect((await delivery(courierOrder({ clientCourierTime: chosen }))).clientCourierTime).toBe(chosen);
    expect((await delivery(orderBody(a, { clientCourierTime: chosen }))).clientCourierTime).toBeNull();

    const before = (await a.owner.get('/v2/orders?list=0')).headers['x-total-count'];
    const unknown = await a.owner.post('/v2/orders', courierOrder({ clientCourierTime: 999999 }), { form: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { field: 'clientCourierTime', message: expect.stringContaining(`choose one of ${intervals[0].id}`) },
    ]);
    expect((await a.owner.get('/v2/orders?list=0')).headers['x-total-count']).toBe(before);
  });

  it("checks the drop-off point against the company's points, and chooses one where the company needs one (item 10)", async () => {
    const otherCompanysPoint = dropOffPointOf(t, 3);
    const foreign = await a.owner.post('/v2/orders', orderBody(a, { pickup: { pointId: otherCompanysPoint } }));
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { field: 'pickup.pointId', message: expect.stringContaining('is not a drop-off point of Пунктир') },
    ]);
    // no plugin sends one: the service chooses the company's point nearest the warehouse
    const missing = await a.owner.post('/v2/orders', orderBody(a, { pickup: { type: 1 } }));
    expect(missing.status).toBe(201);
    expect((await a.owner.get(`/v2/orders/${missing.body.id}`)).body).toMatchObject({
      error: null,
      pickup: { type: 1, pointId: expect.any(Number) },
    });
    // A company that takes parcels at any of its points, and a courier collecting from the warehouse, need none.
    expect(
      (await a.owner.post('/v2/orders', orderBody(a, { pickup: undefined, delivery: { company: { id: 3 }, type: 2 } })))
        .status,
    ).toBe(201);
    expect((await a.owner.post('/v2/orders', orderBody(a, { pickup: { type: 4 } }))).status).toBe(201);
    expect((await a.owner.post('/v2/orders', orderBody(a, { pickup: { pointId: dropOffPointOf(t, 1) } }))).status).toBe(
      201,
    );
  });

  it('gives every pickup point a postal code (item 11)', async () => {
    const points = t.runtime.services.reference.registry.all().flatMap(({ company }) => {
      const localities = t.runtime.services.reference.localities.all;
      return localities.flatMap((locality) => t.runtime.services.reference.registry.pointsIn(company.id, locality.id));
    });
    expect(points.length).toBeGreaterThan(10000);
    expect(points.filter((point) => !/^\d{6}$/.test(point.zipCode))).toEqual([]);
    const page = await a.owner.get('/v2/lists/points?perPage=1000&page=9');
    expect(
      (page.body as Array<{ zipCode: unknown }>).every(
        (point) => typeof point.zipCode === 'string' && /^\d{6}$/.test(point.zipCode),
      ),
    ).toBe(true);
  });
});
