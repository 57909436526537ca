/**
 * A shop's first hour, in the browser only: from a fresh data directory the service starts
 * (`serve`, as `npm start` runs it), and Chromium goes checklist → warehouse → shop → the
 * widget's snippet copied from the page into a page of another origin (a tiny static server on
 * another port) → the buyer's choice there → an order made of it, registered → its sticker.
 * No CLI command and no HTTP call outside the browser: the dashboard is signed in with the
 * first account's API token, read from the service's first-start output and sent by the
 * browser as its Authorization header (the set-up link will replace that).
 *
 * Prints the time of each scripted step (the person's typing is the script's, so these are the
 * service's and the pages' times), the pages loaded, and the JavaScript bytes each page loaded.
 *
 *   npx tsx bench/first-shop.ts                 # the figures
 *   README_SHOTS=1 npx tsx bench/first-shop.ts  # also the README's screenshots (docs/images/first-shop-*.png)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Locator, Page, Response } from 'playwright-core';
import { buildApp } from '../scripts/build-app.mjs';
import { buildWidget } from '../scripts/build-widget.mjs';
import { CHROMIUM, launchChromium } from '../test/support/browser.js';
import { BENCH_DIR, START_ENV, START_NODE_FLAGS } from './lib.js';

if (!CHROMIUM) {
  process.stdout.write('No Chromium here (/usr/bin/chromium): nothing measured.\n');
  process.exit(0);
}
const ROOT = path.resolve(BENCH_DIR, '..');
const SHOTS = process.env.README_SHOTS === '1' ? path.join(ROOT, 'docs', 'images') : null;
const VIEWPORT = { width: 1000, height: 760 };

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `serve` on a fresh data directory; resolves with its URL and the first account's token from its output. */
async function startService(env: Record<string, string>): Promise<{ url: string; token: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...START_NODE_FLAGS, '--import', 'tsx', path.join(ROOT, 'src/main.ts'), 'serve'],
    {
      env: { ...process.env, ...START_ENV, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('the service did not print its first token in 120 s')), 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const token = /^\s+(acc_[A-Za-z0-9_-]+)\s*$/m.exec(output)?.[1];
      if (token) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${port}`, token, child });
      }
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${output}`)));
  });
}

const dirs = ['app', 'widget', 'data'].map((name) => fs.mkdtempSync(path.join(os.tmpdir(), `first-shop-${name}-`)));
const [appDir, widgetDir, dataDir] = dirs as [string, string, string];
await Promise.all([buildApp(appDir), buildWidget(widgetDir)]);

let shopPageHtml = '';
const shopServer = http.createServer((_request, response) =>
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPageHtml),
);
await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
const shopOrigin = `http://127.0.0.1:${(shopServer.address() as net.AddressInfo).port}`;

const startedAt = performance.now();
const service = await startService({ DATA_DIR: dataDir, APP_DIR: appDir, WIDGET_DIR: widgetDir });
const startMs = performance.now() - startedAt;

const browser = await launchChromium();
// the dashboard's browser profile, signed in with the first token; the shop's page is another visitor's
const dashboard = await browser.newContext({
  viewport: VIEWPORT,
  locale: 'ru-RU',
  extraHTTPHeaders: { authorization: `Bearer ${service.token}` },
});
// the page asks who is signed in only where it remembers a session (app/src/session.tsx): as a signed-in browser would
await dashboard.addInitScript(() =>
  (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem(
    'dashboard.sessionUntil',
    'never',
  ),
);
const visitor = await browser.newContext({ viewport: VIEWPORT, locale: 'ru-RU' });

/** JavaScript bytes per page load (a document of the main frame): as decoded, and as sent over the wire. */
const loads: Array<{ page: string; scripts: number; jsBytes: number; jsWireBytes: number; jsGzipBytes: number }> = [];
function countScripts(page: Page, name: string): void {
  // a document asked for by the main frame is a page load (the dashboard's own routes change no document)
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame())
      loads.push({
        page: `${name} ${new URL(request.url()).pathname}`,
        scripts: 0,
        jsBytes: 0,
        jsWireBytes: 0,
        jsGzipBytes: 0,
      });
  });
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    const load = loads.filter((entry) => entry.page.startsWith(name)).at(-1);
    if (!load) return;
    load.scripts += 1;
    void Promise.all([response.body(), response.request().sizes()]).then(
      ([body, sizes]) => {
        load.jsBytes += body.length;
        load.jsWireBytes += sizes.responseBodySize;
        // what the same bytes would weigh gzipped (level 9), for a server that compressed them
        load.jsGzipBytes += gzipSync(body, { level: 9 }).length;
      },
      () => undefined,
    );
  });
}

const steps: Array<{ step: string; ms: number }> = [];
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const value = await work();
  steps.push({ step: name, ms: Math.round(performance.now() - started) });
  return value;
}
async function shot(target: Page | Locator, name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `first-shop-${name}.png`);
  if ('goto' in target) return void (await target.screenshot({ path: file }));
  // tall enough that the part is shown whole below the fixed header, not scrolled under it
  const owner = target.page();
  await owner.setViewportSize({ width: VIEWPORT.width, height: 2400 });
  await target.screenshot({ path: file });
  await owner.setViewportSize(VIEWPORT);
}
const tick = (page: Page, key: string) =>
  page.locator(`[data-testid="step-${key}"][data-done="true"]`).waitFor({ timeout: 60_000 });

const page = await dashboard.newPage();
page.setDefaultTimeout(60_000);
countScripts(page, 'dashboard');
try {
  await step('the dashboard opened: the checklist, nothing done', async () => {
    await page.goto(`${service.url}/app/`);
    await page.getByTestId('checklist-page').waitFor();
    await page.locator('[data-testid="step-warehouse"][data-done="false"]').waitFor();
  });
  await shot(page, 'checklist');

  const warehouse = page.getByTestId('checklist-warehouse-form');
  await warehouse.getByLabel(/^Название/).fill('Склад у дома');
  await warehouse.getByLabel(/^Город/).fill('Москва');
  await warehouse.getByLabel(/^Улица/).fill('Складская улица');
  await warehouse.getByLabel(/^Дом/).fill('7');
  await warehouse.getByLabel(/^Контактное лицо/).fill('Иван Петров');
  await warehouse.getByLabel(/^Контактный телефон/).fill('+79161234567');
  await shot(page.getByTestId('step-warehouse'), 'warehouse');
  await step('warehouse saved, ticked', async () => {
    await warehouse.getByTestId('checklist-save-warehouse').click();
    await tick(page, 'warehouse');
  });

  const shop = page.getByTestId('checklist-shop-form');
  await shop.getByLabel(/^Название магазина/).fill('Кружки и чашки');
  await shop.getByLabel(/^Бренд/).fill('Кружечная');
  await shop.getByTestId('checklist-site-origin').fill(shopOrigin);
  await step('shop saved with its site, ticked (and its widget key)', async () => {
    await shop.getByTestId('checklist-save-shop').click();
    await tick(page, 'shop');
    await tick(page, 'widget');
  });

  const snippet = await step('widget step opened: snippet and live preview', async () => {
    await page.getByTestId('step-widget').locator('[data-accordion-control]').click();
    await page.getByTestId('widget-preview').locator('.item').first().waitFor();
    return (await page.getByTestId('widget-snippet').textContent()) ?? '';
  });
  await shot(page.getByTestId('step-widget'), 'widget');

  shopPageHtml = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Оформление заказа</title></head><body><h1>Кружки и чашки</h1>\n${snippet}</body></html>`;
  const shopPage = await visitor.newPage();
  shopPage.setDefaultTimeout(60_000);
  countScripts(shopPage, 'shop page');
  const token = await step("the shop's page of another origin: widget loaded, a point chosen", async () => {
    await shopPage.goto(`${shopOrigin}/checkout`);
    await shopPage.locator('#dw-city').fill('Санкт-Пет');
    await shopPage.locator('.suggest li').first().click();
    await shopPage.locator('.item[data-point]').first().click();
    await shopPage.waitForFunction(() =>
      (globalThis as unknown as { document: { getElementById(id: string): { value: string } } }).document
        .getElementById('delivery-selection')
        .value.startsWith('sel_'),
    );
    return shopPage.locator('#delivery-selection').inputValue();
  });
  await shot(shopPage, 'shop-page');

  await page.getByTestId('step-testOrder').locator('[data-accordion-control]').click();
  const order = page.getByTestId('checklist-test-order');
  await order.getByTestId('checklist-selection-token').fill(token);
  await order.getByTestId('checklist-recipient-name').fill('Анна Покупатель');
  await order.getByTestId('checklist-recipient-phone').fill('+79990001122');
  await step('test order made of the choice', async () => {
    await order.getByTestId('checklist-make-order').click();
    await order.getByTestId('checklist-register').waitFor();
  });
  await step('confirmed and registered with the company (status 13)', async () => {
    await order.getByTestId('checklist-register').click();
    await order.locator('[data-testid="checklist-order-status"][data-status="13"]').waitFor();
  });
  const pdf = await step('sticker printed, its PDF opened in the browser', async () => {
    await order.getByTestId('checklist-print-sticker').click();
    const href = (await order.getByTestId('checklist-sticker-link').getAttribute('href')) as string;
    await tick(page, 'testOrder');
    return page.evaluate(async (url) => {
      const answer = await fetch(url);
      const bytes = new Uint8Array(await answer.arrayBuffer());
      return { status: answer.status, head: String.fromCharCode(...bytes.subarray(0, 5)), bytes: bytes.length };
    }, href);
  });
  if (pdf.status !== 200 || pdf.head !== '%PDF-') throw new Error(`the sticker is not a PDF: ${JSON.stringify(pdf)}`);
  await shot(page.getByTestId('step-testOrder'), 'test-order');

  await page.waitForTimeout(300);
  const total = steps.reduce((sum, entry) => sum + entry.ms, 0);
  process.stdout.write(
    `${JSON.stringify(
      {
        serviceStartMs: Math.round(startMs),
        steps,
        scriptedStepsMs: total,
        pagesLoaded: loads.length,
        pages: loads.map((load) => ({
          ...load,
          jsKB: +(load.jsBytes / 1024).toFixed(1),
          jsWireKB: +(load.jsWireBytes / 1024).toFixed(1),
          jsGzipKB: +(load.jsGzipBytes / 1024).toFixed(1),
        })),
        stickerPdfBytes: pdf.bytes,
      },
      null,
      2,
    )}\n`,
  );
} catch (error) {
  await page.screenshot({ path: path.join(os.tmpdir(), 'first-shop-failure.png') }).catch(() => undefined);
  throw error;
} finally {
  await browser.close();
  service.child.kill('SIGTERM');
  await new Promise((resolve) => shopServer.close(resolve));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}
