/**
 * The whole catalogue as xlsx through GET /v2/products/export, over PRODUCTS (default 100k)
 * products in one account: the answer's time to its last byte and the server's CPU for it, in
 * the default order (newest first) and sorted by name (each read page used to sort every match
 * again), the default once more after the first warmed it.
 * Run: npx tsx bench/products-export.ts   (BENCH_DATABASE_URL=postgres://... for PostgreSQL)
 */
import { startServer } from './lib.js';

const app = await startServer('catalogue-server.ts', {}, 900_000);
const token = String(app.info.token);
const rows: Array<Record<string, string | number>> = [];
for (const [label, query] of [
  ['newest first (default)', ''],
  ['sorted by name', 'sort=name&desc=false'],
  ['newest first, again', ''],
]) {
  const before = app.usage();
  const started = performance.now();
  const answer = await fetch(`${app.url}/v2/products/export?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const bytes = (await answer.arrayBuffer()).byteLength;
  if (!answer.ok) throw new Error(`${label}: ${answer.status}`);
  rows.push({
    export: label,
    'ms to the last byte': Math.round(performance.now() - started),
    'server CPU-ms': app.usage().cpuMs - before.cpuMs,
    'file kB': Math.round(bytes / 1024),
  });
}
await app.stop();
console.log(
  `\nExport of ${String(app.info.products)} products on ${String(app.info.database)} (node ${process.version})`,
);
console.table(rows);
