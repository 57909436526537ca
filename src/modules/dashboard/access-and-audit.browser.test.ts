/**
 * The API keys and audit trail pages in Chromium (playwright-core): an owner makes a key limited
 * to orders, sees it once, calls the API with it, revokes it; the audit trail shows the key's
 * making with its values and the order the key created, and filters by record. Russian and
 * English, desktop (checkPage: axe-core with no serious or critical finding, screenshots under
 * artifacts/dashboard-access/).
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
import { orderBody, orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';

const { shot } = screenshots('dashboard-access');
const OWNER = { email: 'owner@access.example', password: 'owner password 1' };
const POLL = { timeout: 15_000 };

describe.skipIf(!BROWSER_TESTS)('API keys and the audit trail in the dashboard, in Chromium', () => {
  let t: TestApp;
  let shop: OrderingAccount;
  let origin: string;
  let appDir: string;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[] = [];
  afterEach(() => expect(cspViolations).toEqual([]));

  beforeAll(async () => {
    appDir = await builtApp();
    t = await createTestApp({ env: { APP_DIR: appDir } });
    shop = await orderingAccount(t, { name: 'Ключи и журнал' });
    await t.runtime.services.accounts.addEmployee(shop.accountId, { name: 'Владелец', ...OWNER });
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

  it('makes a key limited to orders, shows it once, and revokes it (Russian)', async () => {
    await page.goto(`${origin}/app/settings/api-keys`);
    const form = page.getByTestId('new-api-key');
    await form.getByLabel('Для чего').fill('Склад');
    await form.getByTestId('scope-orders').click();
    await page.getByTestId('make-api-key').click();
    const shown = page.getByTestId('api-key-shown');
    await shown.waitFor(POLL);
    const key = ((await shown.locator('pre').textContent()) ?? '').trim();
    expect(key).toMatch(/^key_/);
    await checkPage(page, shot, 'api-keys-ru');
    // the key works for orders, and is refused a product, naming the scope
    const client = t.client(key);
    expect((await client.post('/v2/orders', orderBody(shop))).status).toBe(201);
    const refused = await client.call('POST', '/v2/products', {}, { headers: { 'accept-language': 'ru' } });
    expect(refused.body.message).toContain('catalogue');
    await page.reload();
    const row = page.getByTestId('api-key-Склад');
    await expect.poll(async () => (await row.textContent()) ?? '', POLL).toContain('orders');
    await row.getByRole('button', { name: 'Отозвать' }).click();
    await expect.poll(async () => (await row.textContent()) ?? '', POLL).toContain('Отозван');
    expect((await client.get('/v2/orders')).status).toBe(401);
    await checkPage(page, shot, 'api-keys-revoked-ru');
  }, 60_000);

  it('shows who did what in the audit trail, with the values before and after, and filters it (English)', async () => {
    const english = await dashboardPage(browser, { locale: 'en-US' });
    cspViolations = english.cspViolations;
    const en = english.page;
    await signInAs(en, origin, OWNER);
    await en.goto(`${origin}/app/settings/audit`);
    const made = en.getByTestId('audit-createApiKey').first();
    await made.waitFor(POLL);
    expect(await made.textContent()).toContain('employee:');
    await made.getByRole('button', { name: 'Before and after' }).click();
    await expect.poll(async () => (await made.textContent()) ?? '', POLL).toContain('"orders"');
    await expect
      .poll(async () => (await en.getByTestId('audit-createOrder').first().textContent()) ?? '', POLL)
      .toContain('api-key:');
    await checkPage(en, shot, 'audit-en');
    await en.getByLabel('Operation').fill('revokeApiKey');
    await en.getByTestId('audit-filter').click();
    await expect.poll(async () => en.getByTestId('audit-createApiKey').count(), POLL).toBe(0);
    expect(await en.getByTestId('audit-revokeApiKey').count()).toBe(1);
    await checkPage(en, shot, 'audit-filtered-en');
  }, 60_000);
});
