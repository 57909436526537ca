/**
 * The checkout widget in a real browser (Chromium driven by playwright-core): a shop's page on
 * one loopback port embeds widget.js (with its SRI hash) from the service on another, the buyer
 * types a city, picks a point in the list and on the map, the page hears `select`, the shop's
 * server confirms the token and the order is there. Also list-only (`map: 'none'`) at a phone's
 * size (each tab's own choice, the days on one line, the list's fade), a city the service does
 * not know, English, open and close, and the faults a page must survive. Screenshots go to
 * artifacts/widget/.
 * Skipped without Chromium, and where CI says so (BROWSER_TESTS=0: the second Node line).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWidget } from '../../../scripts/build-widget.mjs';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  accessibilityFindings as findings,
  BROWSER_TESTS,
  DESKTOP,
  launchChromium,
  PHONE,
  screenshots,
  tilePng,
} from '../../../test/support/browser.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';

const { dir: ARTIFACTS, shot } = screenshots('widget');

describe.skipIf(!BROWSER_TESTS)('the checkout widget in Chromium', () => {
  let t: TestApp;
  let owner: ApiClient;
  let apiOrigin: string;
  let shopServer: http.Server;
  let shopOrigin: string;
  let publicKey: string;
  let shopIdOfKey: number;
  let browser: Browser;
  let widgetDir: string;
  let manifest: Awaited<ReturnType<typeof buildWidget>>;
  const tile = tilePng();

  /** The shop's checkout page: the script tag with SRI, a mount call, the events kept for the test. */
  function shopPage(
    options: Record<string, unknown>,
    script = `${apiOrigin}/widget/v1/${manifest.widget.file}`,
  ): string {
    return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Оформление заказа</title>
<script src="${script}" integrity="${manifest.widget.integrity}" crossorigin="anonymous"></script>
<style>body{font-family:Georgia,serif;margin:16px;background:#faf7f2} h1{font-size:20px}</style></head>
<body><h1>Магазин: доставка</h1><div id="delivery"></div><p id="after">Страница магазина работает</p>
<script>
window.events = [];
try {
  const widget = DeliveryWidget.mount('#delivery', ${JSON.stringify(options)});
  for (const name of ['ready', 'quote', 'change', 'select', 'city-not-found', 'open', 'close', 'error']) widget.on(name, (detail) => window.events.push({ name, detail }));
  window.widget = widget;
} catch (error) { window.events.push({ name: 'mount-failed', detail: String(error) }); }
</script></body></html>`;
  }

  let nextPage = '';
  async function open(
    options: Record<string, unknown>,
    viewport = DESKTOP,
    script?: string,
  ): Promise<{ page: Page; requests: string[]; apiLanguages: Array<string | undefined> }> {
    nextPage = shopPage(
      {
        publicKey,
        locale: 'ru',
        products: [{ name: 'Кружка', price: 1000, count: 1, weight: 0.5, width: 10, height: 10, length: 15 }],
        ...options,
      },
      script,
    );
    const context = await browser.newContext({ viewport, locale: 'ru-RU' });
    const page = await context.newPage();
    const requests: string[] = [];
    // the Accept-Language of each call to the service's API (preflights aside)
    const apiLanguages: Array<string | undefined> = [];
    page.on('request', (request) => {
      requests.push(request.url());
      if (request.url().includes('/widget/v1/api/') && request.method() !== 'OPTIONS')
        apiLanguages.push(request.headers()['accept-language']);
    });
    await page.goto(`${shopOrigin}/checkout`);
    return { page, requests, apiLanguages };
  }

  async function events(page: Page, name: string): Promise<unknown[]> {
    return page.evaluate(
      (wanted) =>
        (globalThis as unknown as { events: Array<{ name: string; detail: unknown }> }).events
          .filter((event) => event.name === wanted)
          .map((event) => event.detail),
      name,
    );
  }

  async function waitForEvent(page: Page, name: string): Promise<unknown> {
    await page.waitForFunction(
      (wanted) =>
        (globalThis as unknown as { events: Array<{ name: string }> }).events.some((event) => event.name === wanted),
      name,
      { timeout: 20_000 },
    );
    return (await events(page, name))[0];
  }

  /** axe-core's serious and critical findings in the widget (its shadow root included). */
  const accessibilityFindings = (page: Page) => findings(page, '#delivery');

  async function confirm(token: string, cmsId: string): Promise<number> {
    const made = await owner.post(
      '/v2/widget/orders',
      { selectionToken: token, cmsId, recipient: { fullName: 'Анна Покупатель', phone: '+79990001122' } },
      { headers: { 'idempotency-key': cmsId } },
    );
    expect(made.status).toBe(201);
    return made.body.id;
  }

  beforeAll(async () => {
    widgetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-build-'));
    manifest = await buildWidget(widgetDir);
    t = await createTestApp({ env: { WIDGET_DIR: widgetDir } });
    owner = (await t.newAccount('Магазин')).client;
    const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    const shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    shopIdOfKey = shopId;
    apiOrigin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    shopServer = http.createServer((request, response) => {
      if (request.url?.startsWith('/tiles/'))
        return void response.writeHead(200, { 'content-type': 'image/png' }).end(tile);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(nextPage);
    });
    await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
    shopOrigin = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}`;
    publicKey = (await owner.post(`/v2/shops/${shopId}/widget-key`, { allowedOrigins: [shopOrigin] })).body.publicKey;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => shopServer?.close(resolve));
    // playwright gives the browser a fresh profile of its own and removes it on close
    if (widgetDir) fs.rmSync(widgetDir, { recursive: true, force: true });
  });

  it('a city typed, a point picked in the list and on the map, confirmed by the shop server', async () => {
    const { page, requests } = await open({
      map: { tiles: `${shopOrigin}/tiles/{z}/{x}/{y}.png`, attribution: '© тестовые тайлы' },
    });
    await waitForEvent(page, 'ready');
    const typedAt = Date.now();
    await page.locator('#dw-city').fill('Санкт-Пет');
    await page.locator('.suggest li').first().click();
    await page.locator('.item[data-point]').first().waitFor();
    const firstItemMs = Date.now() - typedAt;
    const quote = (await waitForEvent(page, 'quote')) as { city: { name: string }; options: unknown[] };
    expect(quote.city.name).toBe('Санкт-Петербург');
    await shot(page, 'desktop-list');
    expect(await accessibilityFindings(page)).toEqual([]);

    await page.locator('.item[data-point]').first().click();
    const selected = (await waitForEvent(page, 'select')) as {
      token: string;
      quote: { mode: number; point: { id: number } };
    };
    expect(selected.quote.mode).toBe(1);
    const orderId = await confirm(selected.token, 'WEB-1');
    const order = await owner.get(`/v2/orders/${orderId}`);
    expect(order.body.delivery.point.id).toBe(selected.quote.point.id);
    expect(order.body.cmsId).toBe('WEB-1');

    const mapShownAt = Date.now();
    await page.locator('button[data-view="map"]').click();
    await page.locator('.map [data-point]').first().waitFor({ timeout: 20_000 });
    const firstMarkerMs = Date.now() - mapShownAt;
    await shot(page, 'desktop-map');
    expect(await accessibilityFindings(page)).toEqual([]);
    await page.locator('.map [data-point]').first().click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { events: Array<{ name: string }> }).events.filter((event) => event.name === 'select')
          .length === 2,
    );
    const fromMap = ((await events(page, 'select')) as Array<{ token: string }>)[1];
    await confirm(fromMap.token, 'WEB-2');
    // nobody but the shop's page, its tiles and the service was asked
    expect(requests.filter((url) => !url.startsWith(shopOrigin) && !url.startsWith(apiOrigin))).toEqual([]);
    expect(await events(page, 'error')).toEqual([]);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(
      path.join(ARTIFACTS, 'timings.json'),
      `${JSON.stringify({ firstListItemMs: firstItemMs, firstMarkerMs }, null, 2)}\n`,
    );
    await page.context().close();
  }, 90_000);

  it("map: 'none' at a phone's size: a list only, a courier slot chosen too", async () => {
    const { page, requests, apiLanguages } = await open({ map: 'none', defaultLocation: { name: 'Москва' } }, PHONE);
    await page.locator('.item[data-point]').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('button[data-view]').count()).toBe(0);
    expect(requests.some((url) => url.includes('widget-map'))).toBe(false);
    // payment said in words a buyer reads right: a bare "карта" read as "map"
    const rows = (await page.locator('.item[data-point] .muted').allTextContents()).join('\n');
    expect(rows).toMatch(/оплата (наличными или )?картой/);
    expect(rows).not.toMatch(/(^|[·,] )(карта|наличные)( [·,]|$)/m);
    await shot(page, 'phone-list');
    const status = page.locator('.status');
    const firstPoint = page.locator('.item[data-point]').first();
    const pointId = await firstPoint.getAttribute('data-point');
    await firstPoint.click();
    const fromList = (await waitForEvent(page, 'select')) as { token: string };
    await confirm(fromList.token, 'PHONE-1');
    const pointChosen = await status.textContent();
    expect(pointChosen).toMatch(/^Выбрано: /);

    // a choice belongs to its tab: the courier's shows none until the buyer makes one there
    await page.locator('button[data-mode="2"]').click();
    await page.locator('input[name="street"]').waitFor();
    expect(await status.textContent()).toBe('');
    expect(await page.locator('.item[aria-selected="true"]').count()).toBe(0);
    expect((await events(page, 'change')).at(-1)).toMatchObject({ mode: 2, selection: null });
    await shot(page, 'phone-courier-nothing-chosen');
    await page.locator('input[name="street"]').fill('Тверская улица');
    await page.locator('input[name="house"]').fill('1');
    await page.locator('.item[data-company]').first().click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { events: Array<{ name: string }> }).events.filter((event) => event.name === 'select')
          .length === 2,
    );
    const courier = ((await events(page, 'select')) as Array<{ token: string; quote: { mode: number } }>)[1];
    expect(courier.quote.mode).toBe(2);
    const orderId = await confirm(courier.token, 'PHONE-2');
    expect((await owner.get(`/v2/orders/${orderId}`)).body.deliveryAddress.street).toBe('Тверская улица');
    expect(await status.textContent()).not.toBe(pointChosen);
    await shot(page, 'phone-courier');
    expect(await accessibilityFindings(page)).toEqual([]);
    // and back on the pickup tab, its own choice again
    await page.locator('button[data-mode="1"]').click();
    await page.locator(`.item[data-point="${pointId}"][aria-selected="true"]`).waitFor();
    expect(await status.textContent()).toBe(pointChosen);
    expect((await events(page, 'change')).at(-1)).toMatchObject({ mode: 1, selection: { token: fromList.token } });

    // the post tab lists post offices; the one chosen is where the order waits
    await page.locator('button[data-mode="3"]').click();
    await page.locator('.item[data-point]').first().waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toBe('');
    // a phone's list: each row's days on one line, and a fade at its foot while rows wait below
    const days = await page.locator('.list .days').evaluateAll((boxes) =>
      boxes.map((box) => ({
        height: (box as unknown as { getBoundingClientRect(): { height: number } }).getBoundingClientRect().height,
        line: Number.parseFloat(
          (globalThis as unknown as { getComputedStyle(element: unknown): { lineHeight: string } }).getComputedStyle(
            box,
          ).lineHeight,
        ),
      })),
    );
    expect(days.length).toBeGreaterThan(3);
    for (const { height, line } of days) expect(height).toBeCloseTo(line, 0);
    const list = page.locator('.list');
    const foot = () =>
      list.evaluate((element) => {
        const box = element as unknown as {
          scrollHeight: number;
          clientHeight: number;
          classList: { contains(name: string): boolean };
        };
        const style = (
          globalThis as unknown as { getComputedStyle(element: unknown): { maskImage: string } }
        ).getComputedStyle(element);
        return {
          scrolls: box.scrollHeight > box.clientHeight,
          faded: box.classList.contains('more') && style.maskImage.includes('gradient'),
        };
      });
    expect(await foot()).toEqual({ scrolls: true, faded: true });
    await shot(page, 'phone-post');
    await list.evaluate((element) => {
      const box = element as unknown as { scrollTop: number; scrollHeight: number };
      box.scrollTop = box.scrollHeight;
    });
    await expect.poll(foot).toEqual({ scrolls: true, faded: false });
    await shot(page, 'phone-post-scrolled-to-end');
    expect(await accessibilityFindings(page)).toEqual([]);
    await page.locator('.item[data-point]').first().click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { events: Array<{ name: string }> }).events.filter((event) => event.name === 'select')
          .length === 3,
    );
    const post = (
      (await events(page, 'select')) as Array<{
        token: string;
        quote: { mode: number; point: { id: number; zipCode: string } };
      }>
    )[2];
    expect(post.quote.mode).toBe(3);
    const postOrder = (await owner.get(`/v2/orders/${await confirm(post.token, 'PHONE-3')}`)).body;
    expect(postOrder).toMatchObject({
      delivery: { type: 3, point: { id: post.quote.point.id, isPost: true } },
      deliveryAddress: { zipCode: post.quote.point.zipCode },
    });
    // every call told the service the widget's language
    expect(apiLanguages.length).toBeGreaterThan(5);
    expect(new Set(apiLanguages)).toEqual(new Set(['ru']));
    await page.context().close();
  }, 90_000);

  it('a city the service does not know: said, its offers and the choice gone, an event for the shop', async () => {
    const { page } = await open({ map: 'none', defaultLocation: { name: 'Москва' } }, PHONE);
    await page.locator('.item[data-point]').first().click();
    await waitForEvent(page, 'select');
    await page.locator('#dw-city').fill('Нетакогогорода');
    expect(await waitForEvent(page, 'city-not-found')).toEqual({ name: 'Нетакогогорода' });
    expect(await page.locator('.status').textContent()).toBe('Город «Нетакогогорода» не найден. Проверьте название.');
    // no Moscow point or price left to choose under the name typed
    expect(await page.locator('.item, button[data-mode], .suggest li').count()).toBe(0);
    expect(await page.locator('#dw-city').inputValue()).toBe('Нетакогогорода');
    await shot(page, 'phone-city-not-found');
    expect(await accessibilityFindings(page)).toEqual([]);

    // a city it knows again: its offers, nothing chosen; its post offices nearest its centre first
    await page.locator('#dw-city').fill('Казань');
    await page.locator('.suggest li').first().click();
    await page.locator('.item[data-point]').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.item[aria-selected="true"]').count()).toBe(0);
    expect(await page.locator('.status').textContent()).toBe('');
    await page.locator('button[data-mode="3"]').click();
    await page.locator('.item[data-point]').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.item[data-point] .muted').first().textContent()).toMatch(/^Казань, /);
    await shot(page, 'phone-kazan-post');
    await page.context().close();
  }, 60_000);

  it('an unknown city after the map of another: nothing of it left; then a courier address from the suggestions by keyboard', async () => {
    const { page } = await open({
      map: { tiles: `${shopOrigin}/tiles/{z}/{x}/{y}.png`, attribution: '© тестовые тайлы' },
      defaultLocation: { name: 'Москва' },
    });
    await page.locator('.item[data-point]').first().waitFor({ timeout: 20_000 });
    await page.locator('button[data-view="map"]').click();
    await page.locator('.map [data-point]').first().waitFor({ timeout: 20_000 });
    await page.locator('#dw-city').fill('Нетакогогорода');
    await waitForEvent(page, 'city-not-found');
    // no Moscow point, price, tab or marker left under the name typed
    expect(await page.locator('.item, .price, button[data-mode]').count()).toBe(0);
    expect(await page.locator('.map').isVisible()).toBe(false);
    expect(await page.locator('.map [data-point]').filter({ visible: true }).count()).toBe(0);
    await shot(page, 'map-then-city-not-found');

    await page.locator('#dw-city').fill('Москва');
    await page.locator('.suggest li').first().click();
    await page.locator('button[data-mode="2"]').click();
    const street = page.locator('input[name="street"]');
    const house = page.locator('input[name="house"]');
    const flat = page.locator('input[name="flat"]');
    await street.pressSequentially('тверск');
    const streets = page.locator('.address .suggest li');
    await streets.first().waitFor();
    expect(await street.getAttribute('aria-expanded')).toBe('true');
    await street.press('Escape');
    expect(await streets.count()).toBe(0);
    await street.pressSequentially('а');
    await streets.first().waitFor();
    await shot(page, 'courier-street-suggested');
    await street.press('ArrowDown');
    expect(await page.locator('.address .suggest li[aria-selected="true"]').count()).toBe(1);
    await street.press('Enter');
    await expect.poll(() => street.inputValue()).toMatch(/Тверская/);
    await expect.poll(() => house.evaluate((input) => input.matches(':focus'))).toBe(true);
    await house.pressSequentially('1');
    await page.locator('.address .suggest li').first().waitFor();
    await shot(page, 'courier-house-suggested');
    await house.press('ArrowDown');
    await house.press('Enter');
    await expect.poll(() => flat.evaluate((input) => input.matches(':focus'))).toBe(true);
    await flat.pressSequentially('15');
    expect(await house.inputValue()).toMatch(/^1/);
    await shot(page, 'courier-address-picked');
    expect(await accessibilityFindings(page)).toEqual([]);
    await page.locator('.item[data-company]').first().click();
    const chosen = (await waitForEvent(page, 'select')) as {
      token: string;
      choice: { address: Record<string, unknown> };
    };
    expect(chosen.choice.address).toMatchObject({
      street: expect.stringMatching(/Тверская/),
      house: expect.stringMatching(/^1/),
      flat: '15',
      zipCode: expect.stringMatching(/^\d{6}$/),
      fiasId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    });
    const order = (await owner.get(`/v2/orders/${await confirm(chosen.token, 'COURIER-SUGGESTED')}`)).body;
    expect(order.deliveryAddress).toMatchObject({
      flat: '15',
      register: { houseFiasId: chosen.choice.address.fiasId, finding: null },
    });
    await page.context().close();
  }, 60_000);

  it('in English: every call says so to the service; payment and a city not found in English', async () => {
    const { page, apiLanguages } = await open(
      { locale: 'en', map: 'none', defaultLocation: { name: 'Москва' } },
      PHONE,
    );
    await page.locator('.item[data-point]').first().waitFor({ timeout: 20_000 });
    const rows = (await page.locator('.item[data-point] .muted').allTextContents()).join('\n');
    expect(rows).toMatch(/pay (in cash or )?by card/);
    expect(rows).not.toMatch(/(^|[·,] )(card|cash)( [·,]|$)/m);
    await shot(page, 'phone-list-en');
    await page.locator('#dw-city').fill('Нетакогогорода');
    await waitForEvent(page, 'city-not-found');
    expect(await page.locator('.status').textContent()).toBe('City “Нетакогогорода” not found. Check the name.');
    // the browser's own language is Russian (ru-RU): the widget's locale wins
    expect(apiLanguages.length).toBeGreaterThan(2);
    expect(new Set(apiLanguages)).toEqual(new Set(['en']));
    await page.context().close();
  }, 60_000);

  it('close() hides the widget and open() shows it again as it was, each once with its event', async () => {
    const { page } = await open({ map: 'none', defaultLocation: { name: 'Москва' } }, PHONE);
    await page.locator('.item[data-point]').first().click();
    await waitForEvent(page, 'select');
    const status = await page.locator('.status').textContent();
    const height = () =>
      page
        .locator('#delivery')
        .evaluate(
          (host) => (host as unknown as { getBoundingClientRect(): { height: number } }).getBoundingClientRect().height,
        );
    expect(await height()).toBeGreaterThan(300);
    await page.evaluate(() => {
      const widget = (globalThis as unknown as { widget: { close(): void } }).widget;
      widget.close();
      widget.close();
    });
    expect(await height()).toBe(0);
    expect(await page.locator('#dw-city').isVisible()).toBe(false);
    await shot(page, 'phone-closed');
    await page.evaluate(() => {
      const widget = (globalThis as unknown as { widget: { open(): void } }).widget;
      widget.open();
      widget.open();
    });
    await page.locator('.item[aria-selected="true"]').waitFor();
    expect(await height()).toBeGreaterThan(300);
    expect(await page.locator('.status').textContent()).toBe(status);
    expect(await events(page, 'close')).toEqual([{}]);
    expect(await events(page, 'open')).toEqual([{}]);
    await page.context().close();
  }, 60_000);

  it("a widget-era plugin's page, unchanged but for the script URL: SafeRouteCartWidget's done, then update-order", async () => {
    nextPage = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<script src="${apiOrigin}/widget/v1/saferoute-compat.js?key=${publicKey}" charset="utf-8"></script></head>
<body><div id="sr_widget"></div><script>
window.events = [];
const widget = new SafeRouteCartWidget('sr_widget', { apiScript: '/wp-json/saferoute-widget-api/saferoute', lang: 'ru', currency: 'rub', mod: 'woocommerce',
  products: [{ name: 'Кружка', vendorCode: 'MUG-1', price: '1200', discount: '200', count: '1', width: 10, height: 10, length: 15 }], weight: 0.5,
  regionName: 'Москва', userFullName: 'Вера Плагинова', userPhone: '+7 999 000-22-33' });
for (const name of ['start', 'change', 'done', 'error']) widget.on(name, (data) => window.events.push({ name, detail: data }));
</script></body></html>`;
    const context = await browser.newContext({ viewport: PHONE, locale: 'ru-RU' });
    const page = await context.newPage();
    await page.goto(`${shopOrigin}/checkout`);
    await page.locator('.item[data-point]').first().waitFor({ timeout: 20_000 });
    await page.locator('.item[data-point]').first().click();
    const done = (await waitForEvent(page, 'done')) as { id: string; confirmed: boolean; checkoutSessId: string };
    expect(done.confirmed).toBe(false);
    const change = (await events(page, 'change'))[0] as {
      city: { name: string };
      contacts: { fullName: string };
      delivery: { type: number; point: { id: number }; totalPrice: number };
    };
    expect(change).toMatchObject({
      city: { name: 'Москва' },
      contacts: { fullName: 'Вера Плагинова' },
      delivery: { type: 1 },
    });
    expect((await context.cookies()).map((cookie) => cookie.name)).toContain('SR_checkoutSessId');
    await shot(page, 'phone-saferoute-compat');
    const updated = await owner.post(
      '/v2/widgets/update-order',
      { id: done.id, cmsId: '2001', status: 'wc-on-hold', paymentMethod: 'cod' },
      { form: true, headers: { 'shop-id': String(shopIdOfKey) } },
    );
    expect(updated.status).toBe(200);
    const order = await owner.get(`/v2/orders/${updated.body.cabinetId}`);
    expect(order.body).toMatchObject({
      cmsId: '2001',
      delivery: { point: { id: change.delivery.point.id } },
      recipient: { fullName: 'Вера Плагинова' },
    });
    await context.close();
  }, 60_000);

  it('the other kinds: an information page chooses nothing, a product card shows the cheapest and soonest per way', async () => {
    const info = await open({ kind: 'info', map: 'none', defaultLocation: { name: 'Москва' } }, PHONE);
    await info.page.locator('.item[data-point]').first().waitFor({ timeout: 20_000 });
    expect(await info.page.locator('.item[role="option"]').count()).toBe(0);
    await info.page.locator('.item[data-point]').first().click();
    await info.page.locator('button[data-mode="2"]').click();
    await info.page.locator('.item[data-company]').first().waitFor();
    expect(await info.page.locator('input[name="street"]').count()).toBe(0);
    expect(await events(info.page, 'select')).toEqual([]);
    await shot(info.page, 'phone-info');
    expect(await accessibilityFindings(info.page)).toEqual([]);
    await info.page.context().close();

    const card = await open({ kind: 'card', map: 'none', defaultLocation: { name: 'Москва' } }, PHONE);
    const quote = (await waitForEvent(card.page, 'quote')) as {
      options: Array<{ mode: number; totalPrice: number; deliveryDays: { min: number } }>;
    };
    await card.page.locator('.item.card').first().waitFor();
    const modes = [...new Set(quote.options.map((option) => option.mode))].sort();
    expect(
      await card.page
        .locator('.item.card')
        .evaluateAll((items) =>
          items.map((item) => Number((item as unknown as { dataset: { mode?: string } }).dataset.mode)),
        ),
    ).toEqual(modes);
    const pickup = quote.options.filter((option) => option.mode === 1);
    const text = await card.page.locator('.item.card[data-mode="1"]').textContent();
    expect(text).toContain(`${Math.min(...pickup.map((option) => option.deliveryDays.min))} дн.`);
    expect(text?.replace(/\s/g, '')).toContain(
      String(Math.min(...pickup.map((option) => option.totalPrice))).replace('.', ','),
    );
    expect(await card.page.locator('.item[data-point], button[data-view], button[data-mode]').count()).toBe(0);
    await shot(card.page, 'phone-card');
    expect(await accessibilityFindings(card.page)).toEqual([]);
    await card.page.context().close();
  }, 90_000);

  it('a bad key and an unreachable service: an error event and a message; the page goes on', async () => {
    const bad = await open({ map: 'none', publicKey: 'pk_wrong', defaultLocation: { name: 'Москва' } }, PHONE);
    const refused = (await waitForEvent(bad.page, 'error')) as { code: string; status: number };
    expect(refused).toMatchObject({ code: 'invalid_widget_key', status: 401 });
    await bad.page.context().close();

    const down = await open({ map: 'none', apiUrl: 'http://127.0.0.1:9', defaultLocation: { name: 'Москва' } }, PHONE);
    const unreachable = (await waitForEvent(down.page, 'error')) as { code: string };
    expect(unreachable.code).toBe('unreachable');
    expect(await down.page.locator('.status').textContent()).toContain('недоступен');
    expect(await down.page.locator('#after').textContent()).toBe('Страница магазина работает');
    await shot(down.page, 'phone-unreachable');
    await down.page.context().close();
  }, 60_000);
});
