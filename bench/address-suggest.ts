/**
 * Figures of the address suggestions and cleaning, in one run on one machine, next to a bare
 * fastify hello-world: street suggestions as a buyer types them (a city, then the start of a street:
 * 3000 different queries in turn, plain and gzipped as a browser asks), house suggestions, city
 * suggestions, at CONNECTIONS connections; cleaning's CPU time per address (in the server's process,
 * before it serves) and POST /v2/addresses/clean of 50 addresses. Data: generated rows (bench/address-data.ts), HOUSES houses.
 * Run: npx tsx bench/address-suggest.ts                                  (SQLite)
 *      DATABASE_URL=postgres://root@127.0.0.1:5432/test npx tsx bench/address-suggest.ts
 *      HOUSES=200000 DURATION=5 npx tsx bench/address-suggest.ts         (a shorter run)
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
// what a body as large as ten suggestions (~2 kB of Cyrillic) costs a bare server: the ceiling for them
const sameBytes = await load({
  name: 'bare fastify, fixed 2 KB body',
  url: `${hello.url}/payload?bytes=2000`,
  connections,
  durationSeconds: duration,
});
await hello.stop();

const app = await startServer('address-server.ts', {}, 1_800_000);
const info = app.info as {
  token: string;
  database: string;
  houses: number;
  streets: number;
  localities: number;
  seedMs: number;
  cleanCount: number;
  cleanCertain: number;
  cleanCpuMsPerAddress: number;
  cleanWallMsPerAddress: number;
  heapMb: number;
  samples: [string, string, string][];
  texts: string[];
};
const auth = { authorization: `Bearer ${info.token}` };
const rssAfterStart = app.usage().rssMb;
const suggestPaths = (make: (sample: [string, string, string], index: number) => string) =>
  info.samples.map(
    (sample, index) => `/v2/addresses/suggest?count=10&query=${encodeURIComponent(make(sample, index))}`,
  );
const streets = suggestPaths(([city, street], index) => `${city} ${street.slice(0, 3 + (index % 4))}`);
const houses = suggestPaths(([city, street, house]) => `${city} ${street} ${house}`);
const citiesTyped = suggestPaths(([city], index) => city.slice(0, 2 + (index % 4)));
const run = (name: string, paths: string[], headers: Record<string, string> = {}) =>
  load({
    name,
    url: `${app.url}/v2/addresses/suggest`,
    paths,
    headers: { ...auth, ...headers },
    connections,
    durationSeconds: duration,
    server: app,
  });
// the service's own floor on this machine now: an authenticated answer that reads nothing (the order statuses)
const floor = await load({
  name: "GET /v2/lists/order-statuses (the service's per-request floor: authenticated, nothing read)",
  url: `${app.url}/v2/lists/order-statuses`,
  headers: auth,
  connections,
  durationSeconds: duration,
  server: app,
});
const results = [
  floor,
  await run('GET /v2/addresses/suggest: a city and the start of a street (3000 queries in turn)', streets),
  // the widget and DaData's components ask from a browser, which takes gzip: a remembered answer is sent as it is held
  await run('the same, as a browser asks (Accept-Encoding: gzip, deflate, br)', streets, {
    'accept-encoding': 'gzip, deflate, br',
  }),
  await run('GET /v2/addresses/suggest: a city, a street, a house number', houses),
  await run('GET /v2/addresses/suggest: the start of a city', citiesTyped),
];
const batches = Array.from({ length: 10 }, (_, index) =>
  JSON.stringify({ addresses: info.texts.slice(index * 50, index * 50 + 50) }),
);
const clean = await load({
  name: 'POST /v2/addresses/clean, 50 addresses a request',
  url: `${app.url}/v2/addresses/clean`,
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json' },
  bodies: batches,
  connections: Math.min(connections, 10),
  durationSeconds: duration,
  server: app,
});
const afterLoad = app.usage();
await app.stop();

printTable(
  `Address suggestions on ${info.database}: ${info.houses} houses, ${info.streets} streets, ${info.localities} localities (generated in ${info.seedMs} ms), ${connections} connections, ${duration} s; RSS after start ${rssAfterStart} MB (heap ${info.heapMb} MB)`,
  baseline,
  [sameBytes, ...results, clean],
);
console.log(
  `\nRSS after the load ${afterLoad.rssMb} MB: the process's own ${afterLoad.anonMb} MB, mapped files ${afterLoad.fileMb} MB`,
);
console.log(
  `\nCleaning in process: ${info.cleanCpuMsPerAddress} CPU-ms per address (${info.cleanWallMsPerAddress} ms wall), ${info.cleanCount} messy addresses, ${info.cleanCertain} certain; over HTTP: ${clean.cpuMsPerResponse !== undefined ? Math.round((clean.cpuMsPerResponse / 50) * 1000) / 1000 : '?'} server CPU-ms per address`,
);
