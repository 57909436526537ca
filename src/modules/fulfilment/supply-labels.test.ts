/**
 * Product labels of a supply for the warehouse's thermal printer, through HTTP:
 * ZPL (copies per unit by ^PQ) and PNG, the barcodes read back, bad input and security.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  FULFILMENT_WAREHOUSE,
  fulfilmentAccount,
  newProduct,
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';
import { readZip } from '../../../test/support/pdf-tools.js';
import { imageBarcodes, parseZpl, renderZpl, zbarMissing } from '../../../test/support/zpl-tools.js';

const withZbar = it.skipIf(zbarMissing !== '');
let t: TestApp;
let a: FulfilmentAccount;
let shirt: number;
let milk: number;
let supplyId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0', FULFILMENT_ACCEPT_SECONDS: '0' } });
  a = await fulfilmentAccount(t);
  shirt = await newProduct(a.owner, { vendorCode: 'LBL-SHIRT', barcodes: ['4601234567890'] });
  milk = await newProduct(a.owner, { vendorCode: 'LBL-MILK', batchAccounting: true, barcodes: [] });
  const created = await a.owner.post('/v2/products/shipments', {
    date: '2026-12-01',
    fulfilmentWarehouseId: FULFILMENT_WAREHOUSE,
    places: 1,
    type: 'boxes',
    products: [
      { id: shirt, count: 3 },
      { id: milk, count: 2, batch: 'M-7', expires: '2027-02-01' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  supplyId = created.body.id;
});
afterAll(async () => t.close());

async function download(url: string): Promise<Buffer> {
  const response = await t.app.inject({ method: 'GET', url: url.slice('http://delivery.test'.length) });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

describe('POST /v2/products/shipments/{id}/labels', () => {
  withZbar(
    `answers ZPL with a label per product, as many copies as units, whose barcodes scan${zbarMissing}`,
    async () => {
      const response = await a.owner.post(`/v2/products/shipments/${supplyId}/labels`, {});
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.file).toMatch(/\.zpl$/);
      const zpl = (await download(response.body.file)).toString('utf8');
      const labels = parseZpl(zpl);
      expect(labels.map((label) => [label.width, label.height])).toEqual([
        [464, 320],
        [464, 320],
      ]);
      // the product's barcode, else its vendor code
      expect(labels.map((label) => label.code128)).toEqual([['4601234567890'], ['LBL-MILK']]);
      expect([...zpl.matchAll(/\^PQ(\d+)/g)].map((match) => Number(match[1]))).toEqual([3, 2]);
      const rendered = await renderZpl(zpl, 58, 40, 8);
      expect(imageBarcodes(rendered[0])).toEqual(['CODE-128:4601234567890']);
      expect(imageBarcodes(rendered[1])).toEqual(['CODE-128:LBL-MILK']);

      const perProduct = parseZpl(
        (
          await download(
            (
              await a.owner.post(`/v2/products/shipments/${supplyId}/labels`, { perUnit: false, dpi: 300 })
            ).body.file,
          )
        ).toString('utf8'),
      );
      expect(perProduct[0].width).toBe(696);
    },
  );

  withZbar(`answers PNGs in a ZIP, the copies in their names${zbarMissing}`, async () => {
    const response = await a.owner.post(`/v2/products/shipments/${supplyId}/labels`, { format: 'png' });
    const entries = readZip(await download(response.body.file));
    expect([...entries.keys()]).toEqual(['1-LBL-SHIRT-x3.png', '2-LBL-MILK-x2.png']);
    expect(imageBarcodes(entries.get('1-LBL-SHIRT-x3.png') as Buffer)).toEqual(['CODE-128:4601234567890']);
  });

  it('refuses a bad format or dpi with field errors; another account 404; a shop key of a shop without fulfilment 403; no token 401', async () => {
    for (const [body, field] of [
      [{ format: 'pdf' }, 'format'],
      [{ dpi: 96 }, 'dpi'],
      [{ perUnit: 'maybe' }, 'perUnit'],
    ] as const) {
      const response = await a.owner.post(`/v2/products/shipments/${supplyId}/labels`, body);
      expect(response.status).toBe(400);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    }
    expect((await t.client().post(`/v2/products/shipments/${supplyId}/labels`, {})).status).toBe(401);
    expect(
      (await (await t.newAccount('Чужой')).client.post(`/v2/products/shipments/${supplyId}/labels`, {})).status,
    ).toBe(404);
    const ownShopKey = (await a.owner.get(`/v2/shops/${a.ownShopId}`)).body.apiKey as string;
    expect((await a.owner.withToken(ownShopKey).post(`/v2/products/shipments/${supplyId}/labels`, {})).status).toBe(
      403,
    );
    expect((await a.owner.withToken(a.shopKey).post(`/v2/products/shipments/${supplyId}/labels`, {})).status).toBe(200);
  });
});
