/**
 * Cold start to first answer: `npm start` on a fresh DATA_DIR (migrations, reference data and
 * the first account included), timed from the spawn until GET /health answers, then stopped
 * with SIGTERM. Runs RUNS times (default 3): with built output up to date every run is a
 * start with nothing to compile; BENCH_REBUILD=1 removes dist/ first, so the first run shows
 * a start right after `npm install`.
 * Run: npx tsx bench/cold-start.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_DIR } from './lib.js';

const ROOT = path.dirname(BENCH_DIR);
const runs = Number(process.env.RUNS ?? 3);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function startOnce(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  try {
    while (!(await answers(`http://127.0.0.1:${port}/health`))) {
      if (exited !== null) throw new Error(`npm start exited with ${exited} before answering`);
      if (performance.now() - started > 180_000) throw new Error('no answer in 180 s');
      await sleep(20);
    }
    return performance.now() - started;
  } finally {
    if (exited === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_REBUILD === '1') fs.rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
const times: number[] = [];
for (let run = 0; run < runs; run++) times.push(await startOnce());
console.log(
  `npm start to first answer of /health on a fresh DATA_DIR (node ${process.version}${process.env.BENCH_REBUILD === '1' ? ', dist/ removed before run 1' : ''}):`,
);
for (const [run, ms] of times.entries()) console.log(`  run ${run + 1}: ${Math.round(ms)} ms`);
