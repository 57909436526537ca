import ExcelJS from 'exceljs';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { productBody } from '../../../test/support/fixtures.js';
import { IMPORT_COLUMNS } from './import/layout.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Row = Record<string, string | number | boolean | null>;

/** A real xlsx as a shop owner would save it: header row of field names, then products. */
async function xlsx(rows: Row[], header: string[] = IMPORT_COLUMNS.map((column) => column.key)): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Товары');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(header.map((key) => row[key] ?? null));
  return Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
}

function goodRow(index: number, overrides: Row = {}): Row {
  return {
    vendorCode: `SKU-${String(index).padStart(5, '0')}`,
    name: `Товар номер ${index}`,
    nameEn: `Item ${index}`,
    vat: [0, 10, 20][index % 3],
    priceDeclared: 100 + index,
    priceCod: 199.99,
    weight: 0.5,
    volume: 0.002,
    'dimensions.width': 10,
    'dimensions.height': 20,
    'dimensions.length': 30,
    expirityDays: 180,
    photo: `https://cdn.example.com/${index}.jpg`,
    tnved: '6109100000',
    barcodes: `46000000${String(index).padStart(5, '0')}, 2000000000015`,
    brand: 'Бренд',
    producingCountry: 'RU',
    markCodeRequired: 0,
    batchAccounting: 1,
    ...overrides,
  };
}

async function count(client: ApiClient): Promise<number> {
  return Number((await client.get('/v2/products?perPage=1')).headers['x-total-count']);
}

describe('products import: happy path', () => {
  it('imports a real 2000-row xlsx', async () => {
    const { client } = await t.newAccount('Big import');
    const file = await xlsx(Array.from({ length: 2000 }, (_, index) => goodRow(index + 1)));
    const response = await client.post('/v2/products/import', { file });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: 2000, total: 2000, errors: {} });
    expect(await count(client)).toBe(2000);
    const [product] = (await client.get('/v2/products?vendorCodes[]=SKU-00007')).body;
    expect(product).toMatchObject({
      name: 'Товар номер 7',
      nameEn: 'Item 7',
      vat: 10,
      priceDeclared: 107,
      priceCod: 199.99,
      weight: 0.5,
      volume: 0.002,
      dimensions: { width: 10, height: 20, length: 30 },
      expirityDays: 180,
      photo: 'https://cdn.example.com/7.jpg',
      tnved: '6109100000',
      barcodes: ['4600000000007', '2000000000015'],
      brand: 'Бренд',
      producingCountry: 'RU',
      markCodeRequired: false,
      batchAccounting: true,
      quantity: null,
      rests: [],
    });
  });

  it('refuses 2001 rows with 422 and imports nothing', async () => {
    const { client } = await t.newAccount('Too big');
    const file = await xlsx(Array.from({ length: 2001 }, (_, index) => goodRow(index + 1)));
    const response = await client.post('/v2/products/import', { file });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('import_too_large');
    expect(response.body.message).toContain('at most 2000');
    expect(await count(client)).toBe(0);
  });

  it('refuses a decompression bomb (a small xlsx holding a 29 MB sheet) before parsing it, with RSS growth bounded', async () => {
    const { client } = await t.newAccount('Bomb');
    const parts = unzipSync(Buffer.from(await xlsx([goodRow(1)]), 'base64'));
    const sheet = new TextDecoder().decode(parts['xl/worksheets/sheet1.xml']);
    const row = '<row><c t="inlineStr"><is><t>x</t></is></c></row>';
    const padded = sheet.replace(
      '</sheetData>',
      `${row.repeat(Math.ceil((29 * 1024 * 1024) / row.length))}</sheetData>`,
    );
    const bomb = zipSync({ ...parts, 'xl/worksheets/sheet1.xml': new TextEncoder().encode(padded) }, { level: 9 });
    expect(bomb.length).toBeLessThan(200 * 1024);
    global.gc?.();
    const before = process.memoryUsage().rss;
    const response = await client.post('/v2/products/import', { file: Buffer.from(bomb).toString('base64') });
    const grown = process.memoryUsage().rss - before;
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      code: 'import_too_large',
      message: expect.stringContaining('MB unzipped'),
      errors: [{ field: 'file', message: expect.stringContaining('unzips to more than') }],
    });
    // the probe saw 170 MB stay; the bounded unzip holds at most its 16 MB cap and one slice
    expect(grown).toBeLessThan(80 * 1024 * 1024);
    expect(await count(client)).toBe(0);
  });

  it('refuses a workbook of thousands of parts', async () => {
    const { client } = await t.newAccount('Many parts');
    const parts = unzipSync(Buffer.from(await xlsx([goodRow(1)]), 'base64'));
    for (let index = 0; index < 1000; index += 1) parts[`xl/media/${index}.bin`] = new Uint8Array(1);
    const response = await client.post('/v2/products/import', { file: Buffer.from(zipSync(parts)).toString('base64') });
    expect(response.status).toBe(422);
    expect(response.body.message).toContain('more than 500 files');
    expect(await count(client)).toBe(0);
  });

  it('reports broken rows by xlsx row number and imports the good ones', async () => {
    const { client } = await t.newAccount('Broken rows');
    const rows = [
      goodRow(1), // row 2
      goodRow(2, { vat: 18 }), // row 3
      goodRow(3), // row 4
      goodRow(4, { name: null }), // row 5
      goodRow(5, { weight: 0.0005 }), // row 6
      goodRow(6, { producingCountry: 'ZZ' }), // row 7
      goodRow(7, { vendorCode: 'SKU-00001' }), // row 8: repeats row 2
      goodRow(8, { 'dimensions.width': 1000 }), // row 9
      goodRow(9, { weight: 'heavy' }), // row 10
      goodRow(10, { priceCod: 10.005 }), // row 11
      goodRow(11), // row 12
    ];
    const response = await client.post('/v2/products/import', { file: await xlsx(rows) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: 3,
      total: 11,
      errors: {
        '3': { field: 'vat', message: 'must be one of: 0, 10, 20, null' },
        '5': { field: 'name', message: 'is required' },
        '6': { field: 'weight', message: 'must be at least 0.001' },
        '7': { field: 'producingCountry', message: '"ZZ" is not a known country code' },
        '8': { field: 'vendorCode', message: 'repeats the vendor code of row 2' },
        '9': { field: 'dimensions.width', message: 'must be at most 999' },
        '10': { field: 'weight', message: 'must be a number or null' },
        '11': { field: 'priceCod', message: 'must be given to the kopeck (at most 2 decimals)' },
      },
    });
    const imported = (await client.get('/v2/products?sort=vendorCode')).body.map(
      (product: { vendorCode: string }) => product.vendorCode,
    );
    expect(imported).toEqual(['SKU-00001', 'SKU-00003', 'SKU-00011']);
  });

  it('overwrites the product of a known vendor code, keeping its id', async () => {
    const { client } = await t.newAccount('Overwrites');
    const existing = (
      await client.post('/v2/products', productBody({ vendorCode: 'SKU-00001', name: 'Old name', brand: 'Old brand' }))
    ).body.id;
    const response = await client.post('/v2/products/import', {
      file: await xlsx([goodRow(1, { name: 'New name', brand: null, barcodes: null }), goodRow(2)]),
    });
    expect(response.body).toEqual({ success: 2, total: 2, errors: {} });
    expect(await count(client)).toBe(2);
    const overwritten = (await client.get(`/v2/products/${existing}`)).body;
    expect(overwritten).toMatchObject({
      id: existing,
      vendorCode: 'SKU-00001',
      name: 'New name',
      brand: null,
      barcodes: [],
      bindings: [],
    });
    // Importing the same file again changes nothing but the values.
    const again = await client.post('/v2/products/import', {
      file: await xlsx([goodRow(1, { name: 'Newer name' }), goodRow(2)]),
    });
    expect(again.body).toEqual({ success: 2, total: 2, errors: {} });
    expect(await count(client)).toBe(2);
    expect((await client.get(`/v2/products/${existing}`)).body.name).toBe('Newer name');
  });

  it('keeps one product per vendor code when two files of the same products are imported at once', async () => {
    const { client } = await t.newAccount('Concurrent imports');
    const rows = Array.from({ length: 50 }, (_, index) => goodRow(index + 1));
    // The same products in opposite orders: the writes must not deadlock each other.
    const [file, reversed] = await Promise.all([xlsx(rows), xlsx([...rows].reverse())]);
    const responses = await Promise.all([
      client.post('/v2/products/import', { file }),
      client.post('/v2/products/import', { file: reversed }),
    ]);
    expect(responses.map((response) => response.body)).toEqual([
      { success: 50, total: 50, errors: {} },
      { success: 50, total: 50, errors: {} },
    ]);
    expect(await count(client)).toBe(50);
  });

  it('reads columns in any order, skips empty rows and unknown columns, takes the form-encoded spelling', async () => {
    const { client } = await t.newAccount('Form import');
    const header = ['name', 'comment', 'vendorCode', 'weight'];
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow(header);
    sheet.addRow(['Чай', 'любой текст', 'TEA-1', 0.1]);
    sheet.addRow([]);
    sheet.getRow(4).getCell(1).value = { richText: [{ text: 'Кофе ' }, { text: 'зерновой' }] };
    sheet.getRow(4).getCell(3).value = 12345;
    const file = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
    const response = await client.post('/v2/products/import', { file }, { form: true });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: 2, total: 2, errors: {} });
    const products = (await client.get('/v2/products?sort=vendorCode')).body;
    expect(products.map((product: { vendorCode: string; name: string }) => [product.vendorCode, product.name])).toEqual(
      [
        ['12345', 'Кофе зерновой'],
        ['TEA-1', 'Чай'],
      ],
    );
  });

  it('publishes the template at a public URL, and the template itself imports', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v2/products/import/template' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.headers['content-disposition']).toContain('products-import.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    const header = (workbook.worksheets[0].getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(IMPORT_COLUMNS.map((column) => column.key));
    const { client } = await t.newAccount('Template');
    const imported = await client.post('/v2/products/import', { file: response.rawPayload.toString('base64') });
    expect(imported.body).toEqual({ success: 1, total: 1, errors: {} });
  });
});

describe('products import: bad input', () => {
  it('refuses what is not base64, not an xlsx or not laid out as the template with 400, writing nothing', async () => {
    const { client } = await t.newAccount('Bad files');
    const cases: [unknown, string][] = [
      [{ file: 'this is not base64!' }, 'invalid_file'],
      [{ file: Buffer.from('just some text').toString('base64') }, 'invalid_file'],
      [{ file: Buffer.from('PK\u0003\u0004 broken zip').toString('base64') }, 'invalid_file'],
      [{ file: await xlsx([goodRow(1)], ['sku', 'title']) }, 'invalid_template'],
      [{}, 'validation_failed'],
      [{ file: '' }, 'validation_failed'],
    ];
    for (const [body, code] of cases) {
      const response = await client.post('/v2/products/import', body);
      expect(response.status, code).toBe(400);
      expect(response.body.code).toBe(code);
      expect(response.body.errors[0].field).toMatch(/^file/);
    }
    expect(await count(client)).toBe(0);
  });
});

describe('products import: security', () => {
  it('needs a token and imports into the caller account only', async () => {
    const file = await xlsx([goodRow(1)]);
    expect((await t.client().post('/v2/products/import', { file })).status).toBe(401);
    const owner = (await t.newAccount('Importer')).client;
    const stranger = (await t.newAccount('Onlooker')).client;
    expect((await owner.post('/v2/products/import', { file })).body.success).toBe(1);
    expect(await count(stranger)).toBe(0);
    // The same vendor code in another account is a new product there, not an overwrite.
    expect((await stranger.post('/v2/products/import', { file })).body.success).toBe(1);
    expect(await count(owner)).toBe(1);
  });
});
