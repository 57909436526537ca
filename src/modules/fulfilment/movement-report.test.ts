/** The movement report through HTTP, opened and read back with exceljs. */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../platform/clock.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  fulfilmentAccount,
  fulfilmentOrder,
  inspectReturned,
  newProduct,
  putInStock,
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';
import { readZip } from '../../../test/support/pdf-tools.js';

let t: TestApp;
let a: FulfilmentAccount;
let lamp: number;
let chair: number;
const today = () => todayIn('Europe/Moscow');

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0' } });
  a = await fulfilmentAccount(t);
  lamp = await newProduct(a.owner, { vendorCode: 'REP-LAMP', name: 'Лампа' });
  chair = await newProduct(a.owner, { vendorCode: 'REP-CHAIR', name: 'Стул' });
  await putInStock(t, a.accountId, lamp, 10);
  await putInStock(t, a.accountId, chair, 3, null, 102);
  // 4 lamps leave with a parcel, and come back
  const id = (await a.owner.post('/v2/orders', fulfilmentOrder(t, a, [[lamp, 4]]))).body.id;
  expect((await a.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
  await a.worker.runDue();
  const { trackNumber } = (await a.owner.get(`/v2/orders/${id}`)).body;
  const secret = t.runtime.services.tracking.pushSecret(1);
  for (const statusCode of [41, 411, 412, 42, 51, 71, 72])
    await t
      .client()
      .post(
        '/v2/tracking/events/1',
        { events: [{ trackNumber, statusCode }] },
        { headers: { 'x-carrier-secret': secret } },
      );
  // the staff put 3 back on the shelf and 1 into the defect stock
  expect(
    (
      await inspectReturned(t, id, 'stock', {
        [lamp]: [
          ['stock', 3],
          ['defect', 1],
        ],
      })
    ).status,
  ).toBe(200);
});
afterAll(async () => t.close());

async function download(url: string): Promise<{ bytes: Buffer; type: string }> {
  const response = await t.app.inject({ method: 'GET', url: url.slice('http://delivery.test'.length) });
  expect(response.statusCode).toBe(200);
  return { bytes: response.rawPayload, type: String(response.headers['content-type']) };
}

async function sheetRows(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('movement report', () => {
  it('answers one xlsx per product and day with totals at one warehouse', async () => {
    const response = await a.owner.post('/v2/products/movement-report', {
      date: { from: addDays(today(), -3), to: today() },
      ids: [lamp],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { bytes, type } = await download(response.body.file);
    expect(type).toContain('spreadsheetml');
    const rows = await sheetRows(bytes);
    expect(String(rows[0][0])).toContain('Фулфилмент Москва (Подольск)');
    expect(rows[1]).toEqual([
      'Артикул',
      'Товар',
      'Дата',
      'Остаток на начало',
      'Поступило',
      'Отгружено',
      'Возвращено',
      'Списано',
      'В брак',
      'Остаток на конец',
    ]);
    expect(rows.slice(2)).toEqual([
      ['REP-LAMP', 'Лампа', today().split('-').reverse().join('.'), 0, 10, 4, 3, 0, 1, 9],
      ['REP-LAMP', 'Лампа', 'Итого', 0, 10, 4, 3, 0, 1, 9],
      ['Итого по складу', undefined, undefined, 0, 10, 4, 3, 0, 1, 9],
    ]);
  });

  it('answers a ZIP of one xlsx per warehouse; a product without movements in the period shows its balance', async () => {
    const response = await a.owner.post(
      '/v2/products/movement-report',
      { date: { from: addDays(today(), 1), to: addDays(today(), 2) }, ids: [lamp, chair] },
      { form: true },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { bytes, type } = await download(response.body.file);
    expect(type).toContain('zip');
    const entries = readZip(bytes);
    expect([...entries.keys()].map((name) => name.replace(/-\d{4}.*$/, ''))).toEqual([
      'movements-101',
      'movements-102',
    ]);
    const at102 = await sheetRows([...entries.values()][1]);
    expect(at102.slice(2)).toEqual([
      ['REP-CHAIR', 'Стул', 'Итого', 3, 0, 0, 0, 0, 0, 3],
      ['Итого по складу', undefined, undefined, 3, 0, 0, 0, 0, 0, 3],
    ]);
  });

  it("refuses bad input, goods that were never stocked, other accounts' goods and a shop key of a shop without fulfilment", async () => {
    const never = await newProduct(a.owner, { vendorCode: 'REP-NEVER' });
    const post = (body: unknown, client = a.owner) => client.post('/v2/products/movement-report', body);
    const bad = await post({ date: { from: today(), to: addDays(today(), -1) }, ids: [lamp, 999999] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { field: string }) => error.field)).toEqual(['date.to', 'ids[1]']);
    expect((await post({ date: { from: addDays(today(), -400), to: today() }, ids: [lamp] })).status).toBe(400);
    expect((await post({ date: { from: today() }, ids: [] })).status).toBe(400);
    expect((await post({ date: { from: today(), to: today() }, ids: [never] })).status).toBe(422);
    const other = (await t.newAccount('Other')).client;
    expect((await post({ date: { from: today(), to: today() }, ids: [lamp] }, other)).status).toBe(400);
    const ownShopKey = a.owner.withToken((await a.owner.get(`/v2/shops/${a.ownShopId}`)).body.apiKey);
    expect((await post({ date: { from: today(), to: today() }, ids: [lamp] }, ownShopKey)).status).toBe(403);
    expect(
      (await post({ date: { from: today(), to: today() }, ids: [lamp] }, a.owner.withToken(a.shopKey))).status,
    ).toBe(200);
  });
});
