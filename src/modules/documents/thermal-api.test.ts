/**
 * Thermal stickers through HTTP on a real database: `format` zpl and png with
 * `dpi`, the warehouse's label printer setting, large sets made by a job (STICKER_SYNC_LABELS
 * is 3 here) whose URL answers 202 until written, bad input and security.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { readZip } from '../../../test/support/pdf-tools.js';
import { orderBody as baseOrderBody, orderingAccount, preparedOrder } from '../../../test/support/orders.js';
import { imageBarcodes, parseZpl, pngDots, zbarMissing } from '../../../test/support/zpl-tools.js';
import { JobWorker } from '../../platform/jobs.js';

const withZbar = it.skipIf(zbarMissing !== '');

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let shopKey: ApiClient;
let shopId: number;
let otherShopId: number;
let warehouseId: number;
let pointId: number;
let orderWorker: JobWorker;
let stickerWorker: JobWorker;

beforeAll(async () => {
  t = await createTestApp({ env: { STICKER_SYNC_LABELS: '3' } });
  let key: string;
  ({
    owner,
    warehouseId,
    shopId,
    otherShopId,
    shopKey: key,
    pointId,
    worker: orderWorker,
  } = await orderingAccount(t, { name: 'Склад', otherShopOwnWarehouse: true }));
  shopKey = owner.withToken(key);
  stranger = (await t.newAccount('Чужой')).client;
  stickerWorker = new JobWorker(t.runtime.services.jobs, { error: () => undefined, warn: () => undefined });
  t.runtime.services.documents.registerJobs(stickerWorker);
});
afterAll(async () => t.close());

const orderBody = (overrides: Record<string, unknown> = {}) => baseOrderBody({ shopId, pointId }, overrides);
const prepared = (body: Record<string, unknown> = orderBody()) => preparedOrder(owner, orderWorker, body);

async function download(
  url: string,
): Promise<{ status: number; bytes: Buffer; type: string; retryAfter: string | undefined }> {
  const response = await t.app.inject({ method: 'GET', url: url.slice('http://delivery.test'.length) });
  return {
    status: response.statusCode,
    bytes: response.rawPayload,
    type: String(response.headers['content-type'] ?? ''),
    retryAfter: response.headers['retry-after'] as string | undefined,
  };
}

const stickerFormed = async (id: number) => (await owner.get(`/v2/orders/${id}`)).body.stickerFormed as boolean;
const setsOf = async (client: ApiClient, id: number) =>
  (
    (await client.get('/v2/orders/stickers')).body as Array<{
      orderIds: number[];
      format: string;
      dpi: number | null;
      status: string;
      progress: { done: number; total: number };
      stickers: Array<{ type: number; file: string }>;
    }>
  ).filter((set) => set.orderIds.includes(id));

describe('POST /v2/orders/stickers with format zpl and png', () => {
  it('answers one ZPL stream of the thermal type at the resolution asked, the barcodes carrying the order and track numbers', async () => {
    const one = await prepared();
    const two = await prepared(orderBody({ places: [{ weight: 0.6 }, { weight: 0.4 }] }));
    for (const [type, dpi, size] of [
      [2, 203, [800, 1200]],
      [3, 300, [900, 1440]],
    ] as const) {
      const response = await owner.post('/v2/orders/stickers', { ids: [one.id, two.id], type, format: 'zpl', dpi });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.file).toMatch(/\.zpl$/);
      const file = await download(response.body.file);
      expect(file.status).toBe(200);
      expect(file.type).toContain('application/zpl');
      const labels = parseZpl(file.bytes.toString('utf8'));
      expect(labels.map((label) => [label.width, label.height])).toEqual([size, size, size]);
      expect(labels.map((label) => label.code128)).toEqual([
        [String(one.id), one.trackNumber],
        [String(two.id), two.trackNumber],
        [String(two.id), two.trackNumber],
      ]);
    }
    expect(await stickerFormed(one.id)).toBe(true);
    const [set] = (await setsOf(owner, one.id)).slice(-1);
    expect(set).toMatchObject({ format: 'zpl', dpi: 300, status: 'ready', progress: { done: 3, total: 3 } });
  });

  withZbar(
    `answers a PNG for one label and a ZIP of PNGs for several, at the printer's resolution, that scan${zbarMissing}`,
    async () => {
      const one = await prepared();
      const two = await prepared();
      const single = await owner.post('/v2/orders/stickers', { ids: [one.id], format: 'png', dpi: 300 });
      expect(single.status).toBe(200);
      expect(single.body.file).toMatch(/\.png$/);
      const image = await download(single.body.file);
      expect(image.type).toContain('image/png');
      expect([pngDots(image.bytes).width, pngDots(image.bytes).height]).toEqual([1200, 1800]);
      expect(imageBarcodes(image.bytes)).toEqual([`CODE-128:${one.id}`, `CODE-128:${one.trackNumber}`].sort());

      const several = await owner.post('/v2/orders/stickers', { ids: [one.id, two.id], type: 3, format: 'png' });
      expect(several.body.file).toMatch(/\.zip$/);
      const entries = readZip((await download(several.body.file)).bytes);
      expect([...entries.keys()]).toEqual([`${one.id}-1.png`, `${two.id}-1.png`]);
      const second = entries.get(`${two.id}-1.png`) as Buffer;
      expect([pngDots(second).width, pngDots(second).height]).toEqual([600, 960]);
      expect(imageBarcodes(second)).toEqual([`CODE-128:${two.id}`, `CODE-128:${two.trackNumber}`].sort());
    },
  );

  it("prints at the warehouse's label printer resolution unless the request names one", async () => {
    const one = await prepared();
    expect((await owner.get(`/v2/warehouses/${warehouseId}/label-printer`)).body).toEqual({
      warehouseId,
      dpi: 203,
      custom: false,
    });
    const set = await owner.put(`/v2/warehouses/${warehouseId}/label-printer`, { dpi: 300 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ warehouseId, dpi: 300, custom: true });
    expect((await owner.get(`/v2/warehouses/${warehouseId}/label-printer`)).body).toEqual({
      warehouseId,
      dpi: 300,
      custom: true,
    });
    const byWarehouse = parseZpl(
      (
        await download((await owner.post('/v2/orders/stickers', { ids: [one.id], format: 'zpl' })).body.file)
      ).bytes.toString('utf8'),
    );
    expect([byWarehouse[0].width, byWarehouse[0].height]).toEqual([1200, 1800]);
    const asked = parseZpl(
      (
        await download((await owner.post('/v2/orders/stickers', { ids: [one.id], format: 'zpl', dpi: 203 })).body.file)
      ).bytes.toString('utf8'),
    );
    expect([asked[0].width, asked[0].height]).toEqual([800, 1200]);
    await owner.put(`/v2/warehouses/${warehouseId}/label-printer`, { dpi: 203 });
  });

  it('keeps PDF the default: no format is the PDF of before', async () => {
    const one = await prepared();
    const response = await owner.post('/v2/orders/stickers', { ids: [one.id], type: 2 });
    expect(response.body.file).toMatch(/\.pdf$/);
    expect((await download(response.body.file)).bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('refuses a bad format, dpi or type with field errors and writes nothing', async () => {
    const one = await prepared();
    const before = (await owner.get('/v2/orders/stickers')).body.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ids: [one.id], format: 'eps' }, 'format'],
      [{ ids: [one.id], format: 'zpl', dpi: 600 }, 'dpi'],
      [{ ids: [one.id], format: 'zpl', type: 1 }, 'type'],
      [{ ids: [one.id], type: 2, dpi: 300 }, 'dpi'],
    ];
    for (const [body, field] of cases) {
      const response = await owner.post('/v2/orders/stickers', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBeTypeOf('string');
      expect(response.body.message).toBeTypeOf('string');
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    }
    expect((await owner.get('/v2/orders/stickers')).body.length).toBe(before);
    expect(await stickerFormed(one.id)).toBe(false);
    const printer = await owner.put(`/v2/warehouses/${warehouseId}/label-printer`, { dpi: 150 });
    expect(printer.status).toBe(400);
    expect(printer.body.errors.map((error: { field: string }) => error.field)).toContain('dpi');
  });

  it("needs a token; another account's orders and warehouses are 404; a shop key reaching another shop is 403", async () => {
    const mine = await prepared();
    const otherShop = await preparedOrder(owner, orderWorker, orderBody({ shopId: otherShopId }));
    expect((await t.client().post('/v2/orders/stickers', { ids: [mine.id], format: 'zpl' })).status).toBe(401);
    expect((await t.client().get(`/v2/warehouses/${warehouseId}/label-printer`)).status).toBe(401);
    expect((await stranger.post('/v2/orders/stickers', { ids: [mine.id], format: 'zpl' })).status).toBe(404);
    expect((await stranger.get(`/v2/warehouses/${warehouseId}/label-printer`)).status).toBe(404);
    expect((await stranger.put(`/v2/warehouses/${warehouseId}/label-printer`, { dpi: 300 })).status).toBe(404);
    const reaching = await shopKey.post('/v2/orders/stickers', { ids: [mine.id, otherShop.id], format: 'png' });
    expect(reaching.status).toBe(403);
    expect((await shopKey.put(`/v2/warehouses/${warehouseId}/label-printer`, { dpi: 300 })).status).toBe(403);
    expect(await stickerFormed(mine.id)).toBe(false);
    expect((await shopKey.post('/v2/orders/stickers', { ids: [mine.id], format: 'zpl' })).status).toBe(200);
  });
});

describe('a large set', () => {
  it('is written by a job: the URL answers 202 with Retry-After, the set shows its progress, then the file is one ZPL stream', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 3; index += 1)
      ids.push((await prepared(orderBody({ places: [{ weight: 0.3 }, { weight: 0.2 }] }))).id);
    const response = await owner.post('/v2/orders/stickers', { ids, type: 2, format: 'zpl' });
    expect(response.status).toBe(200);
    expect(response.body.file).toMatch(/\.zpl$/);
    const waiting = await download(response.body.file);
    expect(waiting.status).toBe(202);
    expect(waiting.retryAfter).toBe('5');
    expect((await setsOf(owner, ids[0])).slice(-1)[0]).toMatchObject({
      status: 'pending',
      progress: { done: 0, total: 6 },
    });
    expect(await stickerFormed(ids[0])).toBe(false);

    await stickerWorker.runDue();
    const file = await download(response.body.file);
    expect(file.status).toBe(200);
    const labels = parseZpl(file.bytes.toString('utf8'));
    expect(labels.map((label) => label.code128[0])).toEqual(ids.flatMap((id) => [String(id), String(id)]));
    expect((await setsOf(owner, ids[0])).slice(-1)[0]).toMatchObject({
      status: 'ready',
      progress: { done: 6, total: 6 },
    });
    expect(await stickerFormed(ids[0])).toBe(true);
  });

  it("of PDFs in all three formats is a ZIP written by the job, each format's PDF also kept", async () => {
    const ids: number[] = [];
    for (let index = 0; index < 4; index += 1) ids.push((await prepared()).id);
    const response = await owner.post('/v2/orders/stickers', { ids });
    expect(response.body.file).toMatch(/\.zip$/);
    expect((await download(response.body.file)).status).toBe(202);
    await stickerWorker.runDue();
    const entries = readZip((await download(response.body.file)).bytes);
    expect([...entries.keys()].sort()).toEqual(['stickers-100x150.pdf', 'stickers-75x120.pdf', 'stickers-a4.pdf']);
    const [set] = (await setsOf(owner, ids[0])).slice(-1);
    expect(set.stickers.map((item) => item.type)).toEqual([1, 2, 3]);
    for (const item of set.stickers)
      expect((await download(item.file)).bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
