/**
 * The service for the catalogue search figures, on a fresh database (SQLite in a temp
 * DATA_DIR, or a throw-away schema of the PostgreSQL in BENCH_DATABASE_URL / DATABASE_URL):
 * bulk-inserts PRODUCTS (default 100000) products into one account and listens.
 * Prints `READY {url, token, database, products, seedMs}`.
 */
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { searchText, toJson, nowIso } from '../src/platform/db/values.js';
import { serveUntilTerm, startBenchService } from './fixture.js';

const WORDS = [
  'футболка',
  'кружка',
  'носки',
  'чехол',
  'зарядка',
  'кабель',
  'лампа',
  'ручка',
  'тетрадь',
  'рюкзак',
  'шарф',
  'перчатки',
  'игрушка',
  'свеча',
  'плед',
  'чай',
  'кофе',
  'мыло',
  'крем',
  'щётка',
];
const COLOURS = ['красный', 'синий', 'зелёный', 'чёрный', 'белый', 'серый', 'жёлтый', 'розовый'];

function productName(index: number): string {
  return `${WORDS[index % WORDS.length]} ${COLOURS[(index * 7) % COLOURS.length]} Арт. ${100000 + index}`;
}

// APP_DIR: the dashboard built there at /app/, with an employee who signs in (bench/dashboard-products.ts)
const bench = await startBenchService(process.env.APP_DIR ? { APP_DIR: process.env.APP_DIR } : {});
const { services, database } = bench.runtime;
const app = await buildApp({ config: bench.config, database, services });

// 100k products in one account, inserted in bulk.
const total = Number(process.env.PRODUCTS ?? 100_000);
const account = await services.accounts.createAccount({ name: 'Catalogue bench' });
if (process.env.BENCH_EMPLOYEE_EMAIL && process.env.BENCH_EMPLOYEE_PASSWORD) {
  await services.accounts.addEmployee(account.accountId, {
    name: 'Менеджер каталога',
    email: process.env.BENCH_EMPLOYEE_EMAIL,
    password: process.env.BENCH_EMPLOYEE_PASSWORD,
  });
}
const seedStarted = performance.now();
await database.db.transaction().execute(async (trx) => {
  const now = nowIso();
  for (let start = 0; start < total; start += 1000) {
    const rows = [];
    for (let index = start; index < Math.min(start + 1000, total); index++) {
      const name = productName(index);
      const vendorCode = `SKU-${index}`;
      const barcode = `46${String(index).padStart(11, '0')}`;
      rows.push({
        account_id: account.accountId,
        vendor_code: vendorCode,
        search_vendor_code: searchText(vendorCode),
        name,
        search_name: searchText(name),
        name_en: null,
        vat: 20,
        price_declared_kopecks: 100000,
        price_cod_kopecks: 149999,
        weight_grams: 350,
        volume: 0.002,
        width: 20,
        height: 10,
        length: 30,
        expirity_days: null,
        photo: null,
        tnved: '6109100000',
        search_tnved: '6109100000',
        barcodes: toJson([barcode]),
        search_barcodes: barcode,
        brand: 'Бренд',
        producing_country: 'RU',
        mark_code_required: false,
        batch_accounting: false,
        bindings: '[]',
        deleted_at: null,
        created_at: now,
        updated_at: now,
      });
    }
    await trx.insertInto('products').values(rows).execute();
  }
});
// VACUUM as autovacuum would have by now: counts become index-only scans.
if (database.kind === 'postgres') await sql`vacuum analyze products`.execute(database.db);
else await sql`analyze`.execute(database.db);
const seedMs = Math.round(performance.now() - seedStarted);

await serveUntilTerm(bench, app, { token: account.token, products: total, seedMs });
