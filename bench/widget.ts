/**
 * Figures of the checkout widget issue, in one run on one machine:
 *   hello-world baseline; GET /widget/v1/api/points at 50 connections for a city viewport
 *   (points), the same with If-None-Match (304), and a country viewport (clusters): req/s,
 *   p50/p99, body size, ratio to hello-world; then the widget's JS sizes (gzipped) from a build.
 * Run: npx tsx bench/widget.ts   (BENCH_DATABASE_URL=postgres://... for PostgreSQL)
 * Time to the first list item and marker in a browser: artifacts/widget/timings.json, written
 * by src/modules/widget/browser.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWidget } from '../scripts/build-widget.mjs';
import { load, printTable, startServer } from './lib.js';

const connections = Number(process.env.CONNECTIONS ?? 50);
const duration = Number(process.env.DURATION ?? 10);

const hello = await startServer('hello-server.ts');
const baseline = await load({
  name: 'hello-world (bare fastify)',
  url: `${hello.url}/hello`,
  connections,
  durationSeconds: duration,
});
await hello.stop();

const app = await startServer('widget-server.ts');
const key = encodeURIComponent(String(app.info.publicKey));
const headers = { origin: String(app.info.origin) };
const city = `${app.url}/widget/v1/api/points?bbox=37.45,55.65,37.8,55.85&zoom=13&weight=1.2&key=${key}`;
const etag = (await fetch(city, { headers })).headers.get('etag') ?? '';
const results = [
  await load({
    name: 'GET points, Москва viewport, zoom 13 (points)',
    url: city,
    headers,
    connections,
    durationSeconds: duration,
  }),
  await load({
    name: 'same, If-None-Match (304)',
    url: city,
    headers: { ...headers, 'if-none-match': etag },
    connections,
    durationSeconds: duration,
  }),
  await load({
    name: 'GET points, Russia viewport, zoom 4 (clusters)',
    url: `${app.url}/widget/v1/api/points?bbox=20,41,180,78&zoom=4&key=${key}`,
    headers,
    connections,
    durationSeconds: duration,
  }),
  await load({
    name: 'GET localities?q=Санкт',
    url: `${app.url}/widget/v1/api/localities?q=${encodeURIComponent('Санкт')}&key=${key}`,
    headers,
    connections,
    durationSeconds: duration,
  }),
];
await app.stop();
printTable(
  `Checkout widget API — ${connections} connections, ${duration} s each (node ${process.version})`,
  baseline,
  results,
);

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-bench-'));
const manifest = await buildWidget(out);
fs.rmSync(out, { recursive: true, force: true });
console.log(
  `\nwidget.js: ${manifest.widget.bytes} B, ${manifest.widget.gzipBytes} B gzipped (what every checkout page loads)`,
);
console.log(
  `widget-map.js (Leaflet + map, loaded only when the buyer opens the map): ${manifest.map.bytes} B, ${manifest.map.gzipBytes} B gzipped`,
);
