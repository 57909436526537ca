/**
 * The dashboard's settings, marketplaces and money pages end to end in Chromium
 * (playwright-core), on the suite's database, one service start for the file: a shop
 * created and edited with its notifications; a warehouse's working hours and a holiday; an own
 * delivery method; the sandbox marketplace's shipment schemes saved and a good not matched to
 * the catalogue matched to a product; the cash-on-delivery page; a webhook edited, its secret
 * rotated, a delivery's attempts shown and the delivery sent again; Check connection of a
 * contract against the fake Boxberry, typed credentials refused and accepted, then the stored
 * contract, in Russian and English. axe-core on every page; desktop and phone screenshots
 * under artifacts/dashboard-settings/.
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
import { realCarrierEnv, startFakeBoxberry, type FakeRealCarrier } from '../../../test/support/fake-real-carriers.js';
import { fulfilmentAccount, newProduct, type FulfilmentAccount } from '../../../test/support/fulfilment.js';
import { orderBody, preparedOrder } from '../../../test/support/orders.js';
import { startReceiver, type FakeReceiver } from '../../../test/support/webhook-receiver.js';
import { WebhookPump } from '../webhooks/pump.js';

const { shot } = screenshots('dashboard-settings');
const OWNER = { email: 'owner@settings.example', password: 'owner password 1' };
const SANDBOX_MARKETPLACE = 4;
const BOXBERRY = 1002;
const POLL = { timeout: 15_000 };
const quiet = { error: () => undefined, warn: () => undefined };

describe.skipIf(!BROWSER_TESTS)('the dashboard settings, marketplaces and money pages in Chromium', () => {
  let t: TestApp;
  let at: FulfilmentAccount;
  let origin: string;
  let appDir: string;
  let browser: Browser;
  let page: Page;
  let receiver: FakeReceiver;
  let pump: WebhookPump;
  let boxberry: FakeRealCarrier;

  const check = (name: string) => checkPage(page, shot, name);
  let cspViolations: string[] = [];
  // the dashboard's strict CSP holds on every page these tests open (browser.test.ts checks the same on the orders pages)
  afterEach(() => expect(cspViolations).toEqual([]));

  beforeAll(async () => {
    appDir = await builtApp();
    boxberry = await startFakeBoxberry();
    t = await createTestApp({
      env: {
        ...realCarrierEnv({ boxberry }),
        APP_DIR: appDir,
        MARKETPLACE_SANDBOX_ORDER_SECONDS: '60',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_TIMEOUT_SECONDS: '2',
      },
    });
    at = await fulfilmentAccount(t, { name: 'Настройки' });
    t.runtime.services.marketplaceOrders.registerJobs(at.worker);
    await t.runtime.services.accounts.addEmployee(at.accountId, { name: 'Владелец', ...OWNER });
    receiver = await startReceiver();
    pump = new WebhookPump(t.runtime.services.webhooks, t.runtime.services.jobs, quiet, { concurrency: 2, pollMs: 20 });
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    ({ page, cspViolations } = await dashboardPage(browser, { locale: 'ru-RU' }));
    await signInAs(page, origin, OWNER);
  }, 180_000);
  afterAll(async () => {
    await pump?.stop(100);
    await receiver?.close();
    await browser?.close();
    await t?.close();
    await boxberry?.close();
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  });

  it('creates a shop with its notifications and edits it', async () => {
    await page.goto(`${origin}/app/settings/shops`);
    await page.getByTestId('new-shop').click();
    const form = page.getByTestId('shop-form');
    await form.getByLabel('Название').fill('Книжная полка');
    await form.getByLabel(/^Бренд/).fill('Полка');
    await form.getByTestId('shop-warehouse').click();
    await page.getByRole('option', { name: 'Склад на Складской' }).click();
    await form.getByLabel('Почту аккаунта').check();
    await form.getByLabel('Новый заказ').check();
    await check('shop-form');
    await form.getByTestId('save-shop').click();
    await form.waitFor({ state: 'detached' });
    const shops = (await at.owner.get('/v2/shops?perPage=100')).body as Array<Record<string, never>>;
    const created = shops.find((shop) => shop.name === 'Книжная полка') as unknown as {
      id: number;
      brand: string;
      notifications: { events: Record<string, boolean>; currentAccount: { enabled: boolean } };
    };
    expect(created.brand).toBe('Полка');
    expect(created.notifications.events.newOrder).toBe(true);
    expect(created.notifications.currentAccount.enabled).toBe(true);

    await page.getByTestId('settings-shop').click();
    await page.getByRole('option', { name: 'Книжная полка' }).click();
    await page.getByTestId('edit-shop').click();
    await form.getByLabel(/^Бренд/).fill('Полка книг');
    await form.getByLabel('Заказ отправлен на возврат').check();
    await form.getByTestId('save-shop').click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const edited = (await at.owner.get(`/v2/shops/${created.id}`)).body;
    expect(edited.brand).toBe('Полка книг');
    expect(edited.notifications.events).toMatchObject({ newOrder: true, ordersSentForReturn: true });
    await check('shop-settings');
  }, 60_000);

  it("changes a warehouse's working hours and adds a holiday", async () => {
    await page.goto(`${origin}/app/settings/warehouses`);
    await page.getByTestId('warehouse-Склад на Складской').click();
    const form = page.getByTestId('warehouse-form');
    await form.getByLabel('Сб').fill('10:00-15:00');
    await form.getByTestId('holidays').click();
    await page.locator('[data-direction="next"]').first().click();
    await page.locator('table button:not([data-outside])', { hasText: /^15$/ }).first().click();
    await page.keyboard.press('Escape');
    // the calendar fades out before it is gone: checked mid-fade, its days fail colour contrast
    await page.locator('[data-direction="next"]').first().waitFor({ state: 'hidden' });
    await check('warehouse-form');
    await form.getByTestId('save-warehouse').click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const warehouses = (await at.owner.get('/v2/warehouses?perPage=100')).body as Array<{
      name: string;
      schedule: unknown[];
      holidays: string[];
    }>;
    const own = warehouses.find((warehouse) => warehouse.name === 'Склад на Складской');
    expect(own?.schedule[5]).toMatchObject({ from: '10:00', to: '15:00' });
    expect(own?.holidays).toHaveLength(1);
    expect(own?.holidays[0]).toMatch(/-15$/);
    await check('warehouses');
  }, 60_000);

  it('creates an own delivery method', async () => {
    await page.goto(`${origin}/app/settings/delivery-methods`);
    await page.getByTestId('new-method').click();
    const form = page.getByTestId('method-form');
    await form.getByLabel('Название').fill('Курьер по городу');
    await form.getByLabel('Цена 1').fill('350');
    await check('delivery-method-form');
    await form.getByTestId('save-method').click();
    await page.getByTestId('method-Курьер по городу').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const methods = (await at.owner.get('/v2/delivery-methods')).body as Array<{
      name: string;
      type: number;
      priceRules: Array<{ price: number }>;
    }>;
    expect(methods).toEqual([
      expect.objectContaining({
        name: 'Курьер по городу',
        type: 2,
        priceRules: [expect.objectContaining({ price: 350 })],
      }),
    ]);
    await check('delivery-methods');
  }, 60_000);

  it('saves the sandbox marketplace schemes and matches a good to a product', async () => {
    const productId = await newProduct(at.owner, { vendorCode: 'MATCH-1', name: 'Чай для сопоставления' });
    await page.goto(`${origin}/app/marketplaces`);
    const sandbox = page.getByTestId(`marketplace-${SANDBOX_MARKETPLACE}`);
    await sandbox.locator('input').first().fill('demo');
    await sandbox.getByTestId(`connect-marketplace-${SANDBOX_MARKETPLACE}`).click();
    const schemes = page.getByTestId(`schemes-${SANDBOX_MARKETPLACE}`);
    // FBS kept (the sandbox's orders are FBS but every fourth), DBS switched off
    await schemes.getByLabel('FBS').waitFor();
    await schemes.getByLabel('FBS').setChecked(true);
    await schemes.getByLabel('DBS').setChecked(false);
    await schemes.getByTestId(`save-schemes-${SANDBOX_MARKETPLACE}`).click();
    await schemes.getByText('Сохранено').waitFor();
    const sandboxRead = (
      (await at.owner.get('/v2/marketplaces')).body as Array<{ id: number; settings: Record<string, boolean> | null }>
    ).find((marketplace) => marketplace.id === SANDBOX_MARKETPLACE);
    expect(sandboxRead?.settings).toMatchObject({ fbsEnabled: true, dbsEnabled: false });

    await t.runtime.services.marketplaceOrders.poll(at.accountId, SANDBOX_MARKETPLACE, undefined, new Date());
    await page.reload();
    const notMatched = page.getByTestId('not-matched');
    const row = notMatched.locator('tbody tr').first();
    await expect.poll(() => notMatched.locator('input').count(), POLL).toBeGreaterThan(0);
    const before = await notMatched.locator('input').count();
    await row.locator('input').fill('MATCH-1');
    await page.getByRole('option', { name: /MATCH-1/ }).click();
    await expect.poll(() => notMatched.locator('input').count(), POLL).toBe(before - 1);
    const bindings = (await at.owner.get(`/v2/products/${productId}`)).body.bindings as Array<{
      marketplaceId: number;
    }>;
    expect(bindings).toEqual([expect.objectContaining({ marketplaceId: SANDBOX_MARKETPLACE })]);

    await page.getByTestId('marketplace-search').fill('SBX-');
    await expect
      .poll(() => page.getByTestId('marketplace-orders').locator('tbody tr').count(), POLL)
      .toBeGreaterThan(0);
    await check('marketplaces-settings');
  }, 90_000);

  it('shows cash on delivery owed and paid', async () => {
    const delivered = await preparedOrder(
      at.owner,
      at.worker,
      orderBody({ shopId: at.ownShopId, pointId: at.pointId }),
    );
    for (
      let step = 0;
      step < 10 && (await at.owner.post(`/v2/sandbox/orders/${delivered.id}/advance`)).status === 200;
      step++
    );
    const owed = (await at.owner.get('/v2/orders?list=0&withCod=1&codReceived=0')).body as Array<{ id: number }>;
    const paid = (await at.owner.get('/v2/orders?list=0&withCod=1&codReceived=1')).body as Array<{ id: number }>;
    expect([...owed, ...paid].map((order) => order.id)).toContain(delivered.id);
    await page.goto(`${origin}/app/money/cod`);
    const tab = owed.some((order) => order.id === delivered.id) ? 'К получению' : 'Получено';
    await page.getByText(tab, { exact: true }).click();
    await expect.poll(() => page.getByTestId(`cod-${delivered.id}`).textContent(), POLL).toMatch(/900/);
    await check('cod');
  }, 60_000);

  it("makes a test delivery history, shows delivery on time per company and route, and an order's promise", async () => {
    await page.goto(`${origin}/app/money/delivery-times`);
    await page.getByTestId('make-delivery-history').click();
    await expect
      .poll(async () => Number(await page.getByTestId('on-time-parcels').textContent()), POLL)
      .toBeGreaterThan(1000);
    expect(await page.getByTestId('on-time-share').count()).toBeGreaterThan(1);
    await page.getByText('365 дн.', { exact: true }).click();
    await check('delivery-times');
    const created = await at.owner.post(
      '/v2/orders',
      orderBody({ shopId: at.ownShopId, pointId: at.pointId }, { cmsId: 'PROMISE-PAGE' }),
    );
    expect(created.status, created.text).toBe(201);
    await page.goto(`${origin}/app/orders/${created.body.id}`);
    await expect.poll(() => page.getByTestId('order-promise').textContent(), POLL).toMatch(/Придёт до .+ · по \d+/);
    await check('order-promise');
  }, 60_000);

  it('edits a webhook, rotates its secret, shows a delivery’s attempts and sends it again', async () => {
    const created = await at.owner.post('/v2/webhooks', { url: receiver.url });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    // a real event, so that the webhook has a delivery in its log
    const order = await at.owner.post(
      '/v2/orders',
      orderBody({ shopId: at.ownShopId, pointId: at.pointId }, { cmsId: 'HOOK-1' }),
    );
    expect(order.status, order.text).toBe(201);
    await pump.drain();
    const sent = receiver.received.length;
    expect(sent).toBeGreaterThan(0);

    await page.goto(`${origin}/app/settings/integrations`);
    await page.getByTestId(`webhook-${id}`).click();
    const edit = page.getByTestId(`webhook-edit-${id}`);
    await edit.getByTestId('webhook-url').fill(`${receiver.url}?v=2`);
    await edit.getByTestId('webhook-events').click();
    await page.getByRole('option', { name: 'order.created', exact: true }).click();
    await page.keyboard.press('Escape');
    await edit.getByTestId('save-webhook').click();
    await expect
      .poll(async () => (await at.owner.get(`/v2/webhooks/${id}`)).body, POLL)
      .toMatchObject({ url: `${receiver.url}?v=2`, eventTypes: ['order.created'] });
    await page.getByTestId(`webhook-${id}`).click();
    await page.getByTestId(`webhook-${id}`).click();
    await page.getByTestId(`webhook-edit-${id}`).getByTestId('rotate-secret').click();
    await expect.poll(() => page.getByTestId('new-secret').textContent(), POLL).toMatch(/whsec_|\w{20}/);

    const deliveryId = ((await at.owner.get(`/v2/webhooks/${id}/deliveries`)).body as Array<{ id: number }>)[0]?.id;
    await page.getByTestId(`show-attempts-${deliveryId}`).click();
    await expect.poll(() => page.getByTestId(`attempts-${deliveryId}`).textContent(), POLL).toContain('200');
    await check('integrations-webhook');
    await page.getByTestId(`send-again-${deliveryId}`).click();
    await expect
      .poll(async () => {
        await pump.drain();
        return receiver.received.length;
      }, POLL)
      .toBe(sent + 1);
  }, 60_000);

  it("checks a contract's connection: typed credentials before connecting, then the stored contract (Russian, English)", async () => {
    await page.goto(`${origin}/app/settings/integrations`);
    const card = page.getByTestId(`contract-${BOXBERRY}`);
    const button = card.getByTestId(`check-contract-${BOXBERRY}`);
    const answer = card.getByTestId('connection-check');
    // nothing to check until every field is filled
    expect(await button.isDisabled()).toBe(true);
    await card.getByLabel('API-токен').fill('wrong');
    await button.click();
    await answer.waitFor(POLL);
    expect(await answer.getAttribute('data-outcome')).toBe('refused');
    expect(await answer.textContent()).toBe(
      'Служба доставки «Boxberry» отклонила эти данные: «Неверный API-токен». Проверьте их в личном кабинете службы.',
    );
    await check('integrations-check-refused');
    // other values typed: the answer about the old ones goes
    await card.getByLabel('API-токен').fill('good-token');
    expect(await answer.count()).toBe(0);
    await button.click();
    await card.locator('[data-testid="connection-check"][data-outcome="accepted"]').waitFor(POLL);
    expect(await answer.textContent()).toBe('Служба доставки «Boxberry» приняла эти данные: подключение работает.');
    // a check stores nothing
    const listed = async () =>
      ((await at.owner.get('/v2/carrier-integrations')).body as Array<{ companyId: number; connected: boolean }>).find(
        (contract) => contract.companyId === BOXBERRY,
      )?.connected;
    expect(await listed()).toBe(false);

    await card.getByTestId(`connect-contract-${BOXBERRY}`).click();
    await card.getByText('Подключён').waitFor(POLL);
    expect(await listed()).toBe(true);
    await page.getByText('EN', { exact: true }).click();
    await card.getByText('Connected').waitFor();
    // the stored contract: no field to fill
    await button.click();
    await card.locator('[data-testid="connection-check"][data-outcome="accepted"]').waitFor(POLL);
    expect(await answer.textContent()).toBe('Boxberry accepted these credentials: the connection works.');
    await check('integrations-check-stored-en');
    // the company failing on its side now is said too
    boxberry.mode = '500';
    await button.click();
    await card.locator('[data-testid="connection-check"][data-outcome="unavailable"]').waitFor(POLL);
    expect(await answer.textContent()).toBe(
      'Boxberry is not working now (an error on its side, or it asked us to wait). Try again later.',
    );
    boxberry.mode = 'ok';
    await page.getByText('RU', { exact: true }).click();
  }, 60_000);
});
