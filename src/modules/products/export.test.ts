/** GET /v2/products/export through HTTP: the list's filters and sort in a streamed xlsx that the import reads back. */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { IMPORT_COLUMNS } from './import/layout.js';

let t: TestApp;
let owner: ApiClient;
let ownerToken: string;
let strangerToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const account = await t.newAccount('Exporter');
  owner = account.client;
  ownerToken = account.token;
  strangerToken = (await t.newAccount('Stranger')).token;
  // one import rather than 1205 posts (the rate limit): more products than one read page of the export
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Products');
  const header = IMPORT_COLUMNS.map((column) => column.key);
  sheet.addRow(header);
  for (let index = 1; index <= 1205; index++) {
    const values: Record<string, string | number> = {
      vendorCode: `EXP-${String(index).padStart(4, '0')}`,
      name: index % 2 ? `Чай ${index}` : `Кофе ${index}`,
      barcodes: `460${index}`,
      priceDeclared: 100,
      // a sort column with ties and empty values on both sides of a read page's end
      ...(index % 10 === 0 ? {} : { brand: `Бренд ${index % 4}` }),
    };
    sheet.addRow(header.map((key) => values[key] ?? null));
  }
  const file = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
  expect((await owner.post('/v2/products/import', { file })).body.success).toBe(1205);
}, 120_000);
afterAll(async () => t.close());

/** The raw answer (the test client reads bodies as text, which would break the zip). */
async function exportAs(token: string | undefined, query: string) {
  return t.app.inject({
    method: 'GET',
    url: `/v2/products/export${query}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

async function rowsOf(body: Buffer): Promise<Array<Record<string, unknown>>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Array<Record<string, unknown>> = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const values = (row.values as unknown[]).slice(1);
    rows.push(Object.fromEntries(header.map((key, index) => [key, values[index] ?? null])));
  });
  return rows;
}

describe('GET /v2/products/export', () => {
  it('writes every match of the filters (past one read page), in the sort, in the import columns', async () => {
    const response = await exportAs(ownerToken, '?name=Чай&sort=vendorCode');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.headers['content-disposition']).toContain('products.xlsx');
    const rows = await rowsOf(response.rawPayload);
    expect(rows).toHaveLength(603);
    expect(rows[0].vendorCode).toBe('EXP-0001');
    expect(rows.at(-1)?.vendorCode).toBe('EXP-1205');
    expect(rows.every((row) => String(row.name).startsWith('Чай'))).toBe(true);
    expect(Object.keys(rows[0])).toEqual([...IMPORT_COLUMNS.map((column) => column.key), 'quantity']);
    expect(rows[0].barcodes).toBe('4601');
  }, 60_000);

  it('reads page after page in the order the list gives, ties and empty values included', async () => {
    for (const query of ['sort=brand', 'sort=brand&desc=true', 'sort=name&desc=true', 'sort=priceDeclared', '']) {
      const listed: unknown[] = [];
      for (let page = 1; listed.length < 1205; page++) {
        const answer = await owner.get(`/v2/products?${query}&perPage=100&page=${page}`);
        expect(answer.status).toBe(200);
        listed.push(...(answer.body as Array<{ vendorCode: string }>).map((product) => product.vendorCode));
      }
      const exported = await rowsOf((await exportAs(ownerToken, `?${query}`)).rawPayload);
      expect(
        exported.map((row) => row.vendorCode),
        query,
      ).toEqual(listed);
    }
  }, 60_000);

  it('imports back: the exported file is a valid import of the same products', async () => {
    const response = await exportAs(ownerToken, '?vendorCode=EXP-000');
    const rows = await rowsOf(response.rawPayload);
    expect(rows.map((row) => row.vendorCode)).toEqual(Array.from({ length: 9 }, (_, index) => `EXP-000${9 - index}`));
    const imported = await owner.post('/v2/products/import', {
      file: Buffer.from(response.rawPayload).toString('base64'),
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ success: 9, total: 9, errors: {} });
  });

  it('an empty match is a file with the header only', async () => {
    const response = await exportAs(ownerToken, '?barcode=nothing-like-this');
    expect(response.statusCode).toBe(200);
    expect(await rowsOf(response.rawPayload)).toEqual([]);
  });

  it("refuses bad filters (400) and no token (401); another account's products are not in its file", async () => {
    for (const query of ['?sort=colour', '?fulfilmentWarehouseId=x', '?desc=maybe']) {
      const response = await exportAs(ownerToken, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errors[0].field).toBeTruthy();
    }
    expect((await exportAs(undefined, '')).statusCode).toBe(401);
    expect((await exportAs('acc_forged', '')).statusCode).toBe(401);
    const theirs = await exportAs(strangerToken, '');
    expect(theirs.statusCode).toBe(200);
    expect(await rowsOf(theirs.rawPayload)).toEqual([]);
  });
});
