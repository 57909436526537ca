/**
 * The service for the calculator figures: SQLite in a temp DATA_DIR (or the PostgreSQL of
 * BENCH_DATABASE_URL), the full generated reference data, one account, one shop with its
 * warehouse in Moscow. BENCH_HTTP_CARRIERS (JSON array of base URLs) adds http companies
 * 201, 202, ... Prints `READY {url, token, shopId, points}`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/app.js';
import { startRuntime } from '../src/bootstrap.js';
import type { Scope } from '../src/platform/auth.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-bench-calc-'));
const postgresUrl = process.env.BENCH_DATABASE_URL;
const schema = postgresUrl ? `bench_${randomBytes(4).toString('hex')}` : undefined;
const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: postgresUrl ?? '', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', PORT: '0', SECRET_KEY: 'bench-secret-bench-secret-bench-secret-01', CALCULATOR_CACHE_SECONDS: process.env.CALCULATOR_CACHE_SECONDS ?? '30' });

if (schema) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
}
const started = performance.now();
const runtime = await startRuntime(config, { schema });
const startMs = Math.round(performance.now() - started);
const { services } = runtime;
for (const [index, baseUrl] of (JSON.parse(process.env.BENCH_HTTP_CARRIERS ?? '[]') as string[]).entries()) {
  services.reference.registry.add({ id: 201 + index, code: `remote${index + 1}`, name: `Удалённая служба ${index + 1}`, driver: 'http', baseUrl, deliveryTypes: [2], coverage: { minPopulation: 0 } });
}
const account = await services.accounts.createAccount({ name: 'Bench account' });
const scope: Scope = { accountId: account.accountId, timeZone: 'Europe/Moscow', kind: 'account', shopKeyShopId: null, employeeId: null };
const day = { from: '09:00', to: '18:00' };
const warehouseId = await services.warehouses.create(scope, {
  name: 'Склад',
  type: 1,
  address: { street: 'Складская', house: '1', city: { countryCode: 'RU', name: 'Москва', fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', region: 'Москва' } },
  contact: { name: 'Иван', phone: '+79160000000' },
  schedule: [day, day, day, day, day, null, null],
});
const shopId = await services.shops.create(scope, { name: 'Магазин', brand: 'Бренд', warehouse: { id: warehouseId }, platform: 'woocommerce' });

const app = await buildApp({ config, database: runtime.database, services });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`READY ${JSON.stringify({ url: address, token: account.token, shopId, database: config.databaseKind, startMs })}`);

process.on('SIGTERM', () => {
  void (async () => {
    await app.close();
    await runtime.database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  })();
});
