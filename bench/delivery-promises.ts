/**
 * The delivery promise's cost on the calculator's hot path: the price-and-join CPU of a fresh
 * answer (the calculator bench's 3000 varied Moscow carts, the answer cache off) with promises on
 * (after a sandbox history of 20,000 parcels, so most options read a measured route) beside the
 * same service with DELIVERY_PROMISES=off; rounds alternate. Then the back-test's figures come
 * from `npm run cli -- promises backtest` (the share on time and the days promised minus actual).
 * Run: npx tsx bench/delivery-promises.ts
 */
import type { CalculatorBody } from '../src/modules/calculator/schemas.js';
import { senderLocalitiesOf } from '../src/modules/delivery-promises/test-history.js';
import { seedAccount, seedShop, startBenchService } from './fixture.js';

const carts: CalculatorBody[] = Array.from({ length: 3000 }, (_, index) => ({
  reception: { cityName: index % 3 === 0 ? 'Москва' : index % 3 === 1 ? 'Санкт-Петербург' : 'Казань' },
  weight: 0.3 + (index % 97) * 0.05,
  dimensions: { width: 10 + (index % 13), height: 5 + (index % 7), length: 20 + (index % 11) },
  priceDeclared: 1000 + index,
  priceCod: 1000 + index,
}));

async function service(promises: boolean) {
  const bench = await startBenchService({ CALCULATOR_CACHE_SECONDS: '0', DELIVERY_PROMISES: promises ? 'on' : 'off' });
  const { services } = bench.runtime;
  const account = await seedAccount(services, 'Bench account');
  const shopId = await seedShop(services, account);
  const shop = await services.shops.resolveShopHeader(account.scope, String(shopId), false);
  if (promises) {
    const senders = await senderLocalitiesOf(services.warehouses, services.reference, account.scope);
    await services.sandbox.generateDeliveryHistory(account.scope, { parcels: 20_000, days: 180 });
    console.log(`history: 20,000 parcels from ${senders.map((sender) => sender.name).join(', ')}`);
  }
  const run = async () => {
    const since = process.cpuUsage();
    let measured = 0;
    for (const cart of carts) {
      const body = (await services.calculator.calculateJson(account.scope, shop, cart)).body;
      if (promises && body.includes('"basis":"route"')) measured++;
    }
    const used = process.cpuUsage(since);
    return { cpuMs: (used.user + used.system) / 1000 / carts.length, measured };
  };
  return { bench, run };
}

const on = await service(true);
const off = await service(false);
for (let round = 1; round <= 4; round++) {
  const withPromises = await on.run();
  const without = await off.run();
  console.log(
    `round ${round}: promises on ${withPromises.cpuMs.toFixed(3)} CPU-ms an answer (${withPromises.measured} of ${carts.length} answers with a route measured), off ${without.cpuMs.toFixed(3)}; ratio ${(withPromises.cpuMs / without.cpuMs).toFixed(3)}`,
  );
}
await on.bench.cleanup();
await off.bench.cleanup();
