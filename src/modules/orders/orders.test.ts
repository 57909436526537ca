import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { dropOffPointOf } from '../../../test/support/orders.js';
import type { ApiClient } from '../../../test/support/client.js';
import { productBody, shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { JobWorker } from '../../platform/jobs.js';
import { StockStore } from '../fulfilment/stock-store.js';
import { todayIn } from '../../platform/clock.js';
import { CarrierError, type CarrierDriver } from '../../carriers/types.js';

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let shopId: number;
let otherShopId: number;
let shopKey: ApiClient;
let pointId: number;
let worker: JobWorker;
const quiet = { error: () => undefined, warn: () => undefined };

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
  otherShopId = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Второй магазин' }))).body.id;
  shopKey = owner.withToken((await owner.get(`/v2/shops/${shopId}`)).body.apiKey);
  const spb = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
  pointId =
    t.runtime.services.reference.registry
      .pointsIn(1, spb!.id)
      .find((point) => point.cashPaymentAvailable && point.limits.maxWeight === null)?.id ??
    t.runtime.services.reference.registry.pointsIn(1, spb!.id)[0].id;
  worker = new JobWorker(t.runtime.services.jobs, quiet);
  t.runtime.services.tracking.registerJobs(worker);
});
afterAll(async () => t.close());

function orderBody(overrides: Record<string, unknown> = {}) {
  return {
    shopId,
    cmsId: 'WC-1001',
    products: [
      {
        name: 'Футболка красная',
        vendorCode: 'TS-1',
        priceDeclared: 1000,
        priceCod: 1500,
        count: 2,
        weight: 0.3,
        dimensions: { width: 20, height: 3, length: 25 },
      },
      {
        name: 'Кружка',
        vendorCode: 'MUG-1',
        priceDeclared: 300,
        priceCod: 450,
        count: 1,
        weight: 0.4,
        dimensions: { width: 10, height: 10, length: 12 },
      },
      { name: 'Носки', vendorCode: 'SOCK-1', priceDeclared: 100, priceCod: 200, count: 3, weight: 0.05 },
    ],
    deliveryAddress: {
      city: { countryCode: 'RU', name: 'Санкт-Петербург' },
      street: 'Невский проспект',
      house: '10',
      flat: '5',
      zipCode: '191025',
    },
    recipient: { fullName: 'Пётр Сидоров', phone: '+79990001122', email: 'petr@example.com' },
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
    clientPrice: 250,
    comment: 'Позвонить заранее',
    ...overrides,
  };
}

const courier = (overrides: Record<string, unknown> = {}) =>
  orderBody({ delivery: { company: { id: 1 }, type: 2 }, ...overrides });

async function create(client: ApiClient = owner, body: Record<string, unknown> = orderBody()): Promise<number> {
  const response = await client.post('/v2/orders', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

async function count(client: ApiClient = owner): Promise<number> {
  return Number((await client.get('/v2/orders?list=0&perPage=1')).headers['x-total-count']);
}

async function status(id: number): Promise<number> {
  return (await owner.get(`/v2/orders/${id}`)).body.status;
}

describe('orders: create, read, change', () => {
  it('creates a priced draft with the sender from the shop warehouse', async () => {
    const id = await create();
    const read = await owner.get(`/v2/orders/${id}`);
    expect(read.status).toBe(200);
    const order = read.body;
    expect(order).toMatchObject({
      id,
      status: 11,
      statusHistory: [{ code: 11, name: 'Черновик' }],
      cmsId: 'WC-1001',
      shopId,
      error: null,
      trackNumber: null,
      stickerFormed: false,
      isPacked: false,
      senderAddress: { city: { name: 'Москва' }, street: 'Складская улица' },
      sender: { fullName: 'Иван Петров', phone: '+79161234567' },
      recipient: {
        fullName: 'Пётр Сидоров',
        phone: '+79990001122',
        email: 'petr@example.com',
        additionalPhone: null,
        legalEntity: { name: null, TIN: null },
      },
      delivery: {
        company: { id: 1, name: 'Пунктир' },
        type: 1,
        point: { id: pointId, holdDate: null, storagingEnds: false },
      },
      pay: { type: 2, status: { code: 'not_paid' } },
    });
    // goods 1500*2 + 450 + 200*3 = 4050, plus the delivery charged to the customer
    expect(order.priceCod).toBe(4300);
    expect(order.delivery.price).toBeGreaterThan(0);
    expect(order.delivery.totalPrice).toBeGreaterThanOrEqual(order.delivery.price);
    expect(order.delivery.priceCommissionCod).toBeGreaterThanOrEqual(0);
    expect(order.delivery.date.from).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(order.delivery.days.min).toBeGreaterThan(0);
    expect(order.delivery.point.name).toEqual(expect.any(String));
    expect(order.delivery.point.holdDays).toBeGreaterThan(0);
    expect(order.dimensions.factWeight).toBe(1.15);
    expect(order.products).toHaveLength(3);
  });

  it('ignores a sender sent with shopId, and requires it without one', async () => {
    const id = await create(
      owner,
      orderBody({
        sender: { fullName: 'Кто-то', phone: '+70000000000' },
        senderAddress: { city: { countryCode: 'RU', name: 'Казань' } },
      }),
    );
    expect((await owner.get(`/v2/orders/${id}`)).body.sender.fullName).toBe('Иван Петров');

    const before = await count();
    const missing = await owner.post('/v2/orders', courier({ shopId: undefined }));
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((error: { field: string }) => error.field)).toEqual(
      expect.arrayContaining(['senderAddress.city.name', 'sender.fullName', 'sender.phone', 'pickup.type']),
    );
    expect(await count()).toBe(before);

    const own = await create(
      owner,
      courier({
        shopId: undefined,
        sender: { fullName: 'ИП Смирнов', phone: '+79161112233' },
        senderAddress: { city: { countryCode: 'RU', name: 'Москва' }, street: 'Тверская', house: '1' },
        pickup: { type: 1, pointId: dropOffPointOf(t, 1) },
      }),
    );
    const order = (await owner.get(`/v2/orders/${own}`)).body;
    expect(order).toMatchObject({
      shopId: null,
      sender: { fullName: 'ИП Смирнов' },
      senderAddress: { city: { name: 'Москва' }, street: 'Тверская' },
      pickup: { type: 1, pointId: dropOffPointOf(t, 1) },
      error: null,
    });
    expect(order.delivery.totalPrice).toBeGreaterThan(0);
    // the special value shopId=0: the orders made without a shop
    const withoutShop = (await owner.get('/v2/orders?list=0&shopId=0&perPage=1000')).body as Array<{
      id: number;
      shopId: number | null;
    }>;
    expect(withoutShop.map((item) => item.id)).toContain(own);
    expect(withoutShop.every((item) => item.shopId === null)).toBe(true);
    expect((await shopKey.get('/v2/orders?list=0&shopId=0')).status).toBe(403);
    expect((await owner.get('/v2/orders?list=0&shopId=-1')).status).toBe(400);
  });

  it('takes products by reference from the catalogue and keeps a copy of them', async () => {
    const productId = (await owner.post('/v2/products', productBody({ vendorCode: 'REF-1' }))).body.id;
    const id = await create(owner, courier({ products: [{ id: productId, count: 2 }] }));
    const line = (await owner.get(`/v2/orders/${id}`)).body.products[0];
    expect(line).toMatchObject({
      id: productId,
      name: 'Футболка красная',
      vendorCode: 'REF-1',
      priceDeclared: 1500,
      priceCod: 1990.5,
      weight: 0.25,
      count: 2,
      barcode: '4601234567890',
    });
    // the catalogue as it is now, not as an earlier order read it
    expect((await owner.patch(`/v2/products/${productId}`, { name: 'Футболка синяя', priceCod: 2100 })).status).toBe(
      204,
    );
    // an order's lines take catalogue values only: making one reads no stock (the hot paths' ninth pass)
    const stockReads = vi.spyOn(StockStore.prototype, 'rowsOf');
    const later = await create(owner, courier({ products: [{ id: productId, count: 1 }] }));
    expect(stockReads).not.toHaveBeenCalled();
    stockReads.mockRestore();
    expect((await owner.get(`/v2/orders/${later}`)).body.products[0]).toMatchObject({
      name: 'Футболка синяя',
      priceCod: 2100,
    });
    await owner.delete(`/v2/products/${productId}`);
    expect((await owner.get(`/v2/orders/${id}`)).body.products[0].name).toBe('Футболка красная');
    expect((await owner.get(`/v2/orders/${later}`)).body.products[0].name).toBe('Футболка синяя');
    const unknown = await owner.post('/v2/orders', courier({ products: [{ id: 999999 }] }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { field: 'products[0].id', message: 'product 999999 does not exist in this account' },
    ]);
  });

  it('prices a chosen point only where the calculator offers it: a local point that takes the parcel, a far one where none is local', async () => {
    const registry = t.runtime.services.reference.registry;
    const localities = t.runtime.services.reference.localities;
    const spb = localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
    const udomlya = localities.find({ countryCode: 'RU', name: 'Удомля', region: 'Тверская область' });
    if (!spb || !udomlya) throw new Error('the reference data lacks Санкт-Петербург or Удомля');
    const local = registry.pointsIn(1, spb.id);
    const takes20kg = local.find((point) => (point.limits.maxWeight ?? Infinity) >= 20);
    const takes15kg = local.find((point) => point.limits.maxWeight === 15);
    if (!takes20kg || !takes15kg) throw new Error('the reference data lacks a 15 kg and a 30 kg point of Пунктир');
    const heavy = { products: [{ name: 'Гиря', vendorCode: 'W-20', priceDeclared: 900, priceCod: 900, weight: 20 }] };
    const chosen = async (pointId: number, companyId: number, city: Record<string, string>) => {
      const id = await create(
        owner,
        orderBody({
          ...heavy,
          deliveryAddress: { city: { countryCode: 'RU', ...city }, street: 'Ленина', house: '1' },
          delivery: { company: { id: companyId }, type: 1, point: { id: pointId } },
        }),
      );
      return (await owner.get(`/v2/orders/${id}`)).body;
    };
    const spbCity = { name: 'Санкт-Петербург' };
    const priced = await chosen(takes20kg.id, 1, spbCity);
    expect(priced.error).toBeNull();
    expect(priced.delivery.price).toBeGreaterThan(0);
    // the same point priced by the calculator for the whole locality
    const offered = await owner.post(
      '/v2/calculator',
      { reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' }, type: 1, companyIds: [1], weight: 20 },
      { headers: { 'shop-id': String(shopId) } },
    );
    const offeredIds = offered.body['1'][0].points.map((point: { id: number }) => point.id);
    expect(offeredIds).toContain(takes20kg.id);
    expect(offeredIds).not.toContain(takes15kg.id);
    // a point too small for 20 kg: not priced, kept with the error, as when no point of the locality takes it
    const tooSmall = await chosen(takes15kg.id, 1, spbCity);
    expect(tooSmall.error).toEqual(expect.any(String));
    expect(tooSmall.delivery.price).toBeNull();
    // Удомля has no point of company 3: its nearest points that take 20 kg are offered as far ones, and one is priced
    const takes = (point: { limits: { maxWeight: number | null } }) => (point.limits.maxWeight ?? Infinity) >= 20;
    const [nearest] = registry.nearestPoints(3, udomlya.latitude, udomlya.longitude, 5, 150, takes);
    if (!nearest) throw new Error('no point of company 3 near Удомля');
    const far = await chosen(nearest.id, 3, { name: 'Удомля', region: 'Тверская область' });
    expect(far.error).toBeNull();
    expect(far.delivery.price).toBeGreaterThan(0);
    // a point of the same company in Санкт-Петербург is not where a parcel to Удомля goes
    const elsewhere = registry.pointsIn(3, spb.id).find(takes);
    if (!elsewhere) throw new Error('no point of company 3 in Санкт-Петербург');
    expect((await chosen(elsewhere.id, 3, { name: 'Удомля', region: 'Тверская область' })).delivery.price).toBeNull();
  });

  it('keeps a delivery that cannot be priced as a draft with its error', async () => {
    const id = await create(owner, orderBody({ deliveryAddress: { city: { countryCode: 'RU', name: 'Нигдебург' } } }));
    const order = (await owner.get(`/v2/orders/${id}`)).body;
    expect(order.status).toBe(11);
    // the city is the cause, not the company
    expect(order.error).toMatch(/locality \(Нигдебург\) is not in the directory/);
    expect(order.delivery.price).toBeNull();
    const confirm = await owner.post('/v2/orders/confirm', { ids: [id] });
    expect(confirm.status).toBe(409);
    expect(confirm.body.errors).toEqual([{ id, message: expect.stringMatching(/not priced/) }]);
    expect((await owner.get(`/v2/orders?list=6&search=${id}`)).body.map((item: { id: number }) => item.id)).toContain(
      id,
    );
  });

  it('refuses bad input with field paths and writes nothing', async () => {
    const before = await count();
    const response = await owner.post('/v2/orders', {
      shopId,
      products: [{ name: 'x', weight: 0.0001, dimensions: { width: 1000 } }],
      dimensions: { places: 100 },
      deliveryAddress: { city: { countryCode: 'RUS' } },
      recipient: { fullName: '' },
      delivery: { company: { id: 1 }, type: 5 },
    });
    expect(response.status).toBe(400);
    const fields = response.body.errors.map((error: { field: string }) => error.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'products[0].weight',
        'products[0].dimensions.width',
        'dimensions.places',
        'deliveryAddress.city.countryCode',
        'deliveryAddress.city.name',
        'recipient.fullName',
        'recipient.phone',
        'delivery.type',
      ]),
    );
    const rules = await owner.post(
      '/v2/orders',
      orderBody({ delivery: { company: { id: 4 }, type: 1 }, priceDeclared: 10.555 }),
    );
    expect(rules.status).toBe(400);
    expect(rules.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'delivery.type', message: 'Курьер Сити does not deliver with type 1' },
        { field: 'delivery.point.id', message: 'is required for delivery to a pickup point (type 1)' },
        { field: 'priceDeclared', message: 'must be given to the kopeck (at most 2 decimals)' },
      ]),
    );
    expect((await owner.post('/v2/orders', orderBody({ delivery: { company: { id: 999 }, type: 2 } }))).status).toBe(
      400,
    );
    expect(await count()).toBe(before);
  });

  it('replaces a draft with PUT (priced again) and refuses it after confirmation', async () => {
    const id = await create();
    const put = await owner.put(
      `/v2/orders/${id}`,
      courier({ cmsId: 'WC-CHANGED', recipient: { fullName: 'Анна', phone: '+79990000000' } }),
    );
    expect(put.status).toBe(204);
    const order = (await owner.get(`/v2/orders/${id}`)).body;
    expect(order).toMatchObject({
      id,
      cmsId: 'WC-CHANGED',
      recipient: { fullName: 'Анна' },
      delivery: { type: 2, point: null },
      status: 11,
    });
    expect(order.delivery.totalPrice).toBeGreaterThan(0);
    expect((await owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    const refused = await owner.put(`/v2/orders/${id}`, courier());
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('order_state');
    expect((await owner.put('/v2/orders/999999', courier())).status).toBe(404);
  });

  it('patches only the fields of the contract and refuses any other with 400', async () => {
    const id = await create();
    const patch = await owner.patch(`/v2/orders/${id}`, {
      recipient: {
        fullName: 'Пётр Новый',
        phone: '+79995554433',
        additionalPhone: '+79995554434',
        email: 'new@example.com',
        legalEntity: { name: 'ООО Ромашка', TIN: '7701234567' },
      },
      cmsId: 'WC-NEW',
      comment: 'Новый комментарий',
      commentForAssembly: 'Упаковать в пузырчатую плёнку',
      documentsForWarehouse: 'Счёт-фактура',
    });
    expect(patch.status).toBe(204);
    expect((await owner.get(`/v2/orders/${id}`)).body).toMatchObject({
      recipient: {
        fullName: 'Пётр Новый',
        phone: '+79995554433',
        additionalPhone: '+79995554434',
        email: 'new@example.com',
        legalEntity: { name: 'ООО Ромашка', TIN: '7701234567' },
      },
      cmsId: 'WC-NEW',
      comment: 'Новый комментарий',
      commentForAssembly: 'Упаковать в пузырчатую плёнку',
      documentsForWarehouse: 'Счёт-фактура',
    });
    for (const body of [
      { deliveryAddress: { city: { name: 'Казань' } } },
      { recipient: { address: 'x' } },
      { delivery: { type: 2 } },
      { clientPrice: 1 },
    ]) {
      const refused = await owner.patch(`/v2/orders/${id}`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors[0].message).toBe('cannot be changed by PATCH');
    }
    expect((await owner.get(`/v2/orders/${id}`)).body.cmsId).toBe('WC-NEW');
  });
});

describe('orders: list filters', () => {
  it('filters by every parameter of the contract, newest first, with totals', async () => {
    const account = await t.newAccount('Lists');
    const client = account.client;
    const warehouseId = (await client.post('/v2/warehouses', warehouseBody())).body.id;
    const shop = (await client.post('/v2/shops', shopBody(warehouseId))).body.id;
    const shop2 = (await client.post('/v2/shops', shopBody(warehouseId, { name: 'B' }))).body.id;
    const a = await create(client, orderBody({ shopId: shop, cmsId: 'A-1' }));
    const b = await create(
      client,
      courier({
        shopId: shop2,
        cmsId: 'B-2',
        recipient: { fullName: 'Ольга Ёлкина', phone: '+7 (916) 555-44-33' },
        deliveryAddress: { city: { countryCode: 'RU', name: 'Нижний Новгород' } },
        products: [{ name: 'x', priceCod: 0, weight: 1 }],
        clientPrice: 0,
      }),
    );
    const c = await create(client, courier({ shopId: shop, cmsId: 'C-3', delivery: { company: { id: 7 }, type: 2 } }));
    await client.post('/v2/orders/pack', { ids: [c] });
    await client.post('/v2/orders/confirm', { ids: [c] });
    const ids = async (query: string) => {
      const response = await client.get(`/v2/orders?${query}`);
      expect(response.status, `${query}: ${JSON.stringify(response.body)}`).toBe(200);
      expect(Number(response.headers['x-total-count'])).toBe(response.body.length);
      return response.body.map((order: { id: number }) => order.id);
    };
    expect(await ids('list=0')).toEqual([c, b, a]);
    expect(await ids('list=1')).toEqual([b, a]);
    expect(await ids('list=2')).toEqual([c]);
    expect(await ids('list=3')).toEqual([]);
    expect(await ids('list=8')).toEqual([]);
    expect(await ids('list=0&deliveryType=1')).toEqual([a]);
    expect(await ids(`list=0&shopId=${shop2}`)).toEqual([b]);
    expect(await ids(`list=0&warehouseId=${warehouseId}`)).toEqual([c, b, a]);
    expect(await ids('list=0&statuses[]=12')).toEqual([c]);
    expect(await ids('list=0&statuses=11,12')).toEqual([c, b, a]);
    expect(await ids('list=0&deliveryCompanies[0]=7')).toEqual([c]);
    expect(await ids('list=0&paymentMethods[]=1')).toEqual([b]);
    expect(await ids('list=0&withCod=1')).toEqual([c, a]);
    expect(await ids('list=0&withCod=0')).toEqual([b]);
    expect(await ids('list=0&packed=1')).toEqual([c]);
    expect(await ids('list=2&stickerFormed=0&wasInAct=0')).toEqual([c]);
    expect(await ids('list=0&stickerFormed=1')).toEqual([]);
    expect(await ids('list=0&storagingEnds=1')).toEqual([]);
    expect(await ids('list=0&codReceived=1')).toEqual([]);
    expect(await ids('list=0&recipientCountry=ru')).toEqual([c, b, a]);
    expect(await ids('list=0&recipientCountry=KZ')).toEqual([]);
    expect(await ids(`list=0&recipientCity=${encodeURIComponent('новгор')}`)).toEqual([b]);
    expect(await ids(`list=0&search=${encodeURIComponent('елкина')}`)).toEqual([b]);
    expect(await ids('list=0&search=5554433')).toEqual([b]);
    expect(await ids('list=0&search=C-3')).toEqual([c]);
    expect(await ids(`list=0&search=${a}`)).toContain(a);
    expect(await ids('list=0&reservationStatus=0')).toEqual([c, b, a]);
    expect(await ids('list=9')).toEqual([]);
    expect(await ids('list=0&autoReservation=1')).toEqual([]);
    // the account's day (Moscow), not UTC's: from 21:00 UTC they differ
    const today = todayIn('Europe/Moscow');
    expect(await ids(`list=0&dateFrom=${today}&dateTo=${today}`)).toHaveLength(3);
    expect(await ids('list=0&dateTo=2000-01-01')).toEqual([]);
    const paged = await client.get('/v2/orders?list=0&perPage=2&page=2');
    expect(paged.body.map((order: { id: number }) => order.id)).toEqual([a]);
    expect(paged.headers['x-total-count']).toBe('3');
  });

  it('sends a large page gzipped to a client that accepts it, and a page read again shows orders created meanwhile', async () => {
    const client = (await t.newAccount('Gzip')).client;
    const warehouseId = (await client.post('/v2/warehouses', warehouseBody())).body.id;
    const ownShopId = (await client.post('/v2/shops', shopBody(warehouseId))).body.id;
    for (let index = 0; index < 6; index++) await create(client, orderBody({ shopId: ownShopId }));
    const read = (encoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/v2/orders?list=0&perPage=50',
        headers: { authorization: `Bearer ${client.token}`, ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
    const plain = await read();
    expect(plain.rawPayload.length).toBeGreaterThan(16 * 1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await read('gzip, deflate');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    // assembled from the orders' packed documents: each compressed on its own
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    // a page asked for again is compressed as a whole in the background, and sent so from then on
    let compact = zipped.rawPayload;
    for (let attempt = 0; attempt < 200 && compact.length >= zipped.rawPayload.length; attempt++) {
      compact = (await read('gzip')).rawPayload;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(compact.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(gunzipSync(compact).equals(plain.rawPayload)).toBe(true);
    expect((await read('gzip;q=0')).headers['content-encoding']).toBeUndefined();

    const newest = await create(client, orderBody({ shopId: ownShopId }));
    const again = await read('gzip');
    const orders = JSON.parse(gunzipSync(again.rawPayload).toString('utf8')) as Array<{ id: number }>;
    expect(orders).toHaveLength(7);
    expect(orders[0].id).toBe(newest);
    expect(again.headers['x-total-count']).toBe('7');
  });

  it('answers every page as one long page would, in any order, and after new orders and status changes', async () => {
    const client = (await t.newAccount('Pages')).client;
    const warehouseId = (await client.post('/v2/warehouses', warehouseBody())).body.id;
    const ownShopId = (await client.post('/v2/shops', shopBody(warehouseId))).body.id;
    const made: number[] = [];
    for (let index = 0; index < 23; index++)
      made.push(
        await create(client, index % 3 === 0 ? courier({ shopId: ownShopId }) : orderBody({ shopId: ownShopId })),
      );
    const idsOf = async (query: string) =>
      ((await client.get(`/v2/orders?${query}`)).body as Array<{ id: number }>).map((order) => order.id);
    const expectPagesAgree = async (filter: string) => {
      const all = await idsOf(`${filter}&perPage=1000`);
      // pages read out of order: later pages start after the last order of a page read before them
      for (const page of [3, 1, 2, 5, 4, 3, 6])
        expect(await idsOf(`${filter}&perPage=4&page=${page}`), `${filter} page ${page}`).toEqual(
          all.slice((page - 1) * 4, page * 4),
        );
      for (const page of [2, 7, 3])
        expect(await idsOf(`${filter}&perPage=3&page=${page}`), `${filter} perPage 3 page ${page}`).toEqual(
          all.slice((page - 1) * 3, page * 3),
        );
      return all;
    };
    expect(await expectPagesAgree('list=0')).toEqual([...made].reverse());
    await expectPagesAgree('list=1&deliveryType=1');
    // a new order moves every order one place down; confirmed orders leave the drafts list
    made.push(await create(client, orderBody({ shopId: ownShopId })));
    expect((await client.post('/v2/orders/confirm', { ids: [made[10], made[4]] })).status).toBe(204);
    expect(await expectPagesAgree('list=0')).toEqual([...made].reverse());
    const drafts = await expectPagesAgree('list=1');
    expect(drafts).not.toContain(made[10]);
    expect(drafts).toHaveLength(22);
  });

  it('refuses bad filters with 400', async () => {
    for (const query of [
      'list=10',
      'list=0&withCod=2',
      'list=0&dateFrom=yesterday',
      'list=0&perPage=1001',
      'list=0&deliveryType=4',
    ]) {
      const response = await owner.get(`/v2/orders?${query}`);
      expect(response.status, query).toBe(400);
    }
  });
});

describe('orders: confirmation and registration', () => {
  it('confirms, registers with the company in a job, and cancels', async () => {
    const id = await create();
    expect((await owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    expect(await status(id)).toBe(12);
    await worker.runDue();
    const order = (await owner.get(`/v2/orders/${id}`)).body;
    expect(order.status).toBe(13);
    expect(order.trackNumber).toMatch(/^[A-Z]{2}\d{11}$/);
    expect(order.trackingUrl).toContain(order.trackNumber);
    expect(order.statusHistory.map((item: { code: number }) => item.code)).toEqual([13, 12, 11]);
    expect((await owner.post('/v2/orders/cancel', { ids: [id] })).status).toBe(204);
    expect(await status(id)).toBe(10);
    await worker.runDue();
    const again = await owner.post('/v2/orders/cancel', { ids: [id] });
    expect(again.status).toBe(409);
  });

  it('moves an order the company refuses to 83 with the error; a transient failure is retried', async () => {
    const entry = t.runtime.services.reference.registry.get(7)!;
    const original = entry.driver;
    let calls = 0;
    entry.driver = Object.assign(Object.create(original) as CarrierDriver, {
      register: async () => {
        calls++;
        if (calls === 1) throw new CarrierError(7, 'The delivery company answered 503.', true);
        throw new CarrierError(7, 'The address is not served.');
      },
    });
    try {
      const id = await create(owner, courier({ delivery: { company: { id: 7 }, type: 2 } }));
      expect((await owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
      await worker.runDue();
      expect(await status(id)).toBe(12);
      expect(calls).toBe(1);
      await worker.runDue(new Date(Date.now() + 3600_000));
      const order = (await owner.get(`/v2/orders/${id}`)).body;
      expect(calls).toBe(2);
      expect(order).toMatchObject({ status: 83, error: 'The address is not served.', trackNumber: null });
      expect((await owner.get(`/v2/orders?list=6&search=${id}`)).body.map((item: { id: number }) => item.id)).toContain(
        id,
      );
      // an order in error is fixed with PUT (a draft again) or canceled
      expect((await owner.put(`/v2/orders/${id}`, courier())).status).toBe(204);
      expect((await owner.get(`/v2/orders/${id}`)).body).toMatchObject({ status: 11, error: null });
    } finally {
      entry.driver = original;
    }
  });

  it('registers an order confirmed twice at the same time only once', async () => {
    const entry = t.runtime.services.reference.registry.get(1)!;
    const original = entry.driver;
    let calls = 0;
    entry.driver = Object.assign(Object.create(original) as CarrierDriver, {
      register: async (...args: Parameters<CarrierDriver['register']>) => {
        calls++;
        return original.register(...args);
      },
    });
    try {
      const id = await create();
      const answers = await Promise.all([
        owner.post('/v2/orders/confirm', { ids: [id] }),
        owner.post('/v2/orders/confirm', { ids: [id] }),
        owner.post('/v2/orders/confirm', { ids: [id] }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([204, 409, 409]);
      await Promise.all([worker.runDue(), worker.runDue()]);
      expect(calls).toBe(1);
      expect(await status(id)).toBe(13);
    } finally {
      entry.driver = original;
    }
  });

  it('is all or nothing: one bad id changes nothing and every failing id is listed', async () => {
    const good = await create();
    const confirmed = await create();
    await owner.post('/v2/orders/confirm', { ids: [confirmed] });
    const foreign = await create(stranger.withToken(owner.token), orderBody());
    const response = await owner.post('/v2/orders/cancel', { ids: [good, 999999] });
    expect(response.status).toBe(404);
    expect(response.body.errors).toEqual([{ id: 999999, message: 'Order 999999 was not found.' }]);
    const confirm = await owner.post('/v2/orders/confirm', { ids: [good, confirmed, 999998] });
    expect(confirm.status).toBe(409);
    expect(confirm.body.errors).toEqual([
      { id: confirmed, message: `Order ${confirmed}: only a draft can be confirmed.` },
      { id: 999998, message: 'Order 999998 was not found.' },
    ]);
    expect(await status(good)).toBe(11);
    expect(foreign).toBeGreaterThan(0);
    for (const path of ['duplicate', 'duplicate-back', 'return', 'pack', 'unpack']) {
      const before = await count();
      const answer = await owner.post(`/v2/orders/${path}`, { ids: [good, 999999] });
      // a refused state is a 409 (return of a draft, unpack of an unpacked order), else the unknown id's 404
      expect(answer.status, path).toBe(path === 'return' || path === 'unpack' ? 409 : 404);
      expect(answer.body.errors).toContainEqual({ id: 999999, message: 'Order 999999 was not found.' });
      expect(await count()).toBe(before);
    }
    expect((await owner.post('/v2/orders/extend-hold', { ids: [good], days: 3 })).status).toBe(409);
  });

  it('confirms a fulfilment order as a preorder, without registering it yet', async () => {
    const ordinary = await create();
    const refused = await owner.post('/v2/orders/confirm', { ids: [ordinary], preOrder: true });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].message).toMatch(/fulfilment/);
  });
});

describe('orders: WooCommerce plugin, form-encoded', () => {
  it('creates, confirms and cancels the way the plugin does', async () => {
    const body = {
      cmsId: '5501',
      shopId,
      products: [
        {
          name: 'Худи',
          nameEn: 'Hoodie',
          vendorCode: 'HD-1',
          vat: 20,
          priceDeclared: 2500,
          priceCod: 2500,
          prePay: 0,
          tnved: '6110',
          count: 1,
          weight: 0.7,
          brand: 'МойБренд',
          producingCountry: 'RU',
          barcode: '4600000000001',
          dimensions: { width: 30, height: 5, length: 40 },
          discount: 0,
        },
      ],
      discount: 0,
      dimensions: { places: 1 },
      deliveryAddress: {
        city: { countryCode: 'RU', name: 'Санкт-Петербург', type: 'г', region: 'Санкт-Петербург' },
        street: 'Садовая',
        house: '5',
        flat: '12',
        zipCode: '190000',
      },
      recipient: {
        fullName: 'Мария Иванова',
        phone: '+79112223344',
        email: 'maria@example.com',
        legalEntity: { name: '' },
      },
      applyWidgetSettings: true,
      applyDefaultDimensions: false,
      delivery: { company: { id: 1 }, type: 2, services: [{ id: 4 }] },
      // the drop-off point chosen once in the plugin's settings (GET /v2/orders/shipment)
      pickup: { pointId: dropOffPointOf(t, 1) },
      clientPrice: 300,
      clientPrePay: 0,
      clientDeliveryDate: '',
      comment: 'Заказ с сайта',
    };
    const created = await shopKey.post('/v2/orders', body, { form: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    const order = (await shopKey.get(`/v2/orders/${id}`)).body;
    expect(order).toMatchObject({
      cmsId: '5501',
      shopId,
      status: 11,
      error: null,
      services: [4],
      products: [{ name: 'Худи', vat: 20, count: 1, weight: 0.7 }],
      clientPrice: 300,
      priceCod: 2800,
    });
    expect(order.delivery.services).toEqual([{ id: 4, name: expect.any(String), price: expect.any(Number) }]);
    const confirm = await shopKey.post('/v2/orders/confirm', `ids%5B0%5D=${id}`, { form: true });
    expect(confirm.status).toBe(204);
    expect(confirm.text).toBe('');
    await worker.runDue();
    expect(await status(id)).toBe(13);
    const cancel = await shopKey.post('/v2/orders/cancel', `ids%5B0%5D=${id}`, { form: true });
    expect(cancel.status).toBe(204);
    expect(await status(id)).toBe(10);
  });
});

describe('orders: security', () => {
  it('needs a token', async () => {
    expect((await t.client().get('/v2/orders?list=0')).status).toBe(401);
    expect((await t.client().post('/v2/orders', orderBody())).status).toBe(401);
    expect((await t.client().post('/v2/orders/confirm', { ids: [1] })).status).toBe(401);
  });

  it("hides one account's orders from another (404) and changes nothing", async () => {
    const id = await create();
    expect((await stranger.get(`/v2/orders/${id}`)).status).toBe(404);
    expect((await stranger.put(`/v2/orders/${id}`, courier())).status).toBe(404);
    expect((await stranger.patch(`/v2/orders/${id}`, { cmsId: 'x' })).status).toBe(404);
    expect((await stranger.post('/v2/orders/cancel', { ids: [id] })).status).toBe(404);
    expect((await stranger.get('/v2/orders?list=0')).body).toEqual([]);
    expect((await stranger.get(`/v2/tracking?id=${id}`)).status).toBe(404);
    expect((await stranger.post('/v2/orders', orderBody())).status).toBe(400);
    expect(await status(id)).toBe(11);
  });

  it("limits a shop key to its shop's orders (403 for another shop's)", async () => {
    const mine = await create(shopKey, orderBody({ shopId: undefined }));
    expect((await shopKey.get(`/v2/orders/${mine}`)).body.shopId).toBe(shopId);
    const other = await create(owner, orderBody({ shopId: otherShopId }));
    expect((await shopKey.get(`/v2/orders/${other}`)).status).toBe(403);
    expect((await shopKey.patch(`/v2/orders/${other}`, { cmsId: 'x' })).status).toBe(403);
    const batch = await shopKey.post('/v2/orders/cancel', { ids: [mine, other] });
    expect(batch.status).toBe(403);
    expect(batch.body.errors).toEqual([{ id: other, message: `Order ${other} belongs to another shop.` }]);
    expect(await status(mine)).toBe(11);
    expect((await shopKey.post('/v2/orders', orderBody({ shopId: otherShopId }))).status).toBe(403);
    const listed = (await shopKey.get('/v2/orders?list=0&perPage=1000')).body.map(
      (order: { shopId: number }) => order.shopId,
    );
    expect(new Set(listed)).toEqual(new Set([shopId]));
    expect((await shopKey.get(`/v2/orders?list=0&shopId=${otherShopId}`)).status).toBe(403);
    expect((await shopKey.get(`/v2/tracking?id=${other}`)).status).toBe(404);
  });
});
