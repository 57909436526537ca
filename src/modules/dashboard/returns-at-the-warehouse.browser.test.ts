/**
 * Returns at the warehouse in Chromium: the staff's screen lists a refused parcel, a scan of
 * its track number opens it, each line goes to stock, the defect stock or is written off; a
 * second scan shows the inspection and a double-clicked submit restocks once. The owner's order
 * page shows a partial buyout's bought and refused lines. axe-core on every page; desktop and
 * phone screenshots under artifacts/returns-at-the-warehouse/.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  BROWSER_TESTS,
  builtApp,
  checkPage,
  dashboardPage,
  launchChromium,
  screenshots,
  signInAs,
} from '../../../test/support/browser.js';
import {
  FULFILMENT_WAREHOUSE,
  fulfilmentAccount,
  fulfilmentOrder,
  newProduct,
  putInStock,
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';

const { shot } = screenshots('returns-at-the-warehouse');
const OWNER = { email: 'owner@returns.example', password: 'owner password 1' };
const POLL = { timeout: 15_000 };

describe.skipIf(!BROWSER_TESTS)('returns at the warehouse in Chromium', () => {
  let t: TestApp;
  let at: FulfilmentAccount;
  let origin: string;
  let appDir: string;
  let browser: Browser;
  let page: Page;
  let staffToken: string;
  let lamp: number;
  let mug: number;
  let cspViolations: string[] = [];
  afterEach(() => expect(cspViolations).toEqual([]));
  const check = (name: string) => checkPage(page, shot, name);

  /** A fulfilment order refused at the point and carried back to the warehouse. */
  async function refused(goods: Array<[number, number]>): Promise<{ id: number; trackNumber: string }> {
    const id = (await at.owner.post('/v2/orders', fulfilmentOrder(t, at, goods))).body.id as number;
    expect((await at.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    await at.worker.runDue();
    const { trackNumber } = (await at.owner.get(`/v2/orders/${id}`)).body;
    for (const statusCode of [41, 411, 412, 42, 462, 71, 72])
      await t
        .client()
        .post(
          '/v2/tracking/events/1',
          { events: [{ trackNumber, statusCode }] },
          { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
        );
    return { id, trackNumber };
  }

  const rest = async (productId: number) =>
    (await at.owner.get(`/v2/products/${productId}`)).body.rests.find(
      (item: { warehouseId: number }) => item.warehouseId === FULFILMENT_WAREHOUSE,
    );

  beforeAll(async () => {
    appDir = await builtApp();
    t = await createTestApp({ env: { APP_DIR: appDir, SIMULATION_STEP_SECONDS: '60' } });
    at = await fulfilmentAccount(t, { name: 'Лавка возвратов' });
    await t.runtime.services.accounts.addEmployee(at.accountId, { name: 'Владелец', ...OWNER });
    staffToken = (await t.runtime.services.supplies.createOperatorToken(FULFILMENT_WAREHOUSE, 'Смена 2')).token;
    lamp = await newProduct(at.owner, { vendorCode: 'RET-LAMP', name: 'Лампа настольная' });
    mug = await newProduct(at.owner, { vendorCode: 'RET-MUG', name: 'Кружка' });
    await putInStock(t, at.accountId, lamp, 10);
    await putInStock(t, at.accountId, mug, 10);
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    ({ page, cspViolations } = await dashboardPage(browser, { locale: 'ru-RU' }));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  });

  it('the staff scan a returned parcel, inspect it line by line; a repeated scan and a double submit restock once', async () => {
    const first = await refused([
      [lamp, 2],
      [mug, 1],
    ]);
    const second = await refused([[lamp, 1]]);
    expect((await rest(lamp)).quantity).toBe(7);

    await page.goto(`${origin}/app/warehouse`);
    await page.getByLabel(/Токен склада/).fill(staffToken);
    await page.getByTestId('open-staff').click();
    await page.getByTestId(`waiting-${first.id}`).waitFor();
    await page.getByTestId(`waiting-${second.id}`).waitFor();
    await check('warehouse-returns-queue');

    // the scanner types the label's track number and Enter
    const scan = page.getByLabel(/Отсканируйте посылку/);
    await scan.fill(first.trackNumber);
    await scan.press('Enter');
    const card = page.getByTestId(`returned-parcel-${first.id}`);
    await card.waitFor();
    await card.getByLabel('На полку RET-LAMP').fill('1');
    await card.getByLabel('В брак RET-LAMP').fill('1');
    await card.getByLabel('Причина RET-LAMP').fill('Плафон треснул у одной');
    await card.getByLabel('На полку RET-MUG').fill('0');
    await card.getByLabel('Списать RET-MUG').fill('1');
    await card.getByLabel('Причина RET-MUG').fill('Разбита');
    await check('warehouse-returns-parcel');
    await card.getByTestId('inspect-parcel').click();
    await expect.poll(() => card.getByTestId('parcel-status').textContent(), POLL).toBe('Осмотрен');
    expect(await card.getByTestId('outcome-RET-MUG').textContent()).toContain('1 списано (Разбита)');
    await check('warehouse-returns-inspected');
    expect(await rest(lamp)).toMatchObject({ quantity: 8, available: 8, defective: 1 });
    expect(await rest(mug)).toMatchObject({ quantity: 9, defective: 0 });
    await expect.poll(() => page.getByTestId(`waiting-${first.id}`).count(), POLL).toBe(0);

    // scanned again: the inspection as it was, nothing to submit, nothing restocked
    await scan.fill(first.trackNumber);
    await scan.press('Enter');
    await expect.poll(() => card.getByTestId('parcel-status').textContent(), POLL).toBe('Осмотрен');
    expect(await card.getByTestId('inspect-parcel').count()).toBe(0);
    expect(await rest(lamp)).toMatchObject({ quantity: 8, defective: 1 });

    // the second parcel by its order number; a double click on the submit restocks it once
    await scan.fill(String(second.id));
    await scan.press('Enter');
    const other = page.getByTestId(`returned-parcel-${second.id}`);
    await other.getByTestId('inspect-parcel').dblclick();
    await expect.poll(() => other.getByTestId('parcel-status').textContent(), POLL).toBe('Осмотрен');
    await expect.poll(async () => (await rest(lamp)).quantity, POLL).toBe(9);
    const movements = await t.runtime.database.db
      .selectFrom('stock_movements')
      .select('quantity_delta')
      .where('order_id', '=', second.id)
      .where('kind', '=', 'return')
      .execute();
    expect(movements.map((row) => Number(row.quantity_delta))).toEqual([1]);
    await scan.fill('NO-SUCH-PARCEL');
    await scan.press('Enter');
    await page.getByText('На этом складе нет возврата с таким кодом.').waitFor();
  }, 90_000);

  it("the owner's order page shows a partial buyout's bought and refused lines", async () => {
    const locality = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
    const point = t.runtime.services.reference.registry
      .pointsIn(1, locality?.id ?? 0)
      .find((item) => item.type === 1 && item.partialBuyoutAvailable && item.cashPaymentAvailable);
    const created = await at.owner.post(
      '/v2/orders',
      fulfilmentOrder(t, at, [], {
        cmsId: 'PB-PAGE',
        products: [
          { id: lamp, count: 2, priceCod: 1500.5 },
          { id: mug, count: 1, priceCod: 400 },
        ],
        delivery: { company: { id: 1 }, type: 1, point: { id: point?.id } },
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect((await at.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    await at.worker.runDue();
    for (let step = 0; step < 4; step++) await at.owner.post(`/v2/sandbox/orders/${id}/advance`);
    const bought = await at.owner.post(`/v2/sandbox/orders/${id}/partial-buyout`, {
      lines: [{ index: 0, count: 1 }],
      paymentMethod: 'cash',
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);

    await signInAs(page, origin, OWNER);
    await page.goto(`${origin}/app/orders/${id}`);
    const card = page.getByTestId('partial-buyout');
    await card.waitFor();
    expect(await card.getByTestId('buyout-line-0').textContent()).toMatch(/RET-LAMP.*211/);
    expect(await card.getByTestId('buyout-line-1').textContent()).toMatch(/RET-MUG.*101/);
    expect(await card.getByTestId('buyout-collected').textContent()).toMatch(/1\s?500,50/);
    const factPrice = (await at.owner.get(`/v2/orders/${id}`)).body.delivery.factPrice as number;
    expect((await page.getByTestId('fact-price').textContent())?.replace(/\s/g, '')).toContain(
      factPrice.toFixed(2).replace('.', ','),
    );
    await check('order-partial-buyout');
  }, 90_000);
});
