/**
 * The service itself for load tests, on a fresh database: SQLite in a temp DATA_DIR, or a
 * throw-away schema of the PostgreSQL named by BENCH_DATABASE_URL. Seeds one account with
 * SHOPS shops (default 1000) and prints `READY {url, token, shopId, warehouseId}`.
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

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-bench-'));
const postgresUrl = process.env.BENCH_DATABASE_URL;
const schema = postgresUrl ? `bench_${randomBytes(4).toString('hex')}` : undefined;
const config = loadConfig({
  DATA_DIR: dataDir,
  DATABASE_URL: postgresUrl ?? '',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  PORT: '0',
  SECRET_KEY: 'bench-secret-bench-secret-bench-secret-01',
});

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(text);
  await client.end();
}

if (schema) await adminQuery(`create schema ${schema}`);
const runtime = await startRuntime(config, { schema });
const { services } = runtime;
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
const shopCount = Number(process.env.SHOPS ?? 1000);
let shopId = 0;
for (let index = 0; index < shopCount; index++) {
  shopId = await services.shops.create(scope, { name: `Магазин ${index}`, brand: `Бренд ${index % 50}`, warehouse: { id: warehouseId }, platform: 'woocommerce' });
}

const app = await buildApp({ config, database: runtime.database, services });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`READY ${JSON.stringify({ url: address, token: account.token, shopId, warehouseId, database: config.databaseKind })}`);

process.on('SIGTERM', () => {
  void (async () => {
    await app.close();
    await runtime.database.close();
    if (schema) await adminQuery(`drop schema ${schema} cascade`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  })();
});
