/**
 * Memory of the service as `npm start` runs it (node dist/src/main.js serve, SQLite, no other
 * set-up): RSS (and its anonymous part) 5 s after the first start on an empty DATA_DIR, after a
 * second start on the same data, after each of three rounds of load (the calculator with
 * cargo varied per request, then one identical request, orders created, stickers of 200 of
 * them ten times, random pages of orders; 50 connections) and 30 s after the load: the figures
 * of "bounded under load" (no growth from round to round once the caches are full) and of
 * memory given back when the load stops.
 * Run: npm run build && npx tsx bench/memory.ts   (NODE_FLAGS="..." to try other V8 flags than npm start's)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { load, processUsage, START_ENV, START_NODE_FLAGS, type RunningServer } from './lib.js';
import { MOSCOW_WAREHOUSE } from './moscow-warehouse.js';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
// npm start's flags unless NODE_FLAGS names others ("" for none)
const nodeFlags =
  process.env.NODE_FLAGS === undefined ? START_NODE_FLAGS : process.env.NODE_FLAGS.split(' ').filter(Boolean);
const duration = Number(process.env.DURATION ?? 10);

interface Started extends RunningServer {
  child: ChildProcess;
  output: () => string;
}

async function start(port: number): Promise<Started> {
  const child = spawn(process.execPath, [...nodeFlags, 'dist/src/main.js', 'serve'], {
    cwd: root,
    // a bench, not abuse: the per-token limit (1200 a minute by default) would refuse most of the load
    env: {
      ...process.env,
      ...START_ENV,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`the service stopped: ${output}`);
    const up = await fetch(`${url}/health`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (up) break;
    if (tries > 600) throw new Error('the service did not start in 60 s');
    await sleep(100);
  }
  return {
    url,
    info: {},
    child,
    output: () => output,
    usage: () => processUsage(child.pid),
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Resident memory by kind of mapping (/proc/pid/smaps): malloc's main heap ([heap]), regions of
 * 32 MB or more reserved anonymously (malloc's other arenas reserve 64 MB each), smaller anonymous
 * regions (V8's pages, large buffers mapped by themselves), the database file mapped, the rest.
 */
function residentByMapping(pid: number | undefined): Record<string, number> {
  const totals: Record<string, number> = {};
  let kind = 'other';
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (range) {
      const size = Number.parseInt(range[2], 16) - Number.parseInt(range[1], 16);
      const name = range[3];
      kind =
        name === '[heap]'
          ? 'malloc main heap'
          : name === ''
            ? size >= 32 * 1048576
              ? 'anonymous regions ≥ 32 MB (malloc arenas)'
              : 'anonymous regions < 32 MB (V8 pages, large buffers)'
            : /\.db$/.test(name)
              ? 'database file'
              : 'other files and stacks';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) totals[kind] = (totals[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return Object.fromEntries(Object.entries(totals).map(([name, mb]) => [name, Math.round(mb)]));
}

function anonymousMb(pid: number | undefined): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

const rows: Array<[string, number, number]> = [];
const measure = async (label: string, server: Started, settleMs = 5000) => {
  await sleep(settleMs);
  rows.push([label, server.usage().rssMb, anonymousMb(server.child.pid)]);
};

const port = 20000 + Math.floor(Math.random() * 20000);
const first = await start(port);
await measure('first start (empty DATA_DIR), after 5 s', first);
const token = /Bearer ([^\s"]+)/.exec(first.output())?.[1];
if (!token) throw new Error(`no token printed at the first start: ${first.output()}`);
await first.stop();

const server = await start(port);
await measure('second start (same data), after 5 s', server);

const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const api = async (method: string, url: string, body: unknown) => {
  const answer = await fetch(`${server.url}${url}`, { method, headers, body: JSON.stringify(body) });
  if (!answer.ok) throw new Error(`${method} ${url}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as { id: number };
};
const warehouse = await api('POST', '/v2/warehouses', MOSCOW_WAREHOUSE);
const shop = await api('POST', '/v2/shops', {
  name: 'Магазин',
  brand: 'Бренд',
  warehouse: { id: warehouse.id },
  platform: 'woocommerce',
});
const shopHeaders = { ...headers, 'shop-id': String(shop.id), 'accept-encoding': 'gzip' };
const variedCargo = Array.from({ length: 3000 }, (_, index) =>
  JSON.stringify({
    reception: { cityName: index % 2 ? 'Москва' : 'Санкт-Петербург' },
    weight: 0.3 + (index % 97) * 0.05,
    dimensions: { width: 10 + (index % 13), height: 5 + (index % 7), length: 20 + (index % 11) },
    priceDeclared: 1000 + index,
    priceCod: 1000 + index,
  }),
);
// the cities by their FIAS ids: a pickup point in Санкт-Петербург, company 1's drop-off point in Москва
const firstPoint = async (cityFias: string) =>
  (
    (await (
      await fetch(`${server.url}/v2/lists/points?companyId=1&cityFias=${cityFias}&perPage=1`, { headers })
    ).json()) as Array<{
      id: number;
    }>
  )[0]?.id;
const pointId = await firstPoint('c2deb16a-0330-4f05-821f-1d09c93331e6');
const dropOffPointId = await firstPoint('0c5b2444-70a0-4932-980c-b4dc0d3f02b5');
if (!pointId || !dropOffPointId) throw new Error('no pickup point of company 1 in Санкт-Петербург or Москва');
const orderBodies = Array.from({ length: 500 }, (_, index) =>
  JSON.stringify({
    shopId: shop.id,
    cmsId: `MEM-${index}`,
    products: [
      {
        name: `Товар ${index}`,
        vendorCode: `SKU-${index % 50}`,
        priceDeclared: 800 + index,
        priceCod: 900 + index,
        count: 1 + (index % 3),
        weight: 0.5,
        dimensions: { width: 15, height: 4, length: 22 },
      },
    ],
    deliveryAddress: {
      city: { countryCode: 'RU', name: 'Санкт-Петербург' },
      street: 'Литейный проспект',
      house: String(index),
    },
    recipient: { fullName: `Светлана Котова ${index}`, phone: '+79215556677' },
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
    pickup: { pointId: dropOffPointId },
  }),
);

/** Confirms `ids`, waits until they are registered (13), then asks for their stickers `times` times. */
async function stickers(ids: number[], times: number): Promise<void> {
  const confirmed = await fetch(`${server.url}/v2/orders/confirm`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ids }),
  });
  if (confirmed.status !== 204) throw new Error(`confirm: ${confirmed.status} ${await confirmed.text()}`);
  for (let waited = 0; ; waited += 500) {
    const statuses = (await (
      await fetch(`${server.url}/v2/orders?list=0&perPage=1000&statuses[]=13`, { headers })
    ).json()) as unknown[];
    if (statuses.length >= ids.length || waited > 60_000) break;
    await sleep(500);
  }
  for (let time = 0; time < times; time++) {
    const answer = await fetch(`${server.url}/v2/orders/stickers`, {
      method: 'POST',
      headers: shopHeaders,
      body: JSON.stringify({ ids, type: time % 3 }),
    });
    await answer.arrayBuffer();
  }
}

for (const round of [1, 2, 3]) {
  const varied = await load({
    name: 'calculator, cargo varied',
    url: `${server.url}/v2/calculator`,
    method: 'POST',
    headers: shopHeaders,
    bodies: variedCargo,
    durationSeconds: duration,
    server,
  });
  const same = await load({
    name: 'calculator, identical',
    url: `${server.url}/v2/calculator`,
    method: 'POST',
    headers: shopHeaders,
    body: variedCargo[0],
    durationSeconds: Math.ceil(duration / 2),
    server,
  });
  const created = await load({
    name: 'orders created',
    url: `${server.url}/v2/orders`,
    method: 'POST',
    headers: shopHeaders,
    bodies: orderBodies,
    durationSeconds: duration,
    server,
  });
  const listed = (await (await fetch(`${server.url}/v2/orders?list=1&perPage=200`, { headers })).json()) as Array<{
    id: number;
  }>;
  await stickers(
    listed.map((order) => order.id),
    10,
  );
  const pages = await load({
    name: 'pages of orders, random',
    url: `${server.url}/v2/orders`,
    headers: shopHeaders,
    paths: Array.from(
      { length: 4000 },
      (_, index) => `/v2/orders?list=0&perPage=${20 + (index % 40)}&page=${1 + ((index * 7919) % 400)}`,
    ),
    durationSeconds: duration,
    server,
  });
  if (varied.non2xx + same.non2xx + created.non2xx + pages.non2xx > 0)
    throw new Error(`refused answers in round ${round}`);
  await measure(
    `after load round ${round} (calculator varied ${varied.requestsPerSecond} req/s, identical ${same.requestsPerSecond}; ${created.requestsPerSecond} orders/s; stickers of 200 orders ×10; pages ${pages.requestsPerSecond} req/s)`,
    server,
    2000,
  );
}
await measure('30 s after the load', server, 30_000);
await measure('90 s after the load', server, 60_000);
const mappings = residentByMapping(server.child.pid);
// BENCH_MALLOC_TRIM=1 (gdb installed): malloc_trim(0) called in the service, then measured again;
// what it gives back was free inside malloc's heaps but never returned to the system
if (process.env.BENCH_MALLOC_TRIM === '1') {
  const { execFileSync } = await import('node:child_process');
  execFileSync('gdb', ['-p', String(server.child.pid), '-batch', '-ex', 'call (int) malloc_trim(0)'], {
    stdio: 'ignore',
  });
  await measure('then malloc_trim(0) called in it (gdb)', server, 1000);
}
// where it is held (prom-client's default metrics): V8's spaces, memory outside the heap
const metrics = await (await fetch(`${server.url}/metrics`)).text();
const held = metrics
  .split('\n')
  .filter((line) => /^(nodejs_heap_s|nodejs_external|process_resident|nodejs_heap_space_size_used)/.test(line))
  .map((line) => line.replace(/ (\d+(\.\d+)?(e\+\d+)?)$/, (_, value) => ` ${Math.round(Number(value) / 1048576)} MB`));
await server.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

const startEnv = Object.entries(START_ENV)
  .map(([name, value]) => `${name}=${value} `)
  .join('');
console.log(`\nMemory of \`${startEnv}node ${[...nodeFlags, 'dist/src/main.js serve'].join(' ')}\` (SQLite)\n`);
console.log('| moment | RSS MB | anonymous MB |\n|---|---|---|');
for (const [label, rss, anonymous] of rows) console.log(`| ${label} | ${rss} | ${anonymous} |`);
console.log(`\nHeld at the end:\n${held.join('\n')}`);
console.log(`\nResident by kind of mapping (MB): ${JSON.stringify(mappings)}`);
