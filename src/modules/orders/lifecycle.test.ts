/** After confirmation: the journey (pushed events, simulated clock), tracking, and the other operations. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { startFakeCarrier } from '../../../test/support/fake-carrier.js';
import { orderJobWorker, pickupPointIn, preparedOrder } from '../../../test/support/orders.js';
import type { JobWorker } from '../../platform/jobs.js';
import type { CarrierDriver, TrackingEvent } from '../../carriers/types.js';

let t: TestApp;
let owner: ApiClient;
let shopId: number;
let fulfilmentShopId: number;
let pointId: number;
let worker: JobWorker;
const FAR_FUTURE = () => new Date(Date.now() + 30 * 86400_000);

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '60' } });
  owner = (await t.newAccount('Owner')).client;
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
  const fulfilmentId = (
    await owner.post('/v2/warehouses', warehouseBody({ name: 'Фулфилмент', type: 2, fulfilmentWarehouseId: 101 }))
  ).body.id;
  fulfilmentShopId = (await owner.post('/v2/shops', shopBody(fulfilmentId, { name: 'Фулфилмент-магазин' }))).body.id;
  pointId = pickupPointIn(t);
  worker = orderJobWorker(t);
});
afterAll(async () => t.close());

function orderBody(overrides: Record<string, unknown> = {}) {
  return {
    shopId,
    cmsId: 'SITE-77',
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
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
    ...overrides,
  };
}

async function prepared(body: Record<string, unknown> = orderBody()): Promise<{ id: number; trackNumber: string }> {
  return preparedOrder(owner, worker, body);
}

const codes = (order: { statusHistory: Array<{ code: number }> }) => order.statusHistory.map((item) => item.code);

describe('journey: events pushed by the company', () => {
  it('travels from draft to delivered through pushed events, with hold dates at the point', async () => {
    const { id, trackNumber } = await prepared();
    const secret = t.runtime.services.tracking.pushSecret(1);
    const push = (events: unknown[], key = secret) =>
      t.client().post('/v2/tracking/events/1', { events }, { headers: { 'x-carrier-secret': key } });

    expect((await push([{ trackNumber, statusCode: 41 }], 'wrong')).status).toBe(401);
    expect((await t.client().post('/v2/tracking/events/1', { events: [{ trackNumber, statusCode: 41 }] })).status).toBe(
      400,
    );
    expect((await push([{ trackNumber, statusCode: 41 }], t.runtime.services.tracking.pushSecret(2))).status).toBe(401);
    expect(await codes((await owner.get(`/v2/orders/${id}`)).body)).toEqual([13, 12, 11]);

    const first = await push([
      { trackNumber, statusCode: 411, at: '2026-01-02T10:00:00+03:00', description: 'В пути' },
      { trackNumber, statusCode: 41, at: '2026-01-01T10:00:00+03:00' },
      { trackNumber: 'NOPE123', statusCode: 41 },
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      applied: 2,
      ignored: [{ trackNumber: 'NOPE123', message: 'no order of this company has this track number' }],
    });
    const atPoint = await push([{ trackNumber, statusCode: 42, description: 'Ждёт в пункте выдачи' }]);
    expect(atPoint.body.applied).toBe(1);
    let order = (await owner.get(`/v2/orders/${id}`)).body;
    expect(order.status).toBe(42);
    expect(order.statusHistory[0]).toMatchObject({
      code: 42,
      name: expect.any(String),
      description: 'Ждёт в пункте выдачи',
    });
    expect(order.delivery.point.holdDate).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(
      (await owner.get(`/v2/orders?list=4&search=${trackNumber}`)).body.map((item: { id: number }) => item.id),
    ).toEqual([id]);

    // extend-hold: only at the point; the built-in company grants it at once
    const holdDate = order.delivery.point.holdDate;
    expect((await owner.post('/v2/orders/extend-hold', { ids: [id], days: 3 })).status).toBe(204);
    order = (await owner.get(`/v2/orders/${id}`)).body;
    expect(order.delivery.point.holdDate > holdDate).toBe(true);
    expect(order.tasks).toEqual([{ type: 'extend-hold', date: expect.any(String), status: 'done', days: 3 }]);
    expect((await owner.post('/v2/orders/extend-hold', { ids: [id], days: 0 })).status).toBe(400);

    expect((await push([{ trackNumber, statusCode: 44 }])).body.applied).toBe(1);
    expect((await push([{ trackNumber, statusCode: 41 }])).body).toEqual({
      applied: 0,
      ignored: [{ trackNumber, message: 'status 41 does not apply to an order in status 44' }],
    });
    expect((await push([{ trackNumber, statusCode: 11 }])).status).toBe(400);
    order = (await owner.get(`/v2/orders/${id}`)).body;
    expect(codes(order)).toEqual([44, 42, 411, 41, 13, 12, 11]);
    expect(order.pay.status.code).toBe('paid');
    expect((await owner.get('/v2/orders?list=5&codReceived=1')).body.map((item: { id: number }) => item.id)).toContain(
      id,
    );
    expect((await owner.post('/v2/orders/cancel', { ids: [id] })).status).toBe(409);
    expect((await owner.post('/v2/orders/return', { ids: [id] })).status).toBe(204);
    expect((await owner.get(`/v2/orders/${id}`)).body.tasks.map((task: { type: string }) => task.type)).toEqual([
      'extend-hold',
      'return',
    ]);
  });
});

describe('order lists follow the order', () => {
  /** The lists 1 to 8 that show the order of this cmsId (lists are kept as columns on every write). */
  async function listsOf(cmsId: string, extra = ''): Promise<number[]> {
    const lists: number[] = [];
    for (let list = 1; list <= 8; list++) {
      const response = await owner.get(`/v2/orders?list=${list}&search=${cmsId}${extra}`);
      expect(response.status).toBe(200);
      if (response.body.length > 0) lists.push(list);
    }
    return lists;
  }

  it('moves an order from list to list as its status changes; problems take orders with an error; statuses[] narrows a list', async () => {
    const unpriced = (
      await owner.post(
        '/v2/orders',
        orderBody({ cmsId: 'LISTS-ERROR', deliveryAddress: { city: { countryCode: 'RU', name: 'Нигдебург' } } }),
      )
    ).body.id as number;
    expect((await owner.get(`/v2/orders/${unpriced}`)).body).toMatchObject({ status: 11, error: expect.any(String) });
    expect(await listsOf('LISTS-ERROR')).toEqual([1, 6]);
    expect(await listsOf('LISTS-ERROR', '&statuses[]=11')).toEqual([1, 6]);
    expect(await listsOf('LISTS-ERROR', '&statuses[]=12')).toEqual([]);

    const { trackNumber } = await prepared(orderBody({ cmsId: 'LISTS-JOURNEY' }));
    expect(await listsOf('LISTS-JOURNEY')).toEqual([2]);
    const push = (statusCode: number) =>
      t
        .client()
        .post(
          '/v2/tracking/events/1',
          { events: [{ trackNumber, statusCode }] },
          { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
        );
    for (const [statusCode, list] of [
      [41, 3],
      [42, 4],
      [462, 6],
      [71, 7],
      [72, 7],
    ] as const) {
      expect((await push(statusCode)).body.applied, `status ${statusCode}`).toBe(1);
      expect(await listsOf('LISTS-JOURNEY'), `status ${statusCode}`).toEqual([list]);
    }

    const canceled = (await owner.post('/v2/orders', orderBody({ cmsId: 'LISTS-CANCEL' }))).body.id as number;
    expect((await owner.post('/v2/orders/cancel', { ids: [canceled] })).status).toBe(204);
    expect(await listsOf('LISTS-CANCEL')).toEqual([8]);
  });
});

describe('registration with a company reached over HTTP', () => {
  it('registers through the http driver, and retries an unreachable company until it gives up with 83', async () => {
    const up = await startFakeCarrier({ price: 250 });
    const goingDown = await startFakeCarrier({ price: 260 });
    const registry = t.runtime.services.reference.registry;
    const base = { driver: 'http' as const, deliveryTypes: [2 as const], coverage: { minPopulation: 0 } };
    registry.add({ ...base, id: 201, code: 'remote', name: 'Удалённый', baseUrl: up.baseUrl });
    registry.add({ ...base, id: 202, code: 'flaky', name: 'Пропадающий', baseUrl: goingDown.baseUrl });
    try {
      const ok = (await owner.post('/v2/orders', orderBody({ delivery: { company: { id: 201 }, type: 2 } }))).body.id;
      const lost = (await owner.post('/v2/orders', orderBody({ delivery: { company: { id: 202 }, type: 2 } }))).body.id;
      expect((await owner.get(`/v2/orders/${ok}`)).body.delivery).toMatchObject({
        price: 250,
        company: { name: 'Удалённый' },
      });
      await goingDown.close();
      expect((await owner.post('/v2/orders/confirm', { ids: [ok, lost] })).status).toBe(204);
      await worker.runDue();
      expect((await owner.get(`/v2/orders/${ok}`)).body).toMatchObject({
        status: 13,
        trackNumber: 'REMOTE1',
        trackingUrl: 'http://carrier.test/REMOTE1',
      });
      expect((await owner.get(`/v2/orders/${lost}`)).body.status).toBe(12);
      for (let day = 1; day <= 10; day++) await worker.runDue(new Date(Date.now() + day * 86400_000));
      const failed = (await owner.get(`/v2/orders/${lost}`)).body;
      expect(failed.status).toBe(83);
      expect(failed.error).toMatch(/not reachable/);
    } finally {
      registry.remove(201);
      registry.remove(202);
      await up.close();
    }
  });
});

describe('journey: the periodic poll of companies reached over HTTP', () => {
  it('asks the company about its parcels and applies what it answers', async () => {
    const entry = t.runtime.services.reference.registry.get(7)!;
    const original = entry.driver;
    const asked: string[][] = [];
    entry.driver = Object.assign(Object.create(original) as CarrierDriver, {
      code: 'http',
      track: async (trackNumbers: string[]): Promise<TrackingEvent[]> => {
        asked.push(trackNumbers);
        return trackNumbers.map((trackNumber) => ({
          trackNumber,
          statusCode: 411,
          at: new Date().toISOString(),
          description: 'In transit (polled)',
        }));
      },
    });
    try {
      const { id, trackNumber } = await prepared(orderBody({ delivery: { company: { id: 7 }, type: 2 } }));
      await t.runtime.services.tracking.schedulePolling();
      await worker.runDue();
      expect(asked).toEqual([[trackNumber]]);
      const order = (await owner.get(`/v2/orders/${id}`)).body;
      expect(order.statusHistory[0]).toMatchObject({ code: 411, description: 'In transit (polled)' });
      // the next poll is scheduled, not run now
      expect(await worker.runDue()).toBe(0);
    } finally {
      entry.driver = original;
    }
  });
});

describe('journey: the simulated clock of the built-in companies', () => {
  it('moves a courier order from draft to its end on the simulated clock', async () => {
    const { id } = await prepared(orderBody({ delivery: { company: { id: 1 }, type: 2 } }));
    const before = Date.now();
    await worker.runDue(new Date(before + 30_000));
    expect((await owner.get(`/v2/orders/${id}`)).body.status).toBe(13);
    await worker.runDue(FAR_FUTURE());
    const order = (await owner.get(`/v2/orders/${id}`)).body;
    const history = codes(order).reverse();
    expect(history.slice(0, 7)).toEqual([11, 12, 13, 41, 411, 412, 43]);
    expect([44, 72]).toContain(order.status);
    if (order.status === 72) expect(history.slice(7)).toEqual([462, 71, 72]);
  });

  it('moves pickup-point orders to the point, sets the hold date, and most are delivered', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 6; index++) ids.push((await prepared()).id);
    await worker.runDue(FAR_FUTURE());
    const finals: number[] = [];
    for (const id of ids) {
      const order = (await owner.get(`/v2/orders/${id}`)).body;
      expect(codes(order).reverse().slice(0, 7)).toEqual([11, 12, 13, 41, 411, 412, 42]);
      expect(order.delivery.point.holdDate).toMatch(/^\d{4}-\d\d-\d\d$/);
      finals.push(order.status);
    }
    expect(finals.every((status) => status === 44 || status === 72)).toBe(true);
    expect(finals).toContain(44);
  });
});

describe('OpenAPI', () => {
  it('documents the order endpoints and the push extension', async () => {
    const response = await t.client().get('/openapi.json');
    expect(response.status).toBe(200);
    const paths = response.body.paths;
    for (const path of [
      '/v2/orders',
      '/v2/orders/{id}',
      '/v2/orders/confirm',
      '/v2/orders/cancel',
      '/v2/orders/check-rests',
      '/v2/orders/reservation/{id}',
      '/v2/tracking',
      '/v2/tracking/events/{companyId}',
    ])
      expect(paths[path], path).toBeDefined();
    expect(paths['/v2/tracking/events/{companyId}'].post.security).toEqual([]);
  });
});

describe('tracking record', () => {
  it('answers by id, orderId, trackNumber and cmsId', async () => {
    const { id, trackNumber } = await prepared(orderBody({ cmsId: 'TRACK-ME' }));
    for (const query of [`id=${id}`, `orderId=${id}`, `trackNumber=${trackNumber}`, 'cmsId=TRACK-ME']) {
      const response = await owner.get(`/v2/tracking?${query}`);
      expect(response.status, query).toBe(200);
      expect(response.body).toMatchObject({
        id,
        cmsId: 'TRACK-ME',
        brand: 'МойБренд',
        trackNumber,
        trackingUrl: expect.stringContaining(trackNumber),
        isPost: false,
        withCod: true,
        delivery: { type: 1, company: 'Пунктир', holdDays: expect.any(String), logo: expect.any(String) },
        address: null,
        point: { id: pointId, name: expect.any(String), address: expect.any(String), isDropOff: false },
      });
      expect(response.body.statusHistory.map((item: { code: number }) => item.code)).toEqual([13, 12, 11]);
    }
    expect((await owner.get('/v2/tracking')).status).toBe(400);
    expect((await owner.get('/v2/tracking?trackNumber=UNKNOWN')).status).toBe(404);
    expect((await t.client().get(`/v2/tracking?id=${id}`)).status).toBe(401);
  });
});

describe('for the documents area', () => {
  it('reads orders by id and marks stickers formed and acts, which the prepared-list filters see', async () => {
    const { id } = await prepared();
    const scope = {
      accountId: await accountOf(id),
      timeZone: 'Europe/Moscow',
      kind: 'account' as const,
      shopKeyShopId: null,
      employeeId: null,
    };
    const orders = await t.runtime.services.orders.getMany(scope, [id, 999999]);
    expect([...orders.keys()]).toEqual([id]);
    expect(orders.get(id)?.trackNumber).toMatch(/^[A-Z]{2}\d{11}$/);
    await t.runtime.services.orders.markDocuments(scope, [id], { stickerFormed: true });
    expect(
      (await owner.get(`/v2/orders?list=2&stickerFormed=1&wasInAct=0&search=${id}`)).body.map(
        (item: { id: number }) => item.id,
      ),
    ).toContain(id);
    await t.runtime.services.orders.markDocuments(scope, [id], { wasInAct: true });
    expect((await owner.get(`/v2/orders/${id}`)).body).toMatchObject({ stickerFormed: true, wasInAct: true });
    expect(
      (await owner.get(`/v2/orders?list=2&wasInAct=1&search=${id}`)).body.map((item: { id: number }) => item.id),
    ).toContain(id);
  });
});

async function accountOf(orderId: number): Promise<number> {
  const row = await t.runtime.database.db
    .selectFrom('orders')
    .select('account_id')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return row.account_id;
}

describe('other operations', () => {
  it('duplicates an order as a new draft, and back in the opposite direction', async () => {
    const source = (await owner.post('/v2/orders', orderBody({ cmsId: 'DUP-1', comment: 'copy me' }))).body.id;
    const copy = await owner.post('/v2/orders/duplicate', { ids: [source] });
    expect(copy.status).toBe(200);
    const newId = copy.body[0].newId;
    expect(copy.body).toEqual([{ id: source, newId }]);
    const [a, b] = [(await owner.get(`/v2/orders/${source}`)).body, (await owner.get(`/v2/orders/${newId}`)).body];
    expect(b).toMatchObject({
      status: 11,
      cmsId: 'DUP-1',
      comment: 'copy me',
      shopId,
      recipient: a.recipient,
      deliveryAddress: a.deliveryAddress,
      delivery: { company: a.delivery.company, point: { id: pointId } },
    });
    expect(b.statusHistory[0].description).toBe(`Copy of order ${source}`);

    const back = await owner.post('/v2/orders/duplicate-back', { ids: [source] });
    expect(back.status).toBe(200);
    const reversed = (await owner.get(`/v2/orders/${back.body[0].newId}`)).body;
    expect(reversed).toMatchObject({
      status: 11,
      shopId: null,
      recipient: { fullName: a.sender.fullName, phone: a.sender.phone },
      deliveryAddress: { city: { name: 'Москва' }, street: a.senderAddress.street },
      sender: { fullName: 'Светлана Котова', phone: '+79215556677' },
      senderAddress: { city: { name: 'Санкт-Петербург' }, street: 'Литейный проспект' },
      delivery: { type: 1, point: null },
      error: 'Choose a pickup point near the recipient (delivery.point.id).',
    });
  });

  it('packs and unpacks, refusing a second pack and after handover', async () => {
    const id = (await owner.post('/v2/orders', orderBody())).body.id;
    expect((await owner.post('/v2/orders/pack', { ids: [id] })).status).toBe(204);
    expect((await owner.get(`/v2/orders/${id}`)).body.isPacked).toBe(true);
    expect((await owner.post('/v2/orders/pack', { ids: [id] })).status).toBe(409);
    expect(
      (await owner.get(`/v2/orders?list=1&packed=1&search=${id}`)).body.map((item: { id: number }) => item.id),
    ).toContain(id);
    expect((await owner.post('/v2/orders/unpack', { ids: [id] })).status).toBe(204);
    expect((await owner.post('/v2/orders/unpack', { ids: [id] })).status).toBe(409);
    expect((await owner.post('/v2/orders/pack', { ids: [] })).status).toBe(400);
  });

  it('checks rests of drafts only: a fulfilment shop lacks everything until stock exists', async () => {
    const own = (await owner.post('/v2/orders', orderBody())).body.id;
    const ff = (
      await owner.post(
        '/v2/orders',
        orderBody({
          shopId: fulfilmentShopId,
          products: [{ name: 'Книга', vendorCode: 'BOOK-1', count: 2, weight: 0.5 }],
        }),
      )
    ).body.id;
    const ffConfirmed = (await owner.post('/v2/orders', orderBody({ shopId: fulfilmentShopId }))).body.id;
    expect((await owner.post('/v2/orders/confirm', { ids: [ffConfirmed], preOrder: true })).status).toBe(204);
    const response = await owner.post('/v2/orders/check-rests', { ids: [own, ff, ffConfirmed] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: ff, missingProducts: [{ id: null, name: 'Книга', vendorCode: 'BOOK-1', restCount: 0, missingCount: 2 }] },
    ]);
    expect((await owner.post('/v2/orders/check-rests', { ids: [own] })).body).toEqual([]);
    expect((await owner.post('/v2/orders/check-rests', { ids: [999999] })).status).toBe(404);
  });

  it('reserves goods of a fulfilment order (a preorder until stock arrives) and cancels the reserve', async () => {
    const own = (await owner.post('/v2/orders', orderBody())).body.id;
    expect((await owner.put(`/v2/orders/reservation/${own}`)).status).toBe(409);
    const ff = (await owner.post('/v2/orders', orderBody({ shopId: fulfilmentShopId }))).body.id;
    expect((await owner.put(`/v2/orders/reservation/${ff}`)).status).toBe(204);
    expect((await owner.get(`/v2/orders/${ff}`)).body.reservationStatus).toEqual({ key: 1, date: expect.any(String) });
    expect((await owner.get('/v2/orders?list=9')).body.map((item: { id: number }) => item.id)).toContain(ff);
    expect((await owner.put(`/v2/orders/reservation/${ff}`)).status).toBe(409);
    expect((await owner.put(`/v2/orders/reservation-cancel/${ff}`)).status).toBe(204);
    expect((await owner.get(`/v2/orders/${ff}`)).body.reservationStatus.key).toBe(3);
    expect((await owner.put(`/v2/orders/reservation-cancel/${ff}`)).status).toBe(409);
    expect((await owner.put('/v2/orders/reservation/999999')).status).toBe(404);
  });

  it('confirms a fulfilment order as a preorder without registering it', async () => {
    const ff = (await owner.post('/v2/orders', orderBody({ shopId: fulfilmentShopId }))).body.id;
    expect((await owner.post('/v2/orders/confirm', { ids: [ff], preOrder: true })).status).toBe(204);
    await worker.runDue();
    const order = (await owner.get(`/v2/orders/${ff}`)).body;
    expect(order).toMatchObject({ status: 12, trackNumber: null, reservationStatus: { key: 1 } });
    expect((await owner.post('/v2/orders/cancel', { ids: [ff] })).status).toBe(204);
    expect((await owner.get(`/v2/orders/${ff}`)).body.reservationStatus.key).toBe(3);
  });
});
