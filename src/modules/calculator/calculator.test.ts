import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { decodedBytes } from '../../../test/support/encodings.js';
import { startFakeCarrier, type FakeCarrier } from '../../../test/support/fake-carrier.js';
import { kitBody, productBody, shopBody, warehouseBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let shopId: number;
let otherShopId: number;
let strangerShopId: number;
const carriers: FakeCarrier[] = [];

const SPB = { reception: { cityName: 'Санкт-Петербург', countryCode: 'RU' } };

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
  otherShopId = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Второй' }))).body.id;
  const strangerWarehouse = (await stranger.post('/v2/warehouses', warehouseBody())).body.id;
  strangerShopId = (await stranger.post('/v2/shops', shopBody(strangerWarehouse))).body.id;
});
afterAll(async () => {
  await t.close();
  await Promise.all(carriers.map((carrier) => carrier.close()));
});

function calc(body: unknown, headers: Record<string, string> = {}, client = owner) {
  return client.post('/v2/calculator', body, { headers: { 'shop-id': String(shopId), ...headers } });
}

/** The raw answer (bytes as sent) of a calculator call with this Accept-Encoding. */
function calcRaw(body: unknown, acceptEncoding: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v2/calculator',
    headers: {
      authorization: `Bearer ${owner.token}`,
      'shop-id': String(shopId),
      'content-type': 'application/json',
      'accept-encoding': acceptEncoding,
    },
    payload: JSON.stringify(body),
  });
}
type Company = Record<string, any>;
const ids = (list: Company[]) => list.map((company) => company.deliveryCompanyId);
const byId = (list: Company[], id: number) => list.find((company) => company.deliveryCompanyId === id) as Company;

describe('calculator: happy path and response shapes', () => {
  it('prices a parcel from the shop warehouse to a big city across pickup points, couriers and the post', async () => {
    const response = await calc({ ...SPB, weight: 1.2 });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['1', '2', '3']);
    expect(ids(response.body['1'])).toEqual(expect.arrayContaining([1, 2, 3, 5]));
    expect(ids(response.body['2'])).toEqual(expect.arrayContaining([1, 3, 7]));
    // Северо-Запад Логистик takes parcels only at a drop-off point chosen in advance and has none in Москва, where the warehouse is
    for (const type of ['1', '2']) expect(ids(response.body[type])).not.toContain(9);
    // Курьер Сити only collects from the sender (pickup type 4), it takes no drop-off
    expect(ids(response.body['2'])).not.toContain(4);
    expect(ids((await calc({ ...SPB, type: 2, pickupType: 4 })).body['2'])).toContain(4);
    expect(ids(response.body['3'])).toEqual([6]);

    const pickup = byId(response.body['1'], 1);
    expect(pickup).toMatchObject({
      deliveryCompanyName: 'Пунктир',
      deliveryDriver: 'tariff',
      pickupCompanyId: 1,
      isPost: false,
      specificity: [],
      services: {},
    });
    expect(pickup.totalPrice).toBeUndefined();
    expect(pickup.points.length).toBeGreaterThan(100);
    const point = pickup.points[0];
    for (const key of [
      'id',
      'name',
      'longitude',
      'latitude',
      'type',
      'description',
      'address',
      'schedule',
      'metro',
      'district',
      'photos',
      'union',
      'deliveryCompanyId',
      'deliveryCompanyName',
      'deliveryDriver',
      'deliveryDays',
      'deliveryDate',
      'deliveryHoldDays',
      'priceCommissionCod',
      'priceDelivery',
      'totalPrice',
      'isFar',
      'zipCode',
      'fittingAvailable',
      'checkupAvailable',
      'partialBuyoutAvailable',
      'cashPaymentAvailable',
      'cardPaymentAvailable',
    ]) {
      expect(point, key).toHaveProperty(key);
    }
    expect(typeof point.latitude).toBe('string');
    expect(point.isFar).toBe(false);
    expect(point.address).toMatch(/^Санкт-Петербург, /);

    const courier = byId(response.body['2'], 7);
    expect(courier).toMatchObject({
      isExpress: true,
      timeSelectAvailable: true,
      cashPaymentAvailable: true,
      cardPaymentAvailable: true,
    });
    expect(courier.totalPrice).toBe(courier.priceDelivery);
    expect(courier.points).toBeUndefined();
    const post = response.body['3'][0];
    expect(post).toMatchObject({ isPost: true, deliveryCompanyName: 'Национальная почта' });
    expect(post.deliveryPlanDays.min).toBeLessThanOrEqual(post.deliveryPlanDays.max);
    expect(post.deliveryDays.min).toBeGreaterThanOrEqual(post.deliveryPlanDays.min);
  });

  it('serves a small town from fewer companies, with points nearby marked isFar when the town has none', async () => {
    const udomlya = await calc({ reception: { cityName: 'Удомля', region: 'Тверская область' } });
    expect(ids(udomlya.body['1'])).toContain(1);
    for (const company of udomlya.body['1'])
      for (const point of company.points) expect(point.isFar).toBe(company.deliveryCompanyId !== 1);
    expect(ids(udomlya.body['2'])).toEqual([1]);
    expect(ids(udomlya.body['3'])).toEqual([6]);
    const far = await calc({ reception: { cityName: 'Новозавидовский' } });
    expect(far.body['1'].length).toBeGreaterThan(0);
    for (const company of far.body['1']) {
      for (const point of company.points) {
        expect(point.isFar).toBe(true);
        expect(point.deliveryDate.from > company.deliveryDate.from).toBe(true);
      }
    }
  });

  it('groups points at one address or too close to tell apart under one union value', async () => {
    const response = await calc({ reception: { cityName: 'Москва' } });
    const unions = new Map<string, number>();
    for (const company of response.body['1'])
      for (const point of company.points) unions.set(point.union, (unions.get(point.union) ?? 0) + 1);
    expect([...unions.values()].some((count) => count > 1)).toBe(true);
  });

  it('answers three empty arrays when nothing delivers', async () => {
    const nowhere = await calc({ reception: { cityName: 'Нигдеград' } });
    expect(nowhere.body).toEqual({ '1': [], '2': [], '3': [] });
    // why, in a header (the body's shape is the contract's): the city it could not find
    expect(nowhere.headers['x-calculation-problem']).toMatch(/^unknown_locality; The recipient's locality \(/);
    expect(decodeURIComponent(String(nowhere.headers['x-calculation-problem']))).toContain('Нигдеград');
    const noCompany = await calc({ ...SPB, companyIds: [999] });
    expect(noCompany.body).toEqual({ '1': [], '2': [], '3': [] });
    expect(noCompany.headers['x-calculation-problem']).toBeUndefined();
    expect((await calc({ ...SPB, weight: 5000 })).body).toEqual({ '1': [], '2': [], '3': [] });
  });

  it('works without Shop-Id from sender.* and pickupType', async () => {
    const response = await owner.post('/v2/calculator', {
      reception: { cityName: 'Новосибирск' },
      sender: { cityName: 'Екатеринбург' },
      pickupType: 1,
    });
    expect(response.status).toBe(200);
    expect(ids(response.body['1'])).toContain(8);
  });

  it('gzips a big answer for clients that accept it, and answers an identical call the same', async () => {
    const plain = await calc({ reception: { cityName: 'Москва' } });
    const zipped = await calcRaw({ reception: { cityName: 'Москва' } }, 'gzip, deflate');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.text.length / 4);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.body);
    expect((await calc({ reception: { cityName: 'Москва' } })).text).toBe(plain.text);
  });

  it('sends Brotli to a client that takes it, and honours refused encodings', async () => {
    const ask = (encoding: string, cityName: string) => calcRaw({ reception: { cityName }, weight: 2 }, encoding);
    // a fresh answer first asked as Brotli (a browser's header), then the remembered one in every form
    const fresh = await ask('gzip, deflate, br, zstd', 'Санкт-Петербург');
    expect(fresh.headers['content-encoding']).toBe('br');
    // beside the CORS's Origin (the answer's Access-Control-Allow-Origin depends on it)
    expect(fresh.headers.vary).toBe('Origin, Accept-Encoding');
    const plain = await ask('identity', 'Санкт-Петербург');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(decodedBytes(fresh).equals(plain.rawPayload)).toBe(true);
    expect(fresh.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    for (const [encoding, expected] of [
      ['br', 'br'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0, deflate', undefined],
      ['deflate;q=1.0, compress;q=0.5, gzip;q=0.5', 'gzip'],
      ['*', 'br'],
      // headers a client gets wrong are read as "no encoding", never refused
      ['gzip;q=abc', undefined],
      [';;,,', undefined],
      ['compress, x-unknown', undefined],
    ] as const) {
      const answer = await ask(encoding, 'Санкт-Петербург');
      expect(answer.headers['content-encoding'], encoding).toBe(expected);
      expect(decodedBytes(answer).equals(plain.rawPayload), encoding).toBe(true);
    }
  });

  it('takes the PHP form-encoded spelling of the same call and answers the same', async () => {
    const body = {
      ...SPB,
      products: [
        {
          vendorCode: 'A1',
          priceDeclared: 1500,
          priceCod: 1500,
          count: 2,
          weight: 0.4,
          dimensions: { width: 20, height: 10, length: 30 },
        },
      ],
      services: [1, 7],
      calcDeclared: true,
      hidePointFullInfo: true,
      type: 1,
    };
    const json = await calc(body);
    const form = await owner.post('/v2/calculator', body, { form: true, headers: { 'shop-id': String(shopId) } });
    expect(form.status).toBe(200);
    expect(form.body).toEqual(json.body);
  });
});

describe('calculator: every parameter changes the answer as the contract says', () => {
  it('type and companyIds narrow the companies', async () => {
    const couriers = await calc({ ...SPB, type: 2 });
    expect(couriers.body['1']).toEqual([]);
    expect(couriers.body['3']).toEqual([]);
    expect(couriers.body['2'].length).toBeGreaterThan(2);
    const two = await calc({ ...SPB, companyIds: [1, 6] });
    expect([...ids(two.body['1']), ...ids(two.body['2']), ...ids(two.body['3'])].sort()).toEqual([1, 1, 6]);
  });

  it('onlyCheap keeps only the cheapest option of each type', async () => {
    const all = await calc({ ...SPB, type: 2 });
    const cheap = await calc({ ...SPB, type: 2, onlyCheap: true });
    const lowest = Math.min(...all.body['2'].map((company: Company) => company.totalPrice));
    expect(cheap.body['2'].length).toBeGreaterThanOrEqual(1);
    for (const company of cheap.body['2']) expect(company.totalPrice).toBe(lowest);
  });

  it('services are shown with their price but not added; servicesRequired leave out companies without them and add their price', async () => {
    const plain = byId((await calc({ ...SPB, type: 2 })).body['2'], 1);
    const shown = byId((await calc({ ...SPB, type: 2, services: [7, 22] })).body['2'], 1);
    expect(shown.services).toEqual({ '7': { id: 7, name: 'Примерка', price: 50, checked: true, required: false } });
    expect(shown.totalPrice).toBe(plain.totalPrice);
    const required = await calc({ ...SPB, servicesRequired: [7] });
    const courier = byId(required.body['2'], 1);
    expect(courier.services['7'].required).toBe(true);
    expect(courier.totalPrice).toBeCloseTo(plain.totalPrice + 50, 2);
    expect(ids(required.body['1'])).not.toContain(2);
    expect(ids(required.body['2'])).not.toContain(9 + 100);
    expect(required.body['3']).toEqual([]);
    for (const company of required.body['1'])
      for (const point of company.points) expect(point.fittingAvailable).toBe(true);
  });

  it('declared value and cash on delivery add their commissions, unless calcDeclared / calcCod are false', async () => {
    const base = byId((await calc({ ...SPB, type: 2 })).body['2'], 1);
    const priced = byId((await calc({ ...SPB, type: 2, priceDeclared: 10000, priceCod: 4000 })).body['2'], 1);
    expect(priced.priceCommissionDeclared).toBe(50);
    expect(priced.percentCommissionDeclared).toBe(0.5);
    expect(priced.priceCommissionCod).toBe(100);
    expect(priced.priceCommissionCodCard).toBe(112);
    expect(priced.totalPrice).toBeCloseTo(base.totalPrice + 50 + 100, 2);
    const off = byId(
      (await calc({ ...SPB, type: 2, priceDeclared: 10000, priceCod: 4000, calcDeclared: false, calcCod: false })).body[
        '2'
      ],
      1,
    );
    expect(off.priceCommissionDeclared).toBe(0);
    expect(off.priceCommissionCod).toBe(0);
    expect(off.totalPrice).toBe(base.totalPrice);
  });

  it('priceClient counts as cash on delivery, pricePrePayClient as acquiring, discount lowers the COD', async () => {
    const client = byId((await calc({ ...SPB, type: 2, priceClient: 1000 })).body['2'], 1);
    expect(client.priceCommissionCod).toBe(25);
    const prepay = byId((await calc({ ...SPB, type: 2, pricePrePayClient: 1000 })).body['2'], 1);
    expect(prepay.priceCommissionAcquiring).toBe(22);
    expect(prepay.percentCommissionAcquiring).toBe(2.2);
    const discounted = byId((await calc({ ...SPB, type: 2, priceCod: 4000, discount: 2000 })).body['2'], 1);
    expect(discounted.priceCommissionCod).toBe(50);
  });

  it('goods add up per unit times count into declared value, COD and weight', async () => {
    const goods = byId(
      (await calc({ ...SPB, type: 2, products: [{ priceDeclared: 2000, priceCod: 2000, count: 2, weight: 3 }] })).body[
        '2'
      ],
      1,
    );
    expect(goods.priceCommissionDeclared).toBe(20);
    expect(goods.priceCommissionCod).toBe(100);
    const light = byId((await calc({ ...SPB, type: 2, weight: 1 })).body['2'], 1);
    expect(goods.priceDelivery).toBeGreaterThan(light.priceDelivery);
  });

  it('kits sent by id bring their goods from the catalogue', async () => {
    const product = (
      await owner.post(
        '/v2/products',
        productBody({ vendorCode: 'CALC-HEAVY', weight: 4, priceDeclared: 1000, priceCod: 1000 }),
      )
    ).body.id;
    const kit = (
      await owner.post(
        '/v2/kits',
        kitBody(shopId, [product], { vendorCode: 'CALC-KIT', discount: 10, products: [{ id: product, count: 2 }] }),
      )
    ).body.id;
    const byKit = byId((await calc({ ...SPB, type: 2, kits: [{ id: kit, count: 2 }] })).body['2'], 1);
    const byWeight = byId(
      (await calc({ ...SPB, type: 2, weight: 16, priceDeclared: 4000, priceCod: 3600 })).body['2'],
      1,
    );
    expect(byKit.priceDelivery).toBe(byWeight.priceDelivery);
    expect(byKit.priceCommissionDeclared).toBe(byWeight.priceCommissionDeclared);
    expect(byKit.priceCommissionCod).toBe(byWeight.priceCommissionCod);
    const unknown = await calc({ ...SPB, kits: [{ id: 999999 }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'kits[0].id', message: 'is not a kit of this account' }]);
  });

  it('marketplace supplies need the marketplace service and take no cash on delivery', async () => {
    const fbo = await calc({ ...SPB, priceCod: 3000, marketplace: { id: 1, fbo: true } });
    expect(ids(fbo.body['2'])).toEqual([7]);
    expect(fbo.body['1']).toEqual([]);
    expect(byId(fbo.body['2'], 7).priceCommissionCod).toBe(0);
    expect(byId(fbo.body['2'], 7).services['19'].required).toBe(true);
    const fbs = await calc({ ...SPB, type: 2, priceCod: 3000, marketplace: { id: 1, fbs: true } });
    expect(byId(fbs.body['2'], 1).priceCommissionCod).toBe(0);
  });

  it('hidePointFullInfo gives the point ids only', async () => {
    const response = await calc({ ...SPB, type: 1, hidePointFullInfo: true });
    for (const company of response.body['1']) for (const point of company.points) expect(typeof point).toBe('number');
  });

  it('priceMode: by weight takes the volumetric weight of a light bulky parcel, by actual weight does not', async () => {
    const bulky = { ...SPB, type: 2, weight: 1, dimensions: { width: 50, height: 40, length: 60 } };
    const byWeight = byId((await calc({ ...bulky, priceMode: 1 })).body['2'], 1);
    const byActual = byId((await calc({ ...bulky, priceMode: 2 })).body['2'], 1);
    const byVolume = byId((await calc({ ...bulky, priceMode: 3 })).body['2'], 1);
    expect(byWeight.priceDelivery).toBeGreaterThan(byActual.priceDelivery);
    expect(byVolume.priceDelivery).toBe(byWeight.priceDelivery);
    const lockers = await calc({ ...SPB, type: 1, weight: 1, dimensions: { width: 50, height: 45, length: 59 } });
    expect(ids(lockers.body['1'])).not.toContain(2);
  });

  it('delivery dates skip weekends and the sender warehouse holidays', async () => {
    const plain = byId((await calc({ ...SPB, type: 2 })).body['2'], 1);
    for (const date of [plain.deliveryDate.from, plain.deliveryDate.to])
      expect([0, 6]).not.toContain(new Date(`${date}T00:00:00Z`).getUTCDay());
    const holidays: string[] = [];
    for (let i = 0; i < 20; i++) holidays.push(new Date(Date.now() + i * 86_400_000).toISOString().slice(0, 10));
    const warehouseId = (await owner.post('/v2/warehouses', warehouseBody({ holidays }))).body.id;
    const holidayShop = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    const shifted = byId((await calc({ ...SPB, type: 2 }, { 'shop-id': String(holidayShop) })).body['2'], 1);
    expect(shifted.deliveryDate.from > plain.deliveryDate.from).toBe(true);
    expect(shifted.deliveryPlanDays).toEqual(plain.deliveryPlanDays);
    expect(shifted.deliveryDays.min).toBeGreaterThan(plain.deliveryDays.min);
  });
});

describe('calculator: carriers over HTTP and the deadline', () => {
  it('asks http companies concurrently; a slow one is left out at the timeout, a failing one never fails the call', async () => {
    const fast = await startFakeCarrier({ price: 250 });
    // Far apart, so a loaded machine cannot blur them: the deadline (500 ms) leaves time for every
    // request to reach its company, and the slow one answers long after it (1500 ms).
    const slow = await startFakeCarrier({ delayMs: 1500 });
    const broken = await startFakeCarrier({ mode: 'error' });
    const garbage = await startFakeCarrier({ mode: 'garbage' });
    carriers.push(fast, slow, broken, garbage);
    const registry = t.runtime.services.reference.registry;
    const base = { driver: 'http' as const, deliveryTypes: [2 as const], coverage: { minPopulation: 0 } };
    registry.add({ ...base, id: 101, code: 'fast', name: 'Быстрый', baseUrl: fast.baseUrl });
    registry.add({ ...base, id: 102, code: 'slow', name: 'Медленный', baseUrl: slow.baseUrl });
    registry.add({ ...base, id: 103, code: 'broken', name: 'Сломанный', baseUrl: broken.baseUrl });
    registry.add({ ...base, id: 104, code: 'garbage', name: 'Мусорный', baseUrl: garbage.baseUrl });
    try {
      const started = performance.now();
      const response = await calc({ ...SPB, type: 2, timeout: 500 });
      const elapsed = performance.now() - started;
      expect(response.status).toBe(200);
      expect(elapsed).toBeLessThan(1400);
      const companies = ids(response.body['2']);
      expect(companies).not.toContain(102);
      expect(companies).not.toContain(103);
      expect(companies).not.toContain(104);
      expect(companies).toContain(1);
      expect(slow.requests).toBe(1);

      // with time enough every company that works answers; the broken ones are still left out
      const patient = await calc({ ...SPB, type: 2, timeout: 8000 });
      expect(ids(patient.body['2'])).toEqual(expect.arrayContaining([1, 101, 102]));
      expect(ids(patient.body['2'])).not.toContain(103);
      expect(ids(patient.body['2'])).not.toContain(104);
      expect(byId(patient.body['2'], 101)).toMatchObject({
        deliveryDriver: 'http',
        priceDelivery: 250,
        tariffName: 'Remote courier',
      });
    } finally {
      for (const id of [101, 102, 103, 104]) registry.remove(id);
    }
  });
});

describe('calculator/one and calculator/company', () => {
  it('calculates one company and type from the headers', async () => {
    const one = await owner.post(
      '/v2/calculator/one',
      { ...SPB, weight: 2 },
      { headers: { 'shop-id': String(shopId), type: '2', 'company-id': '3' } },
    );
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      deliveryCompanyId: 3,
      deliveryCompanyName: 'Коробейник',
      timeSelectAvailable: true,
    });
    expect(typeof one.body.totalPrice).toBe('number');
    const pickup = await owner.post('/v2/calculator/one', SPB, {
      headers: { 'shop-id': String(shopId), type: '1', 'company-id': '1' },
    });
    expect(pickup.body.points[0]).toHaveProperty('totalPrice');
    const impossible = await owner.post('/v2/calculator/one', SPB, {
      headers: { 'shop-id': String(shopId), type: '3', 'company-id': '4' },
    });
    expect(impossible.status).toBe(200);
    expect(impossible.body).toEqual([]);
  });

  it('refuses calculator/one without its headers', async () => {
    const missing = await owner.post('/v2/calculator/one', SPB, { headers: { 'shop-id': String(shopId) } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      { field: 'Type', message: 'is required' },
      { field: 'Company-Id', message: 'is required' },
    ]);
    const wrong = await owner.post('/v2/calculator/one', SPB, {
      headers: { 'shop-id': String(shopId), type: '5', 'company-id': 'x' },
    });
    expect(wrong.body.errors.map((error: { field: string }) => error.field)).toEqual(['Type', 'Company-Id']);
    const noShop = await owner.post('/v2/calculator/one', SPB, { headers: { type: '1', 'company-id': '1' } });
    expect(noShop.status).toBe(400);
    expect(noShop.body.code).toBe('shop_id_required');
  });

  it('lists the companies that deliver to a place, by type', async () => {
    const response = await owner.post(
      '/v2/calculator/company',
      { reception: { cityName: 'Санкт-Петербург' } },
      { headers: { 'shop-id': String(shopId) } },
    );
    expect(response.status).toBe(200);
    expect(response.body['1']).toEqual(expect.arrayContaining([1, 2, 3, 9]));
    expect(response.body['3']).toEqual([6]);
    const oneLine = await owner.post(
      '/v2/calculator/company',
      { type: 2, reception: { addressString: 'Россия, г Екатеринбург' } },
      { headers: { 'shop-id': String(shopId) } },
    );
    expect(oneLine.body['2']).toEqual(expect.arrayContaining([1, 4, 8]));
    expect(oneLine.body['1']).toEqual([]);
    const nowhere = await owner.post(
      '/v2/calculator/company',
      { reception: { cityName: 'Нигдеград' } },
      { headers: { 'shop-id': String(shopId) } },
    );
    expect(nowhere.body).toEqual({ '1': [], '2': [], '3': [] });
  });
});

describe('widget settings and applyWidgetSettings', () => {
  it('stores settings per shop and applies them only when asked', async () => {
    expect((await owner.get(`/v2/shops/${otherShopId}/widget-settings`)).body).toEqual({
      defaultDimensions: null,
      defaultWeight: null,
      priceRules: [],
      freeDeliveryFrom: null,
      rounding: null,
      hiddenCompanyIds: [],
      defaultServices: [],
    });
    const settings = {
      defaultDimensions: { width: 30, height: 20, length: 40 },
      defaultWeight: 7,
      priceRules: [{ type: 2, kind: 'markup', percent: 10 }],
      freeDeliveryFrom: null,
      rounding: { step: 10, mode: 'up' },
      hiddenCompanyIds: [3],
      defaultServices: [1],
    };
    expect((await owner.put(`/v2/shops/${otherShopId}/widget-settings`, settings)).status).toBe(204);
    expect((await owner.get(`/v2/shops/${otherShopId}/widget-settings`)).body).toMatchObject({
      ...settings,
      priceRules: [{ type: 2, companyId: null, kind: 'markup', percent: 10, amount: null }],
    });
    const headers = { 'shop-id': String(otherShopId) };

    const plain = await calc({ ...SPB, type: 2 }, headers);
    expect(ids(plain.body['2'])).toContain(3);
    const applied = await calc({ ...SPB, type: 2, applyWidgetSettings: true }, headers);
    expect(ids(applied.body['2'])).not.toContain(3);
    const before = byId(plain.body['2'], 1);
    const after = byId(applied.body['2'], 1);
    expect(after.totalPrice).toBe(Math.ceil((before.totalPrice * 1.1) / 10) * 10);
    expect(after.priceDelivery).toBe(before.priceDelivery);
    expect(after.services['1']).toMatchObject({ id: 1, price: 0 });

    const defaults = byId((await calc({ ...SPB, type: 2, applyDefaultDimensions: true }, headers)).body['2'], 1);
    expect(defaults.priceDelivery).toBeGreaterThan(before.priceDelivery);
    const ownWeight = byId(
      (await calc({ ...SPB, type: 2, applyDefaultDimensions: true, weight: 1 }, headers)).body['2'],
      1,
    );
    expect(ownWeight.priceDelivery).toBeLessThan(defaults.priceDelivery);

    await owner.put(`/v2/shops/${otherShopId}/widget-settings`, { freeDeliveryFrom: 5000 });
    const free = byId(
      (await calc({ ...SPB, type: 2, applyWidgetSettings: true, priceDeclared: 6000 }, headers)).body['2'],
      1,
    );
    expect(free.totalPrice).toBe(0);
  });

  it('refuses bad settings and foreign shops', async () => {
    const bad = await owner.put(`/v2/shops/${otherShopId}/widget-settings`, {
      priceRules: [{ kind: 'gift' }],
      rounding: { step: 0, mode: 'up' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { field: string }) => error.field)).toEqual(
      expect.arrayContaining(['priceRules[0].kind', 'rounding.step']),
    );
    expect((await stranger.get(`/v2/shops/${otherShopId}/widget-settings`)).status).toBe(404);
    expect((await stranger.put(`/v2/shops/${otherShopId}/widget-settings`, {})).status).toBe(404);
    expect((await t.client().get(`/v2/shops/${otherShopId}/widget-settings`)).status).toBe(401);
  });
});

describe('calculator: bad input', () => {
  it('names every bad field', async () => {
    const response = await calc({
      ...SPB,
      weight: -1,
      type: 5,
      products: [{ dimensions: { width: 0 }, count: 0 }],
      timeout: 'soon',
      servicesRequired: [99],
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(
      expect.arrayContaining([
        'weight',
        'type',
        'products[0].dimensions.width',
        'products[0].count',
        'timeout',
        'servicesRequired[0]',
      ]),
    );
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'servicesRequired[0]', message: 'must be a service id of GET /v2/lists/services (1 to 22)' },
      ]),
    );
  });

  it('needs the sender and pickupType without Shop-Id, and the recipient locality', async () => {
    const noSender = await owner.post('/v2/calculator', SPB);
    expect(noSender.status).toBe(400);
    expect(noSender.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'sender.cityName',
      'pickupType',
    ]);
    const noReception = await calc({ weight: 1 });
    expect(noReception.status).toBe(400);
    expect(noReception.body.errors[0].field).toBe('reception.cityName');
    const unknownSender = await owner.post('/v2/calculator', {
      ...SPB,
      sender: { cityName: 'Нигдеград' },
      pickupType: 1,
    });
    expect(unknownSender.status).toBe(400);
    expect(unknownSender.body.code).toBe('unknown_locality');
  });
});

describe('calculator: security', () => {
  it('needs a token', async () => {
    expect((await t.client().post('/v2/calculator', SPB)).status).toBe(401);
    expect((await t.client().post('/v2/calculator/one', SPB)).status).toBe(401);
    expect((await t.client().post('/v2/calculator/company', SPB)).status).toBe(401);
  });

  it("refuses another account's shop in Shop-Id with 400", async () => {
    for (const url of ['/v2/calculator', '/v2/calculator/one', '/v2/calculator/company']) {
      const response = await owner.post(url, SPB, {
        headers: { 'shop-id': String(strangerShopId), type: '1', 'company-id': '1' },
      });
      expect(response.status, url).toBe(400);
      expect(response.body.code).toBe('unknown_shop');
    }
  });

  it('refuses a shop key naming another shop with 403', async () => {
    const apiKey = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey;
    const shopClient = owner.withToken(apiKey);
    expect((await shopClient.post('/v2/calculator', SPB, { headers: { 'shop-id': String(otherShopId) } })).status).toBe(
      403,
    );
    const own = await shopClient.post('/v2/calculator', { ...SPB, type: 3 });
    expect(own.status).toBe(200);
    expect(ids(own.body['3'])).toEqual([6]);
  });
});
