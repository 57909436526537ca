/**
 * The merchant dashboard end to end in Chromium (playwright-core), against the service on the
 * suite's database (SQLite, or PostgreSQL with DATABASE_URL): an employee signs in, creates an
 * order by hand with a point chosen on the map, confirms it, prints its sticker (the PDF's text
 * read back by pdftotext), books a pickup, finds the order by search and by a filter, confirms a
 * batch in which one order fails (its error next to it), has the session end while typing an
 * order (signs in again, the text is still there), and signs out. Then: a sticker set large enough
 * to be a job (STICKER_SYNC_LABELS=3) shows its progress and its PDF; waybills and acts are formed
 * after the places check (the act's PDF read back); a problem order is re-priced (refused, said in
 * its row) and cancelled in one click; an order of a catalogue product in two measured places goes
 * by courier on a chosen day and interval. axe-core on every page; a
 * screenshot of each at desktop and phone sizes under artifacts/dashboard/. The app is built
 * once (Vite, ~3 s) for the file; one browser, one context.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../scripts/build-app.mjs';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  accessibilityFindings,
  animationsSettled,
  BROWSER_TESTS,
  checkPage,
  cspViolationsOf,
  DESKTOP,
  launchChromium,
  PHONE,
  screenshots,
  tilePng,
} from '../../../test/support/browser.js';
import type { ApiClient } from '../../../test/support/client.js';
import { productBody, shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { orderBody, orderJobWorker, pickupPointIn, preparedOrder } from '../../../test/support/orders.js';
import { pdfText, pdfToolsMissing } from '../../../test/support/pdf-tools.js';
import { JobWorker } from '../../platform/jobs.js';

const { shot } = screenshots('dashboard');
const EMAIL = 'operator@dashboard.example';
const PASSWORD = 'operator password 1';

/** The next working day after today (Monday to Friday), YYYY-MM-DD: pickups are booked for one. */
function nextWorkday(from = new Date()): string {
  const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + 1));
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** The first working day after `from` whose date passes `wanted`, YYYY-MM-DD. */
function workdayWhere(wanted: (day: { day: number; month: number }) => boolean, from = new Date()): string {
  let day = nextWorkday(from);
  while (!wanted({ day: Number(day.slice(8, 10)), month: Number(day.slice(5, 7)) }))
    day = nextWorkday(new Date(`${day}T12:00:00Z`));
  return day;
}

/** YYYY-MM-DD as a person in Russia types it: dd.mm.yyyy, or d.m.yyyy without the zeros. */
function dotted(day: string, zeros = true): string {
  const [year, month, date] = day.split('-');
  return zeros ? `${date}.${month}.${year}` : `${Number(date)}.${Number(month)}.${year}`;
}

describe.skipIf(!BROWSER_TESTS)('the merchant dashboard in Chromium', () => {
  let t: TestApp;
  let owner: ApiClient;
  let worker: JobWorker;
  let stickerWorker: JobWorker;
  let pointId: number;
  let origin: string;
  let tiles: http.Server;
  let appDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let shopId: number;
  let cspViolations: string[] = [];
  const tile = tilePng();

  /** The layout's transitions after a resize have ended (the navigation slides away on a phone). */
  const check = (name: string) => checkPage(page, shot, name);
  /** The actions an order's page offers, in their order. */
  const actionsShown = () =>
    page
      .locator('[data-testid^="action-"]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid')));

  /** Opens a page of the app, signing in if the session has ended (an earlier test signs out). */
  async function open(url: string, ready: ReturnType<Page['getByTestId']>): Promise<void> {
    await page.goto(url);
    const signInButton = page.getByRole('button', { name: 'Войти' });
    await signInButton.or(ready).first().waitFor();
    if (await signInButton.isVisible()) await signIn();
    await ready.waitFor();
  }

  async function signIn(): Promise<void> {
    await page.getByLabel(/E-mail|Эл. почта/).fill(EMAIL);
    await page.getByLabel(/^(Password|Пароль)/).fill(PASSWORD);
    await page.getByRole('button', { name: /Sign in|Войти/ }).click();
  }

  beforeAll(async () => {
    appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-build-'));
    await buildApp(appDir);
    tiles = http.createServer(
      (_request, response) => void response.writeHead(200, { 'content-type': 'image/png' }).end(tile),
    );
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const tileOrigin = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;
    t = await createTestApp({
      // more than 3 labels are a job: the sticker job's progress is seen with a few orders
      env: {
        STICKER_SYNC_LABELS: '3',
        APP_DIR: appDir,
        APP_MAP_TILES: `${tileOrigin}/{z}/{x}/{y}.png`,
        APP_MAP_ATTRIBUTION: '© test tiles',
      },
    });
    const account = await t.newAccount('Магазин чая');
    owner = account.client;
    await t.runtime.services.accounts.addEmployee(account.accountId, {
      name: 'Оператор',
      email: EMAIL,
      password: PASSWORD,
    });
    const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id as number;
    shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id as number;
    worker = orderJobWorker(t);
    stickerWorker = new JobWorker(t.runtime.services.jobs, { error: () => undefined, warn: () => undefined });
    t.runtime.services.documents.registerJobs(stickerWorker);
    // two orders for the batch: one draft, one canceled (confirming it fails)
    pointId = pickupPointIn(t);
    await owner.post('/v2/orders', orderBody({ shopId, pointId }, { cmsId: 'BATCH-1' }));
    const canceled = (await owner.post('/v2/orders', orderBody({ shopId, pointId }, { cmsId: 'BATCH-2' }))).body
      .id as number;
    expect((await owner.post('/v2/orders/cancel', { ids: [canceled] })).status).toBe(204);
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP, locale: 'ru-RU', acceptDownloads: true });
    page = await context.newPage();
    cspViolations = cspViolationsOf(page);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    tiles?.closeAllConnections();
    await new Promise((resolve) => tiles?.close(resolve));
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  });

  it('serves the app at /app/ with a strict CSP, hashed assets for a year, any path as the page', async () => {
    const index = await fetch(`${origin}/app/`);
    expect(index.status).toBe(200);
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    const html = await index.text();
    expect(html).not.toContain('__CSP_NONCE__');
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${origin}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    await asset.arrayBuffer();
    const deep = await fetch(`${origin}/app/orders/123`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('cache-control')).toBe('no-cache');
    await deep.text();
    const gone = await fetch(`${origin}/app/assets/gone-123.js`);
    expect(gone.status).toBe(404);
    // every body read: an unread answer keeps its connection busy, and the service's close waits for it
    await gone.text();
  });

  it('the sign-in page asks nothing that needs a session and logs no error; signed in, a reload asks who once', async () => {
    // a browser that never signed in here: its own context, its own storage
    const fresh = await browser.newContext({ viewport: DESKTOP, locale: 'ru-RU' });
    const visitor = await fresh.newPage();
    const asked: string[] = [];
    /** Errors the console logs (a failed load among them), and answers of 400 or more. */
    const failures: string[] = [];
    visitor.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/v2/')) asked.push(`${request.method()} ${pathname}`);
    });
    visitor.on('console', (message) => {
      if (message.type() === 'error') failures.push(message.text());
    });
    visitor.on('pageerror', (error) => failures.push(error.message));
    visitor.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    await visitor.goto(`${origin}/app/orders`);
    await visitor.getByRole('button', { name: 'Войти' }).waitFor();
    await visitor.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
    expect(failures).toEqual([]);

    await visitor.getByLabel(/E-mail|Эл. почта/).fill(EMAIL);
    await visitor.getByLabel(/^(Password|Пароль)/).fill(PASSWORD);
    await visitor.getByRole('button', { name: 'Войти' }).click();
    await visitor.getByTestId('orders-table').waitFor();
    expect(asked[0]).toBe('POST /v2/auth/session');
    // signed in, a reload learns who it is by one question, and the page stays signed in
    asked.length = 0;
    await visitor.reload();
    await visitor.getByTestId('orders-table').waitFor();
    await visitor.waitForLoadState('networkidle');
    expect(asked.filter((call) => call.endsWith('/v2/auth/session'))).toEqual(['GET /v2/auth/session']);
    expect(asked.indexOf('GET /v2/auth/session')).toBe(0);
    expect(failures).toEqual([]);

    // signed out: the next visit asks nothing again
    await visitor.getByTestId('sign-out').click();
    await visitor.getByRole('button', { name: 'Войти' }).waitFor();
    asked.length = 0;
    await visitor.reload();
    await visitor.getByRole('button', { name: 'Войти' }).waitFor();
    await visitor.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
    expect(failures).toEqual([]);
    await fresh.close();
  });

  it('an operator signs in, makes an order on the map, confirms it, prints its sticker, books a pickup, finds it, fails a batch and signs out', async () => {
    await page.goto(`${origin}/app/orders`);
    await page.getByRole('button', { name: 'Войти' }).waitFor();
    await check('sign-in');
    await signIn();
    await page.getByTestId('orders-table').waitFor();
    await expect.poll(() => page.getByTestId('count-8').textContent()).toBe('1');
    // the page opens on all orders (a draft and a canceled one here), not on an empty tab
    expect(await page.getByTestId('tab-0').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(2);
    // no bare number box beside the batch actions: storage's days are asked in a dialog
    expect(await page.getByTestId('batch-bar').locator('input').count()).toBe(0);
    await check('orders');

    // a new order by hand, the point chosen on the map
    await page.getByRole('link', { name: 'Новый заказ' }).first().click();
    await page.getByTestId('recipient-name').fill('Ольга Смирнова');
    await page.getByTestId('recipient-phone').fill('+79211234567');
    await page.getByTestId('city').fill('Санкт-Пет');
    await page
      .getByRole('option', { name: /^Санкт-Петербург/ })
      .first()
      .click();
    await page.getByRole('combobox', { name: 'Улица' }).fill('Невский проспект');
    await page.getByRole('combobox', { name: 'Дом', exact: true }).fill('10');
    await page.getByLabel('Название').fill('Чай улун');
    // the declared value is asked once, per item on the goods' line; the order's sum is shown under them
    expect(await page.getByLabel(/Объявленная ценность/).count()).toBe(1);
    await page.getByLabel(/Объявленная ценность/).fill('700');
    await expect.poll(() => page.getByTestId('declared-total').textContent()).toMatch(/700/);
    await page.locator('tr[data-option^="1:1:"] input[type="radio"]').first().check({ timeout: 30_000 });
    // every company's and tariff's price in one list, cheapest first, equal prices by fewer days
    const offered = await page
      .locator('[data-testid="quotes"] tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.getAttribute('data-price') ? Number(row.getAttribute('data-price')) : Number.POSITIVE_INFINITY,
          Number(row.getAttribute('data-days')),
        ]),
      );
    expect(offered.length).toBeGreaterThan(2);
    expect(offered).toEqual([...offered].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    const marker = page.locator('[data-testid="point-map"] path[data-point]').first();
    await marker.waitFor({ timeout: 20_000 });
    const pointId = Number(await marker.getAttribute('data-point'));
    // the click Leaflet hears on that marker (markers of one street overlap: a click at a position may hit its neighbour)
    await marker.dispatchEvent('click');
    await expect.poll(() => page.getByTestId('chosen-point').textContent()).toMatch(/^Пункт: .+Санкт-Петербург/);
    await check('order-form');
    await page.getByTestId('save-order').click();
    await page.waitForURL(/\/app\/orders\/\d+$/);
    const orderId = Number(/orders\/(\d+)$/.exec(page.url())?.[1]);
    const created = (await owner.get(`/v2/orders/${orderId}`)).body;
    expect(created.delivery.point.id).toBe(pointId);
    expect(created.recipient.fullName).toBe('Ольга Смирнова');
    expect(created.products[0].priceDeclared).toBe(700);
    expect(created.deliveryAddress.city.name).toBe('Санкт-Петербург');

    // confirm; the registration job runs; the sticker's PDF opens and reads back
    await page.getByTestId('action-confirm').click();
    await page.getByRole('status').filter({ hasText: 'Готово' }).waitFor();
    await worker.runDue();
    await page.reload();
    await page.getByTestId('action-sticker').waitFor();
    // ready for shipment: no return and no longer storage (those wait for the pickup point)
    expect(await actionsShown()).toEqual([
      'action-sticker',
      'action-pack',
      'action-cancel',
      'action-duplicate',
      'action-duplicateBack',
    ]);
    await check('order-page');

    // in English every status name on the page, the tracking card's too, is English
    const english = (await owner.get('/v2/lists/order-statuses?lang=en')).body as Record<string, string>;
    const tracked = (await owner.get(`/v2/tracking?id=${orderId}`)).body as { statusHistory: Array<{ code: number }> };
    await page.getByText('EN', { exact: true }).click();
    await expect
      .poll(() => page.getByTestId('tracking-status').textContent())
      .toBe(english[String(tracked.statusHistory[0].code)]);
    expect(await page.getByTestId('order-status').textContent()).toBe(english['13']);
    const history = await page.locator('.mantine-Timeline-itemTitle').allTextContents();
    expect(history.length).toBeGreaterThan(1);
    for (const name of history) expect(Object.values(english)).toContain(name);
    await shot(page, 'order-page-en-desktop');
    await page.getByText('RU', { exact: true }).click();
    await page.getByRole('heading', { name: /^Заказ / }).waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('action-sticker').click()]);
    const stickerUrl = popup.url().startsWith('http') ? popup.url() : '';
    await popup.close();
    expect(stickerUrl).toMatch(/\/files\//);
    const pdf = Buffer.from(await (await context.request.get(stickerUrl)).body());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    if (!pdfToolsMissing)
      expect(pdfText(pdf)).toContain(String((await owner.get(`/v2/orders/${orderId}`)).body.trackNumber));

    // a pickup, its day typed as a person in Russia types it (day first), not picked
    await page.getByRole('link', { name: 'Заборы' }).click();
    const pickupDate = page.getByTestId('pickup-date');
    await page.locator('[data-testid^="pickup-company-"]').first().check();
    // a day the calendar has not: said under the field, and nothing can be booked with it
    await pickupDate.fill('31.02.2027');
    await pickupDate.blur();
    await page.getByText('«31.02.2027» — не дата', { exact: false }).waitFor();
    expect(await page.getByTestId('book-pickup').isDisabled()).toBe(true);
    await check('pickups-date-refused');
    // a day after the 12th (read month first it was no date, and the field emptied without a word)
    const lateInMonth = workdayWhere(({ day }) => day > 12);
    await pickupDate.fill(dotted(lateInMonth, false));
    await pickupDate.blur();
    expect(await pickupDate.inputValue()).toBe(dotted(lateInMonth));
    await expect.poll(() => page.getByText('не дата', { exact: false }).count()).toBe(0);
    // a day up to the 12th (read month first it was another day, and booked so): booked on the day typed
    const ambiguous = workdayWhere(({ day, month }) => day <= 12 && day !== month);
    await pickupDate.fill(dotted(ambiguous));
    await pickupDate.blur();
    expect(await pickupDate.inputValue()).toBe(dotted(ambiguous));
    await page.getByTestId('book-pickup').click();
    // the table is there, empty, before the booking: wait for the booked pickup's row (CI once read the list too early)
    await page.getByTestId('pickups-table').locator('[data-pickup]').first().waitFor();
    const pickups = (await owner.get('/v2/pickups')).body as Array<{ date: string }>;
    expect(pickups.map((pickup) => pickup.date)).toEqual([ambiguous]);
    // its status in the page's language (the service names statuses in English: it read "New")
    const status = await page.getByTestId('pickups-table').locator('[data-pickup]').first().innerText();
    // (a badge's letters are capitals by its style: innerText shows them so)
    expect(status).toMatch(/новый|запланирован/i);
    expect(status).not.toMatch(/new|scheduled/i);
    await check('pickups');

    // found by search, and by a filter
    await page.goto(`${origin}/app/orders?list=0`);
    await page.getByTestId('search').fill(String(created.recipient.phone).slice(-7));
    await expect.poll(() => page.locator('tr[data-order]').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator(`tr[data-order="${orderId}"]`).count()).toBe(1);
    await page.getByTestId('search').fill('');
    await page.getByTestId('filters-toggle').click();
    await page.getByRole('combobox', { name: 'Наклейка напечатана' }).click();
    await page.getByRole('option', { name: 'Да', exact: true }).click();
    await expect.poll(() => page.url()).toContain('stickerFormed=1');
    await expect.poll(() => page.locator('tr[data-order]').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator(`tr[data-order="${orderId}"]`).count()).toBe(1);

    // a batch confirm where one order fails: its error next to it, the other untouched
    await page.goto(`${origin}/app/orders?list=0&search=BATCH-`);
    await expect.poll(() => page.locator('tr[data-order]').count(), { timeout: 15_000 }).toBe(2);
    await page.getByLabel('Выбрать страницу').check();
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-confirm').click();
    await page.getByTestId('batch-failed').waitFor();
    const failing = page.locator('tr[data-order] [data-testid="row-error"]');
    expect(await failing.count()).toBe(1);
    expect((await failing.textContent())?.length).toBeGreaterThan(3);
    await expect.poll(() => page.getByTestId('log-id').textContent()).toMatch(/\S+/);
    await check('orders-batch-error');

    for (const [link, name] of [
      ['Проблемные', 'problems'],
      ['Документы', 'documents'],
      ['Уведомления', 'notifications'],
    ] as const) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { level: 2, name: link }).first().waitFor();
      if (name === 'documents') {
        // the order's sticker (A4) is named by its format, not by a number
        await page.locator('[data-testid^="sticker-set-"]').first().waitFor();
        const links = await page.locator('[data-testid^="sticker-set-"] a').allTextContents();
        expect(links).toEqual(['Наклейки A4 (4 на листе)']);
      }
      await check(name);
    }

    // English, then back
    await page.getByText('EN', { exact: true }).click();
    await page.getByRole('link', { name: 'Orders', exact: true }).waitFor();
    await page.getByText('RU', { exact: true }).click();

    // the session ends while an order is being typed: sign in again, the text is still there
    await page.getByRole('link', { name: 'Новый заказ' }).first().click();
    await page.getByTestId('recipient-name').fill('Пётр Черновиков');
    await t.runtime.database.db.deleteFrom('access_tokens').where('employee_id', 'is not', null).execute();
    t.runtime.services.tokens.forgetAll();
    await page.getByTestId('city').fill('Моск');
    await page.getByTestId('session-ended').waitFor({ timeout: 15_000 });
    await signIn();
    await expect.poll(() => page.getByTestId('recipient-name').inputValue()).toBe('Пётр Черновиков');

    // sign out: back to sign-in, and the cookie no longer works
    const cookies = await context.cookies(origin);
    await page.getByTestId('sign-out').click();
    await page.getByRole('button', { name: 'Войти' }).waitFor();
    const session = cookies.find((cookie) => cookie.name === 'dashboard_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
    const after = await fetch(`${origin}/v2/auth/session`, {
      headers: { cookie: `dashboard_session=${session?.value}` },
    });
    expect(after.status).toBe(401);
    await after.text();
    expect(cspViolations).toEqual([]);
  }, 240_000);

  it('forms a sticker set by a job with its progress, waybills and acts with the places check, and fixes a problem in one click', async () => {
    const jobs = [];
    for (const cmsId of ['JOB-1', 'JOB-2'])
      jobs.push(
        await preparedOrder(
          owner,
          worker,
          orderBody({ shopId, pointId }, { cmsId, places: [{ weight: 0.3 }, { weight: 0.2 }] }),
        ),
      );
    const problem = (
      await owner.post(
        '/v2/orders',
        orderBody(
          { shopId, pointId },
          { cmsId: 'PROBLEM-1', deliveryAddress: { city: { countryCode: 'RU', name: 'Нигдебург' } } },
        ),
      )
    ).body.id as number;

    await page.setViewportSize(DESKTOP);
    await open(`${origin}/app/orders?list=0&search=JOB-`, page.getByTestId('orders-table'));
    await expect.poll(() => page.locator('tr[data-order]').count(), { timeout: 15_000 }).toBe(2);

    // four labels: a job; its progress shows until the worker has written them
    await page.getByLabel('Выбрать страницу').check();
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-stickers').click();
    await expect
      .poll(() => page.getByTestId('sticker-job-status').textContent(), { timeout: 15_000 })
      .toBe('Наклейки пишутся: 0 из 4');
    await check('orders-sticker-job');
    await stickerWorker.runDue();
    await page.getByTestId('sticker-job-ready').waitFor({ timeout: 15_000 });
    const stickerHref = await page.getByTestId('sticker-job-file').getAttribute('href');
    const stickers = Buffer.from(await (await context.request.get(new URL(stickerHref ?? '', origin).href)).body());
    expect(stickers.subarray(0, 5).toString()).toBe('%PDF-');
    if (!pdfToolsMissing) for (const job of jobs) expect(pdfText(stickers)).toContain(job.trackNumber);

    // waybills and acts: the places check (company 1 needs no count), the act's PDF read back
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-waybills').click();
    await page.getByTestId('no-places-needed').waitFor();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await check('orders-waybills-dialog');
    await page.getByTestId('form-waybills').click();
    await page.getByTestId('waybills-result').waitFor();
    const actHref = await page.getByTestId('waybill-act').first().getAttribute('href');
    const act = Buffer.from(await (await context.request.get(new URL(actHref ?? '', origin).href)).body());
    expect(act.subarray(0, 5).toString()).toBe('%PDF-');
    if (!pdfToolsMissing) for (const job of jobs) expect(pdfText(act)).toContain(job.trackNumber);
    await page.keyboard.press('Escape');

    // every format at once (a job too): the documents page names each file by its format
    await page.goto(`${origin}/app/orders?list=0&search=JOB-`);
    await expect.poll(() => page.locator('tr[data-order]').count(), { timeout: 15_000 }).toBe(2);
    await page.getByLabel('Выбрать страницу').check();
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-stickers-all').click();
    await page.getByTestId('sticker-job-status').waitFor();
    await stickerWorker.runDue();
    await page.getByTestId('sticker-job-ready').waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Документы', exact: true }).click();
    // the day's sets, oldest first: the last one is this one
    const newest = page.locator('[data-testid^="sticker-set-"]').last();
    await newest.waitFor();
    await expect
      .poll(() => newest.locator('a').allTextContents())
      .toEqual([
        'Наклейки A4 (4 на листе)',
        'Термонаклейки 100×150 мм',
        'Термонаклейки 75×120 мм',
        'Весь набор одним ZIP',
      ]);
    await check('documents-formats');

    // a problem: re-pricing an order no company delivers says why in its row; cancel fixes it
    await page.goto(`${origin}/app/problems`);
    const fixes = page.getByTestId(`fixes-${problem}`);
    await fixes.waitFor();
    await page.getByTestId(`reprice-${problem}`).click();
    await fixes.getByRole('alert').waitFor();
    await check('problems-fixes');
    await page.getByTestId(`cancel-${problem}`).click();
    await expect.poll(async () => (await owner.get(`/v2/orders/${problem}`)).body.status).not.toBe(11);
    expect(cspViolations).toEqual([]);
  }, 180_000);

  it('makes an order of a catalogue product in two measured places, by courier on a chosen day and interval', async () => {
    const productId = (
      await owner.post(
        '/v2/products',
        productBody({ name: 'Чайник глиняный', vendorCode: 'POT-7', barcodes: ['4600000000077'] }),
      )
    ).body.id as number;
    await page.setViewportSize(DESKTOP);
    await open(`${origin}/app/orders/new`, page.getByTestId('recipient-name'));
    await page.getByTestId('recipient-name').fill('Игорь Курьеров');
    await page.getByTestId('recipient-phone').fill('+79161234567');
    await page.getByTestId('city').fill('Москв');
    await page
      .getByRole('option', { name: /^Москва, Москва/ })
      .first()
      .click({ timeout: 15_000 });
    // the street and house from the register's suggestions: a click, then arrows and Enter
    await page.getByTestId('recipient-street').pressSequentially('Тверск');
    await page.getByRole('option', { name: 'ул Тверская', exact: true }).click({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('recipient-street').inputValue()).toBe('ул Тверская');
    await page.getByTestId('recipient-house').pressSequentially('1');
    await page.getByRole('option').first().waitFor({ timeout: 15_000 });
    await shot(page, 'order-form-house-suggested');
    await page.getByTestId('recipient-house').press('ArrowDown');
    await page.getByTestId('recipient-house').press('Enter');
    await expect.poll(() => page.getByRole('option').count()).toBe(0);
    const housePicked = await page.getByTestId('recipient-house').inputValue();
    expect(housePicked).toMatch(/^1/);

    // the product from the catalogue, found by its vendor code: its line carries its price
    await page.getByTestId('catalogue-search').fill('POT-');
    await page.getByRole('option', { name: /POT-7 — Чайник глиняный/ }).click();
    await expect.poll(() => page.getByLabel('Название').first().inputValue()).toBe('Чайник глиняный');

    // two places, each with its sizes and weight
    await page.getByTestId('place-count').fill('2');
    for (const [index, sides] of [
      [1, ['30', '20', '10', '1.2']],
      [2, ['25', '15', '10', '0.8']],
    ] as const) {
      await page.getByLabel(`Место ${index}: Длина`).fill(sides[0]);
      await page.getByLabel(`Место ${index}: Ширина`).fill(sides[1]);
      await page.getByLabel(`Место ${index}: Высота`).fill(sides[2]);
      await page.getByLabel(`Место ${index}: Вес`).fill(sides[3]);
    }

    // a courier of company 1, a working day and its first interval
    await page.locator('tr[data-option^="2:1:"] input[type="radio"]').first().check({ timeout: 30_000 });
    const day = nextWorkday(new Date(Date.now() + 2 * 86_400_000));
    // typed, day first as written in Russia; a day the calendar has not is said under the field
    await page.getByTestId('courier-date').fill('30.02.2027');
    await page.getByTestId('courier-date').blur();
    await page.getByText('«30.02.2027» — не дата', { exact: false }).waitFor();
    await page.getByTestId('courier-date').click();
    await page.getByTestId('courier-date').fill(dotted(day));
    // its calendar, open, names its month arrows for a screen reader (the app's theme gives every date picker them)
    const monthArrow = page.locator('.mantine-DateInput-calendarHeaderControl[data-direction="next"]');
    await monthArrow.waitFor({ state: 'visible' });
    expect(await monthArrow.getAttribute('aria-label')).toBe('Следующий месяц');
    await animationsSettled(page);
    expect(await accessibilityFindings(page)).toEqual([]);
    await shot(page, 'order-form-calendar-desktop');
    await page.getByTestId('courier-date').press('Enter');
    await page.getByTestId('courier-date').blur();
    expect(await page.getByTestId('courier-date').inputValue()).toBe(dotted(day));
    await expect.poll(() => page.getByText('не дата', { exact: false }).count()).toBe(0);
    await page.getByTestId('courier-time').click();
    const interval = page.getByRole('option').first();
    const intervalText = (await interval.textContent()) ?? '';
    await interval.click();
    await check('order-form-courier-places');
    await page.getByTestId('save-order').click();
    await page.waitForURL(/\/app\/orders\/\d+$/);
    const orderId = Number(/orders\/(\d+)$/.exec(page.url())?.[1]);
    const order = (await owner.get(`/v2/orders/${orderId}`)).body;
    expect(order.products[0]).toMatchObject({ id: productId, name: 'Чайник глиняный', priceDeclared: 1500 });
    expect(order.places).toEqual([
      { weight: 1.2, dimensions: { length: 30, width: 20, height: 10 } },
      { weight: 0.8, dimensions: { length: 25, width: 15, height: 10 } },
    ]);
    expect(order.delivery).toMatchObject({ type: 2, company: { id: 1 } });
    // the house picked went as its FIAS id: the register's house, no finding
    expect(order.deliveryAddress).toMatchObject({
      street: 'ул Тверская',
      house: housePicked,
      register: { fiasLevel: 8, quality: 'certain', finding: null },
    });
    expect(order.deliveryAddress.register.houseFiasId).toMatch(/^[0-9a-f-]{36}$/);
    expect(order.clientDeliveryDate).toBe(day);
    const schedule = (
      await owner.get(
        `/v2/couriers/schedule?cityFias=${order.deliveryAddress.city.fias}&cityType=${encodeURIComponent(order.deliveryAddress.city.type)}&cityName=${encodeURIComponent('Москва')}&cityRegion=${encodeURIComponent('Москва')}&shopId=${shopId}&companyId=1&date=${day}`,
      )
    ).body as Array<{ id: number; timeFrom: string; timeTo: string }>;
    const chosen = schedule.find((item) => `${item.timeFrom}–${item.timeTo}` === intervalText);
    expect(chosen).toBeDefined();
    expect(order.clientCourierTime).toBe(chosen?.id);

    // a courier order sent with a house the register does not know: kept, and its page says to check the address
    const partial = await owner.post(
      '/v2/orders',
      orderBody(
        { shopId, pointId },
        {
          cmsId: 'ADDR-PARTIAL',
          deliveryAddress: { ...order.deliveryAddress, register: undefined, fiasId: undefined, house: '999' },
          delivery: { company: { id: 1 }, type: 2 },
        },
      ),
    );
    expect(partial.status, partial.text).toBe(201);
    await open(`${origin}/app/orders/${partial.body.id}`, page.getByTestId('address-finding'));
    expect(await page.getByTestId('address-finding').innerText()).toBe(
      'ФИАС знает этот адрес только до уровня «улица», без дома: проверьте его до выезда курьера.',
    );
    await check('order-address-finding');
    expect(cspViolations).toEqual([]);
  }, 120_000);

  it('offers each order only what its status allows, and extends storage for the days typed in a dialog', async () => {
    const ready = await preparedOrder(owner, worker, orderBody({ shopId, pointId }, { cmsId: 'READY-1' }));
    const waiting = await preparedOrder(owner, worker, orderBody({ shopId, pointId }, { cmsId: 'AT-POINT-1' }));
    // a pickup point order's journey: accepted, in transit, in the city, at the point
    for (let step = 0; step < 4; step++)
      expect((await owner.post(`/v2/sandbox/orders/${waiting.id}/advance`)).status).toBe(200);
    expect((await owner.get(`/v2/orders/${waiting.id}`)).body.status).toBe(42);

    await page.setViewportSize(DESKTOP);
    await open(`${origin}/app/orders/${waiting.id}`, page.getByTestId('action-return'));
    expect(await actionsShown()).toEqual([
      'action-return',
      'action-extendHold',
      'action-duplicate',
      'action-duplicateBack',
    ]);

    // the list: an order ready for shipment is offered no return and no longer storage
    await page.goto(`${origin}/app/orders?list=0&search=READY-1`);
    await page.locator(`tr[data-order="${ready.id}"]`).waitFor({ timeout: 15_000 });
    expect(await page.locator('tr[data-order]').count()).toBe(1);
    await page.getByLabel('Выбрать страницу').check();
    await page.getByTestId('batch-menu').click();
    for (const action of ['return', 'extendHold', 'confirm'])
      expect(await page.getByTestId(`batch-${action}`).isDisabled(), action).toBe(true);
    expect(await page.getByTestId('batch-stickers').isDisabled()).toBe(false);
    await page.keyboard.press('Escape');

    // one at the pickup point: its storage extended by the days typed, their label in sight
    await page.goto(`${origin}/app/orders?list=0&search=AT-POINT-1`);
    await expect.poll(() => page.locator('tr[data-order]').count(), { timeout: 15_000 }).toBe(1);
    await page.getByLabel('Выбрать страницу').check();
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-extendHold').click();
    const dialog = page.getByTestId('extend-hold-dialog');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    const days = dialog.getByLabel('На сколько дней продлить');
    await days.waitFor();
    await days.fill('7');
    await check('orders-extend-hold');
    await dialog.getByTestId('extend-hold-confirm').click();
    await page.getByTestId('batch-done').waitFor();
    const tasks = (await owner.get(`/v2/orders/${waiting.id}`)).body.tasks as Array<{ type: string; days?: number }>;
    expect(tasks).toContainEqual(expect.objectContaining({ type: 'extend-hold', days: 7 }));
    expect(cspViolations).toEqual([]);
  }, 120_000);

  it('reaches the last section of the navigation at 1100×900 and on a phone', async () => {
    await page.setViewportSize(DESKTOP);
    await open(`${origin}/app/orders`, page.getByTestId('orders-table'));
    const navigation = page.getByRole('navigation');
    const last = navigation.getByRole('link').last();
    // one's own Security page is the last section, for every employee
    expect(await last.textContent()).toBe('Безопасность');
    // the list scrolls inside the navigation: a click scrolls the link into sight and lands on it
    await last.click();
    await page.waitForURL(/\/app\/security$/);
    const box = await last.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(DESKTOP.height);
    await check('navigation-last');

    await page.setViewportSize(PHONE);
    await page.goto(`${origin}/app/orders`);
    await page.getByTestId('orders-table').waitFor();
    await page.getByRole('button', { name: 'Меню' }).click();
    await animationsSettled(page);
    await last.click();
    await page.waitForURL(/\/app\/security$/);
    await page.getByRole('button', { name: 'Меню' }).click();
    await animationsSettled(page);
    await last.scrollIntoViewIfNeeded();
    const phoneBox = await last.boundingBox();
    expect(phoneBox && phoneBox.y + phoneBox.height).toBeLessThanOrEqual(PHONE.height);
    await shot(page, 'navigation-last-phone-open');
    await page.setViewportSize(DESKTOP);
  }, 60_000);
});
