/** Start-up steps shared by the server, the CLI and the tests. */
import { sql } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from './config.js';
import { auditObserver } from './platform/audit.js';
import { createDatabase, type Database } from './platform/db/database.js';
import { MIGRATIONS, migrateToLatest } from './platform/db/migrate.js';
import { AREAS } from './modules.js';
import { readDataFile } from './platform/reference-data.js';
import { SecretBox } from './platform/crypto.js';
import { createServices, type Services } from './services.js';
import type { FulfilmentWarehouseRecord } from './modules/warehouses/store.js';
import { shareAcrossProcesses } from './platform/cache.js';
import { underStartLock } from './platform/db/start-lock.js';

/** Opens the database and applies migrations (one process at a time: underStartLock). */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databasePoolMax' | 'sqliteSynchronous'> & Partial<Pick<Config, 'cacheMb'>>,
  schema?: string,
  sqliteSeed?: string,
): Promise<Database> {
  const database = createDatabase({
    url: config.databaseUrl,
    poolMax: config.databasePoolMax,
    schema,
    sqliteSynchronous: config.sqliteSynchronous,
    sqliteSeed,
    ...(config.cacheMb !== undefined ? { sqliteCacheMb: config.cacheMb / 4 } : {}),
  });
  try {
    // the history in platform/db/migrations, then each area's own (modules/<area>/migrations)
    await underStartLock(database, () =>
      migrateToLatest(database, [...MIGRATIONS, ...AREAS.flatMap((area) => area.migrations ?? [])]),
    );
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * Loads (or re-imports) the reference data shipped under data/ into the database. Processes
 * starting together take turns (underStartLock): the first writes, the others find the
 * version current and write nothing.
 */
export async function importReferenceData(
  database: Database,
  services: Services,
  options: { force?: boolean } = {},
): Promise<void> {
  await underStartLock(database, async () => {
    await services.warehouses.importFulfilmentWarehouses(
      readDataFile<FulfilmentWarehouseRecord[]>('fulfilment-warehouses.json'),
    );
    // SQLite keeps the pages of a write in its cache, malloc'd among the process's other allocations:
    // the reference data's ~15 MB written on a first start stayed resident even after `shrink_memory`
    // (bench/memory.ts: ~24 MB of RSS). A small cache while they are written never grows that far;
    // the full cache is back for use right after.
    const sqlite = database.kind === 'sqlite';
    const cacheSize = sqlite
      ? (await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db)).rows[0]?.cache_size
      : undefined;
    if (sqlite) await sql`pragma cache_size = -2000`.execute(database.db);
    try {
      // localities, delivery companies and their points: in memory always, in the database when their version changed
      await services.reference.load(options.force === true);
    } finally {
      if (sqlite && cacheSize !== undefined)
        await sql.raw(`pragma cache_size = ${Number(cacheSize)}`).execute(database.db);
    }
    // the address register's sample (data/addresses/gar-sample) on a first start, after the localities it takes centres from
    await services.addressImports.loadSampleIfEmpty();
  });
}

/**
 * The instance secret: SECRET_KEY, else a key kept in DATA_DIR/secret.key (created on the
 * first start). Several processes sharing one PostgreSQL must share SECRET_KEY.
 */
export function loadSecret(config: Pick<Config, 'secretKey' | 'dataDir'>): {
  secret: string;
  createdFile: string | null;
} {
  if (config.secretKey) return { secret: config.secretKey, createdFile: null };
  const file = path.join(config.dataDir, 'secret.key');
  if (fs.existsSync(file)) return { secret: fs.readFileSync(file, 'utf8').trim(), createdFile: null };
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return { secret, createdFile: file };
}

export interface Runtime {
  database: Database;
  services: Services;
}

/** Database, migrations, services and reference data: everything but HTTP. */
export async function startRuntime(
  config: Config,
  options: { schema?: string; secret?: string; sqliteSeed?: string } = {},
): Promise<Runtime> {
  const database = await openDatabase(config, options.schema, options.sqliteSeed);
  const secret = options.secret ?? loadSecret(config).secret;
  // every change through any door (HTTP, jobs, the CLI) is written with its audit entry (platform/audit.ts)
  database.observeWrites(auditObserver(database.db, () => config.auditTrail));
  const services = createServices({ config, database, secretBox: new SecretBox(secret) });
  if (database.messages) {
    // other processes may write the same database: they tell us, we tell them
    await shareAcrossProcesses(services.readCache, database.messages, (error) =>
      process.emitWarning(
        `A read cache invalidation could not be sent to other processes: ${(error as Error).message}`,
      ),
    );
  }
  await importReferenceData(database, services);
  return { database, services };
}
