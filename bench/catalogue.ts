/**
 * Figures of the catalogue issue, in one run on one machine:
 *   - POST /v2/products/import of a 2000-row xlsx: wall time and peak RSS, in a process of its own;
 *   - GET /v2/products?name=... over 100k products of one account: req/s, p50/p99,
 *     next to a bare fastify hello-world.
 * Run: npx tsx bench/catalogue.ts                      (SQLite)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/catalogue.ts
 * CONNECTIONS (50), DURATION (10 s), PRODUCTS (100000) tune it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { IMPORT_COLUMNS } from '../src/modules/products/import/layout.js';
import { load, printTable, startServer } from './lib.js';

const connections = Number(process.env.CONNECTIONS ?? 50);
const duration = Number(process.env.DURATION ?? 10);

/** A 2000-row file laid out as the template, every column filled. */
async function importFile(rows: number): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Products');
  sheet.addRow(IMPORT_COLUMNS.map((column) => column.key));
  for (let index = 0; index < rows; index++) {
    sheet.addRow([
      `IMP-${index}`,
      `Товар для импорта Арт. ${index}`,
      `Item ${index}`,
      20,
      1000 + index,
      1499.99,
      0.35,
      0.002,
      20,
      10,
      30,
      365,
      `https://cdn.example.com/${index}.jpg`,
      '6109100000',
      `46${String(index).padStart(11, '0')}`,
      'Бренд',
      'RU',
      0,
      1,
    ]);
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-bench-')), 'import.b64');
  fs.writeFileSync(file, Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64'));
  return file;
}

const file = await importFile(2000);
const importer = await startServer('catalogue-import.ts', { BENCH_IMPORT_FILE: file, NODE_OPTIONS: '--expose-gc' });
const imported = importer.info as { database: string; bodyKb: number; runs: Record<string, unknown>[] };
await importer.stop();
fs.rmSync(path.dirname(file), { recursive: true, force: true });

const hello = await startServer('hello-server.ts');
const baseline = await load({
  name: 'hello-world (bare fastify)',
  url: `${hello.url}/hello`,
  connections,
  durationSeconds: duration,
});
await hello.stop();

const app = await startServer('catalogue-server.ts');
const info = app.info as { token: string; database: string; products: number; seedMs: number };
const auth = { authorization: `Bearer ${info.token}` };
const scenarios: [string, string][] = [
  ['?name=кружка (5% of rows match)', `?name=${encodeURIComponent('кружка')}`],
  ['?name=арт. 115555 (1 row)', `?name=${encodeURIComponent('арт. 115555')}`],
  ['?name=нет такого (no row)', `?name=${encodeURIComponent('нет такого')}`],
  ['?name=ай (2 chars: scan)', `?name=${encodeURIComponent('ай')}`],
  [' (no filter)', ''],
];
const list = (label: string, query: string, clients: number) =>
  load({
    name: `GET /v2/products${label}`,
    url: `${app.url}/v2/products${query}`,
    headers: auth,
    connections: clients,
    durationSeconds: clients === 1 ? Math.min(duration, 5) : duration,
  });
const results = [];
for (const [label, query] of scenarios) results.push(await list(label, query, connections));
// One connection at a time: the latency is the service time of one request, which a busy machine distorts less.
const single = [];
for (const [label, query] of scenarios) single.push(await list(label, query, 1));
await app.stop();

console.log(
  `\nImport of 2000 products (xlsx ${imported.bodyKb} KB as base64 JSON) on ${imported.database}, node ${process.version}:`,
);
console.log('| run | wall ms | status | imported/total | RSS before MB | process peak RSS MB |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const run of imported.runs)
  console.log(
    `| ${run.run} | ${run.ms} | ${run.status} | ${run.success}/${run.total} | ${run.rssBeforeMb} | ${run.peakRssMb} |`,
  );
console.log(`\nSeeded ${info.products} products in one account in ${info.seedMs} ms.`);
printTable(
  `Catalogue search on ${info.database} — ${info.products} products in one account, ${connections} connections, ${duration} s each (node ${process.version})`,
  baseline,
  results,
);
printTable(`The same, one connection (service time per request)`, baseline, single);
