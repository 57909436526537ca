/**
 * An order for a company that takes parcels only at a drop-off point chosen in
 * advance is never lost for want of `pickup.pointId`: the warehouse's choice, else the point
 * nearest the sender, else a draft with an error that confirm refuses; and the calculator
 * offers no such company where it has no point.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { MOSCOW_FIAS, placeHouse, sampleHouse } from '../../../test/support/register-houses.js';
import { distanceKm } from '../../carriers/geo.js';
import { orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import type { DeliveryPoint } from '../../carriers/points.js';
import { chooseDropOffPoint, nearestToSender, streetKey } from './drop-off.js';

const point = (id: number, address: string, latitude: number, longitude: number): DeliveryPoint =>
  ({ id, companyId: 1, localityId: 1, type: 1, name: `P${id}`, latitude, longitude, address }) as DeliveryPoint;

describe('the drop-off rule', () => {
  const company = { id: 1, name: 'Пунктир', pickup: { pickupPointRequired: true } };
  const sender = {
    placeName: 'Москва',
    centre: { latitude: 55.75, longitude: 37.61 },
    street: 'ул. Ленина',
    position: null,
  };
  const far = point(11, 'ул. Мира, 3', 55.9, 37.9);
  const near = point(12, 'ул. Садовая, 1', 55.751, 37.611);
  const onStreet = point(13, 'Ленина улица, 40', 55.8, 37.7);

  it("takes the order's point, then the warehouse's, then one on the sender's street, then the nearest the centre", () => {
    const ask = (overrides: Partial<Parameters<typeof chooseDropOffPoint>[0]>) =>
      chooseDropOffPoint({
        company,
        pickupType: 1,
        givenPointId: null,
        warehouseDefault: null,
        candidates: [far, near, onStreet],
        sender,
        ...overrides,
      });
    expect(ask({ givenPointId: 99 })).toEqual({ pointId: 99, chosenBy: 'order', problem: null });
    expect(ask({ warehouseDefault: 98 })).toEqual({ pointId: 98, chosenBy: 'warehouse', problem: null });
    expect(ask({})).toEqual({ pointId: 13, chosenBy: 'nearest', problem: null });
    expect(ask({ sender: { ...sender, street: 'Складская улица' } })).toEqual({
      pointId: 12,
      chosenBy: 'nearest',
      problem: null,
    });
    expect(nearestToSender([far, near], { ...sender, street: null })?.id).toBe(12);
  });

  it("takes the point nearest the sender's house where the register placed it, whatever its street or the centre", () => {
    const house = { latitude: 55.899, longitude: 37.899 };
    expect(nearestToSender([far, near, onStreet], { ...sender, position: house })?.id).toBe(11);
    expect(
      chooseDropOffPoint({
        company,
        pickupType: 1,
        givenPointId: null,
        warehouseDefault: null,
        candidates: [near, onStreet, far],
        sender: { ...sender, position: house },
      }),
    ).toEqual({ pointId: 11, chosenBy: 'nearest', problem: null });
    // the warehouse's own choice and the order's point still come first
    expect(
      chooseDropOffPoint({
        company,
        pickupType: 1,
        givenPointId: null,
        warehouseDefault: 98,
        candidates: [near, far],
        sender: { ...sender, position: house },
      }).pointId,
    ).toBe(98);
    // two points as near: the lower id, every time
    const twin = point(10, 'ул. Мира, 5', far.latitude, far.longitude);
    expect(nearestToSender([far, twin], { ...sender, position: house })?.id).toBe(10);
    // no centre and no position: the lowest id, as before
    expect(nearestToSender([far, near], { ...sender, street: null, centre: null })?.id).toBe(11);
  });

  it('needs no point for another pickup type or a company that takes parcels at any point', () => {
    const base = { company, pickupType: 1, givenPointId: null, warehouseDefault: null, candidates: [near], sender };
    expect(chooseDropOffPoint({ ...base, pickupType: 4 })).toEqual({ pointId: null, chosenBy: null, problem: null });
    expect(chooseDropOffPoint({ ...base, company: { ...company, pickup: { pickupPointRequired: false } } })).toEqual({
      pointId: null,
      chosenBy: null,
      problem: null,
    });
  });

  it('names the fix when the company has no point there', () => {
    const choice = chooseDropOffPoint({
      company,
      pickupType: 1,
      givenPointId: null,
      warehouseDefault: null,
      candidates: [],
      sender,
    });
    expect(choice.pointId).toBeNull();
    expect(choice.problem).toMatch(
      /^Пунктир takes parcels only at a drop-off point chosen in advance and has none in Москва: .*dropOffPoints.*pickup\.pointId/,
    );
  });

  it('reads street names without their kind', () => {
    expect(streetKey('ул. Ленина')).toBe('ленина');
    expect(streetKey('Ленина улица')).toBe('ленина');
    expect(streetKey('пр-т Победы')).toBe('победы');
    expect(streetKey('Складская улица')).toBe('складская');
    expect(streetKey('Тверская, 1')).toBe('тверская 1');
  });
});

let t: TestApp;
let a: OrderingAccount;
const NEEDS_POINT = [1, 2, 5, 9];

beforeAll(async () => {
  t = await createTestApp();
  a = await orderingAccount(t);
});
afterAll(async () => t.close());

function pointsOf(companyId: number, city: string): DeliveryPoint[] {
  const locality = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: city });
  return locality ? t.runtime.services.reference.registry.pointsIn(companyId, locality.id) : [];
}

/** An order of company `companyId` to one of its points in Санкт-Петербург, with no drop-off point named. */
function orderOf(companyId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    shopId: a.shopId,
    cmsId: `DROP-${companyId}`,
    products: [
      {
        name: 'Книга',
        vendorCode: 'BOOK-1',
        priceDeclared: 800,
        priceCod: 900,
        count: 1,
        weight: 0.5,
        dimensions: { width: 15, height: 4, length: 22 },
      },
    ],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
    delivery: { company: { id: companyId }, type: 1, point: { id: pointsOf(companyId, 'Санкт-Петербург')[0].id } },
    ...overrides,
  };
}

const orderCount = async () => Number((await a.owner.get('/v2/orders?list=0&perPage=1')).headers['x-total-count']);

describe('orders without a drop-off point, for each company that needs one', () => {
  it('chooses its point nearest the warehouse where it has points, and the order can be confirmed', async () => {
    for (const companyId of NEEDS_POINT.filter((id) => pointsOf(id, 'Москва').length > 0)) {
      const created = await a.owner.post('/v2/orders', orderOf(companyId), { form: true });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const order = (await a.owner.get(`/v2/orders/${created.body.id}`)).body;
      expect(order.error, `company ${companyId}`).toBeNull();
      expect(pointsOf(companyId, 'Москва').map((item) => item.id)).toContain(order.pickup.pointId);
      expect((await a.owner.post('/v2/orders/confirm', { ids: [order.id] })).status).toBe(204);
    }
  });

  it('keeps the order as a draft with an error where the company has no point, and confirm says how to fix it', async () => {
    expect(pointsOf(9, 'Москва')).toEqual([]);
    const created = await a.owner.post('/v2/orders', orderOf(9), { form: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const order = (await a.owner.get(`/v2/orders/${created.body.id}`)).body;
    expect(order).toMatchObject({ status: 11, pickup: { pointId: null } });
    expect(order.error).toMatch(
      /^Северо-Запад Логистик takes parcels only at a drop-off point chosen in advance and has none in Москва/,
    );
    const problems = (await a.owner.get('/v2/orders?list=6&perPage=1000')).body as Array<{ id: number }>;
    expect(problems.map((item) => item.id)).toContain(order.id);
    const confirm = await a.owner.post('/v2/orders/confirm', { ids: [order.id] });
    expect(confirm.status).toBe(409);
    expect(confirm.body.errors[0].message).toContain('dropOffPoints');

    // fixed by PUT with a point of its own elsewhere
    const elsewhere = pointsOf(9, 'Санкт-Петербург')[1].id;
    expect((await a.owner.put(`/v2/orders/${order.id}`, orderOf(9, { pickup: { pointId: elsewhere } }))).status).toBe(
      204,
    );
    const fixed = (await a.owner.get(`/v2/orders/${order.id}`)).body;
    expect(fixed).toMatchObject({ error: null, pickup: { pointId: elsewhere } });
    expect((await a.owner.post('/v2/orders/confirm', { ids: [order.id] })).status).toBe(204);
  });

  it('refuses a point of another company (400) and writes nothing', async () => {
    const before = await orderCount();
    const refused = await a.owner.post('/v2/orders', orderOf(1, { pickup: { pointId: pointsOf(3, 'Москва')[0].id } }));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'pickup.pointId', message: expect.stringContaining('is not a drop-off point of Пунктир') },
    ]);
    expect(await orderCount()).toBe(before);
  });

  it('needs no point for a courier collecting from the warehouse, or a company taking parcels at any point', async () => {
    for (const body of [orderOf(1, { pickup: { type: 4 } }), orderOf(3)]) {
      const created = await a.owner.post('/v2/orders', body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await a.owner.get(`/v2/orders/${created.body.id}`)).body).toMatchObject({
        error: null,
        pickup: { pointId: null },
      });
    }
  });

  it('chooses one for copies too: duplicate keeps the point, duplicate-back finds one near the new sender', async () => {
    const source = (await a.owner.post('/v2/orders', orderOf(1))).body.id as number;
    const [copy] = (await a.owner.post('/v2/orders/duplicate', { ids: [source] })).body as Array<{ newId: number }>;
    const original = (await a.owner.get(`/v2/orders/${source}`)).body;
    expect((await a.owner.get(`/v2/orders/${copy.newId}`)).body.pickup.pointId).toBe(original.pickup.pointId);
    const [back] = (await a.owner.post('/v2/orders/duplicate-back', { ids: [source] })).body as Array<{
      newId: number;
    }>;
    const reversed = (await a.owner.get(`/v2/orders/${back.newId}`)).body;
    // sent from Санкт-Петербург now: a point there (the delivery point is asked for, as before)
    expect(pointsOf(1, 'Санкт-Петербург').map((item) => item.id)).toContain(reversed.pickup.pointId);
  });
});

describe("the point nearest the warehouse's house, where the register placed it", () => {
  it("gets the company's point nearest that house, not the one the street or the city centre gives", async () => {
    const moscow = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: 'Москва' });
    if (!moscow) throw new Error('Москва is not in the reference data');
    const points = pointsOf(1, 'Москва');
    expect(points.length).toBeGreaterThan(1);
    const house = await sampleHouse(a.owner, MOSCOW_FIAS, 'ул Пятницкая');
    const centre = { latitude: moscow.latitude, longitude: moscow.longitude };
    // what the street-or-centre rule chooses for this warehouse, and the point farthest from the centre
    const byCentre = nearestToSender(points, { placeName: 'Москва', centre, street: house.street, position: null });
    const fromCentre = (point: DeliveryPoint) =>
      distanceKm(centre.latitude, centre.longitude, point.latitude, point.longitude);
    const target = [...points]
      .filter((item) => item.id !== byCentre?.id)
      .sort((x, y) => fromCentre(y) - fromCentre(x))[0];
    await placeHouse(t, house.houseFiasId, target.latitude + 0.0004, target.longitude + 0.0004);

    const body = warehouseBody({ name: 'Склад на Пятницкой' });
    const warehouseId = (
      await a.owner.post('/v2/warehouses', {
        ...body,
        address: { ...body.address, street: house.street, house: house.house },
      })
    ).body.id as number;
    expect((await a.owner.get(`/v2/warehouses/${warehouseId}`)).body.address.register).toMatchObject({
      houseFiasId: house.houseFiasId,
      geoPrecision: 0,
    });
    const shopId = (await a.owner.post('/v2/shops', shopBody(warehouseId, { name: 'Магазин на Пятницкой' }))).body.id;
    const created = await a.owner.post('/v2/orders', orderOf(1, { shopId, cmsId: 'DROP-HOUSE' }));
    expect(created.status, created.text).toBe(201);
    const order = (await a.owner.get(`/v2/orders/${created.body.id}`)).body;
    expect(order).toMatchObject({ error: null, pickup: { pointId: target.id } });
    expect(target.id).not.toBe(byCentre?.id);

    // the account's first warehouse (Складская улица, not in the register) keeps the street-or-centre rule
    const old = (await a.owner.post('/v2/orders', orderOf(1, { cmsId: 'DROP-CENTRE' }))).body.id;
    const byRule = nearestToSender(points, { placeName: 'Москва', centre, street: 'Складская улица', position: null });
    expect((await a.owner.get(`/v2/orders/${old}`)).body.pickup.pointId).toBe(byRule?.id);
  });
});

describe("a warehouse's own drop-off points (extension)", () => {
  it('are used by its orders and make the calculator offer the company there', async () => {
    const spbPoint = pointsOf(9, 'Санкт-Петербург')[0].id;
    const calc = () =>
      a.owner.post(
        '/v2/calculator',
        { reception: { cityName: 'Санкт-Петербург', countryCode: 'RU' }, weight: 1, type: 1 },
        { headers: { 'Shop-Id': String(a.shopId) } },
      );
    expect(
      ((await calc()).body['1'] as Array<{ deliveryCompanyId: number }>).map((item) => item.deliveryCompanyId),
    ).not.toContain(9);

    const warehouse = (await a.owner.get(`/v2/warehouses/${a.warehouseId}`)).body;
    const saved = await a.owner.put(
      `/v2/warehouses/${a.warehouseId}`,
      warehouseBody({ dropOffPoints: [{ companyId: 9, pointId: spbPoint }] }),
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(204);
    expect((await a.owner.get(`/v2/warehouses/${a.warehouseId}`)).body.dropOffPoints).toEqual([
      { companyId: 9, pointId: spbPoint },
    ]);
    expect(
      ((await calc()).body['1'] as Array<{ deliveryCompanyId: number }>).map((item) => item.deliveryCompanyId),
    ).toContain(9);
    const created = (await a.owner.post('/v2/orders', orderOf(9))).body.id as number;
    expect((await a.owner.get(`/v2/orders/${created}`)).body).toMatchObject({
      error: null,
      pickup: { pointId: spbPoint },
    });

    // a PUT that does not name them keeps them (plugins know nothing of them); [] clears them
    expect((await a.owner.put(`/v2/warehouses/${a.warehouseId}`, warehouseBody({ name: warehouse.name }))).status).toBe(
      204,
    );
    expect((await a.owner.get(`/v2/warehouses/${a.warehouseId}`)).body.dropOffPoints).toEqual([
      { companyId: 9, pointId: spbPoint },
    ]);
    expect((await a.owner.put(`/v2/warehouses/${a.warehouseId}`, warehouseBody({ dropOffPoints: [] }))).status).toBe(
      204,
    );
    expect((await a.owner.get(`/v2/warehouses/${a.warehouseId}`)).body.dropOffPoints).toEqual([]);
  });

  it('refuses an unknown company, a repeated one, one that takes no drop-offs and a point of another company, writing nothing', async () => {
    const before = Number((await a.owner.get('/v2/warehouses?perPage=1')).headers['x-total-count']);
    const refused = await a.owner.post(
      '/v2/warehouses',
      warehouseBody({
        dropOffPoints: [
          { companyId: 999, pointId: 1 },
          { companyId: 1, pointId: pointsOf(1, 'Москва')[0].id },
          { companyId: 1, pointId: pointsOf(1, 'Москва')[1].id },
          { companyId: 4, pointId: pointsOf(1, 'Москва')[0].id },
          { companyId: 5, pointId: pointsOf(1, 'Москва')[0].id },
        ],
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'dropOffPoints[0].companyId',
      'dropOffPoints[2].companyId',
      'dropOffPoints[3].companyId',
      'dropOffPoints[4].pointId',
    ]);
    expect(Number((await a.owner.get('/v2/warehouses?perPage=1')).headers['x-total-count'])).toBe(before);
  });

  it("cannot be set with a shop key, nor on another account's warehouse", async () => {
    const body = warehouseBody({ dropOffPoints: [{ companyId: 1, pointId: pointsOf(1, 'Москва')[0].id }] });
    expect((await a.owner.withToken(a.shopKey).put(`/v2/warehouses/${a.warehouseId}`, body)).status).toBe(403);
    const stranger = (await t.newAccount('Stranger')).client;
    expect((await stranger.put(`/v2/warehouses/${a.warehouseId}`, body)).status).toBe(404);
    expect((await t.client().put(`/v2/warehouses/${a.warehouseId}`, body)).status).toBe(401);
    expect((await a.owner.get(`/v2/warehouses/${a.warehouseId}`)).body.dropOffPoints).toEqual([]);
  });
});
