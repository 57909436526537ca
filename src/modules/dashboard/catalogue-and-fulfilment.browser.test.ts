/**
 * The dashboard's catalogue, fulfilment, marketplace and bill pages, and what a shop manager
 * sees, end to end in Chromium (playwright-core), on the suite's database:
 * the owner imports a 2000-row xlsx with bad rows and sees each one; makes a supply and confirms
 * it, the warehouse staff's screen marks it arrived and accepts it, and the stock page shows it
 * with a reservation changing what is free; connects the sandbox marketplace and sees an order
 * arrive; opens a bill; a shop manager sees their shop's orders and not another's (in the page
 * and by the API). axe-core on every page; desktop and phone screenshots under
 * artifacts/dashboard-catalogue-and-fulfilment/. The app is built once for the file; one
 * browser, one context.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
  type FulfilmentAccount,
} from '../../../test/support/fulfilment.js';
import { catchLinks } from '../../../test/support/links.js';
import { orderBody, preparedOrder } from '../../../test/support/orders.js';
import { IMPORT_COLUMNS } from '../products/import/layout.js';

const { shot } = screenshots('dashboard-catalogue-and-fulfilment');
const OWNER = { email: 'owner@catalogue.example', password: 'owner password 1' };
const MANAGER = { email: 'manager@catalogue.example', password: 'manager password 1' };
const SANDBOX_MARKETPLACE = 4;
/** What the page may take on a loaded machine to show an answer. */
const POLL = { timeout: 15_000 };

/** A 2000-row import as a shop saves it, rows 101, 502 and 1999 broken (no name, a bad VAT, a bad country). */
async function importFile(file: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Товары');
  const header = IMPORT_COLUMNS.map((column) => column.key);
  sheet.addRow(header);
  for (let index = 1; index <= 2000; index++) {
    const row = index + 1;
    const values: Record<string, string | number | null> = {
      vendorCode: `TEA-${String(index).padStart(5, '0')}`,
      name: row === 101 ? null : `Чай номер ${index}`,
      vat: row === 502 ? 18 : 20,
      priceDeclared: 100 + index,
      weight: 0.25,
      producingCountry: row === 1999 ? 'ZZ' : 'RU',
      barcodes: `46${String(index).padStart(11, '0')}`,
    };
    sheet.addRow(header.map((key) => values[key] ?? null));
  }
  fs.writeFileSync(file, Buffer.from(await workbook.xlsx.writeBuffer()));
}

describe.skipIf(!BROWSER_TESTS)('dashboard catalogue, fulfilment, marketplaces, bills and roles in Chromium', () => {
  let t: TestApp;
  let at: FulfilmentAccount;
  let origin: string;
  let appDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let staffToken: string;
  let managerOrderId: number;
  let otherOrderId: number;

  const check = (name: string) => checkPage(page, shot, name);
  let cspViolations: string[] = [];
  // the dashboard's strict CSP holds on every page these tests open (browser.test.ts checks the same on the orders pages)
  afterEach(() => expect(cspViolations).toEqual([]));

  const signIn = (who: { email: string; password: string }) => signInAs(page, origin, who);

  beforeAll(async () => {
    appDir = await builtApp();
    t = await createTestApp({ env: { APP_DIR: appDir, MARKETPLACE_SANDBOX_ORDER_SECONDS: '60' } });
    at = await fulfilmentAccount(t, { name: 'Чайная лавка' });
    t.runtime.services.marketplaceOrders.registerJobs(at.worker);
    await t.runtime.services.accounts.addEmployee(at.accountId, { name: 'Владелец', ...OWNER });
    // the manager is invited by e-mail and accepts by the link (caught from the operator's log)
    const links = catchLinks(t);
    expect(
      (
        await at.owner.post('/v2/employees', {
          name: 'Менеджер',
          email: MANAGER.email,
          role: 'manager',
          shopIds: [at.ownShopId],
        })
      ).status,
    ).toBe(201);
    const invitation = await links.tokenFor(MANAGER.email, 'invitation');
    expect(
      (await t.client().post('/v2/auth/invitation', { token: invitation, password: MANAGER.password })).status,
    ).toBe(200);
    staffToken = (await t.runtime.services.supplies.createOperatorToken(FULFILMENT_WAREHOUSE, 'Смена 1')).token;
    managerOrderId = (
      await at.owner.post(
        '/v2/orders',
        orderBody({ shopId: at.ownShopId, pointId: at.pointId }, { cmsId: 'MANAGERS-1' }),
      )
    ).body.id as number;
    otherOrderId = (
      await at.owner.post('/v2/orders', orderBody({ shopId: at.shopId, pointId: at.pointId }, { cmsId: 'NOT-HIS-1' }))
    ).body.id as number;
    // a bill: a delivered order's charges, the period closed by the sandbox
    const delivered = await preparedOrder(
      at.owner,
      at.worker,
      orderBody({ shopId: at.ownShopId, pointId: at.pointId }, { cmsId: 'BILLED-1' }),
    );
    for (
      let step = 0;
      step < 10 && (await at.owner.post(`/v2/sandbox/orders/${delivered.id}/advance`)).status === 200;
      step++
    );
    expect((await at.owner.post('/v2/sandbox/billing-period/close')).status).toBe(200);
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    ({ context, page, cspViolations } = await dashboardPage(browser, { locale: 'ru-RU', acceptDownloads: true }));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  });

  it('imports 2000 rows from the browser and shows every bad row; searches', async () => {
    await signIn(OWNER);
    await page.getByRole('link', { name: 'Товары' }).click();
    await page.getByTestId('products').waitFor();
    const file = path.join(appDir, 'tea.xlsx');
    await importFile(file);
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('import-file').click();
    await (await chooser).setFiles(file);
    await page.getByTestId('import-result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('import-result').textContent()).toContain('1997 из 2000');
    const rows = page.getByTestId('import-errors').locator('tbody tr');
    expect(await rows.count()).toBe(3);
    expect((await rows.allTextContents()).map((text) => text.match(/^\d+/)?.[0])).toEqual(['101', '502', '1999']);
    expect(await rows.nth(0).textContent()).toContain('name');
    await expect.poll(() => page.getByTestId('total').textContent(), POLL).toContain('1997');
    await check('products-import');
    await page.getByTestId('product-search').fill('номер 1234');
    await expect.poll(() => page.getByTestId('total').textContent(), POLL).toBe('Всего: 1');

    // the export takes the page's filter: 123 and 1230..1239
    await page.getByTestId('product-search').fill('номер 123');
    await expect.poll(() => page.getByTestId('total').textContent(), POLL).toBe('Всего: 11');
    const download = page.waitForEvent('download');
    await page.getByTestId('export-products').click();
    const saved = path.join(appDir, 'export.xlsx');
    await (await download).saveAs(saved);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(saved);
    const names: string[] = [];
    workbook.worksheets[0].eachRow((row, number) => {
      if (number > 1)
        names.push(String(row.getCell(IMPORT_COLUMNS.findIndex((column) => column.key === 'name') + 1).value));
    });
    expect(names).toHaveLength(11);
    expect(names.every((name) => name.includes('номер 123'))).toBe(true);
  }, 90_000);

  it('edits a product: its fields, a barcode added, a marketplace binding; kits and boxes', async () => {
    const sandbox = (await at.owner.get('/v2/marketplaces')).body.find(
      (marketplace: { id: number }) => marketplace.id === SANDBOX_MARKETPLACE,
    ) as { name: string; bindingNames: Record<string, { ru: string }> };
    const [bindingName, bindingLabel] = Object.entries(sandbox.bindingNames)[0];
    await page.getByTestId('edit-product-TEA-01234').click();
    const editor = page.getByTestId('product-editor');
    await editor.getByLabel(/^Бренд/).fill('Лавка');
    const barcodes = editor.getByTestId('product-barcodes');
    await barcodes.fill('4600000099999');
    await barcodes.press('Enter');
    await editor.getByTestId('add-binding').click();
    await editor.getByLabel('Маркетплейс 1').click();
    await page.getByRole('option', { name: sandbox.name }).click();
    await editor.getByLabel('Идентификатор 1').click();
    await page.getByRole('option', { name: bindingLabel.ru }).click();
    await editor.getByLabel('Значение 1').fill('TEA-SKU-1234');
    await check('product-edit');
    await editor.getByTestId('save-product').click();
    await editor.getByTestId('product-saved').waitFor();
    const edited = (await at.owner.get('/v2/products?vendorCodes[]=TEA-01234')).body[0];
    expect(edited.brand).toBe('Лавка');
    expect(edited.barcodes).toEqual(['4600000001234', '4600000099999']);
    expect(edited.bindings).toEqual([{ marketplaceId: SANDBOX_MARKETPLACE, [bindingName]: 'TEA-SKU-1234' }]);
    expect(edited.name).toBe('Чай номер 1234');
    await page.keyboard.press('Escape');
    // the list shows the new barcode
    await expect
      .poll(() => page.locator('tr[data-product]').filter({ hasText: 'TEA-01234' }).textContent(), POLL)
      .toContain('4600000099999');

    await page.getByRole('link', { name: 'Комплекты' }).click();
    await page.getByTestId('new-kit').click();
    const kitDialog = page.getByTestId('kit-dialog');
    await kitDialog.getByLabel(/^Имя/).fill('Набор чая');
    await kitDialog.getByLabel(/^Артикул/).fill('KIT-TEA');
    await kitDialog.getByTestId('kit-product-0').fill('TEA-00011');
    await page.getByRole('option', { name: /TEA-00011/ }).click();
    await kitDialog.getByLabel('Количество 1').fill('2');
    await kitDialog.getByTestId('save-kit').click();
    const kitRow = page.locator('tr[data-kit="KIT-TEA"]');
    await expect.poll(() => kitRow.textContent(), POLL).toContain('TEA-00011 × 2');
    await check('kits');
    const kit = (await at.owner.get('/v2/kits?vendorCode=KIT-TEA')).body[0];
    expect(
      kit.products.map((product: { vendorCode: string; count: number }) => [product.vendorCode, product.count]),
    ).toEqual([['TEA-00011', 2]]);

    // edit: a 5 % discount
    await kitRow.getByRole('button', { name: 'Изменить KIT-TEA' }).click();
    await kitDialog.getByLabel(/^Скидка/).fill('5');
    await kitDialog.getByTestId('save-kit').click();
    await expect.poll(async () => (await at.owner.get(`/v2/kits/${kit.id}`)).body.discount, POLL).toBe(5);

    await page.getByRole('link', { name: 'Коробки' }).click();
    await page.getByTestId('new-box').click();
    const boxDialog = page.getByTestId('box-dialog');
    await boxDialog.getByLabel(/^Имя/).fill('Коробка S');
    await boxDialog.getByLabel(/^Ширина/).fill('20');
    await boxDialog.getByLabel(/^Высота/).fill('10');
    await boxDialog.getByLabel(/^Длина/).fill('30');
    await boxDialog.getByTestId('save-box').click();
    await expect.poll(() => page.locator('tr[data-box="Коробка S"]').textContent(), POLL).toContain('20 × 10 × 30');
    await check('boxes');
    await page.getByRole('button', { name: 'Удалить Коробка S' }).click();
    await expect.poll(() => page.locator('tr[data-box="Коробка S"]').count(), POLL).toBe(0);
    expect((await at.owner.get('/v2/boxes')).body).toEqual([]);
  }, 90_000);

  it('a supply from draft to accepted with the warehouse staff, then stock and a reservation', async () => {
    await page.getByRole('link', { name: 'Поставки' }).click();
    await page.getByTestId('supply-product-0').click();
    await page.getByTestId('supply-product-0').fill('TEA-00007');
    await page.getByRole('option', { name: /TEA-00007/ }).click();
    await page.getByLabel('Количество 1').fill('5');
    await page.getByTestId('create-supply').click();
    const row = page.locator('[data-testid^="supply-"]').filter({ hasText: 'TEA-00007' }).first();
    await row.getByRole('button', { name: 'Подтвердить' }).click();
    await expect.poll(() => row.getByTestId('supply-status').textContent(), POLL).not.toMatch(/Draft|Черновик/);
    await check('supplies');
    const supplyId = Number((await row.getAttribute('data-testid'))?.replace('supply-', ''));

    // the warehouse's screen: arrived, then accepted with 4 good and 1 damaged
    await page.goto(`${origin}/app/warehouse`);
    await page.getByLabel(/Токен склада/).fill(staffToken);
    await page.getByTestId('open-staff').click();
    const card = page.getByTestId(`staff-supply-${supplyId}`);
    await card.getByTestId('mark-arrived').click();
    await card.getByTestId('accept-supply').waitFor();
    await card.getByLabel('Принято TEA-00007').fill('4');
    await card.getByLabel('Брак TEA-00007').fill('1');
    await check('warehouse-staff');
    await card.getByTestId('accept-supply').click();
    await expect.poll(async () => (await at.owner.get(`/v2/products/shipments/${supplyId}`)).body.status, POLL).toBe(4);

    await page.goto(`${origin}/app/stock`);
    const stock = page.getByTestId('stock-TEA-00007');
    await expect.poll(() => stock.getByTestId('free').textContent(), POLL).toBe('4');
    await page.getByTestId('movement-report').click();
    const reportHref = await page.getByTestId('movement-report-file').getAttribute('href');
    expect(reportHref).toMatch(/\/files\//);
    // the report reads back: an xlsx naming the product
    const report = new ExcelJS.Workbook();
    await report.xlsx.load(
      (await (await context.request.get(`${origin}${reportHref}`)).body()) as unknown as ArrayBuffer,
    );
    const reportText: string[] = [];
    for (const sheet of report.worksheets) sheet.eachRow((row) => reportText.push(JSON.stringify(row.values)));
    expect(reportText.join('\n')).toContain('TEA-00007');
    await check('stock');
    const productId = (await at.owner.get('/v2/products?vendorCodes[]=TEA-00007')).body[0].id as number;
    const order = await at.owner.post('/v2/orders', fulfilmentOrder(t, at, [[productId, 3]]));
    expect(order.status, order.text).toBe(201);
    // confirming reserves the goods
    expect((await at.owner.post('/v2/orders/confirm', { ids: [order.body.id] })).status).toBe(204);
    await page.reload();
    await expect.poll(() => stock.getByTestId('reserved').textContent(), POLL).toBe('3');
    expect(await stock.getByTestId('free').textContent()).toBe('1');

    // release it from the reservations page: free goes back to 4; reserve again: 1
    const orderRow = page.locator(`tr[data-order="${order.body.id}"]`);
    const reservationOf = async () => (await at.owner.get(`/v2/orders/${order.body.id}`)).body.reservationStatus.key;
    await page.getByRole('link', { name: 'Резервы' }).click();
    await page.getByTestId('reservation-view').getByText('В резерве', { exact: true }).click();
    await orderRow.getByRole('button', { name: /Снять резерв/ }).click();
    await expect.poll(reservationOf, POLL).toBe(3);
    await page.getByRole('link', { name: 'Остатки' }).click();
    await expect.poll(() => stock.getByTestId('reserved').textContent(), POLL).toBe('0');
    expect(await stock.getByTestId('free').textContent()).toBe('4');
    await page.getByRole('link', { name: 'Резервы' }).click();
    await page.getByTestId('reservation-view').getByText('Резерв снят', { exact: true }).click();
    await orderRow.getByRole('button', { name: /Зарезервировать/ }).click();
    await expect.poll(reservationOf, POLL).toBe(2);
    // a preorder: more than there is, confirmed as a preorder, waits for goods
    const preorder = await at.owner.post('/v2/orders', fulfilmentOrder(t, at, [[productId, 10]]));
    expect((await at.owner.post('/v2/orders/confirm', { ids: [preorder.body.id], preOrder: true })).status).toBe(204);
    await page.getByTestId('reservation-view').getByText('Предзаказы, ожидающие товар', { exact: true }).click();
    await page.locator(`tr[data-order="${preorder.body.id}"]`).waitFor();
    await check('reservations');
    await page.getByRole('link', { name: 'Остатки' }).click();
    await expect.poll(() => stock.getByTestId('reserved').textContent(), POLL).toBe('3');
    expect(await stock.getByTestId('free').textContent()).toBe('1');
  }, 90_000);

  it('connects the sandbox marketplace and sees an order arrive; opens a bill', async () => {
    await page.goto(`${origin}/app/marketplaces`);
    const sandbox = page.getByTestId(`marketplace-${SANDBOX_MARKETPLACE}`);
    await sandbox.locator('input').first().fill('demo');
    await sandbox.getByTestId(`connect-marketplace-${SANDBOX_MARKETPLACE}`).click();
    await sandbox.getByText('Подключён').waitFor();
    await t.runtime.services.marketplaceOrders.poll(at.accountId, SANDBOX_MARKETPLACE, undefined, new Date());
    await page.getByTestId('reload-marketplace-orders').click();
    await expect
      .poll(() => page.getByTestId('marketplace-orders').locator('tbody tr').count(), POLL)
      .toBeGreaterThan(0);
    expect(await page.getByTestId('marketplace-orders').textContent()).toContain('SBX-');
    await check('marketplaces');

    await page.goto(`${origin}/app/money`);
    const pdfLink = page.getByTestId('bill-pdf').first();
    await pdfLink.waitFor();
    const href = await pdfLink.getAttribute('href');
    const pdf = Buffer.from(await (await context.request.get(`${origin}${href}`)).body());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await check('money');

    // a widget price rule: the preview's price follows it
    await page.goto(`${origin}/app/settings/shops`);
    const courier = page.getByTestId('preview-price-2');
    await expect.poll(() => courier.textContent(), POLL).toMatch(/\d/);
    const before = await courier.textContent();
    await page.getByTestId('add-rule').click();
    // a new rule is a markup: 500 ₽ more on every way of delivery
    await page.getByTestId('rule-amount-0').fill('500');
    await page.getByTestId('save-widget-settings').click();
    await expect.poll(() => courier.textContent(), POLL).not.toBe(before);
    const money = (text: string | null) => Number((text ?? '').replace(/[^\d,]/g, '').replace(',', '.'));
    expect(money(await courier.textContent())).toBeCloseTo(money(before) + 500, 2);
    // a pickup point company's price is each point's: the preview says "from" its cheapest point
    await expect.poll(() => page.getByTestId('preview-price-1').textContent(), POLL).toMatch(/^от \d/);

    // the rest of the widget's settings: rounding, the default parcel, hidden companies, default services
    const shown = ((await at.owner.get('/v2/shops?perPage=1000')).body as Array<{ id: number }>)[0].id;
    await page.getByTestId('rounding-mode').click();
    await page.getByRole('option', { name: 'Вверх', exact: true }).click();
    await page.getByTestId('rounding-step').fill('100');
    await page.getByTestId('default-weight').fill('0.5');
    await page.getByTestId('default-width').fill('15');
    await page.getByTestId('default-height').fill('10');
    // two sizes of three: said, and not saved until the third
    await page.getByText('Укажите все три размера или ни одного').waitFor();
    expect(await page.getByTestId('save-widget-settings').isDisabled()).toBe(true);
    await page.getByTestId('default-length').fill('25');
    const companies = (await at.owner.get('/v2/lists/delivery-companies')).body as Array<{
      id: number;
      name: string;
      deliveryTypes: number[];
    }>;
    // hidden: a company without couriers, so that the courier's price stays to be seen rounded
    const hidden = companies.find((company) => !company.deliveryTypes.includes(2)) ?? companies[companies.length - 1];
    await page.getByTestId('hidden-companies').click();
    await page.getByRole('option', { name: hidden.name, exact: true }).click();
    await page.keyboard.press('Escape');
    const service = (
      (await at.owner.get(`/v2/lists/services?shopId=${shown}`)).body.delivery as Array<{
        id: number;
        name: string;
      }>
    )[0];
    await page.getByTestId('default-services').click();
    await page.getByRole('option', { name: service.name, exact: true }).click();
    await page.keyboard.press('Escape');
    await check('widget-settings-filled');
    await page.getByTestId('save-widget-settings').click();
    await page.getByTestId('widget-settings-saved').waitFor();
    expect((await at.owner.get(`/v2/shops/${shown}/widget-settings`)).body).toMatchObject({
      defaultWeight: 0.5,
      defaultDimensions: { width: 15, height: 10, length: 25 },
      rounding: { mode: 'up', step: 100 },
      hiddenCompanyIds: [hidden.id],
      defaultServices: [service.id],
    });
    // the preview asks again: the courier's price rounded up to whole hundreds
    await expect.poll(async () => money(await courier.textContent()) % 100, POLL).toBe(0);
    expect(await courier.textContent()).toMatch(/\d/);
    await page.getByTestId('reissue-key').click();
    await expect.poll(() => page.getByTestId('new-key').textContent(), POLL).toContain('shp_');
    await check('shop-settings');

    await page.goto(`${origin}/app/settings/integrations`);
    await page.locator('[data-testid^="contract-"]').first().waitFor();
    await check('integrations');

    await page.goto(`${origin}/app/settings/employees`);
    await page.getByTestId(`employee-${MANAGER.email}`).waitFor();
    await check('employees');
  }, 60_000);

  it("a shop manager sees their shop's orders, not another shop's (page and API), and no owner pages", async () => {
    await page.getByTestId('sign-out').click();
    await page.getByRole('button', { name: 'Войти' }).waitFor();
    await signIn(MANAGER);
    await page.goto(`${origin}/app/orders?list=0`);
    await page.locator(`tr[data-order="${managerOrderId}"]`).waitFor();
    expect(await page.locator(`tr[data-order="${otherOrderId}"]`).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Сотрудники' }).count()).toBe(0);
    await check('manager-orders');
    // the API, with the manager's own session cookie
    expect((await context.request.get(`${origin}/v2/orders/${otherOrderId}`)).status()).toBe(403);
    expect((await context.request.get(`${origin}/v2/orders/${managerOrderId}`)).status()).toBe(200);
    expect((await context.request.get(`${origin}/v2/employees`)).status()).toBe(403);
  });
});
