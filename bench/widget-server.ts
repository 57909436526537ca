/**
 * The service for the checkout widget figures: the full generated reference data, one account,
 * one shop with a publishable widget key for the bench's origin. Rate limits off (the bench is
 * one address hammering one key). Prints `READY {url, publicKey, origin}`.
 */
import { buildApp } from '../src/app.js';
import { seedAccount, seedShop, serveUntilTerm, startBenchService } from './fixture.js';

export const BENCH_ORIGIN = 'https://shop.bench';

const bench = await startBenchService({ WIDGET_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' });
const { services } = bench.runtime;
const account = await seedAccount(services, 'Bench account');
const shopId = await seedShop(services, account);
const key = await services.widget.issueKey(account.scope, shopId, { allowedOrigins: [BENCH_ORIGIN] });

const app = await buildApp({ config: bench.config, database: bench.runtime.database, services });
await serveUntilTerm(bench, app, { publicKey: key.publicKey, origin: BENCH_ORIGIN });
