/**
 * Times POST /v2/products/import in a process of its own (so its peak memory is the
 * import's, not the load test's): the service on a fresh database (SQLite in a temp
 * DATA_DIR, or a throw-away schema of BENCH_DATABASE_URL / DATABASE_URL), the base64 xlsx
 * read from BENCH_IMPORT_FILE. Prints `READY {runs: [...]}`.
 */
import fs from 'node:fs';
import { buildApp } from '../src/app.js';
import { announceAndWait, startBenchService } from './fixture.js';

const bench = await startBenchService({ LOG_LEVEL: 'warn' });
const { runtime, config } = bench;
const app = await buildApp({ config, database: runtime.database, services: runtime.services });
await app.ready();
const payload = JSON.stringify({ file: fs.readFileSync(String(process.env.BENCH_IMPORT_FILE), 'utf8') });
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

const runs: Record<string, unknown>[] = [];
let token = '';
for (const run of [
  'new account, first import in the process',
  'new account',
  'new account',
  'same file again: 2000 overwrites',
]) {
  if (!run.startsWith('same')) token = (await runtime.services.accounts.createAccount({ name: run })).token;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/v2/products/import',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload,
  });
  const ms = Math.round(performance.now() - started);
  const body = response.json() as { success: number; total: number };
  runs.push({
    run,
    ms,
    status: response.statusCode,
    success: body.success,
    total: body.total,
    rssBeforeMb: mb(rssBefore),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  });
}
announceAndWait(bench, app, { bodyKb: Math.round(payload.length / 1024), runs });
