/**
 * Form bodies as an attacker and as real plugins send them (issue: one anonymous request must not
 * stall every shop). Two figures:
 *   1. parse time of each body, qs as the service used it before (arrayLimit 10,000) and
 *      platform/form-body.ts now, in this process (the best of 5);
 *   2. the service itself: anonymous hostile bodies sent to POST /v2/auth/login, one connection
 *      after the other, while autocannon asks GET /health — its p99 and max beside /health alone.
 * Run: npx tsx bench/form-parse.ts
 */
import { request } from 'node:http';
import qs from 'qs';
import { parseForm } from '../src/platform/form-body.js';
import { load, printTable, startServer } from './lib.js';
import { hostileFormBodies, realFormBodies } from './form-bodies.js';

function bestOf(runs: number, work: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    try {
      work();
    } catch {
      // a refusal is an answer too: its time counts
    }
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

const OLD_QS: qs.IParseOptions = { arrayLimit: 10000, parameterLimit: 100000, depth: 12, allowPrototypes: false };
console.log('| body | bytes | qs before, ms | form-body.ts, ms |');
console.log('|---|---:|---:|---:|');
for (const [name, body] of Object.entries({ ...realFormBodies(), ...hostileFormBodies() })) {
  const before = body.length <= 500_000 ? bestOf(3, () => qs.parse(body, OLD_QS)).toFixed(1) : '(not run: minutes)';
  const now = bestOf(5, () => parseForm(body)).toFixed(1);
  console.log(`| ${name} | ${body.length} | ${before} | ${now} |`);
}

/** Sends each body to the login in turn, on one connection at a time, until `stop` says so. */
async function sendInTurn(url: string, bodies: string[], stop: () => boolean): Promise<number> {
  let sent = 0;
  while (!stop()) {
    const body = bodies[sent % bodies.length];
    await new Promise<void>((done, fail) => {
      const call = request(
        `${url}/v2/auth/login`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        (response) => {
          response.resume();
          response.on('end', done);
        },
      );
      call.on('error', fail);
      call.end(body);
    });
    sent += 1;
  }
  return sent;
}

const server = await startServer('app-server.ts', { SHOPS: '1' });
const alone = await load({
  name: 'GET /health alone',
  url: `${server.url}/health`,
  connections: 10,
  durationSeconds: 5,
});
let stopped = false;
const attack = sendInTurn(server.url, Object.values(hostileFormBodies()), () => stopped);
const underAttack = await load({
  name: 'GET /health while hostile form bodies reach the login',
  url: `${server.url}/health`,
  connections: 10,
  durationSeconds: 5,
});
stopped = true;
const attacks = await attack;
await server.stop();
printTable(`GET /health, 10 connections (${attacks} hostile bodies sent meanwhile)`, alone, [underAttack]);
