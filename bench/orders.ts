/**
 * Figures of the orders issue, in one run on one machine, next to a bare fastify hello-world:
 *   - POST /v2/orders: a priced order (pickup point) with 3 products by reference;
 *   - GET /v2/orders?list=0&perPage=50 with a filter, over 200k orders of one account.
 * Run: npx tsx bench/orders.ts                      (SQLite)
 *      SCENARIO=post npx tsx bench/orders.ts        (only POST /v2/orders, after the same seeding)
 *      SCENARIO=pages npx tsx bench/orders.ts       (only pages never read before: in turn, gzip and plain; random;
 *                                                    and, on SQLite, the floor under random pages)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/orders.ts
 */
import { seededRandom } from '../src/platform/seeded-random.js';
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
// What a body as large as a page of 50 orders costs a bare server: the ceiling for that list.
const largeBody = await load({
  name: 'bare fastify, fixed 190 KB body',
  url: `${hello.url}/payload?bytes=190000`,
  connections,
  durationSeconds: duration,
});
// ...and one as large as a cold page's gzip (75-81 kB): the same-bytes server of those pages
const gzipPageBody = await load({
  name: 'bare fastify, fixed 81 KB body',
  url: `${hello.url}/payload?bytes=81000`,
  connections,
  durationSeconds: duration,
});
await hello.stop();

const app = await startServer('orders-server.ts', {}, 900_000);
const info = app.info as {
  token: string;
  database: string;
  orders: number;
  seedMs: number;
  shopId: number;
  body: unknown;
  sqliteFile?: string;
};
const auth = { authorization: `Bearer ${info.token}` };
const gzip = { ...auth, 'accept-encoding': 'gzip, deflate' };
const rssAfterStart = app.usage().rssMb;
const list = (label: string, query: string, headers: Record<string, string> = auth) =>
  load({
    name: `GET /v2/orders?${label}`,
    url: `${app.url}/v2/orders?${query}`,
    headers,
    connections,
    durationSeconds: duration,
    server: app,
  });
// All 2000 pages in turn: more than the embedded mode remembers (64 MB of ~80 KB pages), so
// every page is read from the database (each starts after a remembered page's last id).
const pages = Array.from(
  { length: 2000 },
  (_, index) => `/v2/orders?list=0&perPage=50&deliveryType=1&page=${index + 1}`,
);
// 600 pages (~48 MB as assembled gzip) fit in what the embedded mode remembers: after the
// first pass they are answered from memory.
const rememberedPages = pages.slice(0, 600);
// The problems list (its own index) has ~330 pages of 50: read with 10 page sizes, 3000
// different pages in turn, so that none is remembered either.
const problemPages = Array.from({ length: 300 }, (_, page) =>
  Array.from({ length: 10 }, (_, size) => `/v2/orders?list=6&perPage=${45 + size}&page=${page + 1}`),
).flat();
// a fixed shuffle (the same in every run) of pages 1..2000 of the whole list in 10 page sizes:
// 20 000 different pages (~1.6 GB as assembled gzip), far more than what is remembered. (The
// generator before multiplied past 2^53, lost its low bits and gave 697 different pages.)
const randomPages = Array.from({ length: 20000 }, (_, index) => {
  const perPage = 45 + (index % 10);
  return `/v2/orders?list=0&perPage=${perPage}&page=${1 + Math.floor(index / 10)}`;
});
const shuffle = seededRandom(27);
for (let index = randomPages.length - 1; index > 0; index--) {
  const other = Math.floor(shuffle() * (index + 1));
  [randomPages[index], randomPages[other]] = [randomPages[other], randomPages[index]];
}
const create = () =>
  load({
    name: 'POST /v2/orders (priced, 3 products)',
    url: `${app.url}/v2/orders`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(info.body),
    connections,
    durationSeconds: duration,
    server: app,
  });
const inTurn = (encoding: 'gzip' | 'plain') =>
  load({
    name: `GET /v2/orders?list=0&perPage=50&deliveryType=1&page=1..2000 in turn, ${encoding}`,
    url: `${app.url}/v2/orders`,
    paths: pages,
    headers: encoding === 'gzip' ? gzip : auth,
    connections,
    durationSeconds: duration,
    server: app,
  });
// random pages: no page is asked right after the one before it
const randomly = () =>
  load({
    name: 'GET /v2/orders?list=0&perPage=45..54&page=random 1..2000, gzip',
    url: `${app.url}/v2/orders`,
    paths: randomPages,
    headers: gzip,
    connections,
    durationSeconds: duration,
    server: app,
  });
// The floor under those pages (SQLite): a bare server that only reads each page from the same
// file with the service's statement, assembles its gzip and sends it (bench/page-floor-server.ts).
// What no service doing more per request can pass on this machine.
const floorOfRandomPages = async () => {
  if (!info.sqliteFile) return [];
  const floor = await startServer('page-floor-server.ts', { FLOOR_DATABASE: info.sqliteFile });
  const paths = randomPages.map((pagePath) => pagePath.replace('/v2/orders?list=0&', '/page?'));
  const floorLoad = (name: string, query: string) =>
    load({
      name,
      url: `${floor.url}/page`,
      paths: paths.map((pagePath) => pagePath + query),
      connections,
      durationSeconds: duration,
      server: floor,
    });
  const figures = [
    await floorLoad('floor: the same random pages read, assembled and sent on one event loop', ''),
    await floorLoad("floor: the same, read in the service's page reader thread", '&thread=1'),
  ];
  await floor.stop();
  return figures;
};
const results =
  process.env.SCENARIO === 'post'
    ? [await create()]
    : process.env.SCENARIO === 'pages'
      ? [gzipPageBody, await inTurn('gzip'), await inTurn('plain'), await randomly(), ...(await floorOfRandomPages())]
      : [
          largeBody,
          gzipPageBody,
          await list('list=0&perPage=50&deliveryType=1', 'list=0&perPage=50&deliveryType=1'),
          await list('list=0&perPage=50&deliveryType=1, gzip', 'list=0&perPage=50&deliveryType=1', gzip),
          await list(`list=0&perPage=50&shopId=${info.shopId}, gzip`, `list=0&perPage=50&shopId=${info.shopId}`, gzip),
          await list('list=5&perPage=50 (delivered), gzip', 'list=5&perPage=50', gzip),
          await inTurn('gzip'),
          await inTurn('plain'),
          await randomly(),
          ...(await floorOfRandomPages()),
          await load({
            name: 'GET /v2/orders?list=0&perPage=50&deliveryType=1&page=1..600 in turn (remembered), gzip',
            url: `${app.url}/v2/orders`,
            paths: rememberedPages,
            headers: gzip,
            connections,
            durationSeconds: duration,
            server: app,
          }),
          await load({
            name: 'GET /v2/orders?list=6&perPage=45..54&page=1..300 in turn (problems), gzip',
            url: `${app.url}/v2/orders`,
            paths: problemPages,
            headers: gzip,
            connections,
            durationSeconds: duration,
            server: app,
          }),
          await create(),
        ];
const rssAfterLoad = app.usage().rssMb;
await app.stop();

console.log(`\nSeeded ${info.orders} orders in ${info.seedMs} ms.`);
console.log(
  `Server RSS: ${rssAfterStart} MB after start (seeded in-process), ${rssAfterLoad} MB after the load above.`,
);
printTable(
  `Orders on ${info.database} — ${info.orders} orders in one account, ${connections} connections, ${duration} s each (node ${process.version})`,
  baseline,
  results,
);
