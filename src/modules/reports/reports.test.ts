/**
 * Reports: the period job makes one bill and the agent reports per period, from
 * the orders as the API shows them; payments by billing operators; analytical reports read
 * back and checked against GET /v2/orders to the kopeck.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, usingPostgres, type TestApp } from '../../../test/support/app.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { pdfText, pdfToolsMissing } from '../../../test/support/pdf-tools.js';
import { sheetRows } from '../../../test/support/xlsx.js';
import { addDays, todayIn } from '../../platform/clock.js';
import { JobWorker } from '../../platform/jobs.js';
import { toKopecks } from '../../platform/money.js';

let t: TestApp;
let a: OrderingAccount;
let today: string;
/** The clock of the period job: tomorrow, so today's period (BILLING_PERIOD=day) has ended. */
const tomorrow = () => new Date(Date.now() + 86400_000);
const quiet = { error: () => undefined, warn: () => undefined };

function reportWorker(app: TestApp): JobWorker {
  const worker = new JobWorker(app.runtime.services.jobs, quiet);
  app.runtime.services.billing.registerJobs(worker);
  app.runtime.services.analyticalReports.registerJobs(worker);
  return worker;
}

function push(events: unknown[]) {
  return t
    .client()
    .post(
      '/v2/tracking/events/1',
      { events },
      { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
    );
}

async function download(url: string): Promise<{ status: number; bytes: Buffer; headers: Record<string, unknown> }> {
  const response = await t.app.inject({ method: 'GET', url: url.slice('http://delivery.test'.length) });
  return { status: response.statusCode, bytes: response.rawPayload, headers: response.headers };
}

interface OrderView {
  id: number;
  priceCod: number;
  pay: { type: number };
  delivery: {
    factPrice: number | null;
    totalPrice: number;
    services: Array<{ price: number }>;
    priceCommissionCod: number;
    priceCommissionCodCard: number;
  };
}

/** What the bill charges an order (kopecks): its factPrice less the COD commission the remittance withholds. */
const commissionOf = (order: OrderView) =>
  order.priceCod > 0
    ? toKopecks(order.pay.type === 3 ? order.delivery.priceCommissionCodCard : order.delivery.priceCommissionCod)
    : 0;

const delivered: OrderView[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0', BILLING_PERIOD: 'day', REPORT_SYNC_ROWS: '3' } });
  a = await orderingAccount(t, { name: 'Магазин отчётов' });
  today = todayIn('Europe/Moscow');
  const courier = { delivery: { company: { id: 1 }, type: 2 } };
  const prepaid = { products: [{ name: 'Книга', priceDeclared: 800, priceCod: 0, count: 1, weight: 0.5 }] };
  const bodies = [courier, courier, { ...courier, ...prepaid }];
  const methods = ['cash', 'card', undefined];
  for (const [index, body] of bodies.entries()) {
    const { id, trackNumber } = await preparedOrder(a.owner, a.worker, orderBody(a, { ...body, cmsId: `R-${index}` }));
    expect(
      (
        await push([
          { trackNumber, statusCode: 41 },
          { trackNumber, statusCode: 44, ...(methods[index] ? { paymentMethod: methods[index] } : {}) },
        ])
      ).body.applied,
    ).toBe(2);
    delivered.push((await a.owner.get(`/v2/orders/${id}`)).body);
  }
  // a draft is never charged
  expect((await a.owner.post('/v2/orders', orderBody(a))).status).toBe(201);
});
afterAll(async () => t.close());

describe('the period job: bills and agent reports', () => {
  it('makes one bill per period from the delivered orders, never twice, with a PDF of every line', async () => {
    const worker = reportWorker(t);
    expect((await a.owner.get('/v2/reports/bill')).body).toEqual([]);
    expect(await t.runtime.services.billing.closeDuePeriods(tomorrow())).toBeGreaterThanOrEqual(1);
    await worker.runDue(tomorrow());
    // again: the period is closed, nothing is queued or made
    await t.runtime.services.billing.closeDuePeriods(tomorrow());
    await worker.runDue(tomorrow());
    const [a2, b2] = await Promise.all([
      t.runtime.services.billing.closePeriod(
        { accountId: a.accountId, start: today, end: addDays(today, 1) },
        new Date(),
      ),
      t.runtime.services.billing.closePeriod(
        { accountId: a.accountId, start: today, end: addDays(today, 1) },
        new Date(),
      ),
    ]);
    expect([a2, b2]).toEqual([false, false]);

    const bills = await a.owner.get('/v2/reports/bill');
    expect(bills.status).toBe(200);
    expect(bills.headers['x-total-count']).toBe('1');
    const expected = delivered.reduce(
      (sum, order) => sum + toKopecks(order.delivery.factPrice as number) - commissionOf(order),
      0,
    );
    expect(bills.body[0]).toMatchObject({ date: today, sum: expected / 100, payStatus: 0, paySum: 0 });
    const file = await download(bills.body[0].file);
    expect(file.status).toBe(200);
    expect(String(file.headers['content-type'])).toContain('pdf');
    if (!pdfToolsMissing) {
      const text = pdfText(file.bytes).replace(/\s+/g, ' ');
      for (const order of delivered) expect(text).toContain(`Доставка заказа ${order.id}`);
      expect(text).toContain('Магазин отчётов');
      expect(text).toContain('ООО «Служба доставки»');
      expect(text).toContain(
        `${Math.floor(expected / 100)
          .toLocaleString('ru-RU')
          .replace(/\s/g, ' ')},${String(expected % 100).padStart(2, '0')}`,
      );
    }
    expect((await a.owner.get(`/v2/reports/bill?from=${today}&to=${today}`)).body).toHaveLength(1);
    expect((await a.owner.get('/v2/reports/bill?from=2000-01-01&to=2000-01-02')).body).toEqual([]);
  });

  it('makes the COD remittance (collected, withheld, due) and the services rendered, read back from their xlsx', async () => {
    const reports = (await a.owner.get('/v2/reports/agent')).body as Array<{
      id: number;
      type: number;
      sum: number;
      file: string;
      accepted: boolean;
    }>;
    expect(reports.map((report) => report.type).sort()).toEqual([1, 2]);
    const remittance = reports.find((report) => report.type === 1)!;
    const cod = delivered.filter((order) => order.priceCod > 0);
    const due = cod.reduce((sum, order) => sum + toKopecks(order.priceCod) - commissionOf(order), 0);
    expect(remittance.sum).toBe(due / 100);
    const rows = await sheetRows((await download(remittance.file)).bytes);
    // title, the filters (period, its kind), the header (exceljs skips the empty row before it)
    expect(rows[3]).toEqual([
      'Заказ',
      'Номер в магазине',
      'Трек-номер',
      'Вручен',
      'Оплата',
      'Получено от получателя',
      'Удержано комиссий',
      'К перечислению',
    ]);
    const body = rows.slice(4, 4 + cod.length);
    expect(body.map((row) => row[0])).toEqual(cod.map((order) => order.id));
    expect(body.map((row) => row[4])).toEqual(['наличными', 'картой']);
    expect(body[0][3]).toBeInstanceOf(Date);
    const totals = rows[4 + cod.length];
    expect(totals[0]).toBe(`Итого: ${cod.length}`);
    expect(Math.round((totals[7] as number) * 100)).toBe(due);
    const services = reports.find((report) => report.type === 2)!;
    const serviceRows = await sheetRows((await download(services.file)).bytes);
    expect(Math.round((serviceRows[serviceRows.length - 1][3] as number) * 100)).toBe(Math.round(services.sum * 100));
    expect((await a.owner.get('/v2/reports/agent?type=1')).body).toHaveLength(1);
  });

  it('accepts an agent report once; again is harmless; another account gets 404, a shop key 403, no token 401', async () => {
    const [report] = (await a.owner.get('/v2/reports/agent?type=2')).body;
    expect((await a.owner.put(`/v2/reports/agent-accept/${report.id}`)).status).toBe(204);
    expect((await a.owner.put(`/v2/reports/agent-accept/${report.id}`)).status).toBe(204);
    expect((await a.owner.get('/v2/reports/agent?type=2')).body[0].accepted).toBe(true);
    const other = await t.newAccount('Чужой');
    expect((await other.client.put(`/v2/reports/agent-accept/${report.id}`)).status).toBe(404);
    // another account's bills, agent reports and analytical reports are not in its lists
    for (const path of ['/v2/reports/bill', '/v2/reports/agent', '/v2/reports/analytical']) {
      const listed = await other.client.get(path);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([]);
      expect(listed.headers['x-total-count']).toBe('0');
    }
    expect((await a.owner.put('/v2/reports/agent-accept/999999')).status).toBe(404);
    expect((await a.owner.put('/v2/reports/agent-accept/abc')).status).toBe(400);
    const shopKey = a.owner.withToken(a.shopKey);
    for (const call of [
      shopKey.get('/v2/reports/bill'),
      shopKey.get('/v2/reports/agent'),
      shopKey.put(`/v2/reports/agent-accept/${report.id}`),
      shopKey.get('/v2/reports/analytical'),
    ])
      expect((await call).status).toBe(403);
    // a shop key's refused accept wrote nothing
    const [unaccepted] = (await a.owner.get('/v2/reports/agent?type=1')).body;
    const refused = await shopKey.put(`/v2/reports/agent-accept/${unaccepted.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toEqual(expect.any(String));
    expect((await a.owner.get('/v2/reports/agent?type=1')).body[0].accepted).toBe(false);
    const anonymous = t.client();
    for (const call of [
      anonymous.get('/v2/reports/bill'),
      anonymous.get('/v2/reports/agent'),
      anonymous.put(`/v2/reports/agent-accept/${unaccepted.id}`),
      anonymous.get('/v2/reports/analytical'),
    ]) {
      const answer = await call;
      expect(answer.status).toBe(401);
      expect(answer.body.code).toEqual(expect.any(String));
    }
    expect((await a.owner.get('/v2/reports/agent?type=1')).body[0].accepted).toBe(false);
    for (const [path, field] of [
      ['/v2/reports/agent?type=3', 'type'],
      ['/v2/reports/bill?from=yesterday', 'from'],
      ['/v2/reports/analytical?to=2026-13-01', 'to'],
      ['/v2/reports/bill?perPage=0', 'perPage'],
    ]) {
      const bad = await a.owner.get(path);
      expect(bad.status, path).toBe(400);
      expect(bad.body).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
      expect(bad.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    }
  });

  it('records payments by a billing operator: partly, then paid; overpayment and other tokens refused', async () => {
    const [bill] = (await a.owner.get('/v2/reports/bill')).body;
    const { id: operatorId, token } = await t.runtime.services.billing.issueOperatorToken('Бухгалтерия');
    const operator = t.client(token);
    const url = `/v2/operator/bills/${bill.id}/payments`;
    expect((await a.owner.post(url, { sum: 1 })).status).toBe(401);
    expect((await t.client(a.shopKey).post(url, { sum: 1 })).status).toBe(401);
    expect((await operator.post('/v2/operator/bills/999999/payments', { sum: 1 })).status).toBe(404);
    const bad = await operator.post(url, { sum: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('sum');
    expect((await operator.post(url, { sum: 1.005 })).status).toBe(400);
    const partly = await operator.post(url, { sum: 1, date: today }, { form: true });
    expect(partly.status, JSON.stringify(partly.body)).toBe(200);
    expect(partly.body).toMatchObject({ id: bill.id, payStatus: 1, paySum: 1 });
    // in the bill's account's audit trail, by the operator's token
    const audited = (await a.owner.get(`/v2/audit?actor=operator:billing:${operatorId}`)).body;
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actor: { kind: 'operator', id: `billing:${operatorId}` } });
    expect(audited[0].records).toContainEqual({ type: 'bills', ids: [bill.id] });
    const over = await operator.post(url, { sum: bill.sum });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('overpayment');
    expect((await a.owner.get('/v2/reports/bill')).body[0]).toMatchObject({ payStatus: 1, paySum: 1 });
    const rest = Math.round(bill.sum * 100 - 100) / 100;
    expect((await operator.post(url, { sum: rest })).body).toMatchObject({ payStatus: 2, paySum: bill.sum });
    // the bill itself never changes
    expect((await a.owner.get('/v2/reports/bill')).body[0]).toMatchObject({ sum: bill.sum, file: bill.file });
  });

  it.runIf(usingPostgres)('makes one bill when two processes close the same period at once (PostgreSQL)', async () => {
    const second = await createTestApp({ beside: t, env: { SIMULATION_STEP_SECONDS: '0', BILLING_PERIOD: 'day' } });
    try {
      const b = await orderingAccount(t, { name: 'Два процесса' });
      const { trackNumber } = await preparedOrder(b.owner, b.worker, orderBody(b));
      await push([{ trackNumber, statusCode: 41 }]);
      const workers = [reportWorker(t), reportWorker(second)];
      await Promise.all([
        t.runtime.services.billing.closeDuePeriods(tomorrow()),
        second.runtime.services.billing.closeDuePeriods(tomorrow()),
      ]);
      const start = todayIn('Europe/Moscow');
      const closes = await Promise.all([
        t.runtime.services.billing.closePeriod({ accountId: b.accountId, start, end: addDays(start, 1) }, new Date()),
        second.runtime.services.billing.closePeriod(
          { accountId: b.accountId, start, end: addDays(start, 1) },
          new Date(),
        ),
        ...workers.map((worker) => worker.runDue(tomorrow()).then(() => false)),
      ]);
      expect(closes.filter(Boolean).length).toBeLessThanOrEqual(1);
      const bills = await b.owner.get('/v2/reports/bill');
      expect(bills.body).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('analytical reports', () => {
  it('writes the orders report of a period that agrees with GET /v2/orders to the kopeck (written by a job above REPORT_SYNC_ROWS)', async () => {
    const made = await a.owner.post('/v2/reports/analytical', { date: { from: today, to: today }, type: 1 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // 4 orders > REPORT_SYNC_ROWS=3: a job writes it, the URL waits
    const waiting = await download(made.body.file);
    expect(waiting.status).toBe(202);
    expect(waiting.headers['retry-after']).toBe('5');
    expect((await a.owner.get('/v2/reports/analytical')).body[0]).toMatchObject({
      type: 1,
      status: 'pending',
      file: made.body.file,
    });
    await reportWorker(t).runDue();
    const file = await download(made.body.file);
    expect(file.status).toBe(200);
    const rows = await sheetRows(file.bytes);
    expect(String(rows[0][0])).toContain('Заказы');
    expect(rows.slice(1, 3).map((row) => row[0])).toEqual([
      expect.stringContaining('Период'),
      expect.stringContaining('Отчёт: 1'),
    ]);
    const header = rows[3] as string[];
    const listed = (await a.owner.get(`/v2/orders?dateFrom=${today}&dateTo=${today}&perPage=1000`)).body as Array<{
      id: number;
      priceCod: number;
      delivery: { totalPrice: number | null };
    }>;
    const body = rows.slice(4, 4 + listed.length);
    expect(body.map((row) => row[0]).sort()).toEqual(listed.map((order) => order.id).sort());
    expect(body[0][header.indexOf('Создан')]).toBeInstanceOf(Date);
    const kopecks = (value: unknown) => Math.round(Number(value ?? 0) * 100);
    const totals = rows[4 + listed.length];
    expect(totals[0]).toBe(`Итого: ${listed.length}`);
    expect(kopecks(totals[header.indexOf('Наложенный платёж')])).toBe(
      listed.reduce((sum, order) => sum + toKopecks(order.priceCod), 0),
    );
    expect(kopecks(totals[header.indexOf('Стоимость доставки')])).toBe(
      listed.reduce((sum, order) => sum + toKopecks(order.delivery.totalPrice ?? 0), 0),
    );
    expect((await a.owner.get('/v2/reports/analytical')).body[0]).toMatchObject({ status: 'ready' });
    // another account neither lists it nor makes one of a's orders
    const other = await t.newAccount('Чужие отчёты');
    expect((await other.client.get('/v2/reports/analytical')).body).toEqual([]);
    const theirs = await other.client.post('/v2/reports/analytical', { date: { from: today, to: today }, type: 1 });
    expect(theirs.status).toBe(200);
    expect(
      (await sheetRows((await download(theirs.body.file)).bytes)).some((row) =>
        listed.some((order) => row[0] === order.id),
      ),
    ).toBe(false);
  });

  it('writes the other reports: companies, returns, COD, stock balance, marking codes (by a job when they read more than REPORT_SYNC_ROWS)', async () => {
    const byJob: number[] = [];
    for (const body of [
      { type: 2 },
      { type: 3 },
      { type: 5 },
      { type: 6, fulfilmentWarehouseId: 101, onlyMarkCodes: false, stage: 1 },
    ]) {
      const made = await a.owner.post('/v2/reports/analytical', { date: { from: today, to: today }, ...body });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      let file = await download(made.body.file);
      if (file.status === 202) {
        byJob.push(body.type);
        await reportWorker(t).runDue();
        file = await download(made.body.file);
      }
      expect(file.status).toBe(200);
      const rows = await sheetRows(file.bytes);
      expect(String(rows[rows.length - 1][0])).toMatch(/^Итого/);
    }
    // the companies report writes a row per company but reads all 4 orders of the day (> 3)
    expect(byJob).toEqual([2]);
    const companiesReport = await a.owner.post('/v2/reports/analytical', { date: { from: today, to: today }, type: 2 });
    await reportWorker(t).runDue();
    const companies = await sheetRows((await download(companiesReport.body.file)).bytes);
    const totals = companies[companies.length - 1];
    expect(totals[2]).toBe(4);
    expect(totals[3]).toBe(3);
    expect((await a.owner.get('/v2/reports/analytical?type=6')).body).toHaveLength(1);
  });

  it('writes the COD report: the orders with cash on delivery, how each delivered one was paid and what is due', async () => {
    const made = await a.owner.post('/v2/reports/analytical', { date: { from: today, to: today }, type: 4 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    let file = await download(made.body.file);
    if (file.status === 202) {
      await reportWorker(t).runDue();
      file = await download(made.body.file);
    }
    const rows = await sheetRows(file.bytes);
    const header = rows[3] as string[];
    expect(header).toEqual([
      'Заказ',
      'Номер в магазине',
      'Создан',
      'Статус',
      'Служба доставки',
      'Наложенный платёж',
      'Оплата',
      'Вручен',
      'Комиссия',
      'К перечислению',
    ]);
    const listed = (await a.owner.get(`/v2/orders?dateFrom=${today}&dateTo=${today}&perPage=1000`)).body as OrderView[];
    const withCod = listed.filter((order) => order.priceCod > 0);
    const body = rows.slice(4, 4 + withCod.length);
    expect(body.map((row) => row[0]).sort()).toEqual(withCod.map((order) => order.id).sort());
    const paid = new Map(body.map((row) => [row[0], row[header.indexOf('Оплата')]]));
    const cod = delivered.filter((order) => order.priceCod > 0);
    expect(cod.map((order) => paid.get(order.id))).toEqual(['наличными', 'картой']);
    const due = cod.reduce((sum, order) => sum + toKopecks(order.priceCod) - commissionOf(order), 0);
    expect(Math.round((rows[4 + withCod.length][header.indexOf('К перечислению')] as number) * 100)).toBe(due);
  });

  it('lists by the day they were asked for (account time zone), type and page', async () => {
    const all = await a.owner.get('/v2/reports/analytical');
    const total = Number(all.headers['x-total-count']);
    expect(total).toBeGreaterThan(2);
    expect((await a.owner.get(`/v2/reports/analytical?from=${today}&to=${today}`)).headers['x-total-count']).toBe(
      String(total),
    );
    expect((await a.owner.get(`/v2/reports/analytical?to=${addDays(today, -1)}`)).body).toEqual([]);
    expect((await a.owner.get(`/v2/reports/analytical?from=${addDays(today, 1)}`)).body).toEqual([]);
    const second = await a.owner.get('/v2/reports/analytical?page=2&perPage=1');
    expect(second.body).toEqual([all.body[1]]);
    expect(second.headers['x-total-count']).toBe(String(total));
    expect(
      (await a.owner.get('/v2/reports/analytical?type=2')).body.every((report: { type: number }) => report.type === 2),
    ).toBe(true);
  });

  it('refuses bad input with every problem named and writes nothing', async () => {
    const before = Number((await a.owner.get('/v2/reports/analytical')).headers['x-total-count']);
    const reversed = await a.owner.post('/v2/reports/analytical', { date: { from: today, to: '2020-01-01' }, type: 1 });
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    expect(reversed.body.errors.map((error: { field: string }) => error.field)).toEqual(['date.to']);
    const markCodes = await a.owner.post('/v2/reports/analytical', { date: { from: today, to: today }, type: 6 });
    expect(markCodes.status).toBe(400);
    expect(markCodes.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'fulfilmentWarehouseId',
      'onlyMarkCodes',
      'stage',
    ]);
    const unknownWarehouse = await a.owner.post(
      '/v2/reports/analytical',
      { date: { from: today, to: today }, type: 6, fulfilmentWarehouseId: 9999, onlyMarkCodes: 1, stage: 1 },
      { form: true },
    );
    expect(unknownWarehouse.status).toBe(400);
    expect(unknownWarehouse.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'fulfilmentWarehouseId',
    ]);
    expect((await a.owner.post('/v2/reports/analytical', { date: { from: today, to: today }, type: 7 })).status).toBe(
      400,
    );
    expect((await a.owner.post('/v2/reports/analytical', { date: { from: today }, type: 1 })).status).toBe(400);
    expect(
      (await a.owner.withToken(a.shopKey).post('/v2/reports/analytical', { date: { from: today, to: today }, type: 1 }))
        .status,
    ).toBe(403);
    expect(
      (await t.client().post('/v2/reports/analytical', { date: { from: today, to: today }, type: 1 })).status,
    ).toBe(401);
    expect(Number((await a.owner.get('/v2/reports/analytical')).headers['x-total-count'])).toBe(before);
  });
});
