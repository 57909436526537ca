/**
 * The service itself for the foundation figures, on a fresh database (see fixture.ts).
 * Seeds one account with SHOPS shops (default 1000); prints `READY {url, token, shopId, warehouseId}`.
 */
import { buildApp } from '../src/app.js';
import { seedAccount, serveUntilTerm, startBenchService } from './fixture.js';

const bench = await startBenchService();
const { services } = bench.runtime;
const account = await seedAccount(services, 'Bench account');
const shopCount = Number(process.env.SHOPS ?? 1000);
let shopId = 0;
for (let index = 0; index < shopCount; index++) {
  shopId = await services.shops.create(account.scope, {
    name: `Магазин ${index}`,
    brand: `Бренд ${index % 50}`,
    warehouse: { id: account.warehouseId },
    platform: 'woocommerce',
  });
}
const app = await buildApp({ config: bench.config, database: bench.runtime.database, services });
await serveUntilTerm(bench, app, { token: account.token, shopId, warehouseId: account.warehouseId });
