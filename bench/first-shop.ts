/**
 * A shop's first hour, in the browser only. The service starts as `npm start` runs it (dist/
 * built if stale, `node dist/src/main.js serve` with the start script's flags, a fresh
 * DATA_DIR); the set-up link is read from its first-start output, and Chromium does the rest:
 * the link → e-mail and password chosen → signed in, on the checklist → warehouse → shop → the
 * widget's snippet copied from the page, byte for byte, into a page of another origin (a tiny
 * static server on another port) → the buyer's choice there → an order made of it, registered
 * → its sticker. No CLI command and no HTTP call outside the browser.
 *
 * Prints the time of each scripted step and their total (the person's typing is the script's,
 * so these are the service's and the pages' times), the pages loaded, and per page the
 * JavaScript (and CSS, and every static file) it loaded, as transferred and as decoded.
 *
 * Last run (`npx tsx bench/first-shop.ts`, 2-core machine shared with benchmarks): link printed 1.4-1.5 s after start; 4.1-5.3 s of scripted steps over 3 runs; 2 pages; JS: dashboard 227.2 kB sent (Brotli) / 846.5 kB decoded, all its static files 260.5 / 1126.1 kB (1125.5 kB sent before they were precompressed); shop page 6.7 / 22.1 kB.
 *
 *   npx tsx bench/first-shop.ts                 # the figures
 *   README_SHOTS=1 npx tsx bench/first-shop.ts  # also the README's screenshots (docs/images/first-shop-*.png)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page, Request, Response } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../test/support/browser.js';
import { BENCH_DIR, START_ENV, START_NODE_FLAGS } from './lib.js';

if (!CHROMIUM) {
  process.stdout.write('No Chromium here (/usr/bin/chromium): nothing measured.\n');
  process.exit(0);
}
const ROOT = path.resolve(BENCH_DIR, '..');
const SHOTS = process.env.README_SHOTS === '1' ? path.join(ROOT, 'docs', 'images') : null;
const VIEWPORT = { width: 1000, height: 760 };
const OWNER = { name: 'Мария Иванова', email: 'owner@mugs.example', password: 'кружки и чашки 2026' };

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `npm start` without npm: its prestart (build-if-stale: dist/ compiled and the dashboard and
 * widget built when a source changed), then node with the start script's flags and environment
 * on dist/. Resolves with the set-up link the first start prints.
 */
async function startService(
  dataDir: string,
): Promise<{ url: string; setupLink: string; child: ChildProcess; startMs: number }> {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0) throw new Error(`the build failed (${built.status})`);
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...START_NODE_FLAGS, path.join(ROOT, 'dist/src/main.js'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...START_ENV, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('the service printed no set-up link in 120 s')), 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const setupLink = /^\s+(https?:\/\/\S+\/app\/setup#stp_[\w-]+)\s*$/m.exec(output)?.[1];
      if (setupLink) {
        clearTimeout(timer);
        resolve({ url: new URL(setupLink).origin, setupLink, child, startMs: performance.now() - startedAt });
      }
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${output}`)));
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-shop-data-'));

let shopPageHtml = '';
const shopServer = http.createServer((_request, response) =>
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPageHtml),
);
await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
const shopOrigin = `http://127.0.0.1:${(shopServer.address() as net.AddressInfo).port}`;

const service = await startService(dataDir);

const browser = await launchChromium();
// the owner's browser profile, and the shop's page another visitor's
const dashboard = await browser.newContext({ viewport: VIEWPORT, locale: 'ru-RU' });
const visitor = await browser.newContext({ viewport: VIEWPORT, locale: 'ru-RU' });

/** Bytes of one kind of response, as transferred (the body on the wire) and as decoded. */
interface Weight {
  files: number;
  wire: number;
  decoded: number;
}
/** One page load (a document of the main frame) and everything it loaded until the next. */
interface Load {
  page: string;
  js: Weight;
  css: Weight;
  /** Every static file: the document, scripts, stylesheets, images, fonts. */
  files: Weight;
  /** Calls of the page's own code (fetch, XHR): the API. */
  api: Weight;
  /** Scripts and stylesheets by the Content-Encoding they came in. */
  encodings: Record<string, number>;
}
const loads: Load[] = [];
const weighing: Array<Promise<unknown>> = [];
const KIND: Record<string, 'js' | 'css' | 'files' | 'api'> = {
  document: 'files',
  script: 'js',
  stylesheet: 'css',
  image: 'files',
  font: 'files',
  fetch: 'api',
  xhr: 'api',
};
function weigh(page: Page, name: string): void {
  const none = (): Weight => ({ files: 0, wire: 0, decoded: 0 });
  // a document asked for by the main frame is a page load (the dashboard's own routes change no document)
  page.on('request', (request: Request) => {
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame())
      loads.push({
        page: `${name} ${new URL(request.url()).pathname}`,
        js: none(),
        css: none(),
        files: none(),
        api: none(),
        encodings: {},
      });
  });
  page.on('response', (response: Response) => {
    const kind = KIND[response.request().resourceType()];
    const load = loads.filter((entry) => entry.page.startsWith(name)).at(-1);
    if (!kind || !load || response.status() !== 200) return;
    if (kind === 'js' || kind === 'css') {
      const encoding = response.headers()['content-encoding'] ?? 'none';
      load.encodings[encoding] = (load.encodings[encoding] ?? 0) + 1;
    }
    weighing.push(
      Promise.all([response.body(), response.request().sizes()]).then(
        ([body, sizes]) => {
          const targets = kind === 'js' || kind === 'css' ? [load[kind], load.files] : [load[kind]];
          for (const weight of targets) {
            weight.files += 1;
            weight.wire += sizes.responseBodySize;
            weight.decoded += body.length;
          }
        },
        () => undefined,
      ),
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
weigh(page, 'dashboard');
try {
  await step('the set-up link opened: its page, the link checked', async () => {
    await page.goto(service.setupLink);
    await page.getByTestId('link-submit').waitFor();
  });
  await page.getByLabel('Ваше имя').fill(OWNER.name);
  await page.getByLabel('Эл. почта').fill(OWNER.email);
  await page.getByLabel(/^Новый пароль/).fill(OWNER.password);
  // the card alone: the page around it is empty
  await shot(page.locator('main'), 'setup');
  await step('e-mail and password chosen: signed in, on the checklist, nothing done', async () => {
    await page.getByTestId('link-submit').click();
    await page.getByTestId('checklist-page').waitFor();
    await page.locator('[data-testid="step-warehouse"][data-done="false"]').waitFor();
  });
  if (new URL(page.url()).pathname !== '/app/checklist') throw new Error(`landed on ${page.url()}`);
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
  weigh(shopPage, 'shop page');
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

  await Promise.all(weighing);
  const total = steps.reduce((sum, entry) => sum + entry.ms, 0);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  const weight = (w: Weight) => `${kb(w.wire)} sent, ${kb(w.decoded)} decoded (${w.files} files)`;
  const lines = [
    `the service started on a fresh data directory and printed its set-up link: ${Math.round(service.startMs)} ms`,
    ...steps.map((entry) => `${String(entry.ms).padStart(6)} ms  ${entry.step}`),
    `${String(total).padStart(6)} ms  the scripted steps in all`,
    `pages loaded: ${loads.length}`,
    ...loads.flatMap((load) => [
      `  ${load.page}`,
      `    JavaScript: ${weight(load.js)}`,
      `    CSS: ${weight(load.css)}`,
      `    static files in all (document, scripts, styles, images): ${weight(load.files)}`,
      `    API calls: ${weight(load.api)}`,
      `    scripts and styles by Content-Encoding: ${JSON.stringify(load.encodings)}`,
    ]),
    `sticker PDF: ${pdf.bytes} bytes`,
  ];
  // the one line for the header comment above
  const js = loads.map((load) => `${load.page.split(' ')[0]} ${kb(load.js.wire)} sent / ${kb(load.js.decoded)}`);
  lines.push(
    `summary: ${(total / 1000).toFixed(1)} s of scripted steps, ${loads.length} pages, JavaScript ${js.join(', ')}; the dashboard's static files ${kb(loads[0]?.files.wire ?? 0)} sent / ${kb(loads[0]?.files.decoded ?? 0)} decoded`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (error) {
  await page.screenshot({ path: path.join(os.tmpdir(), 'first-shop-failure.png') }).catch(() => undefined);
  throw error;
} finally {
  await browser.close();
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGTERM');
  await exited;
  await new Promise((resolve) => shopServer.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
