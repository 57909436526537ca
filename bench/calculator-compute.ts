/**
 * Where a fresh calculator answer's CPU goes, without HTTP: the bound of the uncached
 * calculator goal (≤ 1 CPU-ms an answer). In one process, for the calculator bench's 3000
 * varied Moscow carts: pricing and joining the answer (`calculateJson`, the answer cache off), then gzip
 * level 1 of those bytes on the event loop and on the thread pool (what the server does for
 * gzip), and Brotli as the server makes it (`JsonBody`, quality 1).
 * Run: npx tsx bench/calculator-compute.ts
 */
import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import { JsonBody } from '../src/platform/compression.js';
import type { CalculatorBody } from '../src/modules/calculator/schemas.js';
import { seedAccount, seedShop, startBenchService } from './fixture.js';

const gzipAsync = promisify(gzip);
const bench = await startBenchService({ CALCULATOR_CACHE_SECONDS: '0' });
const { services } = bench.runtime;
const account = await seedAccount(services, 'Bench account');
const shopId = await seedShop(services, account);
const shop = await services.shops.resolveShopHeader(account.scope, String(shopId), false);
// the calculator bench's carts (bench/calculator.ts)
const carts: CalculatorBody[] = Array.from({ length: 3000 }, (_, index) => ({
  reception: { cityName: 'Москва' },
  weight: 0.3 + (index % 97) * 0.05,
  dimensions: { width: 10 + (index % 13), height: 5 + (index % 7), length: 20 + (index % 11) },
  priceDeclared: 1000 + index,
  priceCod: 1000 + index,
}));

const cpuMs = (since: NodeJS.CpuUsage, count: number) => {
  const used = process.cpuUsage(since);
  return ((used.user + used.system) / 1000 / count).toFixed(3);
};
for (let round = 1; round <= 3; round++) {
  let since = process.cpuUsage();
  const bodies: Buffer[] = [];
  for (const cart of carts) bodies.push((await services.calculator.calculateJson(account.scope, shop, cart)).body);
  const priced = cpuMs(since, carts.length);
  since = process.cpuUsage();
  let gzipped = 0;
  for (const body of bodies) gzipped += gzipSync(body, { level: 1 }).length;
  const onLoop = cpuMs(since, carts.length);
  since = process.cpuUsage();
  for (let start = 0; start < bodies.length; start += 50)
    await Promise.all(bodies.slice(start, start + 50).map((body) => gzipAsync(body, { level: 1 })));
  const onPool = cpuMs(since, carts.length);
  since = process.cpuUsage();
  let brotli = 0;
  for (const body of bodies) brotli += (await JsonBody.of(body).encoded('br')).length;
  const asBrotli = cpuMs(since, carts.length);
  const plain = bodies.reduce((sum, body) => sum + body.length, 0) / bodies.length;
  console.log(
    `round ${round}: price and join ${priced} CPU-ms an answer (${Math.round(plain / 1000)} kB); gzip level 1 on the loop ${onLoop}, on the pool ${onPool} CPU-ms (${Math.round(gzipped / bodies.length / 1000)} kB); Brotli ${asBrotli} CPU-ms (${Math.round(brotli / bodies.length / 1000)} kB)`,
  );
}
await bench.cleanup();
