/**
 * Figures of the calculator issue, in one run on one machine:
 *   hello-world baseline; POST /v2/calculator from a Moscow shop to a big city (Санкт-Петербург,
 *   all companies, full point info) and to a small town (Удомля), at 50 connections:
 *   req/s, p50/p99, response size, ratio to hello-world;
 *   then 8 http companies answering in 200 ms each: total latency of one call (concurrency, not sum).
 * Run: npx tsx bench/calculator.ts   (BENCH_DATABASE_URL=postgres://... for PostgreSQL;
 *      CALCULATOR_CACHE_SECONDS=0 to measure every call computed afresh;
 *      SCENARIO=varied for only the hello-world baseline and the uncached Moscow carts (with
 *      their floor: one such answer compressed afresh per request by a bare server),
 *      SCENARIO=identical for only the baseline, one remembered Moscow answer (gzip) and one of a
 *      small town, beside the bare server sending the same bytes)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeCarrier } from '../test/support/fake-carrier.js';
import { load, printTable, startServer } from './lib.js';

const connections = Number(process.env.CONNECTIONS ?? 50);
const duration = Number(process.env.DURATION ?? 10);
const onlyVaried = process.env.SCENARIO === 'varied';
const onlyIdentical = process.env.SCENARIO === 'identical';

const hello = await startServer('hello-server.ts');
const baseline = await load({
  name: 'hello-world (bare fastify)',
  url: `${hello.url}/hello`,
  connections,
  durationSeconds: duration,
});
// The ceiling of a response as large as the answers below: a bare server sending fixed bytes
// to the calculator's request shape, a POST with a JSON body (a big city plain 388 kB,
// gzipped 29 kB, Brotli 23 kB; the small town 16 kB).
const ceilings = [];
for (const bytes of onlyVaried ? [] : onlyIdentical ? [29000, 16000] : [388000, 29000, 23000, 16000]) {
  ceilings.push(
    await load({
      name: `bare fastify, POST, fixed ${Math.round(bytes / 1000)} kB body (ceiling)`,
      url: `${hello.url}/payload?bytes=${bytes}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reception: { cityName: 'Москва' }, weight: 1.2 }),
      connections,
      durationSeconds: duration,
    }),
  );
}
await hello.stop();

const app = await startServer('calculator-server.ts');
const headers = {
  authorization: `Bearer ${String(app.info.token)}`,
  'shop-id': String(app.info.shopId),
  'content-type': 'application/json',
};
const rssAfterStart = app.usage().rssMb;
const call = (name: string, body: unknown, extra: Record<string, string> = {}, bodies?: string[]) =>
  load({
    name,
    url: `${app.url}/v2/calculator`,
    method: 'POST',
    headers: { ...headers, ...extra },
    body: JSON.stringify(body),
    bodies,
    connections,
    durationSeconds: duration,
    server: app,
  });
const gzip = { 'accept-encoding': 'gzip' };
const cargo = { weight: 1.2, dimensions: { width: 20, height: 15, length: 30 }, priceDeclared: 3000, priceCod: 3000 };
// What every buyer's cart sends: its own weight, size and value, so no two answers are alike
// and the answer cache never helps (3000 different carts, asked in turn).
const variedCargo = Array.from({ length: 3000 }, (_, index) =>
  JSON.stringify({
    reception: { cityName: 'Москва' },
    weight: 0.3 + (index % 97) * 0.05,
    dimensions: { width: 10 + (index % 13), height: 5 + (index % 7), length: 20 + (index % 11) },
    priceDeclared: 1000 + index,
    priceCod: 1000 + index,
  }),
);
const results = [...ceilings];
if (onlyIdentical)
  results.push(
    await call(
      'POST /v2/calculator -> Москва, client accepts gzip',
      { reception: { cityName: 'Москва' }, ...cargo },
      gzip,
    ),
    await call('POST /v2/calculator -> Удомля (small town)', {
      reception: { cityName: 'Удомля', region: 'Тверская область' },
      ...cargo,
    }),
  );
else
  results.push(
    await call('POST /v2/calculator -> Москва, cargo varied per request (uncached), gzip', {}, gzip, variedCargo),
    // a browser's header over HTTPS, and PHP curl's with CURLOPT_ENCODING '' when built with Brotli
    await call(
      'same, Accept-Encoding: gzip, deflate, br, zstd (Brotli)',
      {},
      { 'accept-encoding': 'gzip, deflate, br, zstd' },
      variedCargo,
    ),
  );
if (!onlyVaried && !onlyIdentical)
  results.push(
    await call('POST /v2/calculator -> Санкт-Петербург (all companies, full points)', {
      reception: { cityName: 'Санкт-Петербург' },
      ...cargo,
    }),
    await call('POST /v2/calculator -> Москва (all companies, full points)', {
      reception: { cityName: 'Москва' },
      ...cargo,
    }),
    await call('same, client accepts gzip', { reception: { cityName: 'Санкт-Петербург' }, ...cargo }, gzip),
    await call(
      'POST /v2/calculator -> Москва, client accepts gzip',
      { reception: { cityName: 'Москва' }, ...cargo },
      gzip,
    ),
    await call(
      'POST /v2/calculator -> Москва, a browser (Brotli)',
      { reception: { cityName: 'Москва' }, ...cargo },
      { 'accept-encoding': 'gzip, deflate, br, zstd' },
    ),
    await call('POST /v2/calculator -> Санкт-Петербург, hidePointFullInfo', {
      reception: { cityName: 'Санкт-Петербург' },
      hidePointFullInfo: true,
      ...cargo,
    }),
    await call('POST /v2/calculator -> Удомля (small town)', {
      reception: { cityName: 'Удомля', region: 'Тверская область' },
      ...cargo,
    }),
  );
const rssAfterLoad = app.usage().rssMb;
// The floor under the uncached carts: one of their answers, compressed afresh for every request by
// a bare server with the service's compression and nothing else (bench/answer-floor-server.ts).
// What no service pricing each cart can pass on this machine.
if (!onlyIdentical) {
  const plainAnswer = Buffer.from(
    await (await fetch(`${app.url}/v2/calculator`, { method: 'POST', headers, body: variedCargo[1] })).arrayBuffer(),
  );
  const answerFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'answer-floor-')), 'answer.json');
  fs.writeFileSync(answerFile, plainAnswer);
  await app.stop();
  const floor = await startServer('answer-floor-server.ts', { FLOOR_ANSWER: answerFile });
  for (const [label, encoding] of [
    ['gzip', 'gzip'],
    ['Brotli', 'gzip, deflate, br, zstd'],
  ])
    results.push(
      await load({
        name: `floor: one Москва answer (${Math.round(plainAnswer.length / 1000)} kB) compressed afresh per request, ${label}`,
        url: `${floor.url}/fresh`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': encoding },
        bodies: variedCargo,
        connections,
        durationSeconds: duration,
        server: floor,
      }),
    );
  await floor.stop();
  fs.rmSync(path.dirname(answerFile), { recursive: true, force: true });
} else await app.stop();
printTable(
  `Calculator on ${String(app.info.database)} — ${connections} connections, ${duration} s each (node ${process.version}); start with reference data ${String(app.info.startMs)} ms`,
  baseline,
  results,
);
console.log(`\nServer RSS: ${rssAfterStart} MB after start, ${rssAfterLoad} MB after the load above.`);
if (onlyVaried || onlyIdentical) process.exit(0);

// 8 slow http companies of 200 ms each: the call waits for the slowest, not for the sum.
const slow = await Promise.all(Array.from({ length: 8 }, () => startFakeCarrier({ delayMs: 200 })));
const remote = await startServer('calculator-server.ts', {
  BENCH_HTTP_CARRIERS: JSON.stringify(slow.map((carrier) => carrier.baseUrl)),
});
const remoteHeaders = {
  authorization: `Bearer ${String(remote.info.token)}`,
  'shop-id': String(remote.info.shopId),
  'content-type': 'application/json',
};
const timings: number[] = [];
let companies = 0;
for (let run = 0; run < 12; run++) {
  const started = performance.now();
  const response = await fetch(`${remote.url}/v2/calculator`, {
    method: 'POST',
    headers: remoteHeaders,
    body: JSON.stringify({ reception: { cityName: 'Санкт-Петербург' }, type: 2, timeout: 1000, ...cargo }),
  });
  const body = (await response.json()) as Record<string, Array<{ deliveryCompanyId: number }>>;
  timings.push(performance.now() - started);
  companies = body['2'].filter((company) => company.deliveryCompanyId > 200).length;
}
await remote.stop();
await Promise.all(slow.map((carrier) => carrier.close()));
const measured = timings.slice(2).sort((a, b) => a - b);
console.log(
  `\n8 http companies answering in 200 ms each (courier, + built-in ones): ${companies} of 8 answered; total latency min ${measured[0].toFixed(0)} ms, median ${measured[Math.floor(measured.length / 2)].toFixed(0)} ms, max ${measured[measured.length - 1].toFixed(0)} ms (target < 260 ms; sequential would be 1600 ms)`,
);
