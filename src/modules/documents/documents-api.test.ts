/**
 * Documents through HTTP on a real database: stickers, handover acts and waybills, assembly
 * statements. Every PDF produced is opened with poppler and zbar (skipped, visibly, when absent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { pdfBarcodes, pdfInfo, pdfText, pdfToolsMissing, readZip } from '../../../test/support/pdf-tools.js';
import { orderingAccount, pickupPointIn, preparedOrder } from '../../../test/support/orders.js';
import type { JobWorker } from '../../platform/jobs.js';

const withTools = it.skipIf(pdfToolsMissing !== '');
const PAGE_POINTS: Record<1 | 2 | 3, [number, number]> = {
  1: [595.276, 841.89],
  2: [283.465, 425.197],
  3: [212.598, 340.157],
};

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let shopKey: ApiClient;
let shopId: number;
let otherShopId: number;
let warehouseId: number;
let pointId: number;
let worker: JobWorker;

beforeAll(async () => {
  t = await createTestApp();
  let key: string;
  ({
    owner,
    warehouseId,
    shopId,
    otherShopId,
    shopKey: key,
    pointId,
    worker,
  } = await orderingAccount(t, { name: 'Владелец', otherShopOwnWarehouse: true }));
  shopKey = owner.withToken(key);
  stranger = (await t.newAccount('Чужой')).client;
});
afterAll(async () => t.close());

function orderBody(overrides: Record<string, unknown> = {}) {
  return {
    shopId,
    cmsId: 'SITE-77',
    products: [
      {
        name: 'Книга «Война и мир»',
        vendorCode: 'BOOK-1',
        barcode: '4601234567893',
        priceDeclared: 800,
        priceCod: 900,
        count: 2,
        weight: 0.5,
        dimensions: { width: 15, height: 4, length: 22 },
      },
    ],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
    commentForAssembly: 'Упаковать в пупырчатую плёнку',
    ...overrides,
  };
}

/** A courier order of ТрансЛайн (company 5, carrier B: its handover counts boxes or pallets). */
const carrierBBody = (overrides: Record<string, unknown> = {}) =>
  orderBody({
    delivery: { company: { id: 5 }, type: 2 },
    recipient: { fullName: 'Пётр Ёлкин', phone: '+79215550000' },
    ...overrides,
  });

/** A post order of Национальная почта (company 6, carrier A: its handover counts bags). */
const carrierABody = (overrides: Record<string, unknown> = {}) =>
  orderBody({
    delivery: { company: { id: 6 }, type: 3 },
    deliveryAddress: {
      city: { countryCode: 'RU', name: 'Санкт-Петербург' },
      street: 'Невский проспект',
      house: '28',
      zipCode: '191186',
    },
    recipient: { fullName: 'Зоя Щербакова', phone: '+79215557788' },
    ...overrides,
  });

async function draft(client: ApiClient = owner, body: Record<string, unknown> = orderBody()): Promise<number> {
  const created = await client.post('/v2/orders', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

async function prepared(
  body: Record<string, unknown> = orderBody(),
  client: ApiClient = owner,
): Promise<{ id: number; trackNumber: string }> {
  return preparedOrder(client, worker, body);
}

/** The file behind a URL, fetched without a token as a browser would. */
async function download(url: string): Promise<{ status: number; bytes: Buffer; type: string }> {
  expect(url.startsWith('http://delivery.test/files/')).toBe(true);
  const response = await t.app.inject({ method: 'GET', url: url.slice('http://delivery.test'.length) });
  return {
    status: response.statusCode,
    bytes: response.rawPayload,
    type: String(response.headers['content-type'] ?? ''),
  };
}

const order = async (id: number) => (await owner.get(`/v2/orders/${id}`)).body;
const fields = (body: { errors: Array<{ field: string }> }) => body.errors.map((error) => error.field);

function expectPageSizes(sizes: Array<[number, number]>, expected: [number, number]): void {
  for (const [width, height] of sizes) {
    expect(width).toBeCloseTo(expected[0], 1);
    expect(height).toBeCloseTo(expected[1], 1);
  }
}

describe('POST /v2/orders/stickers', () => {
  it('answers one PDF per type, a ZIP of the three without type, marks stickerFormed, and lists the sets of today', async () => {
    const one = await prepared();
    const two = await prepared(
      orderBody({
        places: [{ weight: 0.6 }, { weight: 0.4 }],
        recipient: { fullName: 'Юлия Эдуардовна Ёлкина', phone: '+79215551122' },
      }),
    );
    expect((await order(one.id)).stickerFormed).toBe(false);

    const files: Record<number, string> = {};
    for (const type of [1, 2, 3] as const) {
      const response = await owner.post('/v2/orders/stickers', { ids: [one.id, two.id], type });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['file']);
      files[type] = response.body.file;
      const file = await download(response.body.file);
      expect(file.status).toBe(200);
      expect(file.type).toContain('application/pdf');
      expect(file.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    expect((await order(one.id)).stickerFormed).toBe(true);
    expect((await order(two.id)).stickerFormed).toBe(true);

    // a PHP plugin's form body (bracket keys, numeric strings) is the same request
    const form = await owner.post('/v2/orders/stickers', { ids: [one.id, two.id], type: 3 }, { form: true });
    expect(form.status).toBe(200);
    expect(form.body.file).toMatch(/\.pdf$/);

    const all = await owner.post('/v2/orders/stickers', { ids: [one.id, two.id] });
    expect(all.status).toBe(200);
    expect(all.body.file).toMatch(/\.zip$/);
    const zip = await download(all.body.file);
    expect(zip.status).toBe(200);
    const entries = readZip(zip.bytes);
    expect([...entries.keys()].sort()).toEqual(['stickers-100x150.pdf', 'stickers-75x120.pdf', 'stickers-a4.pdf']);
    for (const bytes of entries.values()) expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const sets = await owner.get('/v2/orders/stickers');
    expect(sets.status).toBe(200);
    const mine = sets.body.filter((set: { orderIds: number[] }) => set.orderIds.includes(one.id));
    expect(mine).toHaveLength(5);
    expect(mine[0]).toEqual({
      id: expect.any(Number),
      date: expect.any(String),
      deliveryCompanySticker: files[1],
      postSticker: null,
      stickers: [{ type: 1, file: files[1] }],
      orderIds: [one.id, two.id],
      format: 'pdf',
      dpi: null,
      status: 'ready',
      progress: { done: 3, total: 3 },
    });
    expect(mine[4].deliveryCompanySticker).toBe(all.body.file);
    expect(mine[4].stickers.map((item: { type: number }) => item.type)).toEqual([1, 2, 3]);
    for (const item of mine[4].stickers) expect((await download(item.file)).status).toBe(200);
    // a file URL is a capability: the token is not needed, a wrong name is 404
    const name = all.body.file.slice('http://delivery.test/files/'.length);
    expect(
      (await t.app.inject({ method: 'GET', url: `/files/${name.slice(0, 10)}${'A'.repeat(12)}.zip` })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/files/not-a-name.pdf' })).statusCode).toBe(404);
    // a set formed yesterday (account time zone) is not listed
    const accountId = (
      await t.runtime.database.db
        .selectFrom('orders')
        .select('account_id')
        .where('id', '=', one.id)
        .executeTakeFirstOrThrow()
    ).account_id;
    await t.runtime.database.db
      .insertInto('sticker_sets')
      .values({
        account_id: accountId,
        shop_id: shopId,
        format: 2,
        file_url: files[2],
        files: '[]',
        order_ids: JSON.stringify([one.id]),
        created_at: new Date(Date.now() - 2 * 86400_000).toISOString(),
      })
      .execute();
    expect(
      (await owner.get('/v2/orders/stickers')).body.filter((set: { orderIds: number[] }) =>
        set.orderIds.includes(one.id),
      ),
    ).toHaveLength(5);
    // another account sees none of them
    expect((await stranger.get('/v2/orders/stickers')).body).toEqual([]);
  });

  withTools(`PDFs have the pages, sizes, text and barcodes of each format${pdfToolsMissing}`, async () => {
    const one = await prepared();
    const two = await prepared(
      orderBody({
        places: [{ weight: 0.6 }, { weight: 0.4 }],
        recipient: { fullName: 'Юлия Эдуардовна Ёлкина', phone: '+79215551122' },
      }),
    );
    const labels = 3; // one place + two places
    for (const type of [1, 2, 3] as const) {
      const response = await owner.post('/v2/orders/stickers', { ids: [one.id, two.id], type });
      const bytes = (await download(response.body.file)).bytes;
      const info = pdfInfo(bytes);
      expect(info.pages, `type ${type}`).toBe(type === 1 ? 1 : labels);
      expectPageSizes(info.sizes, PAGE_POINTS[type]);
      const text = pdfText(bytes);
      for (const expected of [
        one.trackNumber,
        two.trackNumber,
        'Светлана Котова',
        'Юлия Эдуардовна Ёлкина',
        `Заказ № ${one.id}`,
        'SITE-77',
        'Пунктир',
        'МойБренд',
      ])
        expect(text, `type ${type}`).toContain(expected);
      // a thermal page per label; on the A4 sheet zbar reports identical symbols of one page once
      const expected =
        type === 1 ? [one.trackNumber, two.trackNumber] : [one.trackNumber, two.trackNumber, two.trackNumber];
      expect(pdfBarcodes(bytes).flat().sort()).toEqual(expected.sort());
    }
    const zip = readZip((await download((await owner.post('/v2/orders/stickers', { ids: [one.id] })).body.file)).bytes);
    expect(pdfInfo(zip.get('stickers-a4.pdf') as Buffer).sizes[0][0]).toBeCloseTo(PAGE_POINTS[1][0], 1);
    expect(pdfInfo(zip.get('stickers-100x150.pdf') as Buffer).sizes[0][0]).toBeCloseTo(PAGE_POINTS[2][0], 1);
    expect(pdfInfo(zip.get('stickers-75x120.pdf') as Buffer).sizes[0][0]).toBeCloseTo(PAGE_POINTS[3][0], 1);
    expect(pdfText(zip.get('stickers-75x120.pdf') as Buffer)).toContain(one.trackNumber);

    // a locker of a network named "Постамат 24": its name printed once, as the widget and the dashboard show it
    const locker = await prepared(
      orderBody({
        products: [{ name: 'Книга', priceDeclared: 800, priceCod: 0, count: 1, weight: 0.5 }],
        delivery: { company: { id: 2 }, type: 1, point: { id: pickupPointIn(t, 'Санкт-Петербург', 2) } },
      }),
    );
    const lockerSticker = await owner.post('/v2/orders/stickers', { ids: [locker.id], type: 2 });
    const lockerText = pdfText((await download(lockerSticker.body.file)).bytes).replace(/\s+/g, ' ');
    expect(lockerText).toMatch(/Пункт выдачи: Постамат 24 №\d+/);
    expect(lockerText).not.toContain('Постамат Постамат');
  });

  it('refuses bad input with field paths, and orders not Prepared with 409 naming each, forming nothing', async () => {
    const ready = await prepared();
    const before = (await owner.get('/v2/orders/stickers')).body.length;
    for (const [body, field] of [
      [{}, 'ids'],
      [{ ids: [] }, 'ids'],
      [{ ids: ['x'] }, 'ids[0]'],
      [{ ids: [ready.id], type: 4 }, 'type'],
    ] as const) {
      const response = await owner.post('/v2/orders/stickers', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(fields(response.body)).toContain(field);
    }
    const draftId = await draft();
    const canceled = await draft();
    expect((await owner.post('/v2/orders/cancel', { ids: [canceled] })).status).toBe(204);
    const refused = await owner.post('/v2/orders/stickers', { ids: [ready.id, draftId, canceled], type: 2 });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { id: draftId, message: expect.stringContaining('status 11') },
      { id: canceled, message: expect.stringContaining('status 10') },
    ]);
    expect((await order(ready.id)).stickerFormed).toBe(false);
    expect((await owner.get('/v2/orders/stickers')).body.length).toBe(before);
  });

  it("needs a token; another account gets 404, a shop key 403 on another shop's order", async () => {
    const mine = await prepared();
    const otherShop = await prepared(orderBody({ shopId: otherShopId }));
    expect((await t.client().post('/v2/orders/stickers', { ids: [mine.id] })).status).toBe(401);
    expect((await t.client().get('/v2/orders/stickers')).status).toBe(401);
    const foreign = await stranger.post('/v2/orders/stickers', { ids: [mine.id], type: 2 });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors).toEqual([{ id: mine.id, message: expect.any(String) }]);
    const reaching = await shopKey.post('/v2/orders/stickers', { ids: [mine.id, otherShop.id], type: 2 });
    expect(reaching.status).toBe(403);
    expect(reaching.body.errors).toEqual([{ id: otherShop.id, message: expect.stringContaining('another shop') }]);
    expect((await order(mine.id)).stickerFormed).toBe(false);
    const own = await shopKey.post('/v2/orders/stickers', { ids: [mine.id], type: 2 });
    expect(own.status).toBe(200);
    // the shop key lists its shop's sets only
    const listed = (await shopKey.get('/v2/orders/stickers')).body;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((set: { orderIds: number[] }) => !set.orderIds.includes(otherShop.id))).toBe(true);
  });
});

describe('waybills and acts', () => {
  it('says which carriers need counts of places', async () => {
    const plain = await prepared();
    const b = await prepared(carrierBBody());
    expect((await owner.post('/v2/orders/waybills/check-places-required', { ids: [plain.id] })).body).toEqual({
      carrierARequired: false,
      carrierBRequired: false,
    });
    expect((await owner.post('/v2/orders/waybills/check-places-required', { ids: [plain.id, b.id] })).body).toEqual({
      carrierARequired: false,
      carrierBRequired: true,
    });
    const a = await prepared(carrierABody());
    expect((await owner.post('/v2/orders/waybills/check-places-required', { ids: [a.id, plain.id] })).body).toEqual({
      carrierARequired: true,
      carrierBRequired: false,
    });
    expect((await owner.post('/v2/orders/waybills/check-places-required', { ids: [a.id, b.id] })).body).toEqual({
      carrierARequired: true,
      carrierBRequired: true,
    });
    // a draft of carrier B does not count: it cannot be handed over
    expect(
      (
        await owner.post('/v2/orders/waybills/check-places-required', {
          ids: [plain.id, await draft(owner, carrierBBody())],
        })
      ).body,
    ).toEqual({ carrierARequired: false, carrierBRequired: false });
    expect((await owner.post('/v2/orders/waybills/check-places-required', { ids: [] })).status).toBe(400);
    expect((await t.client().post('/v2/orders/waybills/check-places-required', { ids: [plain.id] })).status).toBe(401);
    expect((await stranger.post('/v2/orders/waybills/check-places-required', { ids: [plain.id] })).status).toBe(404);
  });

  it('forms one act per company and warehouse, a waybill where required, lists not Prepared orders in error, marks wasInAct, and lists the sets', async () => {
    const a1 = await prepared();
    const a2 = await prepared(orderBody({ recipient: { fullName: 'Анна Щукина', phone: '+79215553344' } }));
    const b = await prepared(carrierBBody());
    const draftId = await draft();

    const missingPlaces = await owner.post('/v2/orders/waybills', { date: '2026-11-23', ids: [a1.id, b.id] });
    expect(missingPlaces.status).toBe(400);
    expect(fields(missingPlaces.body)).toEqual(['carrierBPlaces']);
    expect((await order(a1.id)).wasInAct).toBe(false);

    const formed = await owner.post('/v2/orders/waybills', {
      date: '2026-11-23',
      ids: [a1.id, draftId, a2.id, b.id],
      carrierBPlaces: 3,
    });
    expect(formed.status).toBe(200);
    expect(formed.body.error).toEqual([{ orderId: draftId, message: expect.stringContaining('status 11') }]);
    expect(formed.body.success).toHaveLength(2);
    const actA = formed.body.success.find((item: { orderIds: number[] }) => item.orderIds.includes(a1.id));
    const actB = formed.body.success.find((item: { orderIds: number[] }) => item.orderIds.includes(b.id));
    expect(actA.orderIds).toEqual([a1.id, a2.id]);
    expect(actA.crossDockFile).toBeUndefined();
    expect(actB.crossDockFile).toEqual(expect.stringMatching(/^http:\/\/delivery\.test\/files\//));
    for (const id of [a1.id, a2.id, b.id]) expect((await order(id)).wasInAct).toBe(true);
    expect((await order(draftId)).wasInAct).toBe(false);
    for (const url of [actA.file, actB.file, actB.crossDockFile]) {
      const file = await download(url);
      expect(file.status).toBe(200);
      expect(file.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }

    const list = await owner.get(`/v2/orders/waybills?warehouseId=${warehouseId}&perPage=2`);
    expect(list.status).toBe(200);
    expect(list.headers['x-per-page']).toBe('2');
    const setA = list.body.find((set: { id: number }) => set.id === actA.id);
    const setB = list.body.find((set: { id: number }) => set.id === actB.id);
    expect(setA).toEqual({
      id: actA.id,
      date: '2026-11-23',
      company: 'Пунктир',
      countOrders: 2,
      file: actA.file,
      warehouse: { id: warehouseId, name: 'Склад на Складской', address: expect.stringContaining('Москва') },
    });
    expect(setA).not.toHaveProperty('crossDockFile');
    expect(setB).toMatchObject({
      company: 'ТрансЛайн',
      countOrders: 1,
      file: actB.file,
      crossDockFile: actB.crossDockFile,
    });
    expect((await owner.get('/v2/orders/waybills?warehouseId=999999')).body).toEqual([]);
    expect((await stranger.get('/v2/orders/waybills')).body).toEqual([]);
  });

  withTools(`acts and waybills carry the orders as text${pdfToolsMissing}`, async () => {
    const a = await prepared();
    const b = await prepared(carrierBBody());
    const post = await prepared(carrierABody());
    const formed = (
      await owner.post('/v2/orders/waybills', {
        date: '2026-11-24',
        ids: [a.id, b.id, post.id],
        carrierBPlaces: 2,
        carrierAPlaces: 5,
      })
    ).body;
    expect(formed.success).toHaveLength(3);
    const postSet = formed.success.find((item: { orderIds: number[] }) => item.orderIds.includes(post.id));
    const postWaybill = pdfText((await download(postSet.crossDockFile)).bytes);
    expect(postWaybill).toContain('Мешков: 5');
    expect(postWaybill).toContain('Зоя Щербакова');
    expect(postWaybill).toContain('Национальная почта');
    const act = pdfText((await download(formed.success[0].file)).bytes);
    expect(act).toContain(a.trackNumber);
    expect(act).toContain('Светлана Котова');
    expect(act).toContain('Пунктир');
    const waybillSet = formed.success.find((item: { orderIds: number[] }) => item.orderIds.includes(b.id));
    const waybill = (await download(waybillSet.crossDockFile)).bytes;
    expect(pdfInfo(waybill).pages).toBeGreaterThan(0);
    const text = pdfText(waybill);
    expect(text).toContain(b.trackNumber);
    expect(text).toContain('Пётр Ёлкин');
    expect(text).toContain('Коробов: 2');
  });

  it('refuses bad input with field paths and forms nothing', async () => {
    const a = await prepared();
    const before = Number((await owner.get('/v2/orders/waybills')).headers['x-total-count']);
    for (const [body, field] of [
      [{ ids: [a.id] }, 'date'],
      [{ date: '23.11.2026', ids: [a.id] }, 'date'],
      [{ date: '2026-11-23' }, 'ids'],
      [{ date: '2026-11-23', ids: [a.id], carrierBPlaces: 0 }, 'carrierBPlaces'],
    ] as const) {
      const response = await owner.post('/v2/orders/waybills', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(fields(response.body)).toContain(field);
    }
    expect(Number((await owner.get('/v2/orders/waybills')).headers['x-total-count'])).toBe(before);
    expect((await order(a.id)).wasInAct).toBe(false);
  });

  it("needs a token; another account's and another shop's orders are per-order errors", async () => {
    const mine = await prepared();
    const otherShop = await prepared(orderBody({ shopId: otherShopId }));
    expect((await t.client().post('/v2/orders/waybills', { date: '2026-11-23', ids: [mine.id] })).status).toBe(401);
    expect((await t.client().get('/v2/orders/waybills')).status).toBe(401);
    const foreign = await stranger.post('/v2/orders/waybills', { date: '2026-11-23', ids: [mine.id] });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual({
      success: [],
      error: [{ orderId: mine.id, message: `Order ${mine.id} was not found.` }],
    });
    const reaching = await shopKey.post('/v2/orders/waybills', { date: '2026-11-23', ids: [mine.id, otherShop.id] });
    expect(reaching.status).toBe(200);
    expect(reaching.body.error).toEqual([{ orderId: otherShop.id, message: expect.stringContaining('another shop') }]);
    expect(reaching.body.success.map((item: { orderIds: number[] }) => item.orderIds)).toEqual([[mine.id]]);
    expect((await order(otherShop.id)).wasInAct).toBe(false);
    const listed = (await shopKey.get('/v2/orders/waybills')).body;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((set: { warehouse: { id: number } }) => set.warehouse.id === warehouseId)).toBe(true);
  });
});

describe('POST /v2/orders/act-assembly', () => {
  it('answers one PDF statement of the orders', async () => {
    const a = await prepared();
    const d = await draft(
      owner,
      orderBody({
        products: [
          {
            name: 'Чайник электрический',
            vendorCode: 'KET-9',
            priceDeclared: 1500,
            count: 1,
            weight: 1.2,
            dimensions: { width: 20, height: 25, length: 20 },
          },
        ],
      }),
    );
    const response = await owner.post('/v2/orders/act-assembly', { ids: [a.id, d] });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['file']);
    const file = await download(response.body.file);
    expect(file.status).toBe(200);
    expect(file.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  withTools(`lists the goods to pick, vendor codes, barcodes, counts and comments${pdfToolsMissing}`, async () => {
    await owner.post('/v2/boxes', {
      name: 'Коробка для чайников',
      dimensions: { width: 30, height: 30, length: 40 },
      weight: 0.3,
    });
    const boxed = await draft(
      owner,
      orderBody({
        places: [
          { weight: 1.5, dimensions: { width: 40, height: 30, length: 30 } },
          { weight: 1, dimensions: { width: 15, height: 10, length: 20 } },
        ],
      }),
    );
    const boxedText = pdfText(
      (await download((await owner.post('/v2/orders/act-assembly', { ids: [boxed] })).body.file)).bytes,
    );
    expect(boxedText).toContain('Коробка для чайников');
    expect(boxedText).toMatch(/Коробка 20×15×10 см/);
    const a = await prepared();
    const d = await draft(
      owner,
      orderBody({
        commentForAssembly: null,
        products: [
          {
            name: 'Чайник электрический',
            vendorCode: 'KET-9',
            priceDeclared: 1500,
            count: 1,
            weight: 1.2,
            dimensions: { width: 20, height: 25, length: 20 },
          },
        ],
      }),
    );
    const bytes = (await download((await owner.post('/v2/orders/act-assembly', { ids: [a.id, d] })).body.file)).bytes;
    expect(pdfInfo(bytes).sizes[0][0]).toBeCloseTo(595.276, 1);
    const text = pdfText(bytes);
    for (const expected of [
      'Книга «Война и мир»',
      'BOOK-1',
      '4601234567893',
      'Чайник электрический',
      'KET-9',
      'Упаковать в пупырчатую плёнку',
      'Светлана Котова',
      String(a.id),
      String(d),
    ])
      expect(text).toContain(expected);
  });

  it('refuses bad input; needs a token; 404 another account, 403 another shop', async () => {
    const mine = await prepared();
    const otherShop = await draft(owner, orderBody({ shopId: otherShopId }));
    expect(fields((await owner.post('/v2/orders/act-assembly', { ids: [] })).body)).toContain('ids');
    expect((await owner.post('/v2/orders/act-assembly', { ids: [0] })).status).toBe(400);
    const canceled = await draft();
    expect((await owner.post('/v2/orders/cancel', { ids: [canceled] })).status).toBe(204);
    const refused = await owner.post('/v2/orders/act-assembly', { ids: [mine.id, canceled] });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([{ id: canceled, message: expect.stringContaining('canceled') }]);
    expect((await t.client().post('/v2/orders/act-assembly', { ids: [mine.id] })).status).toBe(401);
    expect((await stranger.post('/v2/orders/act-assembly', { ids: [mine.id] })).status).toBe(404);
    const reaching = await shopKey.post('/v2/orders/act-assembly', { ids: [mine.id, otherShop] });
    expect(reaching.status).toBe(403);
    expect(reaching.body.errors).toEqual([{ id: otherShop, message: expect.stringContaining('another shop') }]);
    expect((await shopKey.post('/v2/orders/act-assembly', { ids: [mine.id] })).status).toBe(200);
  });
});
