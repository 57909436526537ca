/**
 * Times POST /v2/products/import in a process of its own (so its peak memory is the
 * import's, not the load test's): the service on a fresh database (SQLite in a temp
 * DATA_DIR, or a throw-away schema of BENCH_DATABASE_URL / DATABASE_URL), the base64 xlsx
 * read from BENCH_IMPORT_FILE. Prints `READY {runs: [...]}`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/app.js';
import { startRuntime } from '../src/bootstrap.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-bench-'));
const postgresUrl = process.env.BENCH_DATABASE_URL || (/^postgres/.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined);
const schema = postgresUrl ? `bench_${randomBytes(4).toString('hex')}` : undefined;
const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: postgresUrl ?? '', LOG_LEVEL: 'warn', PORT: '0', SECRET_KEY: 'bench-secret-bench-secret-bench-secret-01' });

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(text);
  await client.end();
}

if (schema) await adminQuery(`create schema ${schema}`);
const runtime = await startRuntime(config, { schema });
const app = await buildApp({ config, database: runtime.database, services: runtime.services });
await app.ready();
const payload = JSON.stringify({ file: fs.readFileSync(String(process.env.BENCH_IMPORT_FILE), 'utf8') });
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

const runs: Record<string, unknown>[] = [];
let token = '';
for (const run of ['new account, first import in the process', 'new account', 'new account', 'same file again: 2000 overwrites']) {
  if (!run.startsWith('same')) token = (await runtime.services.accounts.createAccount({ name: run })).token;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const response = await app.inject({ method: 'POST', url: '/v2/products/import', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload });
  const ms = Math.round(performance.now() - started);
  const body = response.json() as { success: number; total: number };
  runs.push({ run, ms, status: response.statusCode, success: body.success, total: body.total, rssBeforeMb: mb(rssBefore), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
}
console.log(`READY ${JSON.stringify({ url: '', database: config.databaseKind, bodyKb: Math.round(payload.length / 1024), runs })}`);

process.on('SIGTERM', () => {
  void (async () => {
    await app.close();
    await runtime.database.close();
    if (schema) await adminQuery(`drop schema ${schema} cascade`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  })();
});
