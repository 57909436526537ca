/**
 * How long a graceful stop takes under load: the real `serve` command (src/main.ts) in its
 * own process, 50 keep-alive clients writing boxes, SIGTERM after a few seconds; the
 * figure is the time from SIGTERM to the process's exit, and how it exited.
 * Run: npx tsx bench/stop.ts                       (SQLite)
 *      BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/stop.ts
 * Env: CONNECTIONS (50), LOAD_SECONDS before SIGTERM (3), SHUTDOWN_GRACE_SECONDS (the service's own default).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { BENCH_DIR } from './lib.js';

const connections = Number(process.env.CONNECTIONS ?? 50);
const loadSeconds = Number(process.env.LOAD_SECONDS ?? 3);
const server = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
const postgres = server && /^postgres(ql)?:\/\//.test(server) ? server : undefined;

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgres });
  await client.connect();
  await client.query(text);
  await client.end();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-stop-'));
const databaseName = `bench_${randomBytes(4).toString('hex')}`;
if (postgres) await adminQuery(`create database ${databaseName}`);
const port = await freePort();
const child = spawn(process.execPath, ['--import', 'tsx', path.join(BENCH_DIR, '..', 'src', 'main.ts'), 'serve'], {
  env: {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: postgres ? Object.assign(new URL(postgres), { pathname: `/${databaseName}` }).toString() : '',
    LOG_LEVEL: 'warn',
    SECRET_KEY: 'bench-secret-bench-secret-bench-secret-01',
    SIMULATION_STEP_SECONDS: '0',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
  child.once('exit', (code, signal) => resolve({ code, signal })),
);

const token = await new Promise<string>((resolve, reject) => {
  let buffer = '';
  const timer = setTimeout(() => reject(new Error('serve printed no token in 180 s')), 180_000);
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const found = /(acc_[A-Za-z0-9_-]+)/.exec(buffer);
    if (found) {
      clearTimeout(timer);
      resolve(found[1]);
    }
  });
});
const url = `http://127.0.0.1:${port}`;
// the token is printed before listen: wait until the port answers
for (;;) {
  const up = await fetch(`${url}/health`).then(
    () => true,
    () => false,
  );
  if (up) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}

// Clients as shop plugins keep them: persistent connections (PHP curl handles, a keep-alive
// agent) that stop asking once the service goes away, but stay open. A request in flight at
// SIGTERM answered "keep-alive" leaves such a connection open for the server to wait on.
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const body = JSON.stringify({ name: 'Коробка', dimensions: { width: 20, height: 10, length: 30 }, weight: 0.25 });
let stopping = false;
const tally = {
  before: 0,
  after: 0,
  afterClose: 0,
  afterKeepAlive: 0,
  afterErrors: 0,
  afterStatus: new Map<number, number>(),
};
function post(): Promise<void> {
  const sentWhileStopping = stopping;
  return new Promise((resolve) => {
    const request = http.request(
      `${url}/v2/boxes`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          if (!stopping) tally.before++;
          else {
            tally.after++;
            tally.afterStatus.set(response.statusCode ?? 0, (tally.afterStatus.get(response.statusCode ?? 0) ?? 0) + 1);
            if (response.headers.connection === 'close') tally.afterClose++;
            else tally.afterKeepAlive++;
          }
          resolve();
        });
      },
    );
    request.on('error', () => {
      if (stopping || sentWhileStopping) tally.afterErrors++;
      resolve();
    });
    request.end(body);
  });
}
const clients = Array.from({ length: connections }, async () => {
  while (!stopping) await post();
});
await new Promise((resolve) => setTimeout(resolve, loadSeconds * 1000));
stopping = true;
const sigtermAt = performance.now();
child.kill('SIGTERM');
const exit = await exited;
const stopMs = performance.now() - sigtermAt;
await Promise.all(clients);
agent.destroy();

if (postgres) await adminQuery(`drop database ${databaseName} with (force)`);
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(
  `\nGraceful stop under load on ${postgres ? 'postgres' : 'sqlite'} (${connections} keep-alive clients of POST /v2/boxes, SIGTERM after ${loadSeconds} s, node ${process.version})`,
);
console.log(
  '| SIGTERM to exit, ms | exit code | answers before SIGTERM | answered after SIGTERM | of them Connection: close | keep-alive | statuses after | failed requests |',
);
console.log('|---:|---:|---:|---:|---:|---:|---|---:|');
console.log(
  `| ${Math.round(stopMs)} | ${exit.code ?? exit.signal} | ${tally.before} | ${tally.after} | ${tally.afterClose} | ${tally.afterKeepAlive} | ${[...tally.afterStatus].map(([status, count]) => `${status}: ${count}`).join(', ')} | ${tally.afterErrors} |`,
);
process.exit(0);
