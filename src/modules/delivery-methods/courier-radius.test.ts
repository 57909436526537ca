/**
 * An own courier method's radius measured between houses, through HTTP: where the register
 * placed both the shop's warehouse and a courier order's recipient, a house within the radius is
 * served even where the localities' centres are not, and a house beyond it that the centres serve
 * is served as before with a finding naming the distance; where either is not placed, the
 * localities' centres decide as before. The
 * sample's houses have no points and its cities are hundreds of km apart, so the test writes the
 * houses' points into the register's rows, where the two rules disagree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { orderBody, orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import { MOSCOW_FIAS, placeHouse, sampleHouse, type SampleHouse } from '../../../test/support/register-houses.js';

const KAZAN_FIAS = '93b3df57-4c89-44df-ac42-96f05e9cd3b9';
const MOSCOW = { countryCode: 'RU', name: 'Москва', fias: MOSCOW_FIAS };
const KAZAN = { countryCode: 'RU', name: 'Казань', fias: KAZAN_FIAS };
/** The warehouse's house: Moscow's centre. */
const WAREHOUSE_POINT = { latitude: 55.7522, longitude: 37.6156 };

let t: TestApp;
let a: OrderingAccount;
/** A shop whose warehouse the register places at a house. */
let placedShopId: number;
let courierId: string;
let moscowFar: SampleHouse;
let moscowUnplaced: SampleHouse;
let kazanNear: SampleHouse;
let kazanUnplaced: SampleHouse;

beforeAll(async () => {
  t = await createTestApp();
  a = await orderingAccount(t);
  const warehouseHouse = await sampleHouse(a.owner, MOSCOW_FIAS, 'ул Тверская');
  moscowFar = await sampleHouse(a.owner, MOSCOW_FIAS, 'ул Мясницкая');
  moscowUnplaced = await sampleHouse(a.owner, MOSCOW_FIAS, 'ул Мясницкая', 1);
  kazanNear = await sampleHouse(a.owner, KAZAN_FIAS, 'ул Баумана');
  kazanUnplaced = await sampleHouse(a.owner, KAZAN_FIAS, 'ул Баумана', 1);
  await placeHouse(t, warehouseHouse.houseFiasId, WAREHOUSE_POINT.latitude, WAREHOUSE_POINT.longitude);
  // 18 km north of the warehouse, in its own city: centre to centre 0 km
  await placeHouse(t, moscowFar.houseFiasId, 55.914, 37.6156);
  // 3 km from the warehouse, though Kazan's centre is 700 km away
  await placeHouse(t, kazanNear.houseFiasId, 55.779, 37.6156);

  const body = warehouseBody({ name: 'Склад на Тверской' });
  const warehouseId = (
    await a.owner.post('/v2/warehouses', {
      ...body,
      address: { ...body.address, street: warehouseHouse.street, house: warehouseHouse.house },
    })
  ).body.id as number;
  const warehouse = (await a.owner.get(`/v2/warehouses/${warehouseId}`)).body;
  expect(warehouse.address.register).toMatchObject({ geoPrecision: 0, ...WAREHOUSE_POINT });
  placedShopId = (await a.owner.post('/v2/shops', shopBody(warehouseId, { name: 'Магазин на Тверской' }))).body.id;
  const method = await a.owner.post('/v2/delivery-methods', {
    name: 'Свои курьеры',
    type: 2,
    radiusKm: 10,
    priceRules: [{ price: 300 }],
    days: { min: 1, max: 2 },
    cashPaymentAvailable: true,
    cardPaymentAvailable: true,
  });
  expect(method.status, method.text).toBe(201);
  courierId = method.body.id;
});
afterAll(async () => t.close());

async function orderTo(shopId: number, city: typeof MOSCOW, house: SampleHouse, cmsId: string) {
  const made = await a.owner.post(
    '/v2/orders',
    orderBody(
      { shopId, pointId: a.pointId },
      {
        cmsId,
        deliveryAddress: { city, street: house.street, house: house.house },
        delivery: { company: { id: courierId }, type: 2 },
      },
    ),
  );
  expect(made.status, made.text).toBe(201);
  return (await a.owner.get(`/v2/orders/${made.body.id}`)).body;
}

describe("an own courier's radius between the houses the register placed", () => {
  it('serves a house inside the radius in a locality whose centre is beyond it', async () => {
    const order = await orderTo(placedShopId, KAZAN, kazanNear, 'RADIUS-IN');
    expect(order.deliveryAddress.register).toMatchObject({ geoPrecision: 0, latitude: 55.779 });
    expect(order.error).toBeNull();
    expect(order.delivery.company).toMatchObject({ id: courierId });
    expect(order.delivery.price).toBe(300);
  });

  it('serves a house beyond the radius in its own city as before, and says how far it is', async () => {
    const order = await orderTo(placedShopId, MOSCOW, moscowFar, 'RADIUS-OUT');
    // never stricter than before: the centres are within the radius, so the order is priced and confirmable
    expect(order.error).toBeNull();
    expect(order.delivery.price).toBe(300);
    expect(order.deliveryAddress.register.finding).toMatch(
      /^Свои курьеры delivers within 10 km of the warehouse; the recipient's house is 18\.\d km from it/,
    );
  });

  it('measures centre to centre where either house is not placed, as before', async () => {
    // the recipient's house has no point: Moscow to Moscow is 0 km
    expect((await orderTo(placedShopId, MOSCOW, moscowUnplaced, 'RADIUS-CENTRE-1')).error).toBeNull();
    // the shop's warehouse has no point (Складская улица is not in the register)
    expect((await orderTo(a.shopId, MOSCOW, moscowFar, 'RADIUS-CENTRE-2')).error).toBeNull();
    // Kazan's house without a point: 700 km
    expect((await orderTo(placedShopId, KAZAN, kazanUnplaced, 'RADIUS-CENTRE-3')).error).toMatch(
      /cannot deliver this order/,
    );
  });

  it('the calculator, which knows only the locality, answers as before', async () => {
    const headers = { 'Shop-Id': String(placedShopId) };
    const offered = async (city: string) =>
      (
        await a.owner.post(
          '/v2/calculator',
          { reception: { countryCode: 'RU', cityName: city }, products: [{ weight: 1, priceDeclared: 100 }] },
          { headers },
        )
      ).body['2'].some((option: { deliveryCompanyId: unknown }) => option.deliveryCompanyId === courierId);
    expect(await offered('Москва')).toBe(true);
    expect(await offered('Казань')).toBe(false);
  });
});
