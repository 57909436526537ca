/**
 * Memory of the service as `npm start` runs it (node dist/src/main.js serve, SQLite, no other
 * set-up): RSS (and its anonymous part) 5 s after the first start on an empty DATA_DIR, after a
 * second start on the same data, and after each of three rounds of load (the calculator with
 * cargo varied per request, then one identical request, at 50 connections) — the figure of
 * "bounded under load": no growth from round to round once the caches are full.
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
  if (varied.non2xx + same.non2xx > 0) throw new Error(`refused answers in round ${round}`);
  await measure(
    `after load round ${round} (varied ${varied.requestsPerSecond} req/s, ${varied.cpuMsPerResponse} CPU-ms; identical ${same.requestsPerSecond} req/s, ${same.cpuMsPerResponse} CPU-ms)`,
    server,
    2000,
  );
}
await server.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

const startEnv = Object.entries(START_ENV)
  .map(([name, value]) => `${name}=${value} `)
  .join('');
console.log(`\nMemory of \`${startEnv}node ${[...nodeFlags, 'dist/src/main.js serve'].join(' ')}\` (SQLite)\n`);
console.log('| moment | RSS MB | anonymous MB |\n|---|---|---|');
for (const [label, rss, anonymous] of rows) console.log(`| ${label} | ${rss} | ${anonymous} |`);
