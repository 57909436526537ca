/**
 * Street suggestions against hello-world in paired rounds: both servers alive at once, loaded in
 * turn for DURATION s each, ROUNDS rounds, hello-world first or last in turn. This machine's
 * hello-world moves by 2× from one minute to the next, so a ratio is only worth what a pair
 * taken seconds apart says (as bench/pages-paired.ts does for pages).
 * Run: npx tsx bench/address-suggest-paired.ts                 (SQLite, 1,000,000 houses)
 *      HOUSES=5000000 DATABASE_URL=postgres://root@127.0.0.1:5432/test npx tsx bench/address-suggest-paired.ts
 */
import { load, startServer, type LoadResult } from './lib.js';

const connections = Number(process.env.CONNECTIONS ?? 50);
const duration = Number(process.env.DURATION ?? 6);
const rounds = Number(process.env.ROUNDS ?? 4);

const hello = await startServer('hello-server.ts');
const app = await startServer('address-server.ts', { CLEAN_COUNT: '10' }, 1_800_000);
const info = app.info as { token: string; database: string; houses: number; samples: [string, string, string][] };
const streets = info.samples.map(
  ([city, street], index) =>
    `/v2/addresses/suggest?count=10&query=${encodeURIComponent(`${city} ${street.slice(0, 3 + (index % 4))}`)}`,
);
const auth = { authorization: `Bearer ${info.token}` };
const suggest = (name: string, headers: Record<string, string>) =>
  load({
    name,
    url: `${app.url}/v2/addresses/suggest`,
    paths: streets,
    headers: { ...auth, ...headers },
    connections,
    durationSeconds: duration,
    server: app,
  });
// the answers are remembered from the first pass on, as in a running service
await suggest('warm', {});

const percent = (part: LoadResult, whole: LoadResult) =>
  `${Math.round((100 * part.requestsPerSecond) / whole.requestsPerSecond)} %`;
console.log(
  `Street suggestions on ${info.database}, ${info.houses} houses, ${connections} connections, ${duration} s each`,
);
console.log(
  '| round | hello-world req/s, p99 | plain req/s, p99, CPU-ms | as a browser (gzip) req/s, p99, CPU-ms | plain / hello | gzip / hello |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (let round = 1; round <= rounds; round++) {
  const helloFirst = round % 2 === 1;
  const helloWorld = () =>
    load({ name: 'hello-world', url: `${hello.url}/hello`, connections, durationSeconds: duration });
  const before = helloFirst ? await helloWorld() : undefined;
  const plain = await suggest('plain', {});
  const gzip = await suggest('gzip', { 'accept-encoding': 'gzip, deflate, br' });
  const baseline = before ?? (await helloWorld());
  console.log(
    `| ${round} | ${baseline.requestsPerSecond}, ${baseline.p99} ms | ${plain.requestsPerSecond}, ${plain.p99} ms, ${plain.cpuMsPerResponse} | ` +
      `${gzip.requestsPerSecond}, ${gzip.p99} ms, ${gzip.cpuMsPerResponse} | ${percent(plain, baseline)} | ${percent(gzip, baseline)} |`,
  );
}
await app.stop();
await hello.stop();
