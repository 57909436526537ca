/**
 * Figures of the dashboard's products page, in one run on one machine, in Chromium on
 * loopback against the service with PRODUCTS (default 100k) products in one account:
 *   - the products page: time to its first rows (opened by link, the app cached), and a search
 *     typed to its result (including the page's 300 ms typing pause), medians with the slowest;
 *   - an xlsx import of 2000 rows from the browser, end to end: the file chosen to the result
 *     shown (read by the browser, base64, uploaded, validated and written, answered), 3 runs;
 *   - the export of the filtered list to xlsx: the button clicked to the file saved, for a
 *     search and for the whole catalogue (streamed by GET /v2/products/export), once each.
 * Run: npx tsx bench/dashboard-products.ts                      (SQLite)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/dashboard-products.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { buildApp } from '../scripts/build-app.mjs';
import { IMPORT_COLUMNS } from '../src/modules/products/import/layout.js';
import { CHROMIUM, DESKTOP, launchChromium } from '../test/support/browser.js';
import { startServer } from './lib.js';

if (!CHROMIUM) throw new Error('Chromium is not installed (apt-get install chromium)');
const appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-products-bench-'));
await buildApp(appDir);

const email = 'bench@products.example';
const password = 'bench password 1';
const app = await startServer(
  'catalogue-server.ts',
  { APP_DIR: appDir, BENCH_EMPLOYEE_EMAIL: email, BENCH_EMPLOYEE_PASSWORD: password },
  900_000,
);
const info = app.info as { database: string; products: number; seedMs: number };
const browser = await launchChromium();
const context = await browser.newContext({ viewport: DESKTOP, locale: 'ru-RU' });
const page = await context.newPage();

interface Rows {
  querySelectorAll(selector: string): Iterable<{ setAttribute(name: string, value: string): void }>;
  querySelector(selector: string): { hasAttribute(name: string): boolean } | null;
}

/** ms from `act` until the products table's first row is one drawn after it. */
async function timeToRows(act: () => Promise<unknown>): Promise<number> {
  await page.evaluate(() => {
    for (const row of (globalThis as unknown as { document: Rows }).document.querySelectorAll('tr[data-product]'))
      row.setAttribute('data-stale', '1');
  });
  const started = performance.now();
  await act();
  await page.waitForFunction(
    () => {
      const row = (globalThis as unknown as { document: Rows }).document.querySelector('tr[data-product]');
      return row !== null && !row.hasAttribute('data-stale');
    },
    undefined,
    { timeout: 60_000 },
  );
  return performance.now() - started;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number) => Math.round(value);

await page.goto(`${app.url}/app/`);
await page.getByLabel('Эл. почта').fill(email);
await page.getByLabel(/^Пароль/).fill(password);
await page.getByRole('button', { name: 'Войти' }).click();
await page.getByTestId('sign-out').waitFor();

const opens: number[] = [];
for (let index = 0; index < 5; index++) opens.push(await timeToRows(() => page.goto(`${app.url}/app/products`)));
const searches: number[] = [];
for (const text of ['Арт. 142424', 'футболка красный', 'Арт. 199999'])
  searches.push(await timeToRows(() => page.getByTestId('product-search').fill(text)));
await page.getByTestId('product-search').fill('');

/** ms from the export button to the downloaded file saved, and the rows in it. */
async function timeToExport(search: string): Promise<{ ms: number; rows: number }> {
  await page.getByTestId('product-search').fill(search);
  // the page asks for a search 300 ms after the last key: before that, the list (and the
  // export button's filter) is still the previous search's
  await page.waitForTimeout(400);
  await page.waitForLoadState('networkidle');
  const download = page.waitForEvent('download', { timeout: 600_000 });
  const started = performance.now();
  await page.getByTestId('export-products').click();
  const file = path.join(appDir, 'export.xlsx');
  await (await download).saveAs(file);
  const ms = performance.now() - started;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return { ms, rows: workbook.worksheets[0].rowCount - 1 };
}
const searchExport = await timeToExport('футболка красный');
const fullExport = await timeToExport('');

// 2000 rows, as a shop saves them (new vendor codes each run: every row is a create)
async function importFile(run: number): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Товары');
  const header = IMPORT_COLUMNS.map((column) => column.key);
  sheet.addRow(header);
  for (let index = 0; index < 2000; index++) {
    const values: Record<string, string | number> = {
      vendorCode: `IMP-${run}-${index}`,
      name: `Импорт ${run} товар ${index}`,
      vat: 20,
      priceDeclared: 500,
      weight: 0.3,
      producingCountry: 'RU',
      barcodes: `47${String(run * 10000 + index).padStart(11, '0')}`,
    };
    sheet.addRow(header.map((key) => values[key] ?? null));
  }
  const file = path.join(appDir, `import-${run}.xlsx`);
  fs.writeFileSync(file, Buffer.from(await workbook.xlsx.writeBuffer()));
  return file;
}
const imports: number[] = [];
for (let run = 1; run <= 3; run++) {
  const file = await importFile(run);
  await page.goto(`${app.url}/app/products`);
  await page.getByTestId('import-file').waitFor();
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('import-file').click();
  const started = performance.now();
  await (await chooser).setFiles(file);
  await page.getByTestId('import-result').filter({ hasText: '2000 из 2000' }).waitFor({ timeout: 120_000 });
  imports.push(performance.now() - started);
}
await browser.close();
await app.stop();
fs.rmSync(appDir, { recursive: true, force: true });

console.log(
  `\nProducts page in Chromium over ${info.products} products on ${info.database}, loopback (node ${process.version}; ms):`,
);
console.table([
  {
    what: 'products page opened by link (app cached) to the first rows, median of 5',
    ms: round(median(opens)),
    slowest: round(Math.max(...opens)),
  },
  {
    what: 'search typed to its rows (with the 300 ms typing pause), median of 3',
    ms: round(median(searches)),
    slowest: round(Math.max(...searches)),
  },
  {
    what: `export of a search to xlsx (${searchExport.rows} rows), button to file saved`,
    ms: round(searchExport.ms),
    slowest: round(searchExport.ms),
  },
  {
    what: `export of the whole catalogue to xlsx (${fullExport.rows} rows), button to file saved`,
    ms: round(fullExport.ms),
    slowest: round(fullExport.ms),
  },
  {
    what: 'import of 2000 rows from the browser, file chosen to the result shown, median of 3',
    ms: round(median(imports)),
    slowest: round(Math.max(...imports)),
  },
]);
