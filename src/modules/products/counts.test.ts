import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { productBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let owner: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount()).client;
});
afterAll(async () => t.close());

async function importFile(vendorCodes: string[]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Товары');
  sheet.addRow(['vendorCode', 'name']);
  for (const code of vendorCodes) sheet.addRow([code, `Кружка ${code}`]);
  return Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
}

/** X-Total-Count of a full first page (the total then comes from a count, which is remembered). */
async function total(query = ''): Promise<number> {
  const response = await owner.get(`/v2/products?perPage=1${query}`);
  expect(response.status).toBe(200);
  return Number(response.headers['x-total-count']);
}

describe('product totals', () => {
  it('follow every write: create, change, import, delete', async () => {
    for (const code of ['MUG-1', 'MUG-2', 'MUG-3'])
      await owner.post('/v2/products', productBody({ vendorCode: code, name: `Кружка ${code}` }));
    const mug = encodeURIComponent('кружка');
    expect(await total()).toBe(3);
    expect(await total(`&name=${mug}`)).toBe(3);

    const created = await owner.post('/v2/products', productBody({ vendorCode: 'CUP-1', name: 'Чашка' }));
    expect(await total()).toBe(4);
    expect(await total(`&name=${mug}`)).toBe(3);

    await owner.patch(`/v2/products/${created.body.id}`, { name: 'Кружка-чашка' });
    expect(await total(`&name=${mug}`)).toBe(4);

    const imported = await owner.post('/v2/products/import', { file: await importFile(['MUG-4', 'MUG-5']) });
    expect(imported.body).toMatchObject({ success: 2, total: 2 });
    expect(await total()).toBe(6);
    expect(await total(`&name=${mug}`)).toBe(6);

    expect((await owner.delete(`/v2/products/${created.body.id}`)).status).toBe(204);
    expect(await total()).toBe(5);
    expect(await total(`&name=${mug}`)).toBe(5);
  });
});
