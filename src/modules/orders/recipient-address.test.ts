/**
 * A courier order's recipient address checked against the federal address register (the sample
 * loaded on a first start), through HTTP: a house the register knows gets its FIAS id, postcode
 * and coordinates in `deliveryAddress.register`; a street without a house, or a street the
 * register does not know, is kept as typed with a finding, and the order is confirmed as any
 * other (its status is not changed by the check); a house picked from the suggestions is taken
 * by its FIAS id; a pickup-point order's document has no register entry at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { orderBody, orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import { addressLine } from '../addresses/register-check.js';

const MOSCOW = { countryCode: 'RU', name: 'Москва', fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5' };

let t: TestApp;
let a: OrderingAccount;

beforeAll(async () => {
  t = await createTestApp();
  a = await orderingAccount(t);
});
afterAll(async () => t.close());

interface Suggestion {
  value: string;
  data: { house: string | null; street: string | null; streetWithType: string | null; houseFiasId: string | null };
}

/** A house of the sample on the street, as the dashboard's suggestions give it. */
async function sampleHouse(street: string): Promise<Suggestion> {
  const answer = await a.owner.get(
    `/v2/addresses/suggest?query=${encodeURIComponent(`${street} д 1`)}&locality=${MOSCOW.fias}&fromLevel=house&toLevel=house`,
  );
  expect(answer.status, answer.text).toBe(200);
  const house = (answer.body.suggestions as Suggestion[]).find((item) => item.data.houseFiasId);
  expect(house, `no house of ${street} in the sample`).toBeDefined();
  return house as Suggestion;
}

function courierOrder(address: Record<string, unknown>, cmsId: string): Record<string, unknown> {
  return orderBody(
    { shopId: a.shopId, pointId: a.pointId },
    { cmsId, deliveryAddress: { city: MOSCOW, ...address }, delivery: { company: { id: 1 }, type: 2 } },
  );
}

async function created(body: Record<string, unknown>) {
  const made = await a.owner.post('/v2/orders', body);
  expect(made.status, made.text).toBe(201);
  return (await a.owner.get(`/v2/orders/${made.body.id}`)).body;
}

describe("a courier order's address and the register", () => {
  it('a house the register knows: its FIAS id, postcode and coordinates beside the address as typed', async () => {
    const house = await sampleHouse('ул Тверская');
    const order = await created(
      courierOrder({ street: 'Тверская улица', house: house.data.house, flat: '12' }, 'ADDR-GOOD'),
    );
    expect(order.deliveryAddress).toMatchObject({
      street: 'Тверская улица',
      house: house.data.house,
      flat: '12',
      register: { houseFiasId: house.data.houseFiasId, finding: null },
    });
    const register = order.deliveryAddress.register;
    expect([8, 9]).toContain(register.fiasLevel);
    expect(register.postalCode).toMatch(/^\d{6}$/);
    expect(register.latitude).toBeGreaterThan(55);
    expect(register.longitude).toBeGreaterThan(37);
    expect(order.error).toBeNull();
  });

  it('a house picked from the suggestions is taken by its FIAS id', async () => {
    const house = await sampleHouse('ул Тверская');
    const order = await created(
      courierOrder(
        { street: house.data.streetWithType, house: house.data.house, fiasId: house.data.houseFiasId },
        'ADDR-PICKED',
      ),
    );
    expect(order.deliveryAddress.register).toMatchObject({
      fiasId: house.data.houseFiasId,
      houseFiasId: house.data.houseFiasId,
      fiasLevel: 8,
      quality: 'certain',
      finding: null,
    });
  });

  it('less than a house, or nothing the register knows: kept as typed, with a finding; confirmed as any other', async () => {
    const noHouse = await created(courierOrder({ street: 'Тверская улица' }, 'ADDR-STREET'));
    expect(noHouse.deliveryAddress).toMatchObject({ street: 'Тверская улица', house: null });
    expect(noHouse.deliveryAddress.register.houseFiasId).toBeNull();
    expect(noHouse.deliveryAddress.register.finding).toMatch(/not to the house|not recognised/);
    const unknown = await created(courierOrder({ street: 'Улица Несуществующая', house: '999' }, 'ADDR-BAD'));
    expect(unknown.deliveryAddress).toMatchObject({ street: 'Улица Несуществующая', house: '999' });
    expect(unknown.deliveryAddress.register.finding).toEqual(expect.any(String));
    for (const order of [noHouse, unknown]) {
      // the finding is no pricing error: the order is a draft like any other, and confirmed
      expect(order.error).toBeNull();
      expect(order.status).toBe(11);
    }
    const confirmed = await a.owner.post('/v2/orders/confirm', { ids: [noHouse.id, unknown.id] });
    expect(confirmed.status, confirmed.text).toBe(204);
  });

  it("a pickup-point order's document has no register entry", async () => {
    const order = await created(orderBody({ shopId: a.shopId, pointId: a.pointId }, { cmsId: 'ADDR-POINT' }));
    expect(order.deliveryAddress).not.toHaveProperty('register');
  });

  it('the line cleaning reads: each part once, the region left out where the city names it', () => {
    expect(
      addressLine({
        city: { name: 'Санкт-Петербург', type: 'г', region: 'Санкт-Петербург' },
        street: 'Литейный пр-кт',
        house: '3',
        bulk: '2',
        flat: '12',
      }),
    ).toBe('г Санкт-Петербург, Литейный пр-кт, д 3, к 2, кв 12');
    expect(addressLine({ city: { name: 'Казань', region: 'Татарстан' }, street: 'Баумана', house: 'д. 5' })).toBe(
      'Татарстан, Казань, Баумана, д. 5',
    );
  });
});
