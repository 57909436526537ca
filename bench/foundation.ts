/**
 * Figures of the foundation issue, in one run on one machine:
 *   hello-world baseline, GET /v2/shops (perPage=20, 1000 shops in the account),
 *   POST /v2/boxes; req/s, p50/p99 and the ratio to hello-world.
 * Run: npx tsx bench/foundation.ts   (BENCH_DATABASE_URL=postgres://... for PostgreSQL)
 */
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
// What a response as large as a page of 20 shops costs a bare server: the ceiling for that list.
const largeBody = await load({
  name: 'bare fastify, fixed 27 KB body',
  url: `${hello.url}/payload?bytes=27500`,
  connections,
  durationSeconds: duration,
});
await hello.stop();

const app = await startServer('app-server.ts');
const auth = { authorization: `Bearer ${String(app.info.token)}` };
const results = [
  largeBody,
  await load({
    name: 'GET /v2/shops?perPage=20 (1000 shops)',
    url: `${app.url}/v2/shops?perPage=20`,
    headers: auth,
    connections,
    durationSeconds: duration,
  }),
  await load({
    name: 'POST /v2/boxes',
    url: `${app.url}/v2/boxes`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Коробка', dimensions: { width: 20, height: 10, length: 30 }, weight: 0.25 }),
    connections,
    durationSeconds: duration,
  }),
];
await app.stop();

printTable(
  `Foundation on ${String(app.info.database)} — ${connections} connections, ${duration} s each (node ${process.version})`,
  baseline,
  results,
);
