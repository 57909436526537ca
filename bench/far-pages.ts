/**
 * What a page of orders costs by its number: pages 1, 100, 1000, 2000 and the last of the whole
 * list (10 page sizes 45..54 in turn). First the read right after a write (an order created,
 * then the page read: the page and its total are cold, as after any write in a shop taking
 * orders), p50/p99 and the server's CPU per write and read; then pages read by 20 connections
 * while an order is created every WRITE_MS ms (default 100).
 * Run: ORDERS=200000 npx tsx bench/far-pages.ts
 *      BEFORE_DIR=/tmp/before ORDERS=200000 npx tsx bench/far-pages.ts   (another checkout, in turn with this one)
 *      BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/test ...       (on PostgreSQL)
 * The servers are alive at once and loaded in turn, each page's runs paired a few seconds apart.
 */
import path from 'node:path';
import { BENCH_DIR, load, startServer, type RunningServer } from './lib.js';

const orders = Number(process.env.ORDERS ?? 200_000);
const duration = Number(process.env.DURATION ?? 6);
const writeMs = Number(process.env.WRITE_MS ?? 100);
const beforeDir = process.env.BEFORE_DIR;
const lastPage = Math.floor(orders / 50);
const pages = [1, 100, 1000, 2000, lastPage].filter(
  (page, index, all) => page <= lastPage && all.indexOf(page) === index,
);

const servers: Array<[string, RunningServer]> = [];
servers.push(['this checkout', await startServer('orders-server.ts', { ORDERS: String(orders) }, 1_800_000)]);
if (beforeDir)
  servers.push([
    'BEFORE_DIR',
    await startServer(
      path.relative(BENCH_DIR, path.join(path.resolve(beforeDir), 'bench', 'orders-server.ts')),
      { ORDERS: String(orders) },
      1_800_000,
    ),
  ]);

/** Creates an order every `writeMs` ms until stopped: the shop's checkout going on. */
function writing(server: RunningServer): { stop(): Promise<number> } {
  const { token, body, shopId } = server.info as { token: string; body: unknown; shopId: number };
  let running = true;
  let written = 0;
  const loop = (async () => {
    while (running) {
      const response = await fetch(`${server.url}/v2/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'shop-id': String(shopId) },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      if (response.status === 201) written++;
      await new Promise((resolve) => setTimeout(resolve, writeMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return written;
    },
  };
}

/** Writes one order, then reads the page: the page and its total are cold (any write makes them so). */
async function readAfterWrite(server: RunningServer, pagePath: string): Promise<number> {
  const { token, body, shopId } = server.info as { token: string; body: unknown; shopId: number };
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' };
  const written = await fetch(`${server.url}/v2/orders`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'shop-id': String(shopId) },
    body: JSON.stringify(body),
  });
  await written.arrayBuffer();
  if (written.status !== 201) throw new Error(`an order was refused: ${written.status}`);
  const started = performance.now();
  const read = await fetch(`${server.url}${pagePath}`, { headers });
  await read.arrayBuffer();
  if (read.status !== 200) throw new Error(`${pagePath}: ${read.status}`);
  return performance.now() - started;
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];

console.log(`${orders} orders; pages of 45..54 orders, gzip`);
console.log('\nThe first read of a page after a write (an order created, then the page read: both sequential)\n');
console.log('| page | server | reads | p50 ms | p99 ms | server CPU-ms per write and read |');
console.log('|---:|---|---:|---:|---:|---:|');
for (const page of pages) {
  for (const [label, server] of page % 2 === 0 ? servers : [...servers].reverse()) {
    const times: number[] = [];
    const before = server.usage();
    const started = performance.now();
    for (let read = 0; performance.now() - started < duration * 1000 && read < 400; read++)
      times.push(await readAfterWrite(server, `/v2/orders?list=0&perPage=${45 + (read % 10)}&page=${page}`));
    const cpu = (server.usage().cpuMs - before.cpuMs) / times.length;
    times.sort((a, b) => a - b);
    console.log(
      `| ${page} | ${label} | ${times.length} | ${percentile(times, 0.5).toFixed(1)} | ${percentile(times, 0.99).toFixed(1)} | ${cpu.toFixed(2)} |`,
    );
  }
}

console.log('\nPages read by 20 connections while an order is created every ' + writeMs + ' ms\n');
console.log('| page | server | writes | req/s | p50 ms | p99 ms | server CPU-ms/page | non-2xx |');
console.log('|---:|---|---|---:|---:|---:|---:|---:|');
for (const page of pages) {
  const paths = Array.from({ length: 10 }, (_, size) => `/v2/orders?list=0&perPage=${45 + size}&page=${page}`);
  for (const [label, server] of page % 2 === 0 ? servers : [...servers].reverse()) {
    const { token } = server.info as { token: string };
    const writer = writing(server);
    const result = await load({
      name: `${label} page ${page}`,
      url: `${server.url}/v2/orders`,
      paths,
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
      durationSeconds: duration,
      connections: 20,
      server,
    });
    const written = await writer.stop();
    console.log(
      `| ${page} | ${label} | ${written} orders | ${result.requestsPerSecond} | ${result.p50} | ${result.p99} | ${result.cpuMsPerResponse} | ${result.non2xx} |`,
    );
  }
}
for (const [, server] of servers) await server.stop();
