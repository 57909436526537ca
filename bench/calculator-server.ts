/**
 * The service for the calculator figures: SQLite in a temp DATA_DIR (or the PostgreSQL of
 * BENCH_DATABASE_URL), the full generated reference data, one account, one shop with its
 * warehouse in Moscow. BENCH_HTTP_CARRIERS (JSON array of base URLs) adds http companies
 * 201, 202, ... Prints `READY {url, token, shopId, points}`.
 */
import { buildApp } from '../src/app.js';
import { seedAccount, seedShop, serveUntilTerm, startBenchService } from './fixture.js';

const started = performance.now();
const bench = await startBenchService({ CALCULATOR_CACHE_SECONDS: process.env.CALCULATOR_CACHE_SECONDS ?? '30' });
const startMs = Math.round(performance.now() - started);
const { services } = bench.runtime;
for (const [index, baseUrl] of (JSON.parse(process.env.BENCH_HTTP_CARRIERS ?? '[]') as string[]).entries()) {
  services.reference.registry.add({
    id: 201 + index,
    code: `remote${index + 1}`,
    name: `Удалённая служба ${index + 1}`,
    driver: 'http',
    baseUrl,
    deliveryTypes: [2],
    coverage: { minPopulation: 0 },
  });
}
const account = await seedAccount(services, 'Bench account');
const shopId = await seedShop(services, account);

const app = await buildApp({ config: bench.config, database: bench.runtime.database, services });
await serveUntilTerm(bench, app, { token: account.token, shopId, startMs });
