/**
 * The first-run checklist in Chromium (playwright-core), from an empty account: the landing
 * page while steps are left, the warehouse form's own checks, a shop with its site's origin,
 * Check connection's answer in words, the widget's snippet copied from the page byte for byte
 * into a page of another origin (the widget loads with its SRI hash and writes the buyer's
 * choice into the element the snippet declares), the live preview inside the dashboard under
 * its CSP, and a test order from that choice to its sticker. The page in Russian and English,
 * desktop and phone, axe-core, no CSP violation. Screenshots under artifacts/dashboard-checklist/.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildWidget } from '../../../scripts/build-widget.mjs';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  BROWSER_TESTS,
  builtApp,
  checkPage,
  cspViolationsOf,
  dashboardPage,
  launchChromium,
  screenshots,
  signInAs,
} from '../../../test/support/browser.js';
import type { ApiClient } from '../../../test/support/client.js';
import { realCarrierEnv, startFakeBoxberry, type FakeRealCarrier } from '../../../test/support/fake-real-carriers.js';
import { orderJobWorker } from '../../../test/support/orders.js';

const { shot } = screenshots('dashboard-checklist');
const OWNER = { email: 'owner@first-shop.example', password: 'first shop password' };
const POLL = { timeout: 20_000 };

describe.skipIf(!BROWSER_TESTS)('the first-run checklist in Chromium', () => {
  let t: TestApp;
  let owner: ApiClient;
  let boxberry: FakeRealCarrier;
  let origin: string;
  let appDir: string;
  let widgetDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let shopServer: http.Server;
  let shopOrigin: string;
  let shopPageHtml = '';
  let registration: ReturnType<typeof setInterval>;
  let cspViolations: string[] = [];
  afterEach(() => expect(cspViolations).toEqual([]));

  const check = (name: string) => checkPage(page, shot, name);
  const ticks = async () =>
    Object.fromEntries(
      await page
        .locator('[data-testid^="step-"]')
        .evaluateAll((items) =>
          items.map((item) => [
            (item.getAttribute('data-testid') ?? '').slice(5),
            item.getAttribute('data-done') === 'true',
          ]),
        ),
    );
  const openStep = async (key: string) => {
    const item = page.getByTestId(`step-${key}`);
    if ((await item.locator('[data-accordion-control]').getAttribute('aria-expanded')) !== 'true')
      await item.locator('[data-accordion-control]').click();
  };
  const tick = (key: string) => page.locator(`[data-testid="step-${key}"][data-done="true"]`).waitFor(POLL);

  beforeAll(async () => {
    widgetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-build-'));
    [appDir] = await Promise.all([builtApp(), buildWidget(widgetDir)]);
    boxberry = await startFakeBoxberry();
    t = await createTestApp({ env: { APP_DIR: appDir, WIDGET_DIR: widgetDir, ...realCarrierEnv({ boxberry }) } });
    const account = await t.newAccount('Первый магазин');
    owner = account.client;
    await t.runtime.services.accounts.addEmployee(account.accountId, { name: 'Владелец', ...OWNER });
    // the service's job worker, as `serve` runs it: registration of confirmed orders
    const worker = orderJobWorker(t);
    registration = setInterval(() => void worker.runDue().catch(() => undefined), 200);
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    shopServer = http.createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPageHtml),
    );
    await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
    shopOrigin = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}`;
    browser = await launchChromium();
    ({ context, page, cspViolations } = await dashboardPage(browser, { locale: 'ru-RU' }));
    await signInAs(page, origin, OWNER);
  }, 240_000);
  afterAll(async () => {
    clearInterval(registration);
    await browser?.close();
    await t?.close();
    await boxberry?.close();
    await new Promise((resolve) => shopServer?.close(resolve));
    for (const dir of [appDir, widgetDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lands an empty account on the checklist, nothing done, in Russian and English', async () => {
    await page.getByTestId('checklist-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/checklist');
    expect(await ticks()).toEqual({
      warehouse: false,
      shop: false,
      deliveryCompanies: false,
      widget: false,
      testOrder: false,
      cmsPlugin: false,
    });
    await expect.poll(() => page.getByTestId('checklist-progress').textContent()).toBe('Готово 0 из 6');
    await check('empty-ru');
    await page.getByText('EN', { exact: true }).click();
    await expect.poll(() => page.getByTestId('checklist-progress').textContent()).toBe('0 of 6 done');
    await check('empty-en');
    await page.getByText('RU', { exact: true }).click();
  }, 60_000);

  it('checks the warehouse form before sending it, then ticks the warehouse', async () => {
    const form = page.getByTestId('checklist-warehouse-form');
    await form.getByTestId('checklist-save-warehouse').click();
    await expect.poll(() => form.getByText('Обязательное поле').count()).toBe(4);
    expect(await form.getByText('Телефон вида +79161234567').count()).toBe(1);
    await form.getByLabel('Пн').fill('9-18');
    await form.getByTestId('checklist-save-warehouse').click();
    await form.getByText('Часы вида 09:00-18:00 или пусто для выходного').waitFor();
    await check('warehouse-errors');
    await form.getByLabel(/^Название/).fill('Склад у дома');
    await form.getByLabel(/^Город/).fill('Москва');
    await form.getByLabel(/^Улица/).fill('Складская улица');
    await form.getByLabel(/^Дом/).fill('7');
    await form.getByLabel(/^Контактное лицо/).fill('Иван Петров');
    await form.getByLabel(/^Контактный телефон/).fill('+79161234567');
    await form.getByLabel('Пн').fill('09:00-18:00');
    await form.getByTestId('checklist-save-warehouse').click();
    await tick('warehouse');
    const warehouses = (await owner.get('/v2/warehouses')).body as Array<{ name: string; pickupType: number }>;
    expect(warehouses).toMatchObject([{ name: 'Склад у дома', pickupType: 1 }]);
  }, 60_000);

  it("makes the shop with its site's origin: shop and widget ticked", async () => {
    await page.getByTestId('checklist-shop-form').waitFor();
    const form = page.getByTestId('checklist-shop-form');
    await form.getByLabel(/^Название магазина/).fill('Кружки и чашки');
    await form.getByLabel(/^Бренд/).fill('Кружечная');
    await form.getByTestId('checklist-site-origin').fill(`${shopOrigin}/checkout`);
    await form.getByTestId('checklist-save-shop').click();
    await form.getByText('Адрес вида https://shop.example (без пути)').waitFor();
    await form.getByTestId('checklist-site-origin').fill(shopOrigin);
    await form.getByTestId('checklist-save-shop').click();
    await tick('shop');
    await tick('widget');
  }, 60_000);

  it("says what the company answered a check of credentials, in the company's words", async () => {
    await openStep('deliveryCompanies');
    const step = page.getByTestId('checklist-delivery');
    await step.getByTestId('checklist-company').click();
    await page.getByRole('option', { name: 'Boxberry' }).click();
    await step.getByLabel('API-токен').fill('wrong');
    await step.getByTestId('checklist-check-connection').click();
    const answer = step.getByTestId('connection-check');
    await answer.waitFor();
    expect(await answer.getAttribute('data-outcome')).toBe('refused');
    expect(await answer.textContent()).toContain('«Неверный API-токен»');
    await check('delivery-refused');
    await step.getByLabel('API-токен').fill('good-token');
    await step.getByTestId('checklist-check-connection').click();
    await page.locator('[data-testid="connection-check"][data-outcome="accepted"]').waitFor();
    await step.getByTestId('checklist-connect').click();
    await tick('deliveryCompanies');
  }, 60_000);

  it('puts the snippet, copied from the page, into a page of another origin: the widget loads and writes the choice', async () => {
    await openStep('widget');
    const snippet = await page.getByTestId('widget-snippet').textContent();
    expect(snippet).toContain('id="delivery-selection"');
    expect(snippet).toMatch(/integrity="sha384-[A-Za-z0-9+/=]+" crossorigin="anonymous"/);
    const key = (await owner.get('/v2/shops')).body[0].id as number;
    expect(snippet).toContain((await owner.get(`/v2/shops/${key}/widget-key`)).body.publicKey);
    // the live preview: the real widget in the dashboard, under the dashboard's CSP
    const preview = page.getByTestId('widget-preview');
    await preview.locator('.item').first().waitFor(POLL);
    await check('widget');

    shopPageHtml = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Оформление заказа</title></head><body><h1>Кружки и чашки</h1>\n${snippet}</body></html>`;
    const shop = await context.newPage();
    const shopCsp = cspViolationsOf(shop);
    const failed: string[] = [];
    shop.on('console', (message) => message.type() === 'error' && failed.push(message.text()));
    await shop.goto(`${shopOrigin}/checkout`);
    await shop.locator('#dw-city').fill('Санкт-Пет');
    await shop.locator('.suggest li').first().click();
    await shop.locator('.item[data-point]').first().click();
    await expect.poll(() => shop.locator('#delivery-selection').inputValue(), POLL).toMatch(/^sel_/);
    const token = await shop.locator('#delivery-selection').inputValue();
    expect(failed).toEqual([]);
    expect(shopCsp).toEqual([]);
    await shot(shop, 'shop-page');
    await shop.close();

    // the same token made into the test order from the dashboard, registered, its sticker
    await openStep('testOrder');
    const step = page.getByTestId('checklist-test-order');
    await step.getByTestId('checklist-selection-token').fill(token);
    await step.getByTestId('checklist-recipient-name').fill('Анна Покупатель');
    await step.getByTestId('checklist-recipient-phone').fill('+79990001122');
    await step.getByTestId('checklist-make-order').click();
    await step.getByTestId('checklist-register').click();
    await step.locator('[data-testid="checklist-order-status"][data-status="13"]').waitFor(POLL);
    await step.getByTestId('checklist-print-sticker').click();
    const link = step.getByTestId('checklist-sticker-link');
    await link.waitFor();
    const pdf = await page.request.get(new URL((await link.getAttribute('href')) as string, origin).toString());
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await tick('testOrder');
    await check('test-order');
  }, 120_000);

  it('gives each CMS plugin its values with copy buttons; the page in English at the end', async () => {
    await openStep('cmsPlugin');
    const step = page.getByTestId('checklist-cms');
    const shop = (await owner.get('/v2/shops')).body[0] as { id: number; apiKey: string };
    for (const plugin of ['woocommerce', 'bitrix', 'opencart', 'diafan']) {
      await step.getByTestId(`cms-${plugin}`).click();
      expect(await step.getByTestId(`cms-${plugin}-token`).textContent()).toBe(shop.apiKey);
      expect(await step.getByTestId(`cms-${plugin}-shopId`).textContent()).toBe(String(shop.id));
      expect(await step.getByTestId(`cms-${plugin}-apiUrl`).textContent()).toBe(`${origin}/`);
      expect(await step.getByTestId(`cms-${plugin}-script`).textContent()).toContain('saferoute-compat.js?key=pk_');
    }
    await check('cms-ru');
    await page.getByText('EN', { exact: true }).click();
    await page.getByText('API token (the shop’s key)').first().waitFor();
    await check('cms-en');
    expect(await ticks()).toMatchObject({ warehouse: true, shop: true, widget: true, testOrder: true });
  }, 60_000);
});
