/**
 * Figures of the merchant dashboard, in one run on one machine:
 *   - the app's JavaScript: each file's bytes and gzipped bytes, and what takes most of it
 *     (each package's share of the rendered bundle, by the bundler's own module lengths);
 *   - the orders page over ORDERS (default 200k) orders of one account, in Chromium on loopback:
 *     time to the first rows after sign-in (the page loaded cold, then a reload with the
 *     browser's cache), page to page (the next page's rows shown after a click), a tab switch,
 *     and a search typed — medians of several, with the slowest.
 * Run: npx tsx bench/dashboard.ts                      (SQLite)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/dashboard.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, DESKTOP, launchChromium } from '../test/support/browser.js';
import { BENCH_DIR, startServer } from './lib.js';

if (!CHROMIUM) throw new Error('Chromium is not installed (apt-get install chromium)');
const root = path.resolve(BENCH_DIR, '..');
const appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-bench-'));

// the build, with the bundler's rendered length of every module
const moduleBytes = new Map<string, number>();
const { build } = await import('vite');
await build({
  configFile: path.join(root, 'app', 'vite.config.ts'),
  build: { outDir: appDir, emptyOutDir: true },
  plugins: [
    {
      name: 'module-sizes',
      generateBundle(
        _options: unknown,
        bundle: Record<string, { type: string; modules?: Record<string, { renderedLength: number }> }>,
      ) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunk.modules) continue;
          for (const [id, info] of Object.entries(chunk.modules))
            moduleBytes.set(id, (moduleBytes.get(id) ?? 0) + info.renderedLength);
        }
      },
    },
  ],
});
const files = fs
  .readdirSync(path.join(appDir, 'assets'))
  .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
  .map((name) => {
    const bytes = fs.readFileSync(path.join(appDir, 'assets', name));
    return {
      file: name,
      kB: +(bytes.length / 1024).toFixed(1),
      gzipKB: +(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1),
    };
  });
const byPackage = new Map<string, number>();
for (const [id, bytes] of moduleBytes) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  const owner = match
    ? match[1]
    : id.includes('/clients/typescript/')
      ? 'clients/typescript'
      : id.includes('/app/src/')
        ? 'app/src (ours)'
        : 'other';
  byPackage.set(owner, (byPackage.get(owner) ?? 0) + bytes);
}
const totalRendered = [...byPackage.values()].reduce((sum, value) => sum + value, 0);
const shares = [...byPackage.entries()]
  .sort((a, b) => b[1] - a[1])
  .slice(0, 10)
  .map(([name, bytes]) => ({
    package: name,
    renderedKB: +(bytes / 1024).toFixed(1),
    share: `${((bytes / totalRendered) * 100).toFixed(1)} %`,
  }));

const email = 'bench@dashboard.example';
const password = 'bench password 1';
const app = await startServer(
  'orders-server.ts',
  { APP_DIR: appDir, BENCH_EMPLOYEE_EMAIL: email, BENCH_EMPLOYEE_PASSWORD: password },
  900_000,
);
const info = app.info as { database: string; orders: number };
const browser = await launchChromium();
const context = await browser.newContext({ viewport: DESKTOP, locale: 'ru-RU' });
const page = await context.newPage();

interface Rows {
  querySelectorAll(selector: string): Iterable<{ setAttribute(name: string, value: string): void }>;
  querySelector(selector: string): { hasAttribute(name: string): boolean } | null;
}

/** ms from `act` until the table's first row is a row drawn after it (the rows before are marked stale; a reload draws all anew). */
async function timeToRows(act: () => Promise<unknown>, what = ''): Promise<number> {
  await page.evaluate(() => {
    for (const row of (globalThis as unknown as { document: Rows }).document.querySelectorAll('tr[data-order]'))
      row.setAttribute('data-stale', '1');
  });
  const started = performance.now();
  await act();
  await page
    .waitForFunction(
      () => {
        const row = (globalThis as unknown as { document: Rows }).document.querySelector('tr[data-order]');
        return row !== null && !row.hasAttribute('data-stale');
      },
      undefined,
      { timeout: 60_000 },
    )
    .catch(async (error: unknown) => {
      await page.screenshot({ path: path.join(os.tmpdir(), 'dashboard-bench-failure.png') });
      throw new Error(`${what}: no new rows after 60 s (${page.url()})`, { cause: error });
    });
  return performance.now() - started;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number) => Math.round(value);

// a browser that never saw the app: the page, its scripts and styles, to the sign-in form
const coldStarted = performance.now();
await page.goto(`${app.url}/app/orders`);
await page.getByRole('button', { name: 'Войти' }).waitFor();
const coldToSignIn = performance.now() - coldStarted;
await page.getByLabel('Эл. почта').fill(email);
await page.getByLabel(/^Пароль/).fill(password);
const signInToRows = await timeToRows(() => page.getByRole('button', { name: 'Войти' }).click());
const coldLoad = await timeToRows(() => page.goto(`${app.url}/app/orders?list=0`));
const reloads: number[] = [];
for (let index = 0; index < 5; index++) reloads.push(await timeToRows(() => page.reload()));
const pageMoves: number[] = [];
for (let index = 0; index < 10; index++)
  pageMoves.push(
    await timeToRows(
      () =>
        page
          .getByRole('button', { name: String(index + 2), exact: true })
          .first()
          .click(),
      `page ${index + 2}`,
    ),
  );
const middlePage = Math.max(1, Math.ceil(info.orders / 50 / 2));
const far = await timeToRows(() => page.goto(`${app.url}/app/orders?list=0&page=${middlePage}`), `page ${middlePage}`);
const tabs: number[] = [];
for (const list of [5, 1, 6, 3])
  tabs.push(await timeToRows(() => page.getByTestId(`tab-${list}`).click(), `tab ${list}`));
const searches: number[] = [];
await page.goto(`${app.url}/app/orders?list=0`);
await page.locator('tr[data-order]').first().waitFor();
// an order's number in the shop, a phone, a name: orders-server.ts seeds WC-(100000 + i), +7999 and i in 7 digits, names with i
const seeded = (share: number) => Math.floor((info.orders - 2) * share);
for (const text of [`WC-${100000 + seeded(0.75)}`, `+7999${String(seeded(0.4)).padStart(7, '0')}`, 'Смирнова'])
  searches.push(await timeToRows(() => page.getByTestId('search').fill(text), `search ${text}`));
await browser.close();
await app.stop();
fs.rmSync(appDir, { recursive: true, force: true });

console.log(`\nThe dashboard's files (node ${process.version}):`);
console.table(files);
console.log('What takes most of the JavaScript (rendered bytes before minification, by package):');
console.table(shares);
console.log(
  `Orders page in Chromium over ${info.orders} orders on ${info.database}, loopback (ms; the search includes its 350 ms typing pause):`,
);
console.table([
  { what: 'first visit (empty cache) to the sign-in form', ms: round(coldToSignIn) },
  { what: 'sign-in to the first rows', ms: round(signInToRows) },
  { what: 'all orders opened by link (app cached) to the first rows', ms: round(coldLoad) },
  {
    what: 'reload (cached app) to the first rows, median of 5',
    ms: round(median(reloads)),
    slowest: round(Math.max(...reloads)),
  },
  { what: 'next page to its rows, median of 10', ms: round(median(pageMoves)), slowest: round(Math.max(...pageMoves)) },
  { what: `page ${middlePage} (the middle) opened by its link to the rows`, ms: round(far) },
  { what: 'tab switch to its rows, median of 4', ms: round(median(tabs)), slowest: round(Math.max(...tabs)) },
  { what: 'search typed to its rows, median of 3', ms: round(median(searches)), slowest: round(Math.max(...searches)) },
]);
