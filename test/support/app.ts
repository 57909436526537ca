/**
 * A real app on a real, private database for one test file: SQLite in memory by default, or a
 * throw-away database on the PostgreSQL server of DATABASE_URL (dropped on close). Each starts
 * as a copy of the run's template, migrated and holding the reference data (global-setup.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { buildApp } from '../../src/app.js';
import { startRuntime, type Runtime } from '../../src/bootstrap.js';
import type { App } from '../../src/platform/http.js';
import { ApiClient } from './client.js';

export interface TestApp {
  app: App;
  /** PostgreSQL: the throw-away schema (when no template database was made for the run). */
  schema?: string;
  /** PostgreSQL: the URL of the app's own database (a second app `beside` it shares it). */
  databaseUrl?: string;
  runtime: Runtime;
  config: Config;
  /** A new account with its token, and a client that sends it. */
  newAccount(name?: string): Promise<{ accountId: number; token: string; client: ApiClient }>;
  /** A client with no token (or the given one). */
  client(token?: string): ApiClient;
  close(): Promise<void>;
}

export const usingPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

/** The instance secret of every test app (and of the template's data). */
export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/** The same PostgreSQL server URL naming another database. */
export function withDatabaseName(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** What the run's global set-up made (nothing when a file runs without it). */
function template(key: 'sqliteTemplate' | 'postgresTemplate'): string {
  try {
    return inject(key) ?? '';
  } catch {
    return '';
  }
}

async function onServer<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

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
function sqliteUrl(seed: string): string {
  if (process.env.TEST_SQLITE_FILES !== '1') return 'sqlite::memory:';
  const file = path.join(os.tmpdir(), `delivery-test-${process.pid}`, `${randomBytes(6).toString('hex')}.db`);
  if (seed) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(seed, file);
  }
  return `sqlite:${file}`;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const env = options.env ?? {};
  // a database the test names itself is used as it is; the ones chosen here start from the template
  const seeded = !('DATABASE_URL' in env) && !options.beside;
  const sqliteSeed = seeded && !usingPostgres ? template('sqliteTemplate') : '';
  const postgresTemplate = seeded && usingPostgres ? template('postgresTemplate') : '';
  const serverUrl = process.env.DATABASE_URL as string;
  let ownDatabase: string | undefined;
  let databaseUrl: string;
  if (options.beside) databaseUrl = options.beside.databaseUrl ?? serverUrl;
  else if (postgresTemplate) {
    ownDatabase = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
    await onServer(serverUrl, (admin) => admin.query(`create database ${ownDatabase} template ${postgresTemplate}`));
    databaseUrl = withDatabaseName(serverUrl, ownDatabase);
  } else databaseUrl = usingPostgres ? serverUrl : sqliteUrl(sqliteSeed);
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: path.join(os.tmpdir(), `delivery-test-${process.pid}`),
    DATABASE_URL: databaseUrl,
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
  // without a template database (a file run on its own), a throw-away schema in DATABASE_URL's database
  const ownSchema = config.databaseKind === 'postgres' && !options.beside && !ownDatabase;
  const schema = options.beside
    ? options.beside.schema
    : ownSchema
      ? `test_${process.pid}_${randomBytes(4).toString('hex')}`
      : undefined;
  if (schema && ownSchema) await onServer(config.databaseUrl, (admin) => admin.query(`create schema ${schema}`));
  const runtime = await startRuntime(config, {
    schema,
    secret: TEST_SECRET,
    sqliteSeed: config.databaseUrl === 'sqlite::memory:' ? sqliteSeed || undefined : undefined,
  });
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
    databaseUrl: config.databaseKind === 'postgres' ? config.databaseUrl : undefined,
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
      if (schema && ownSchema)
        await onServer(config.databaseUrl, (admin) => admin.query(`drop schema if exists ${schema} cascade`));
      if (ownDatabase)
        await onServer(serverUrl, (admin) => admin.query(`drop database if exists ${ownDatabase} with (force)`));
    },
  };
}
