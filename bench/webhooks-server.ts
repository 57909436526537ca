/**
 * The service for the "API p99 while a receiver hangs" figure: the API with the webhook
 * sender running as `serve` runs it, an account with a shop, and ENDPOINTS (default 0)
 * webhook endpoints at RECEIVER_URL. Prints `READY {url, token, body}`.
 */
import { buildApp } from '../src/app.js';
import { WebhookPump } from '../src/modules/webhooks/pump.js';
import { seedAccount, seedShop, serveUntilTerm, startBenchService } from './fixture.js';

const bench = await startBenchService({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
const { services, database } = bench.runtime;
const account = await seedAccount(services, 'Webhooks bench');
const shopId = await seedShop(services, account);
const endpoints = Number(process.env.ENDPOINTS ?? 0);
for (let index = 0; index < endpoints; index++)
  await services.webhooks.create(account.scope, { url: `${process.env.RECEIVER_URL}/hooks?n=${index}` });
const spb = services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
if (!spb) throw new Error('reference data lacks Санкт-Петербург');
const pointId = services.reference.registry.pointsIn(1, spb.id)[0].id;
const body = {
  shopId,
  cmsId: 'WC-1',
  products: [{ name: 'Книга', priceDeclared: 800, priceCod: 900, count: 1, weight: 0.5 }],
  deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Невский проспект', house: '10' },
  recipient: { fullName: 'Пётр Сидоров', phone: '+79990001122' },
  delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
};
const pump = new WebhookPump(
  services.webhooks,
  services.jobs,
  { error: () => undefined, warn: () => undefined },
  { concurrency: bench.config.webhookConcurrency, pollMs: 500 },
);
pump.start();
const app = await buildApp({ config: bench.config, database, services });
await serveUntilTerm(bench, app, { token: account.token, body, endpoints });
