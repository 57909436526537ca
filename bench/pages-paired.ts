/**
 * Cold pages of orders (never read before: random, in turn with gzip, in turn plain) compared
 * between this checkout and another one in paired rounds: both servers seeded and alive at
 * once, loaded in turn for DURATION s each, ROUNDS rounds, the order swapped every round. On a
 * machine whose speed moves within minutes, runs one after another disagree by more than a
 * change does; pairs taken a few seconds apart do not (the hot paths' eighth pass).
 * Run: git worktree add /tmp/before <rev> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *      BEFORE_DIR=/tmp/before npx tsx bench/pages-paired.ts
 */
import path from 'node:path';
import { seededRandom } from '../src/platform/seeded-random.js';
import { BENCH_DIR, load, startServer, type RunningServer } from './lib.js';

const beforeDir = process.env.BEFORE_DIR;
if (!beforeDir) throw new Error('BEFORE_DIR: the checkout to compare with (a git worktree with node_modules)');
const duration = Number(process.env.DURATION ?? 8);
const rounds = Number(process.env.ROUNDS ?? 3);

const [after, before] = await Promise.all([
  startServer('orders-server.ts', {}, 900_000),
  startServer(path.relative(BENCH_DIR, path.join(path.resolve(beforeDir), 'bench', 'orders-server.ts')), {}, 900_000),
]);
const servers: Array<[string, RunningServer]> = [
  ['this checkout', after],
  [`BEFORE_DIR`, before],
];
const inTurn = Array.from(
  { length: 2000 },
  (_, index) => `/v2/orders?list=0&perPage=50&deliveryType=1&page=${index + 1}`,
);
// the random pages of bench/orders.ts: a fixed shuffle of pages 1..2000 in 10 page sizes
const randomPages = Array.from(
  { length: 20000 },
  (_, index) => `/v2/orders?list=0&perPage=${45 + (index % 10)}&page=${1 + Math.floor(index / 10)}`,
);
const shuffle = seededRandom(27);
for (let index = randomPages.length - 1; index > 0; index--) {
  const other = Math.floor(shuffle() * (index + 1));
  [randomPages[index], randomPages[other]] = [randomPages[other], randomPages[index]];
}

console.log('| round | server | pages | req/s | p50 ms | p99 ms | server CPU-ms/page |');
console.log('|---|---|---|---:|---:|---:|---:|');
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? servers : [...servers].reverse();
  for (const [scenario, paths, gzip] of [
    // each round starts elsewhere in the shuffle, so no page of an earlier round is asked again
    ['random, gzip', randomPages.slice(round * 5000), true],
    ['in turn, gzip', inTurn, true],
    ['in turn, plain', inTurn, false],
  ] as const) {
    for (const [label, server] of order) {
      const { token } = server.info as { token: string };
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (gzip) headers['accept-encoding'] = 'gzip, deflate';
      const result = await load({
        name: `${label} ${scenario}`,
        url: `${server.url}/v2/orders`,
        paths,
        headers,
        connections: 50,
        durationSeconds: duration,
        server,
      });
      console.log(
        `| ${round + 1} | ${label} | ${scenario} | ${result.requestsPerSecond} | ${result.p50} | ${result.p99} | ${result.cpuMsPerResponse} |`,
      );
    }
  }
}
await Promise.all([after.stop(), before.stop()]);
