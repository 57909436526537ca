/**
 * How long a first start spends loading the address sample (data/addresses/gar-sample), goal < 0.5 s:
 *   npx tsx bench/address-sample.ts          (SQLite file; PostgreSQL with DATABASE_URL)
 * Starts a runtime once (reference data), then empties the address tables and loads the sample again, five times.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gar-sample-bench-'));
const runtime = await startRuntime(
  loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'bench.db')}`,
  }),
  { secret: 'bench-secret-bench-secret-bench-secret-00' },
);
const db = runtime.database.db;
const times: number[] = [];
for (let i = 0; i < 5; i++) {
  await db.deleteFrom('address_flats').execute();
  await db.deleteFrom('address_houses').execute();
  await db.deleteFrom('address_objects').execute();
  const started = performance.now();
  await runtime.services.addressImports.loadSampleIfEmpty();
  times.push(performance.now() - started);
}
const status = await runtime.services.addressImports.status();
process.stdout.write(
  `${runtime.database.kind}: sample (${status.totals.objects} objects, ${status.totals.houses} houses, ${status.totals.flats} flats) ` +
    `loaded in ${times.map((ms) => ms.toFixed(0)).join(', ')} ms\n`,
);
await runtime.database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
