/**
 * Fulfilment on the bill and in the stock sheets: goods received four
 * days before, two orders shipped from the warehouse today; the period's bill charges each
 * shipped order per order and per unit and the goods per unit-day, to the kopeck; the stock
 * balance (type 5) and marking-code write-off (type 6) sheets list what the stock says.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  FULFILMENT_WAREHOUSE,
  fulfilmentAccount,
  fulfilmentOrder,
  newProduct,
  putInStock,
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';
import { pdfText, pdfToolsMissing } from '../../../test/support/pdf-tools.js';
import { sheetRows } from '../../../test/support/xlsx.js';
import { addDays, startOfDay, todayIn } from '../../platform/clock.js';

const OTHER_WAREHOUSE = 102;
let t: TestApp;
let a: FulfilmentAccount;
let today: string;
let lamp: number;
let cup: number;
let chair: number;
const orders: number[] = [];

async function download(url: string): Promise<Buffer> {
  const response = await t.app.inject({ method: 'GET', url: url.slice('http://delivery.test'.length) });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0', BILLING_PERIOD: 'day' } });
  a = await fulfilmentAccount(t, { name: 'Склад и счёт' });
  today = todayIn('Europe/Moscow');
  lamp = await newProduct(a.owner, { vendorCode: 'FR-LAMP', name: 'Лампа', markCodeRequired: true });
  cup = await newProduct(a.owner, { vendorCode: 'FR-CUP', name: 'Кружка' });
  chair = await newProduct(a.owner, { vendorCode: 'FR-CHAIR', name: 'Стул' });
  await putInStock(t, a.accountId, lamp, 10);
  await putInStock(t, a.accountId, cup, 2);
  await putInStock(t, a.accountId, chair, 3, null, OTHER_WAREHOUSE);
  // the goods arrived at noon three days before today (Moscow): stored at the end of 4 days of the period
  const received = new Date(Date.parse(startOfDay(addDays(today, -3), 'Europe/Moscow')) + 12 * 3600_000).toISOString();
  await sql`update stock_movements set at = ${received} where account_id = ${a.accountId}`.execute(
    t.runtime.database.db,
  );
  const secret = t.runtime.services.tracking.pushSecret(1);
  for (const goods of [
    [[lamp, 4]],
    [
      [lamp, 1],
      [cup, 1],
    ],
  ] as Array<Array<[number, number]>>) {
    const created = await a.owner.post('/v2/orders', fulfilmentOrder(t, a, goods, { cmsId: `FR-${orders.length}` }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await a.owner.post('/v2/orders/confirm', { ids: [created.body.id] })).status).toBe(204);
    await a.worker.runDue();
    const { trackNumber } = (await a.owner.get(`/v2/orders/${created.body.id}`)).body;
    // handed over: the goods leave the warehouse
    expect(
      (
        await t
          .client()
          .post(
            '/v2/tracking/events/1',
            { events: [{ trackNumber, statusCode: 41 }] },
            { headers: { 'x-carrier-secret': secret } },
          )
      ).body.applied,
    ).toBe(1);
    orders.push(created.body.id as number);
  }
});
afterAll(async () => t.close());

describe('fulfilment and storage on the bill', () => {
  it('charges each shipped order per order and per unit, and the goods per unit-day at each warehouse, to the kopeck', async () => {
    expect(
      await t.runtime.services.billing.closePeriod(
        { accountId: a.accountId, start: addDays(today, -3), end: addDays(today, 1) },
        new Date(),
      ),
    ).toBe(true);
    const bills = await a.owner.get('/v2/reports/bill');
    expect(bills.body).toHaveLength(1);
    const lines = await t.runtime.services.billing['store'].billLines(a.accountId, bills.body[0].id as number);
    // data/billing.json: 45.00 per order, 8.50 per unit, 0.60 per unit-day
    expect(lines.filter((line) => line.source === 'fulfilment')).toEqual([
      {
        source: 'fulfilment',
        description: `Сборка и отгрузка заказа ${orders[0]} со склада фулфилмента, единиц: 4`,
        orderId: orders[0],
        quantity: 4,
        amount: 4500 + 4 * 850,
      },
      {
        source: 'fulfilment',
        description: `Сборка и отгрузка заказа ${orders[1]} со склада фулфилмента, единиц: 2`,
        orderId: orders[1],
        quantity: 2,
        amount: 4500 + 2 * 850,
      },
    ]);
    // warehouse 101: 12 units for 3 day ends, 6 of them on the 4th (today, after 6 left); 102: 3 units for 4
    const storage = lines.filter((line) => line.source === 'storage');
    expect(storage.map((line) => [line.quantity, line.amount])).toEqual([
      [12 * 3 + 6, (12 * 3 + 6) * 60],
      [3 * 4, 3 * 4 * 60],
    ]);
    expect(storage[0].description).toContain('Фулфилмент Москва (Подольск)');
    expect(lines.filter((line) => line.source === 'delivery').map((line) => line.orderId)).toEqual(orders);
    const sum = lines.reduce((total, line) => total + line.amount, 0);
    expect(Math.round(bills.body[0].sum * 100)).toBe(sum);
    // the drafts of the closing run are gone
    expect(
      await t.runtime.database.db
        .selectFrom('bill_line_drafts')
        .select('id')
        .where('account_id', '=', a.accountId)
        .execute(),
    ).toEqual([]);
    if (!pdfToolsMissing) {
      const text = pdfText(await download(bills.body[0].file)).replace(/\s+/g, ' ');
      expect(text).toContain(`Сборка и отгрузка заказа ${orders[1]} со склада фулфилмента, единиц: 2`);
      expect(text).toContain(`Всего наименований ${lines.length}`);
    }
    const services = (await a.owner.get('/v2/reports/agent?type=2')).body[0];
    const rows = await sheetRows(await download(services.file));
    expect(rows.slice(4, 4 + lines.length).map((row) => Math.round((row[3] as number) * 100))).toEqual(
      lines.map((line) => line.amount),
    );
    expect(rows[4 + lines.length][0]).toBe(`Итого: ${lines.length}`);
  });
});

describe('stock sheets', () => {
  it('type 5 lists the goods on hand at the end of the day per warehouse, as the stock has them', async () => {
    const made = await a.owner.post('/v2/reports/analytical', { date: { from: today, to: today }, type: 5 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const rows = await sheetRows(await download(made.body.file));
    const header = rows.findIndex((row) => row[0] === 'Склад');
    expect(rows[header]).toEqual(['Склад', 'Товар', 'Артикул', 'Наименование', 'Маркировка', 'Остаток']);
    const body = rows.slice(header + 1, -1).map((row) => row.slice(1));
    expect(body).toEqual([
      [lamp, 'FR-LAMP', 'Лампа', 'да', 5],
      [cup, 'FR-CUP', 'Кружка', 'нет', 1],
      [chair, 'FR-CHAIR', 'Стул', 'нет', 3],
    ]);
    expect(rows[rows.length - 1]).toEqual(['Итого: 3', undefined, undefined, undefined, undefined, 9]);
    const product = (await a.owner.get(`/v2/products/${lamp}`)).body;
    expect(product.quantity).toBe(5);
    // the day before the orders: nothing had left yet
    const before = await sheetRows(
      await download(
        (
          await a.owner.post('/v2/reports/analytical', {
            date: { from: addDays(today, -1), to: addDays(today, -1) },
            type: 5,
            fulfilmentWarehouseId: FULFILMENT_WAREHOUSE,
          })
        ).body.file,
      ),
    );
    expect(before.slice(before.findIndex((row) => row[0] === 'Склад') + 1, -1).map((row) => row[5])).toEqual([10, 2]);
  });

  it('type 6 lists the units shipped to recipients, by order, and only the marked goods when asked', async () => {
    const sheet = async (onlyMarkCodes: boolean) => {
      const made = await a.owner.post('/v2/reports/analytical', {
        date: { from: today, to: today },
        type: 6,
        fulfilmentWarehouseId: FULFILMENT_WAREHOUSE,
        onlyMarkCodes,
        stage: 1,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const rows = await sheetRows(await download(made.body.file));
      const header = rows.findIndex((row) => row[0] === 'Дата');
      expect(rows[header]).toEqual([
        'Дата',
        'Склад',
        'Товар',
        'Артикул',
        'Наименование',
        'Маркировка',
        'Заказ',
        'Единиц',
      ]);
      return { body: rows.slice(header + 1, -1), totals: rows[rows.length - 1] };
    };
    const all = await sheet(false);
    expect(all.body[0][0]).toBeInstanceOf(Date);
    expect(all.body.map((row) => [row[2], row[6], row[7]]).sort()).toEqual(
      [
        [lamp, orders[0], 4],
        [lamp, orders[1], 1],
        [cup, orders[1], 1],
      ].sort(),
    );
    expect(all.totals[7]).toBe(6);
    const marked = await sheet(true);
    expect(marked.body.map((row) => [row[2], row[6], row[7]])).toEqual([
      [lamp, orders[0], 4],
      [lamp, orders[1], 1],
    ]);
    expect(marked.totals[7]).toBe(5);
  });
});
