/**
 * An account's own delivery methods (convention 12) through HTTP on a real
 * database: managing them, the calculator answering them with '{accountId}_{methodId}', an
 * order carried by one from the calculator to delivered, lists filtered by the string id,
 * and its sticker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { pdfBarcodes, pdfText, pdfToolsMissing } from '../../../test/support/pdf-tools.js';
import { orderingAccount } from '../../../test/support/orders.js';
import { addDays, todayIn } from '../../platform/clock.js';
import type { JobWorker } from '../../platform/jobs.js';
import { LocalityDirectory } from '../localities/directory.js';

const withTools = it.skipIf(pdfToolsMissing !== '');
const WORKDAY = { from: '10:00', to: '20:00' };

let t: TestApp;
let owner: ApiClient;
let shopKey: ApiClient;
let stranger: ApiClient;
let strangerAccountId: number;
let accountId: number;
let shopId: number;
let otherShopId: number;
let worker: JobWorker;
let spbFias: string;

beforeAll(async () => {
  t = await createTestApp({ env: { CALCULATOR_CACHE_SECONDS: '30' } });
  let key: string;
  ({ owner, accountId, shopId, otherShopId, shopKey: key, worker } = await orderingAccount(t, { name: 'Владелец' }));
  shopKey = owner.withToken(key);
  const other = await t.newAccount('Чужой');
  stranger = other.client;
  strangerAccountId = other.accountId;
  const spb = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
  if (!spb) throw new Error('Санкт-Петербург is not in the reference data');
  spbFias = LocalityDirectory.fiasOf(spb);
});
afterAll(async () => t.close());

/** Our couriers in Москва and 30 km around: 300 ₽ up to 5 kg, 600 ₽ above; free from 5000 ₽. */
function courierBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Свои курьеры',
    type: 2,
    radiusKm: 30,
    priceRules: [{ weightTo: 5, price: 300 }, { price: 600 }],
    freeFrom: 5000,
    days: { min: 1, max: 2 },
    cashPaymentAvailable: true,
    cardPaymentAvailable: true,
    ...overrides,
  };
}

/** Our own pickup points in Санкт-Петербург. */
function pointsBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Наши пункты',
    type: 1,
    localities: [spbFias],
    priceRules: [
      { orderSumFrom: 3000, price: 99 },
      { weightTo: 10, price: 250 },
    ],
    days: { min: 2, max: 3 },
    points: [
      {
        name: 'Пункт на Литейном',
        address: 'Санкт-Петербург, Литейный проспект, 10',
        latitude: 59.9386,
        longitude: 30.3484,
        schedule: [WORKDAY, WORKDAY, WORKDAY, WORKDAY, WORKDAY, '11:00-16:00', null],
        zipCode: '191028',
      },
      {
        name: 'Пункт на Невском',
        address: 'Санкт-Петербург, Невский проспект, 100',
        latitude: 59.9322,
        longitude: 30.3557,
      },
    ],
    cashPaymentAvailable: true,
    cardPaymentAvailable: false,
    ...overrides,
  };
}

async function createMethod(body: Record<string, unknown>): Promise<string> {
  const created = await owner.post('/v2/delivery-methods', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

const fields = (body: { errors: Array<{ field: string }> }) => body.errors.map((error) => error.field).sort();

const book = {
  name: 'Книга',
  vendorCode: 'BOOK-1',
  priceDeclared: 800,
  priceCod: 900,
  count: 1,
  weight: 0.5,
  dimensions: { width: 15, height: 4, length: 22 },
};

describe('/v2/delivery-methods', () => {
  it('creates, reads, lists, replaces (points keep their ids) and deletes a method; a form body is the same request', async () => {
    const id = await createMethod(pointsBody());
    expect(id).toMatch(new RegExp(`^${accountId}_\\d+$`));
    const read = await owner.get(`/v2/delivery-methods/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id,
      name: 'Наши пункты',
      type: 1,
      localities: [spbFias],
      radiusKm: null,
      priceRules: [
        { weightTo: null, orderSumFrom: 3000, price: 99 },
        { weightTo: 10, orderSumFrom: null, price: 250 },
      ],
      freeFrom: null,
      days: { min: 2, max: 3 },
      cashPaymentAvailable: true,
      cardPaymentAvailable: false,
    });
    expect(read.body.points).toHaveLength(2);
    expect(read.body.points[0]).toMatchObject({
      name: 'Пункт на Литейном',
      schedule: [WORKDAY, WORKDAY, WORKDAY, WORKDAY, WORKDAY, { from: '11:00', to: '16:00' }, null],
      zipCode: '191028',
    });
    // the method's number alone names it too
    expect((await owner.get(`/v2/delivery-methods/${id.split('_')[1]}`)).body.id).toBe(id);

    const [kept] = read.body.points as Array<{ id: number }>;
    const replaced = await owner.put(
      `/v2/delivery-methods/${id}`,
      pointsBody({
        name: 'Наши пункты выдачи',
        points: [
          { ...pointsBody().points[0], id: kept.id, name: 'Литейный' },
          { name: 'Новый', address: 'Санкт-Петербург, Садовая, 1', latitude: 59.93, longitude: 30.32 },
        ],
      }),
    );
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(204);
    const after = (await owner.get(`/v2/delivery-methods/${id}`)).body;
    expect(after.name).toBe('Наши пункты выдачи');
    expect(after.points.map((point: { id: number; name: string }) => [point.id === kept.id, point.name])).toEqual([
      [true, 'Литейный'],
      [false, 'Новый'],
    ]);

    const form = await owner.post('/v2/delivery-methods', courierBody({ name: 'Курьеры из формы' }), { form: true });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    expect((await owner.get(`/v2/delivery-methods/${form.body.id}`)).body).toMatchObject({
      type: 2,
      radiusKm: 30,
      priceRules: [
        { weightTo: 5, price: 300 },
        { weightTo: null, price: 600 },
      ],
      freeFrom: 5000,
    });

    const list = await owner.get('/v2/delivery-methods?type=2');
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body.map((method: { id: string }) => method.id)).toEqual([form.body.id]);

    expect((await owner.delete(`/v2/delivery-methods/${form.body.id}`)).status).toBe(204);
    expect((await owner.get(`/v2/delivery-methods/${form.body.id}`)).status).toBe(404);
    expect((await owner.delete(`/v2/delivery-methods/${id}`)).status).toBe(204);
  });

  it('refuses bad input with every field named, and writes nothing', async () => {
    const before = (await owner.get('/v2/delivery-methods')).headers['x-total-count'];
    const bad = await owner.post('/v2/delivery-methods', {
      name: 'Плохой',
      type: 2,
      localities: ['no-such-place'],
      priceRules: [{ weightTo: 1.0005, price: 10.001 }],
      days: { min: 3, max: 1 },
      points: [{ name: 'Пункт', address: 'Где-то', latitude: 55, longitude: 37 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect(fields(bad.body)).toEqual([
      'days.max',
      'localities[0]',
      'points',
      'priceRules[0].price',
      'priceRules[0].weightTo',
    ]);
    expect(bad.body.logId).toEqual(expect.any(String));

    const schema = await owner.post('/v2/delivery-methods', {
      name: '',
      type: 4,
      priceRules: [],
      days: { min: -1, max: 2 },
    });
    expect(schema.status).toBe(400);
    expect(fields(schema.body)).toEqual(expect.arrayContaining(['name', 'type', 'priceRules', 'days.min']));

    const nowhere = await owner.post('/v2/delivery-methods', courierBody({ radiusKm: null }));
    expect(nowhere.status).toBe(400);
    expect(fields(nowhere.body)).toEqual(['localities']);
    const pointless = await owner.post('/v2/delivery-methods', pointsBody({ points: [] }));
    expect(fields(pointless.body)).toEqual(['points']);

    const id = await createMethod(courierBody({ name: 'Для PUT' }));
    const foreignPoint = await owner.put(
      `/v2/delivery-methods/${id}`,
      pointsBody({ points: [{ ...pointsBody().points[0], id: 999999 }] }),
    );
    expect(foreignPoint.status).toBe(400);
    expect(fields(foreignPoint.body)).toEqual(['points[0].id']);
    expect((await owner.get(`/v2/delivery-methods/${id}`)).body.type).toBe(2);
    expect((await owner.get('/v2/delivery-methods/abc')).status).toBe(400);
    expect((await owner.get('/v2/delivery-methods')).headers['x-total-count']).toBe(String(Number(before) + 1));
    await owner.delete(`/v2/delivery-methods/${id}`);
  });

  it("needs a token; another account's method is not found; a shop key reads but does not change", async () => {
    const id = await createMethod(courierBody({ name: 'Чужим не видно' }));
    expect((await t.client().get('/v2/delivery-methods')).status).toBe(401);
    expect((await t.client().post('/v2/delivery-methods', courierBody())).status).toBe(401);
    for (const call of [
      stranger.get(`/v2/delivery-methods/${id}`),
      stranger.put(`/v2/delivery-methods/${id}`, courierBody()),
      stranger.delete(`/v2/delivery-methods/${id}`),
      stranger.get(`/v2/delivery-methods/${id.split('_')[1]}`),
    ]) {
      expect((await call).status).toBe(404);
    }
    expect((await stranger.get('/v2/delivery-methods')).body).toEqual([]);

    expect((await shopKey.get(`/v2/delivery-methods/${id}`)).status).toBe(200);
    expect((await shopKey.get('/v2/delivery-methods')).status).toBe(200);
    const denied = await shopKey.post('/v2/delivery-methods', courierBody());
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
    expect((await shopKey.put(`/v2/delivery-methods/${id}`, courierBody())).status).toBe(403);
    expect((await shopKey.delete(`/v2/delivery-methods/${id}`)).status).toBe(403);
    expect((await owner.get(`/v2/delivery-methods/${id}`)).status).toBe(200);
    await owner.delete(`/v2/delivery-methods/${id}`);
  });
});

describe('the calculator with own methods', () => {
  it('answers them with string ids, priced by their brackets, in /v2/calculator, /one and /company; a change shows at once', async () => {
    const courier = await createMethod(courierBody());
    const points = await createMethod(pointsBody());
    const headers = { 'Shop-Id': String(shopId) };
    const toMoscow = { reception: { countryCode: 'RU', cityName: 'Москва' }, products: [book] };

    const moscow = await owner.post('/v2/calculator', toMoscow, { headers });
    expect(moscow.status).toBe(200);
    const ours = moscow.body['2'].find(
      (option: { deliveryCompanyId: unknown }) => option.deliveryCompanyId === courier,
    );
    expect(ours).toMatchObject({
      deliveryCompanyName: 'Свои курьеры',
      pickupCompanyId: courier,
      deliveryDriver: 'own',
      priceDelivery: 300,
      totalPrice: 300,
      priceCommissionCod: 0,
      deliveryPlanDays: { min: 1, max: 2 },
      cashPaymentAvailable: true,
    });
    expect(
      moscow.body['2'].some((option: { deliveryCompanyId: unknown }) => typeof option.deliveryCompanyId === 'number'),
    ).toBe(true);
    expect(moscow.body['1'].some((option: { deliveryCompanyId: unknown }) => option.deliveryCompanyId === points)).toBe(
      false,
    );

    // the second bracket by weight, free from the order sum
    const heavy = await owner.post('/v2/calculator', { ...toMoscow, weight: 7, companyIds: [courier] }, { headers });
    expect(heavy.body['2']).toHaveLength(1);
    expect(heavy.body['2'][0].totalPrice).toBe(600);
    const dear = await owner.post(
      '/v2/calculator',
      { ...toMoscow, priceDeclared: 6000, companyIds: [courier] },
      { headers },
    );
    expect(dear.body['2'][0].totalPrice).toBe(0);

    // pickup points in Санкт-Петербург, the brackets' order decides (sum first)
    const spb = await owner.post(
      '/v2/calculator',
      { reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' }, products: [book], companyIds: [points, 1] },
      { headers },
    );
    const pointOption = spb.body['1'].find(
      (option: { deliveryCompanyId: unknown }) => option.deliveryCompanyId === points,
    );
    expect(pointOption.points).toHaveLength(2);
    expect(pointOption.points[0]).toMatchObject({
      name: 'Пункт на Литейном',
      deliveryCompanyId: points,
      deliveryDriver: 'own',
      totalPrice: 250,
      cashPaymentAvailable: true,
      cardPaymentAvailable: false,
      isFar: false,
      latitude: '59.9386',
    });
    expect(spb.body['1'].map((option: { deliveryCompanyId: unknown }) => option.deliveryCompanyId).sort()).toEqual(
      [1, points].sort(),
    );
    expect(spb.body['2'].some((option: { deliveryCompanyId: unknown }) => option.deliveryCompanyId === courier)).toBe(
      false,
    );
    const rich = await owner.post(
      '/v2/calculator',
      {
        reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' },
        products: [{ ...book, priceDeclared: 3000 }],
        companyIds: [points],
        hidePointFullInfo: true,
      },
      { headers },
    );
    expect(rich.body['1'][0].points).toEqual(pointOption.points.map((point: { id: number }) => point.id));
    expect(rich.body['1'][0].points.length).toBe(2);

    const one = await owner.post('/v2/calculator/one', toMoscow, {
      headers: { ...headers, Type: '2', 'Company-Id': courier },
    });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ deliveryCompanyId: courier, totalPrice: 300 });

    const companies = await owner.post(
      '/v2/calculator/company',
      { reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' } },
      { headers },
    );
    expect(companies.body['1']).toContain(points);
    expect(companies.body['2']).not.toContain(courier);
    expect(
      (
        await owner.post(
          '/v2/calculator/company',
          { reception: { countryCode: 'RU', cityName: 'Москва' }, type: 2 },
          { headers },
        )
      ).body['2'],
    ).toContain(courier);

    // a remembered answer does not outlive a change of the method
    expect((await owner.post('/v2/calculator', toMoscow, { headers })).body).toEqual(moscow.body);
    expect(
      (await owner.put(`/v2/delivery-methods/${courier}`, courierBody({ priceRules: [{ price: 350 }] }))).status,
    ).toBe(204);
    const changed = await owner.post('/v2/calculator', toMoscow, { headers });
    expect(
      changed.body['2'].find((option: { deliveryCompanyId: unknown }) => option.deliveryCompanyId === courier)
        .totalPrice,
    ).toBe(350);
    expect((await owner.delete(`/v2/delivery-methods/${courier}`)).status).toBe(204);
    const gone = await owner.post('/v2/calculator', toMoscow, { headers });
    expect(gone.body['2'].some((option: { deliveryCompanyId: unknown }) => option.deliveryCompanyId === courier)).toBe(
      false,
    );

    // another account's methods are never offered, even when asked for
    const foreign = await stranger.post('/v2/calculator', {
      sender: { countryCode: 'RU', cityName: 'Москва' },
      pickupType: 1,
      reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' },
      products: [book],
      companyIds: [points],
    });
    expect(foreign.body).toEqual({ '1': [], '2': [], '3': [] });
    const badId = await owner.post('/v2/calculator', { ...toMoscow, companyIds: ['1_x'] }, { headers });
    expect(badId.status).toBe(400);
    await owner.delete(`/v2/delivery-methods/${points}`);
  });
});

describe('an order with an own delivery method', () => {
  it('goes from the calculator to delivered: no registration, the shop moves its status, history, events and tracking follow', async () => {
    const method = await createMethod(pointsBody({ name: 'Пункты для заказа' }));
    const headers = { 'Shop-Id': String(shopId) };
    const offer = (
      await owner.post(
        '/v2/calculator',
        {
          reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' },
          products: [book],
          type: 1,
          companyIds: [method],
        },
        { headers },
      )
    ).body['1'][0];
    const point = offer.points[0];

    const created = await owner.post('/v2/orders', {
      shopId,
      cmsId: 'OWN-1',
      products: [book],
      deliveryAddress: {
        city: { countryCode: 'RU', name: 'Санкт-Петербург' },
        street: 'Литейный проспект',
        house: '3',
      },
      recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
      delivery: { company: { id: offer.deliveryCompanyId }, type: 1, point: { id: point.id } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const draft = (await owner.get(`/v2/orders/${id}`)).body;
    expect(draft).toMatchObject({
      status: 11,
      error: null,
      delivery: {
        company: { id: method, name: 'Пункты для заказа', abbr: 'OWN' },
        type: 1,
        totalPrice: 250,
        price: 250,
        point: { id: point.id, name: 'Пункт на Литейном', holdDays: 7 },
      },
    });

    // the shop cannot move a draft
    const early = await owner.post(`/v2/orders/status/${id}`, { code: 14 });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('order_state');

    expect((await owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    const ready = (await owner.get(`/v2/orders/${id}`)).body;
    expect(ready.status).toBe(13);
    expect(ready.trackNumber).toBe(`OWN-${accountId}-${id}`);
    expect(ready.statusHistory.map((item: { code: number }) => item.code)).toEqual([13, 12, 11]);
    await worker.runDue();
    expect((await owner.get(`/v2/orders/${id}`)).body.status).toBe(13);

    const wrongKind = await owner.post(`/v2/orders/status/${id}`, { code: 43 });
    expect(wrongKind.status).toBe(409);
    expect((await owner.post(`/v2/orders/status/${id}`, { code: 13 })).status).toBe(400);
    for (const code of [14, 411, 42]) {
      const moved = await owner.post(
        `/v2/orders/status/${id}`,
        { code, description: `step ${code}` },
        { form: code === 411 },
      );
      expect(moved.status, JSON.stringify(moved.body)).toBe(204);
    }
    const waiting = (await owner.get(`/v2/orders/${id}`)).body;
    expect(waiting.status).toBe(42);
    expect(waiting.delivery.point.holdDate).toEqual(expect.any(String));
    expect((await owner.post(`/v2/orders/status/${id}`, { code: 44, paymentMethod: 'card' })).status).toBe(204);
    const delivered = (await owner.get(`/v2/orders/${id}`)).body;
    expect(delivered.status).toBe(44);
    expect(delivered.statusHistory.map((item: { code: number }) => item.code)).toEqual([44, 42, 411, 14, 13, 12, 11]);
    expect(delivered.pay.status.code).toBe('paid');
    expect(delivered.pay.type).toBe(3);
    expect(delivered.delivery.factPrice).toBe(250);
    // after delivery only a return may follow
    expect((await owner.post(`/v2/orders/status/${id}`, { code: 411 })).status).toBe(409);

    const events = (await owner.get('/v2/events?types=order.status_changed')).body.filter(
      (event: { orderId: number }) => event.orderId === id,
    );
    expect(events.map((event: { statusTo: number }) => event.statusTo)).toEqual([13, 14, 411, 42, 44]);
    const tracking = await owner.get(`/v2/tracking?trackNumber=${ready.trackNumber}`);
    expect(tracking.status).toBe(200);
    expect(tracking.body).toMatchObject({
      id,
      trackNumber: ready.trackNumber,
      delivery: { company: 'Пункты для заказа' },
    });
    expect(tracking.body.statusHistory[0].code).toBe(44);

    // the shop carried it and took its cash: the period's bill and COD remittance leave it out
    const today = todayIn('Europe/Moscow');
    await t.runtime.services.billing.closePeriod({ accountId, start: today, end: addDays(today, 1) }, new Date());
    const agent = (await owner.get('/v2/reports/agent')).body as Array<{ type: number }>;
    expect(agent.filter((report) => report.type === 1)).toEqual([]);
  });

  it("refuses an unknown or foreign method id, statuses of a company's order, and reaches no other account or shop", async () => {
    const method = await createMethod(courierBody({ name: 'Курьер для проверок' }));
    const body = (companyId: number | string, type = 2) => ({
      shopId,
      products: [book],
      deliveryAddress: { city: { countryCode: 'RU', name: 'Москва' }, street: 'Тверская', house: '1' },
      recipient: { fullName: 'Иван Иванов', phone: '+79161112233' },
      delivery: { company: { id: companyId }, type },
    });
    const foreign = await owner.post('/v2/orders', body(`${strangerAccountId}_${method.split('_')[1]}`));
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { field: 'delivery.company.id', message: expect.stringContaining('is not a delivery method of this account') },
    ]);
    // a part longer than 15 digits is bad input wherever an own id is taken, not an unknown method
    const tooLong = `${accountId}_1234567890123456`;
    const longOrder = await owner.post('/v2/orders', body(tooLong));
    expect(longOrder.status).toBe(400);
    expect(fields(longOrder.body)).toContain('delivery.company.id');
    expect(
      (
        await owner.post(
          '/v2/calculator',
          { reception: { countryCode: 'RU', cityName: 'Москва' }, products: [book], companyIds: [tooLong] },
          { headers: { 'Shop-Id': String(shopId) } },
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await owner.post(
          '/v2/calculator/one',
          { reception: { countryCode: 'RU', cityName: 'Москва' }, products: [book] },
          { headers: { 'Shop-Id': String(shopId), Type: '2', 'Company-Id': tooLong } },
        )
      ).status,
    ).toBe(400);
    const wrongType = await owner.post('/v2/orders', body(method, 3));
    expect(fields(wrongType.body)).toEqual(['delivery.type']);

    const created = await owner.post('/v2/orders', body(method), { form: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect((await owner.get(`/v2/orders/${id}`)).body.delivery.company.id).toBe(method);
    expect((await owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);

    expect((await t.client().post(`/v2/orders/status/${id}`, { code: 14 })).status).toBe(401);
    expect((await stranger.post(`/v2/orders/status/${id}`, { code: 14 })).status).toBe(404);
    const otherKey = (await owner.get(`/v2/shops/${otherShopId}`)).body.apiKey as string;
    expect((await owner.withToken(otherKey).post(`/v2/orders/status/${id}`, { code: 14 })).status).toBe(403);
    expect((await shopKey.post(`/v2/orders/status/${id}`, { code: 14 })).status).toBe(204);
    expect((await owner.post(`/v2/orders/status/${id}`, { code: 99 })).status).toBe(400);
    expect((await owner.get(`/v2/orders/${id}`)).body.status).toBe(14);

    const company = await owner.post('/v2/orders', body(5));
    expect(company.status, JSON.stringify(company.body)).toBe(201);
    const refused = await owner.post(`/v2/orders/status/${company.body.id}`, { code: 14 });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_own_delivery');
  });

  it("lists orders filtered by the string id, alone or with company numbers; another account's id matches nothing", async () => {
    const method = await createMethod(courierBody({ name: 'Курьер для списков' }));
    const body = (companyId: number | string) => ({
      shopId,
      products: [book],
      deliveryAddress: { city: { countryCode: 'RU', name: 'Москва' }, street: 'Тверская', house: '1' },
      recipient: { fullName: 'Иван Иванов', phone: '+79161112233' },
      delivery: { company: { id: companyId }, type: 2 },
    });
    const own = (await owner.post('/v2/orders', body(method))).body.id as number;
    const theirs = (await owner.post('/v2/orders', body(5))).body.id as number;
    const ids = (response: { body: Array<{ id: number }> }) => response.body.map((order) => order.id);

    const only = await owner.get(`/v2/orders?deliveryCompanies=${method}`);

    expect(only.status).toBe(200);
    expect(ids(only)).toEqual([own]);
    expect(only.headers['x-total-count']).toBe('1');
    const both = await owner.get(`/v2/orders?deliveryCompanies=${method},5`);
    expect(ids(both)).toContain(own);
    expect(ids(both)).toContain(theirs);
    const bracket = await owner.get(`/v2/orders?deliveryCompanies[0]=${method}`);
    expect(ids(bracket)).toEqual([own]);
    const foreign = await owner.get(`/v2/orders?deliveryCompanies=${strangerAccountId}_${method.split('_')[1]}`);
    expect(foreign.body).toEqual([]);
    expect((await owner.get('/v2/orders?deliveryCompanies=1_x')).status).toBe(400);
    expect((await owner.get(`/v2/orders?deliveryCompanies=${accountId}_1234567890123456,5`)).status).toBe(400);
  });

  withTools('has our own sticker: the method named, our track number as a barcode', async () => {
    const method = await createMethod(courierBody({ name: 'Доставка МойБренд' }));
    const created = await owner.post('/v2/orders', {
      shopId,
      products: [book],
      deliveryAddress: { city: { countryCode: 'RU', name: 'Москва' }, street: 'Тверская', house: '1' },
      recipient: { fullName: 'Иван Иванов', phone: '+79161112233' },
      delivery: { company: { id: method }, type: 2 },
    });
    const id = created.body.id as number;
    expect((await owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    const sticker = await owner.post('/v2/orders/stickers', { ids: [id], type: 2 });
    expect(sticker.status, JSON.stringify(sticker.body)).toBe(200);
    const file = await t.app.inject({
      method: 'GET',
      url: (sticker.body.file as string).slice('http://delivery.test'.length),
    });
    expect(file.statusCode).toBe(200);
    const text = pdfText(file.rawPayload);
    expect(text).toContain('Доставка МойБренд');
    expect(pdfBarcodes(file.rawPayload).flat()).toContain(`OWN-${accountId}-${id}`);

    const acts = await owner.post('/v2/orders/waybills', { ids: [id], date: new Date().toISOString().slice(0, 10) });
    expect(acts.status, JSON.stringify(acts.body)).toBe(200);
    expect(acts.body.success).toHaveLength(1);
    expect(acts.body.error).toEqual([]);
  });
});
