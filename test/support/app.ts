/**
 * A real app on a real, private database for one test file: SQLite in memory by default,
 * or a throw-away schema in the PostgreSQL of DATABASE_URL (dropped on close).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/config.js';
import { buildApp } from '../../src/app.js';
import { startRuntime, type Runtime } from '../../src/bootstrap.js';
import type { App } from '../../src/platform/http.js';
import { ApiClient } from './client.js';

export interface TestApp {
  app: App;
  /** PostgreSQL: the throw-away schema. */
  schema?: string;
  runtime: Runtime;
  config: Config;
  /** A new account with its token, and a client that sends it. */
  newAccount(name?: string): Promise<{ accountId: number; token: string; client: ApiClient }>;
  /** A client with no token (or the given one). */
  client(token?: string): ApiClient;
  close(): Promise<void>;
}

export const usingPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

export interface TestAppOptions {
  /** Environment overrides for loadConfig. */
  env?: Record<string, string>;
  /** Log lines go here instead of nowhere (set env.LOG_LEVEL too). */
  logStream?: NodeJS.WritableStream;
  /** Extra routes or hooks, added before the app is ready. */
  configure?: (app: App) => void;
  /** PostgreSQL: a second process on the schema of this app (the first one drops it). */
  beside?: TestApp;
}

/**
 * SQLite in memory, or with `TEST_SQLITE_FILES=1` a new file for each app, as `npm start` runs it
 * (WAL, and the writer thread that a database in memory cannot have: platform/db/sqlite-writer.ts).
 */
function sqliteUrl(): string {
  if (process.env.TEST_SQLITE_FILES !== '1') return 'sqlite::memory:';
  return `sqlite:${path.join(os.tmpdir(), `delivery-test-${process.pid}`, `${randomBytes(6).toString('hex')}.db`)}`;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const env = options.env ?? {};
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: path.join(os.tmpdir(), `delivery-test-${process.pid}`),
    DATABASE_URL: usingPostgres ? (process.env.DATABASE_URL as string) : sqliteUrl(),
    PUBLIC_URL: 'http://delivery.test',
    // no test reaches a real delivery company: unless a test names its fake, they are a closed port
    CARRIER_CDEK_URL: 'http://127.0.0.1:9/v2',
    CARRIER_CDEK_TEST_URL: 'http://127.0.0.1:9/v2',
    CARRIER_BOXBERRY_URL: 'http://127.0.0.1:9/json.php',
    CARRIER_RUSSIAN_POST_URL: 'http://127.0.0.1:9',
    CARRIER_RUSSIAN_POST_TRACKING_URL: 'http://127.0.0.1:9/rtm34',
    CARRIER_YANDEX_DELIVERY_URL: 'http://127.0.0.1:9',
    CARRIER_YANDEX_DELIVERY_TEST_URL: 'http://127.0.0.1:9',
    ...env,
  });
  const ownSchema = config.databaseKind === 'postgres' && !options.beside;
  const schema = options.beside
    ? options.beside.schema
    : ownSchema
      ? `test_${process.pid}_${randomBytes(4).toString('hex')}`
      : undefined;
  if (schema && ownSchema) {
    const admin = new pg.Client({ connectionString: config.databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
  const runtime = await startRuntime(config, { schema, secret: 'test-secret-test-secret-test-secret-0123' });
  const app = await buildApp({
    config,
    database: runtime.database,
    services: runtime.services,
    logStream: options.logStream,
  });
  options.configure?.(app);
  await app.ready();

  return {
    app,
    schema,
    runtime,
    config,
    async newAccount(name = 'Test account') {
      const created = await runtime.services.accounts.createAccount({ name });
      return { accountId: created.accountId, token: created.token, client: new ApiClient(app, created.token) };
    },
    client(token?: string) {
      return new ApiClient(app, token);
    },
    async close() {
      await app.close();
      await runtime.database.close();
      if (schema && ownSchema) {
        const admin = new pg.Client({ connectionString: config.databaseUrl });
        await admin.connect();
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    },
  };
}
