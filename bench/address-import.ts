/**
 * The register import's rate and memory on generated data in the register's format:
 *   npx tsx bench/address-import.ts [--houses 5000000]          SQLite (a file, as `npm start` runs it)
 *   DATABASE_URL=postgres://… npx tsx bench/address-import.ts [--houses N]   PostgreSQL (a fresh database)
 * The country is generated once into $TMPDIR/gar-bench-<N> (bench/support/gar-generator.ts) and
 * reused. Prints rows read a second, objects (objects, houses, flats) a second and peak RSS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startRuntime } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { generateGarCountry } from './support/gar-generator.js';

const { values } = parseArgs({ options: { houses: { type: 'string', default: '5000000' } } });
const houses = Number(values.houses);
const folder = path.join(os.tmpdir(), `gar-bench-${houses}`);
if (!fs.existsSync(path.join(folder, 'done'))) {
  const started = performance.now();
  fs.rmSync(folder, { recursive: true, force: true });
  const country = await generateGarCountry(folder, houses);
  fs.writeFileSync(path.join(folder, 'done'), JSON.stringify(country));
  process.stdout.write(
    `generated ${JSON.stringify(country)} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
}
const country = JSON.parse(fs.readFileSync(path.join(folder, 'done'), 'utf8')) as Record<string, number>;
let bytes = 0;
for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true }))
  if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;

const serverUrl = process.env.DATABASE_URL ?? '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gar-bench-db-'));
let databaseUrl = `sqlite:${path.join(dataDir, 'bench.db')}`;
const benchDatabase = `gar_bench_${process.pid}`;
if (serverUrl.startsWith('postgres')) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${benchDatabase}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${benchDatabase}`;
  databaseUrl = url.toString();
}
const runtime = await startRuntime(loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: databaseUrl }), {
  secret: 'bench-secret-bench-secret-bench-secret-00',
});
let peakRss = process.memoryUsage().rss;
// RSS counts the pages of SQLite's file read through its map (the kernel's cache, given back under pressure) beside the
// process's own memory: the peak of each is kept apart (Linux's RssAnon and RssFile)
const rssParts = () => {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { anon: kb('RssAnon') * 1024, file: (kb('RssFile') + kb('RssShmem')) * 1024 };
};
let peakAnon = 0;
let peakFile = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const parts = rssParts();
  peakAnon = Math.max(peakAnon, parts.anon);
  peakFile = Math.max(peakFile, parts.file);
}, 100);
const startRss = process.memoryUsage().rss;
const result = await runtime.services.addressImports.importRegister(folder, {
  onProgress: (line) => {
    if (line.startsWith('Region')) process.stdout.write(`${line}\n`);
  },
});
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
// the process's lifetime peak includes the start (the reference data written on a new database)
const lifetimePeak = process.resourceUsage().maxRSS * 1024;
const objects = Object.values(result.regions).reduce(
  (sum, counts) => sum + counts.objects + counts.houses + counts.flats,
  0,
);
process.stdout.write(
  `${runtime.database.kind}: ${country.houses} houses in ${country.regions} regions (${(bytes / 1e9).toFixed(2)} GB of XML), ` +
    `${objects} objects+houses+flats kept, ${result.rowsRead} rows read in ${result.seconds.toFixed(0)} s: ` +
    `${Math.round(objects / result.seconds)} objects/s, ${Math.round(result.rowsRead / result.seconds)} rows/s; ` +
    `RSS ${(startRss / 2 ** 20).toFixed(0)} MB before the import, peak ${(peakRss / 2 ** 20).toFixed(0)} MB during it ` +
    `(sampled every 100 ms; the process's peak including its start: ${(lifetimePeak / 2 ** 20).toFixed(0)} MB); ` +
    `peaks apart: the process's own (anonymous) ${(peakAnon / 2 ** 20).toFixed(0)} MB, files mapped ${(peakFile / 2 ** 20).toFixed(0)} MB\n`,
);
await runtime.database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
if (serverUrl.startsWith('postgres')) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${benchDatabase} with (force)`);
  await admin.end();
}
