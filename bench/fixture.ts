/**
 * What every bench server does: the service on a throw-away database (SQLite in a temp
 * DATA_DIR, or a fresh schema or database on the PostgreSQL of BENCH_DATABASE_URL /
 * DATABASE_URL), an account with a warehouse to seed from, and serving until SIGTERM.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.js';
import { startRuntime, type Runtime } from '../src/bootstrap.js';
import type { Scope } from '../src/platform/auth.js';
import type { App } from '../src/platform/http.js';
import type { Services } from '../src/services.js';
import { MOSCOW_WAREHOUSE } from './moscow-warehouse.js';

export interface BenchService {
  config: Config;
  runtime: Runtime;
  /** Closes the database and drops everything the bench made. */
  cleanup(): Promise<void>;
}

function postgresUrl(): string | undefined {
  const url = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  return url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(text);
  await client.end();
}

/**
 * `isolation: 'database'` makes a whole database rather than a schema, for benches that
 * run beside tests whose migrator would otherwise see the bench's tables.
 */
export async function startBenchService(
  env: Record<string, string> = {},
  isolation: 'schema' | 'database' = 'schema',
): Promise<BenchService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-bench-'));
  const server = postgresUrl();
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const schema = server && isolation === 'schema' ? name : undefined;
  const database = server && isolation === 'database' ? name : undefined;
  const databaseUrl =
    server && database ? Object.assign(new URL(server), { pathname: `/${database}` }).toString() : server;
  if (server) await adminQuery(server, schema ? `create schema ${schema}` : `create database ${database}`);
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    PORT: '0',
    SECRET_KEY: 'bench-secret-bench-secret-bench-secret-01',
    // SQLITE_SYNCHRONOUS=normal|full: what durability costs (full is the service's default)
    ...(process.env.SQLITE_SYNCHRONOUS ? { SQLITE_SYNCHRONOUS: process.env.SQLITE_SYNCHRONOUS } : {}),
    // DELIVERY_PROMISES=off: the same run without promises (bench/delivery-promises.ts's figures beside orders')
    ...(process.env.DELIVERY_PROMISES ? { DELIVERY_PROMISES: process.env.DELIVERY_PROMISES } : {}),
    // one token sends tens of thousands of requests a minute here: measure serving, not 429s
    RATE_LIMIT_PER_MINUTE: '0',
    LOGIN_RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
  const runtime = await startRuntime(config, { schema });
  return {
    config,
    runtime,
    async cleanup() {
      await runtime.database.close();
      if (server)
        await adminQuery(server, schema ? `drop schema ${schema} cascade` : `drop database ${database} with (force)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SeededAccount {
  accountId: number;
  token: string;
  scope: Scope;
  warehouseId: number;
}

/** An account with one own warehouse in Moscow. */
export async function seedAccount(services: Services, name: string): Promise<SeededAccount> {
  const account = await services.accounts.createAccount({ name });
  const scope: Scope = {
    accountId: account.accountId,
    timeZone: 'Europe/Moscow',
    kind: 'account',
    shopKeyShopId: null,
    employeeId: null,
  };
  const warehouseId = await services.warehouses.create(scope, MOSCOW_WAREHOUSE);
  return { accountId: account.accountId, token: account.token, scope, warehouseId };
}

/** A WooCommerce shop of the account, shipping from its Moscow warehouse: its id. */
export function seedShop(services: Services, account: SeededAccount): Promise<number> {
  return services.shops.create(account.scope, {
    name: 'Магазин',
    brand: 'Бренд',
    warehouse: { id: account.warehouseId },
    platform: 'woocommerce',
  });
}

/** Prints `READY {url, database, ...info}` (what bench/lib.ts waits for) and cleans up on SIGTERM. */
export function announceAndWait(bench: BenchService, app: App | null, info: Record<string, unknown>, url = ''): void {
  console.log(`READY ${JSON.stringify({ url, database: bench.config.databaseKind, ...info })}`);
  process.on('SIGTERM', () => {
    void (async () => {
      await app?.close();
      await bench.cleanup();
      process.exit(0);
    })();
  });
}

/** Listens on a free loopback port, then announces. */
export async function serveUntilTerm(bench: BenchService, app: App, info: Record<string, unknown>): Promise<void> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  announceAndWait(bench, app, info, url);
}
