/**
 * Returns in the dashboard, in Chromium (playwright-core): the owner opens the returns list,
 * filters it by status, opens a return a buyer requested (its lines, reasons, photo), approves
 * it and sees its status and parcel change; a refusal without a reason is shown as the
 * service's refusal, then given one; the order's page lists its returns; the shop's return
 * settings are saved and the returns page link shown; the list reads in English too. axe-core
 * and desktop and phone screenshots under artifacts/dashboard-returns/.
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
  tilePng,
} from '../../../test/support/browser.js';
import { orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import { deliveredOrder } from '../../../test/support/returns.js';

const { shot } = screenshots('dashboard-returns');
const OWNER = { email: 'owner@returns-ui.example', password: 'owner password 1' };
const POLL = { timeout: 15_000 };

describe.skipIf(!BROWSER_TESTS)('returns in the dashboard, in Chromium', () => {
  let t: TestApp;
  let a: OrderingAccount;
  let delivered: { id: number; cmsId: string };
  let origin: string;
  let appDir: string;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[] = [];
  afterEach(() => expect(cspViolations).toEqual([]));
  const check = (name: string) => checkPage(page, shot, name);

  /** A return the buyer asks for on the order's returns page (the shop's default rules: the shop decides). */
  async function requestedByBuyer(line: number, reason: string, photos: Array<{ data: string }> = []) {
    const url = t.runtime.services.returns.orderPageUrl(a.accountId, a.shopId, delivered.id) as string;
    const asked = await t.client().post(new URL(url).pathname, {
      lines: [{ line, count: 1, reason, comment: line === 0 ? 'Маломерит' : undefined }],
      option: 'point:1',
      point: { 'point-1': String(a.pointId) },
      photos,
    });
    expect(asked.status, asked.text).toBe(201);
    const [made] = (await a.owner.get(`/v2/returns?orderId=${delivered.id}&status=requested`)).body;
    return made as { id: number; code: string };
  }

  beforeAll(async () => {
    appDir = await builtApp();
    t = await createTestApp({ env: { APP_DIR: appDir, SIMULATION_STEP_SECONDS: '60' } });
    a = await orderingAccount(t, { name: 'Лавка' });
    await t.runtime.services.accounts.addEmployee(a.accountId, { name: 'Владелец', ...OWNER });
    delivered = await deliveredOrder(a.owner, a.worker, { shopId: a.shopId, pointId: a.pointId });
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    ({ page, cspViolations } = await dashboardPage(browser, { locale: 'ru-RU' }));
    await signInAs(page, origin, OWNER);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  });

  it('lists the returns, opens a requested one and approves it; a refusal needs its reason', async () => {
    const first = await requestedByBuyer(0, 'did_not_fit', [{ data: tilePng().toString('base64') }]);
    const second = await requestedByBuyer(2, 'changed_mind');

    await page.getByRole('link', { name: 'Возвраты', exact: true }).click();
    await page.waitForURL('**/app/returns');
    const table = page.getByTestId('returns-table');
    await expect.poll(() => table.locator('[data-return]').count(), POLL).toBe(2);
    expect(await page.getByTestId('total').textContent()).toBe('Всего: 2');
    const row = table.locator(`[data-return="${first.id}"]`);
    expect(await row.textContent()).toContain(first.code);
    expect(await row.textContent()).toContain('Запрошен');
    expect(await row.textContent()).toContain(delivered.cmsId);
    await check('returns-list');

    // the status filter is the API's: refused ones, none yet
    await page.getByTestId('return-status-filter').click();
    await page.getByRole('option', { name: 'Отклонён', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'refused');
    await page.getByTestId('table-empty').waitFor();
    await page.goBack();
    await expect.poll(() => table.locator('[data-return]').count(), POLL).toBe(2);

    await row.getByTestId('return-link').click();
    await page.waitForURL(`**/returns/${first.id}`);
    await expect.poll(() => page.getByTestId('return-code').textContent(), POLL).toBe(first.code);
    const status = page.getByTestId('return-status');
    expect(await status.getAttribute('data-status')).toBe('requested');
    const line = page.getByTestId('return-line-0');
    expect(await line.textContent()).toMatch(/TEE-1 — Футболка.*1.*Не подошёл размер.*Маломерит/);
    expect(await page.getByTestId('return-photo').getAttribute('href')).toMatch(/^\/files\//);
    expect(await page.getByTestId('return-parcel').textContent()).toContain('Создаётся, когда возврат одобрен.');
    await expect.poll(() => page.getByTestId('return-point').textContent(), POLL).not.toContain('#');
    await check('return-requested');

    await page.getByTestId('return-approve').click();
    await expect.poll(() => status.getAttribute('data-status'), POLL).toBe('approved');
    expect(await status.textContent()).toBe('Одобрен');
    expect(await page.getByTestId('return-approve').count()).toBe(0);
    expect(await page.getByTestId('return-cancel').count()).toBe(1);
    const parcelOrderId = (await a.owner.get(`/v2/returns/${first.id}`)).body.parcelOrderId as number;
    expect(await page.getByTestId('return-parcel-order').textContent()).toBe(String(parcelOrderId));
    expect(await page.getByTestId('return-history').textContent()).toContain('Одобрен магазином');
    await check('return-approved');

    // the second: refused without a reason, the service's refusal is shown; then with one
    await page.goto(`${origin}/app/returns/${second.id}`);
    await page.getByTestId('return-refuse').click();
    await page.getByTestId('api-error').waitFor();
    expect(await status.getAttribute('data-status')).toBe('requested');
    await page.getByTestId('return-refusal-reason').fill('Товар был в употреблении');
    await page.getByTestId('return-refuse').click();
    await expect.poll(() => status.getAttribute('data-status'), POLL).toBe('refused');
    expect(await page.getByTestId('return-refusal').textContent()).toBe('Отклонён: Товар был в употреблении');
    expect(await page.getByTestId('api-error').count()).toBe(0);

    // the order's page lists both, each linking to its return
    await page.getByTestId('return-order').click();
    const card = page.getByTestId('order-returns');
    await expect.poll(() => card.locator('[data-return]').count(), POLL).toBe(2);
    expect(await card.locator(`[data-return="${first.id}"]`).textContent()).toContain('Одобрен');
    await check('order-returns');
    await card.locator(`[data-return="${second.id}"]`).getByTestId('order-return-link').click();
    await page.waitForURL(`**/returns/${second.id}`);

    // in English, the statuses in English
    await page.getByText('EN', { exact: true }).click();
    await page.goto(`${origin}/app/returns`);
    await expect.poll(() => table.locator(`[data-return="${first.id}"]`).textContent(), POLL).toContain('Approved');
    expect(await table.locator(`[data-return="${second.id}"]`).textContent()).toContain('Refused');
    await page.getByText('RU', { exact: true }).click();
  }, 60_000);

  it("saves the shop's return settings and shows its returns page link", async () => {
    const companyName = (await a.owner.get('/v2/lists/delivery-companies')).body.find(
      (company: { id: number }) => company.id === 1,
    ).name as string;
    await page.goto(`${origin}/app/settings/shops`);
    await page.getByTestId('settings-shop').click();
    await page.getByRole('option', { name: 'Мой магазин', exact: true }).click();
    await page.getByTestId('shop-return-settings').click();
    await page.waitForURL(`**/settings/return-settings?shop=${a.shopId}`);

    const days = page.getByTestId('rt-window-days');
    await expect.poll(() => days.inputValue(), POLL).toBe('14');
    // never saved: no way chosen, the page says what buyers get meanwhile
    expect(await page.getByTestId('rt-no-ways').textContent()).toContain('пункты');
    await days.fill('30');
    await page.getByTestId('rt-way-on-courier').check();
    await page.getByTestId('rt-way-courier').locator('.mantine-MultiSelect-input').click();
    await page.getByRole('option', { name: companyName, exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('rt-payer-shop').check();
    await page.getByTestId('rt-auto-approve').check();
    await page.getByTestId('rt-auto').locator('.mantine-MultiSelect-input').click();
    await page.getByRole('option', { name: 'Брак', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('rt-auto-max-value').fill('5000');
    await page.getByTestId('rt-save').click();
    await page.getByTestId('rt-saved').waitFor();

    const saved = (await a.owner.get(`/v2/shops/${a.shopId}/return-settings`)).body;
    expect(saved).toMatchObject({
      enabled: true,
      windowDays: 30,
      ways: [{ way: 'courier', companyIds: [1] }],
      payer: 'shop',
      autoApprove: { reasons: ['defective'], maxGoodsValue: 5000, withinDays: null },
    });
    expect(await page.getByTestId('rt-page-url').textContent()).toBe(saved.pageUrl);
    await check('return-settings');
  }, 30_000);
});
