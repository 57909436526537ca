import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../platform/clock.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { startFakeCarrier, type FakeCarrier } from '../../../test/support/fake-carrier.js';
import { nextWorkday, shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import {
  dropOffPointOf,
  orderBody,
  orderingAccount,
  preparedOrder,
  type OrderingAccount,
} from '../../../test/support/orders.js';
import { pdfBarcodes, pdfText, pdfToolsMissing } from '../../../test/support/pdf-tools.js';
import { imageBarcodes, parseZpl, renderZpl, zbarMissing } from '../../../test/support/zpl-tools.js';

/** The next Monday-to-Friday day after today in Moscow (the test warehouses work on weekdays). */

function nextSaturday(): string {
  let day = addDays(todayIn('Europe/Moscow'), 1);
  while (new Date(`${day}T00:00:00Z`).getUTCDay() !== 6) day = addDays(day, 1);
  return day;
}

/** Far enough after the pickup day's interval that the simulated courier has come. */
const afterDay = (date: string) => new Date(`${date}T23:00:00+03:00`);

const REMOTE = 211;

let t: TestApp;
let a: OrderingAccount;
let carrier: FakeCarrier;
let remoteState: 'scheduled' | 'done' | 'canceled' = 'scheduled';
const DAY = nextWorkday();

beforeAll(async () => {
  t = await createTestApp({ env: { PICKUP_SIMULATION_SECONDS: '0', SIMULATION_STEP_SECONDS: '60' } });
  a = await orderingAccount(t, { otherShopOwnWarehouse: true });
  t.runtime.services.pickups.registerJobs(a.worker);
  carrier = await startFakeCarrier({ pickupState: () => remoteState });
  t.runtime.services.reference.registry.add({
    driver: 'http',
    deliveryTypes: [2],
    coverage: { minPopulation: 0 },
    id: REMOTE,
    code: 'remote-pickup',
    name: 'Удалённый курьер',
    baseUrl: carrier.baseUrl,
    pickup: {
      dropOff: false,
      direct: true,
      pricePickup: 100,
      pickupPointRequired: false,
      countFree: 0,
      commentAvailable: true,
    },
  });
});

afterAll(async () => {
  await carrier.close();
  await t.close();
});

const pickupBody = (overrides: Record<string, unknown> = {}) => ({
  warehouseId: a.warehouseId,
  companyId: 1,
  type: 4,
  date: DAY,
  ...overrides,
});

describe('GET /v2/pickups/companies', () => {
  it('answers from the same data as GET /v2/warehouses/shipment, with price, countFree and commentAvailable', async () => {
    const direct = await a.owner.get(`/v2/pickups/companies?warehouseId=${a.warehouseId}&type=4`);
    expect(direct.status).toBe(200);
    const shipment = (
      await a.owner.get(
        '/v2/warehouses/shipment?countryCode=RU&region=Москва&fias=0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
      )
    ).body;
    expect(direct.body.map((item: { id: number }) => item.id)).toEqual(
      shipment['4'].companies.map((item: { id: number }) => item.id),
    );
    expect(direct.body.find((item: { id: number }) => item.id === 1)).toEqual({
      id: 1,
      name: 'Пунктир',
      price: 300,
      countFree: 5,
      commentAvailable: true,
    });
    expect(direct.body.find((item: { id: number }) => item.id === 4)).toMatchObject({ commentAvailable: false });
    const consolidated = await a.owner.get(`/v2/pickups/companies?warehouseId=${a.warehouseId}&type=3`);
    expect(consolidated.body.map((item: { id: number }) => item.id)).toEqual(
      shipment['3'].companies.map((item: { id: number }) => item.id),
    );
    expect(consolidated.body[0]).toMatchObject({
      price: shipment['3'].minPrice,
      countFree: shipment['3'].countForFree,
      commentAvailable: true,
    });
  });

  it('refuses bad input, other accounts and shop keys outside their shop', async () => {
    const bad = await a.owner.get(`/v2/pickups/companies?warehouseId=${a.warehouseId}&type=2`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'type' }] });
    expect((await a.owner.get('/v2/pickups/companies?type=4')).body.errors[0].field).toBe('warehouseId');
    expect((await t.client().get(`/v2/pickups/companies?warehouseId=${a.warehouseId}&type=4`)).status).toBe(401);
    const other = await orderingAccount(t, { name: 'Other' });
    expect((await other.owner.get(`/v2/pickups/companies?warehouseId=${a.warehouseId}&type=4`)).status).toBe(404);
    const otherWarehouse = (await a.owner.get(`/v2/shops/${a.otherShopId}`)).body.warehouse.id;
    const byKey = await a.owner.withToken(a.shopKey).get(`/v2/pickups/companies?warehouseId=${otherWarehouse}&type=4`);
    expect(byKey.status).toBe(403);
    expect(byKey.body.logId).toEqual(expect.any(String));
    expect(
      (await a.owner.withToken(a.shopKey).get(`/v2/pickups/companies?warehouseId=${a.warehouseId}&type=4`)).status,
    ).toBe(200);
  });
});

describe('POST /v2/pickups: refusals', () => {
  it('refuses a past date, a day off, a holiday, a company that does not serve, a comment nobody reads, a bad weight; nothing is written', async () => {
    const holiday = nextWorkday(DAY);
    const warehouseId = (
      await a.owner.post('/v2/warehouses', warehouseBody({ name: 'С праздником', holidays: [holiday] }))
    ).body.id;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ date: addDays(todayIn('Europe/Moscow'), -1) }, 'date'],
      [{ date: nextSaturday() }, 'date'],
      [{ warehouseId, date: holiday }, 'date'],
      [{ companyId: 2 }, 'companyId'],
      [{ companyId: 4, comment: 'Позвоните за час' }, 'comment'],
      [{ weight: 0 }, 'weight'],
      [{ weight: 1.0005 }, 'weight'],
      [{ type: 2 }, 'type'],
    ];
    for (const [overrides, field] of cases) {
      const response = await a.owner.post('/v2/pickups', pickupBody(overrides));
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      expect(response.body.message).toEqual(expect.any(String));
    }
    const listed = await a.owner.get('/v2/pickups');
    expect(listed.headers['x-total-count']).toBe('0');
  });

  it("answers 401 without a token, 404 for another account's warehouse, 403 for a shop key outside its shop", async () => {
    expect((await t.client().post('/v2/pickups', pickupBody())).status).toBe(401);
    const other = await orderingAccount(t, { name: 'Stranger' });
    expect((await other.owner.post('/v2/pickups', pickupBody())).status).toBe(404);
    const otherWarehouse = (await a.owner.get(`/v2/shops/${a.otherShopId}`)).body.warehouse.id;
    expect(
      (await a.owner.withToken(a.shopKey).post('/v2/pickups', pickupBody({ warehouseId: otherWarehouse }))).status,
    ).toBe(403);
    expect((await a.owner.get('/v2/pickups')).headers['x-total-count']).toBe('0');
  });

  it('refuses an order that would wait for a pickup on a day the warehouse hands nothing over; nothing is written', async () => {
    const before = (await a.owner.get('/v2/orders?list=0')).headers['x-total-count'];
    const refused = await a.owner.post(
      '/v2/orders',
      orderBody(a, { cmsId: 'SAT-1', pickup: { type: 4, date: nextSaturday() } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'validation_failed',
      message: expect.any(String),
      errors: [{ field: 'pickup.date' }],
    });
    expect((await a.owner.get('/v2/orders?list=0')).headers['x-total-count']).toBe(before);
  });
});

describe('GET /v2/orders/shipment with a shop', () => {
  it("skips the shop warehouse's holidays for a direct shipment (4), the days an order waiting for a pickup is refused", async () => {
    const url = `/v2/orders/shipment?region=${encodeURIComponent('Москва')}&companyId=1&pickupType=4`;
    const days = (options: Array<{ pickupDate: { from: string } }>) =>
      options.map((option) => option.pickupDate.from.slice(0, 10));
    const plain = days((await a.owner.get(url)).body);
    const warehouseId = (
      await a.owner.post('/v2/warehouses', warehouseBody({ name: 'Склад с отгулом', holidays: [plain[0]] }))
    ).body.id;
    const shopId = (await a.owner.post('/v2/shops', shopBody(warehouseId, { name: 'Магазин с отгулом' }))).body.id;
    const withShop = days((await a.owner.get(url, { headers: { 'shop-id': String(shopId) } })).body);
    expect(withShop).toHaveLength(3);
    expect(withShop).not.toContain(plain[0]);
    expect(withShop.slice(0, 2)).toEqual(plain.slice(1));
    // a drop-off (1) does not wait for the warehouse's courier
    expect(
      days(
        (await a.owner.get(url.replace('pickupType=4', 'pickupType=1'), { headers: { 'shop-id': String(shopId) } }))
          .body,
      )[0],
    ).toBe(plain[0]);
    const refused = await a.owner.post(
      '/v2/orders',
      orderBody(a, { shopId, cmsId: 'HOL-1', pickup: { type: 4, date: plain[0] } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((error: { field: string }) => error.field)).toContain('pickup.date');
  });
});

describe('pickups of another warehouse, account or caller', () => {
  it("keeps a shop key to its shop's warehouse (403, nothing changed), another account to 404, and asks for a token (401)", async () => {
    const otherWarehouse = (await a.owner.get(`/v2/shops/${a.otherShopId}`)).body.warehouse.id;
    const created = await a.owner.post(
      '/v2/pickups',
      pickupBody({
        warehouseId: otherWarehouse,
        companyId: 3,
        date: nextWorkday(nextWorkday(nextWorkday(nextWorkday(nextWorkday(DAY))))),
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const byKey = a.owner.withToken(a.shopKey);
    expect((await byKey.get(`/v2/pickups/${id}`)).status).toBe(403);
    expect((await byKey.post('/v2/pickups/cancel', { id })).status).toBe(403);
    expect((await byKey.get('/v2/pickups?perPage=1000')).body.map((pickup: { id: number }) => pickup.id)).not.toContain(
      id,
    );
    const stranger = await t.newAccount('Pickup stranger');
    expect((await stranger.client.post('/v2/pickups/cancel', { id })).status).toBe(404);
    expect((await stranger.client.get('/v2/pickups')).headers['x-total-count']).toBe('0');
    const anonymous = t.client();
    expect((await anonymous.get('/v2/pickups')).status).toBe(401);
    expect((await anonymous.get(`/v2/pickups/${id}`)).status).toBe(401);
    expect((await anonymous.post('/v2/pickups/cancel', { id })).status).toBe(401);
    const bad = await a.owner.post('/v2/pickups/cancel', {});
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'id' }] });
    // none of these moved it
    expect((await a.owner.get(`/v2/pickups/${id}`)).body).toMatchObject({ status: 1, statusHistory: [{ code: 1 }] });
    expect((await a.owner.post('/v2/pickups/cancel', { id })).status).toBe(204);
  });
});

describe('the same pickup twice', () => {
  it('gives exactly one 201 to 20 identical concurrent requests; a canceled one frees the day', async () => {
    const body = pickupBody({ date: nextWorkday(nextWorkday(DAY)), companyId: 3 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => a.owner.post('/v2/pickups', body)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(answers.find((answer) => answer.status === 409)?.body.code).toBe('pickup_exists');
    const id = answers.find((answer) => answer.status === 201)?.body.id as number;
    expect((await a.owner.post('/v2/pickups/cancel', { id })).status).toBe(204);
    // form-encoded, as PHP plugins send it
    const again = await a.owner.post('/v2/pickups', { ...body, weight: '2.5' }, { form: true });
    expect(again.status).toBe(201);
    expect((await a.owner.get(`/v2/pickups/${again.body.id}`)).body).toMatchObject({
      weight: 2.5,
      status: 1,
      companyName: 'Коробейник',
      countOrders: 0,
      file: null,
    });
  });
});

describe("a pickup's life with a built-in company", () => {
  it('New -> Scheduled -> Done: the orders of that day wait at 13, are handed over (14) and go on', async () => {
    const collected = [
      await preparedOrder(a.owner, a.worker, orderBody(a, { cmsId: 'P-1', pickup: { type: 4, date: DAY } })),
      await preparedOrder(a.owner, a.worker, orderBody(a, { cmsId: 'P-2', pickup: { type: 4, date: DAY } })),
    ];
    const dropped = await preparedOrder(
      a.owner,
      a.worker,
      orderBody(a, { cmsId: 'P-3', pickup: { pointId: dropOffPointOf(t, 1), date: DAY } }),
    );
    const created = await a.owner.post('/v2/pickups', pickupBody({ comment: 'Позвоните за час' }));
    expect(created.status).toBe(201);
    const id = created.body.id as number;

    const fresh = (await a.owner.get(`/v2/pickups/${id}`)).body;
    expect(fresh).toMatchObject({
      status: 1,
      type: 4,
      countOrders: 2,
      price: 300,
      weight: 1,
      comment: 'Позвоните за час',
      companyName: 'Пунктир',
      warehouse: { id: a.warehouseId, name: 'Склад на Складской' },
      number: null,
      error: null,
    });
    expect(fresh.orderIds).toEqual(collected.map((order) => order.id));
    expect(fresh.file).toMatch(/^http:\/\/delivery\.test\/files\/.+\.pdf$/);

    await a.worker.runDue();
    const scheduled = (await a.owner.get(`/v2/pickups/${id}`)).body;
    expect(scheduled).toMatchObject({
      status: 2,
      number: `PT-P${String(id).padStart(8, '0')}`,
      time: { from: '09:00', to: '18:00' },
    });
    expect(scheduled.statusHistory.map((item: { code: number }) => item.code)).toEqual([2, 1]);
    for (const order of collected) expect((await a.owner.get(`/v2/orders/${order.id}`)).body.status).toBe(13);

    await a.worker.runDue(afterDay(DAY));
    const done = (await a.owner.get(`/v2/pickups/${id}`)).body;
    expect(done).toMatchObject({ status: 3, countOrders: 2, orderIds: collected.map((order) => order.id) });
    expect(done.statusHistory.map((item: { name: string }) => item.name)).toEqual(['Done', 'Scheduled', 'New']);
    for (const order of collected) {
      const codes = (await a.owner.get(`/v2/orders/${order.id}`)).body.statusHistory
        .map((item: { code: number }) => item.code)
        .reverse();
      expect(codes.slice(0, 5)).toEqual([11, 12, 13, 14, 41]);
    }
    // the price is fixed when Done, and the period's bill charges it
    expect(done.price).toBe(300);
    const today = todayIn('Europe/Moscow');
    expect(
      await t.runtime.services.billing.closePeriod(
        { accountId: a.accountId, start: today, end: addDays(today, 1) },
        new Date(),
      ),
    ).toBe(true);
    const bill = (await a.owner.get('/v2/reports/bill')).body[0];
    // every move is an event of the outbox (webhooks read it), and so is the bill
    const events = (await a.owner.get('/v2/events?afterId=0&limit=1000&types=pickup.status_changed,bill.issued'))
      .body as Array<{
      type: string;
      statusFrom: number;
      statusTo: number;
      orderId: number;
      shopId: number | null;
      payload: { pickupId?: number; billId?: number; sum?: number };
    }>;
    expect(
      events
        .filter((event) => event.payload.pickupId === id)
        .map((event) => [event.type, event.statusFrom, event.statusTo]),
    ).toEqual([
      ['pickup.status_changed', 1, 2],
      ['pickup.status_changed', 2, 3],
    ]);
    expect(events.filter((event) => event.type === 'bill.issued')).toMatchObject([
      { orderId: 0, shopId: null, payload: { billId: bill.id, sum: bill.sum } },
    ]);
    if (!pdfToolsMissing) {
      const pdf = await t.app.inject({
        method: 'GET',
        url: (bill.file as string).slice('http://delivery.test'.length),
      });
      expect(pdfText(pdf.rawPayload).replace(/\s+/g, ' ')).toContain(
        `Забор груза ${id} (${done.number}) ${DAY}, Пунктир, заказов: 2`,
      );
    }
    // the drop-off order was never the pickup's business: its journey went on after registration
    expect(
      (await a.owner.get(`/v2/orders/${dropped.id}`)).body.statusHistory.map((item: { code: number }) => item.code),
    ).not.toContain(14);
    expect((await a.owner.post('/v2/pickups/cancel', { id })).status).toBe(409);
  });

  it.skipIf(pdfToolsMissing)(
    `forms the handover act: orders, track numbers as barcodes, signatures${pdfToolsMissing}`,
    async () => {
      const day = nextWorkday(nextWorkday(nextWorkday(DAY)));
      const orders = [
        await preparedOrder(a.owner, a.worker, orderBody(a, { cmsId: 'ACT-1', pickup: { type: 4, date: day } })),
        await preparedOrder(
          a.owner,
          a.worker,
          orderBody(a, { cmsId: 'ACT-2', pickup: { type: 4, date: day }, dimensions: { places: 2 } }),
        ),
      ];
      const id = (await a.owner.post('/v2/pickups', pickupBody({ date: day }))).body.id;
      const file = (await a.owner.get(`/v2/pickups/${id}`)).body.file as string;
      const pdf = await t.app.inject({ method: 'GET', url: file.slice('http://delivery.test'.length) });
      expect(pdf.statusCode).toBe(200);
      const text = pdfText(pdf.rawPayload);
      for (const order of orders) expect(text).toContain(order.trackNumber);
      expect(text).toContain('ACT-1');
      expect(text).toContain('Всего передано заказов: 2, мест: 3');
      expect(text).toContain('Сдал (отправитель)');
      expect(text).toContain('Принял (курьер)');
      expect(pdfBarcodes(pdf.rawPayload).flat()).toEqual(
        expect.arrayContaining(orders.map((order) => order.trackNumber)),
      );
      expect((await a.owner.post('/v2/pickups/cancel', { id })).status).toBe(204);
    },
  );

  it.skipIf(zbarMissing)(
    `gives the act's barcodes for a thermal printer, in ZPL or PNG; refuses bad input, other accounts and shop keys outside their shop${zbarMissing}`,
    async () => {
      const day = nextWorkday(nextWorkday(nextWorkday(nextWorkday(DAY))));
      const orders = [
        await preparedOrder(a.owner, a.worker, orderBody(a, { cmsId: 'THERM-1', pickup: { type: 4, date: day } })),
        await preparedOrder(a.owner, a.worker, orderBody(a, { cmsId: 'THERM-2', pickup: { type: 4, date: day } })),
      ];
      const id = (await a.owner.post('/v2/pickups', pickupBody({ date: day }))).body.id;
      const download = async (url: string) =>
        (await t.app.inject({ method: 'GET', url: url.slice('http://delivery.test'.length) })).rawPayload;
      const zpl = await a.owner.post(`/v2/pickups/${id}/act-labels`, {});
      expect(zpl.status, JSON.stringify(zpl.body)).toBe(200);
      expect(zpl.body.file).toMatch(/\.zpl$/);
      const text = (await download(zpl.body.file)).toString('utf8');
      const labels = parseZpl(text);
      expect(labels.map((label) => [label.width, label.height])).toEqual([[800, 1200]]);
      expect(labels[0].code128).toEqual(orders.map((order) => order.trackNumber));
      const [rendered] = await renderZpl(text, 100, 150, 8);
      expect(imageBarcodes(rendered)).toEqual(orders.map((order) => `CODE-128:${order.trackNumber}`).sort());
      const png = await a.owner.post(`/v2/pickups/${id}/act-labels`, { format: 'png', dpi: 300 });
      expect(png.body.file).toMatch(/\.png$/);
      expect(imageBarcodes(await download(png.body.file))).toEqual(
        orders.map((order) => `CODE-128:${order.trackNumber}`).sort(),
      );

      const bad = await a.owner.post(`/v2/pickups/${id}/act-labels`, { format: 'pdf', dpi: 100 });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((error: { field: string }) => error.field)).toEqual(
        expect.arrayContaining(['format', 'dpi']),
      );
      expect((await t.client().post(`/v2/pickups/${id}/act-labels`, {})).status).toBe(401);
      expect(
        (await (await orderingAccount(t, { name: 'Чужой склад' })).owner.post(`/v2/pickups/${id}/act-labels`, {}))
          .status,
      ).toBe(404);
      const otherKey = (await a.owner.get(`/v2/shops/${a.otherShopId}`)).body.apiKey as string;
      expect((await a.owner.withToken(otherKey).post(`/v2/pickups/${id}/act-labels`, {})).status).toBe(403);
      expect((await a.owner.post('/v2/pickups/cancel', { id })).status).toBe(204);
    },
  );
});

describe('a pickup with a company reached over HTTP', () => {
  it('is booked over HTTP, then Done when the company says the courier collected', async () => {
    const day = nextWorkday(nextWorkday(DAY));
    const id = (
      await a.owner.post('/v2/pickups', pickupBody({ companyId: REMOTE, date: day, comment: 'Код домофона 12' }))
    ).body.id;
    await a.worker.runDue();
    expect((await a.owner.get(`/v2/pickups/${id}`)).body).toMatchObject({
      status: 2,
      number: `RP-${id}`,
      time: { from: '11:00', to: '15:00' },
    });
    expect(carrier.pickupBookings.at(-1)).toMatchObject({
      pickupId: id,
      type: 4,
      date: day,
      comment: 'Код домофона 12',
      hours: { from: '09:00', to: '18:00' },
    });
    // asked from the start of the interval (11:00 Moscow), then every TRACKING_POLL_SECONDS (300)
    const intervalStart = new Date(`${day}T11:00:00+03:00`).getTime();
    remoteState = 'scheduled';
    await a.worker.runDue(new Date(intervalStart + 60_000));
    expect((await a.owner.get(`/v2/pickups/${id}`)).body.status).toBe(2);
    remoteState = 'done';
    await a.worker.runDue(new Date(intervalStart + 400_000));
    expect((await a.owner.get(`/v2/pickups/${id}`)).body.status).toBe(3);
  });

  it("is Error with the company's reason when it refuses", async () => {
    const refusing = await startFakeCarrier({ pickupRefusal: 'No courier on that day' });
    t.runtime.services.reference.registry.add({
      driver: 'http',
      deliveryTypes: [2],
      coverage: { minPopulation: 0 },
      id: REMOTE + 1,
      code: 'refusing',
      name: 'Отказник',
      baseUrl: refusing.baseUrl,
      pickup: { dropOff: false, direct: true, pricePickup: 0, pickupPointRequired: false },
    });
    try {
      const id = (await a.owner.post('/v2/pickups', pickupBody({ companyId: REMOTE + 1 }))).body.id;
      await a.worker.runDue();
      const pickup = (await a.owner.get(`/v2/pickups/${id}`)).body;
      expect(pickup).toMatchObject({
        status: 5,
        error: 'The delivery company refused: No courier on that day',
        number: null,
      });
      expect((await a.owner.post('/v2/pickups/cancel', { id })).status).toBe(409);
    } finally {
      await refusing.close();
    }
  });

  it("is canceled from Scheduled with the company too; another account's pickup is 404", async () => {
    const day = nextWorkday(nextWorkday(nextWorkday(nextWorkday(DAY))));
    const id = (await a.owner.post('/v2/pickups', pickupBody({ companyId: REMOTE, date: day }))).body.id;
    await a.worker.runDue();
    const other = await t.newAccount('Other pickups');
    expect((await other.client.post('/v2/pickups/cancel', { id })).status).toBe(404);
    expect((await other.client.get(`/v2/pickups/${id}`)).status).toBe(404);
    expect((await a.owner.post('/v2/pickups/cancel', { id: 'x' })).body.errors[0].field).toBe('id');
    expect((await a.owner.post('/v2/pickups/cancel', { id })).status).toBe(204);
    await a.worker.runDue();
    expect(carrier.pickupCancels).toContain(`RP-${id}`);
    expect((await a.owner.get(`/v2/pickups/${id}`)).body).toMatchObject({ status: 4, error: null });
    expect((await a.owner.post('/v2/pickups/cancel', { id })).status).toBe(409);
  });
});

describe('GET /v2/pickups', () => {
  it('lists current ones by default and done or canceled ones before today with archive=1, with paging and the full warehouse', async () => {
    const current = await a.owner.get('/v2/pickups?perPage=2');
    expect(current.status).toBe(200);
    expect(current.body).toHaveLength(2);
    expect(Number(current.headers['x-total-count'])).toBeGreaterThan(2);
    expect(current.body[0].warehouse).toMatchObject({
      id: a.warehouseId,
      schedule: expect.any(Array),
      address: { city: { name: 'Москва' } },
    });
    expect((await a.owner.get('/v2/pickups?archive=1')).headers['x-total-count']).toBe('0');
    // a canceled pickup of a past day (written as time would leave it)
    const past = current.body.find((pickup: { status: number }) => pickup.status === 4) ?? current.body[0];
    await t.runtime.database.db
      .updateTable('pickups')
      .set({ date: '2020-01-06', status: 4 })
      .where('id', '=', past.id)
      .execute();
    const archive = await a.owner.get('/v2/pickups?archive=1');
    expect(archive.body.map((pickup: { id: number }) => pickup.id)).toEqual([past.id]);
    // a refused (Error) pickup of a past day is over too: nothing can be done with it any more
    const failed = (await a.owner.get('/v2/pickups?perPage=1000')).body.find(
      (pickup: { status: number }) => pickup.status === 5,
    );
    expect(failed).toBeDefined();
    await t.runtime.database.db
      .updateTable('pickups')
      .set({ date: '2020-01-07' })
      .where('id', '=', failed.id)
      .execute();
    expect((await a.owner.get('/v2/pickups?archive=1')).body.map((pickup: { id: number }) => pickup.id)).toEqual(
      [failed.id, past.id].sort((x, y) => y - x),
    );
    expect(
      (await a.owner.get('/v2/pickups?perPage=1000')).body.map((pickup: { id: number }) => pickup.id),
    ).not.toContain(failed.id);
    expect((await a.owner.get('/v2/pickups?archive=3')).status).toBe(400);
    // a shop key sees its own shop's warehouse's pickups
    const byKey = await a.owner.withToken(a.shopKey).get('/v2/pickups?perPage=1000');
    expect(byKey.status).toBe(200);
    expect(byKey.body.every((pickup: { warehouse: { id: number } }) => pickup.warehouse.id === a.warehouseId)).toBe(
      true,
    );
  });
});
