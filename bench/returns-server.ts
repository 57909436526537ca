/**
 * The service for the returns figures, on a fresh database (SQLite in a temp DATA_DIR, or a
 * throw-away database on BENCH_DATABASE_URL / DATABASE_URL): one account, a shop, one order
 * delivered (its statuses pushed as the company would) for the buyer's page, and RETURNS
 * (default 100000) returns over five shops, bulk inserted with varied statuses and dates.
 * Prints `READY {url, token, pagePath, returns, seedMs}`.
 */
import { sql, type Insertable } from 'kysely';
import type { Tables } from '../src/platform/db/tables.js';
import { JobWorker } from '../src/platform/jobs.js';
import { toJson } from '../src/platform/db/values.js';
import { RETURN_REASONS, RETURN_STATUSES } from '../src/modules/returns/rules.js';
import { buildApp } from '../src/app.js';
import { seedAccount, serveUntilTerm, startBenchService } from './fixture.js';

const RETURNS = Number(process.env.RETURNS ?? 100_000);
const bench = await startBenchService({ SIMULATION_STEP_SECONDS: '0', PICKUP_SIMULATION_SECONDS: '0' }, 'database');
const { services, database } = bench.runtime;
const account = await seedAccount(services, 'Returns bench');
const shopIds: number[] = [];
for (let index = 0; index < 5; index++)
  shopIds.push(
    await services.shops.create(account.scope, {
      name: `Магазин ${index}`,
      brand: `Бренд ${index}`,
      warehouse: { id: account.warehouseId },
      platform: 'woocommerce',
    }),
  );
const spb = services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
const moscow = services.reference.localities.find({ countryCode: 'RU', name: 'Москва' });
const pointId = spb ? services.reference.registry.pointsIn(1, spb.id)[0]?.id : undefined;
const dropOffPointId = moscow ? services.reference.registry.pointsIn(1, moscow.id)[0]?.id : undefined;
if (!pointId || !dropOffPointId) throw new Error('company 1 has no points in Санкт-Петербург and Москва');

// the buyer's page: an order of three lines, delivered
const worker = new JobWorker(services.jobs, { error: () => undefined, warn: () => undefined });
services.tracking.registerJobs(worker);
const orderId = await services.orders.create(
  account.scope,
  {
    shopId: shopIds[0],
    cmsId: 'BENCH-1',
    products: [
      { name: 'Футболка', vendorCode: 'TEE-1', priceDeclared: 1200, priceCod: 1500, count: 2, weight: 0.2 },
      { name: 'Кружка', vendorCode: 'MUG-1', priceDeclared: 500, priceCod: 600, count: 1, weight: 0.4 },
      { name: 'Книга', vendorCode: 'BOOK-1', priceDeclared: 800, priceCod: 900, count: 1, weight: 0.5 },
    ],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Невский', house: '1' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677', email: null },
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
    pickup: { pointId: dropOffPointId },
  },
  undefined,
);
await services.orders.confirm(account.scope, { ids: [orderId] });
await worker.runDue();
const trackNumber = (await services.orders.get(account.scope, orderId)).trackNumber ?? '';
await services.tracking.applyEvents(
  1,
  [41, 411, 412, 42, 44].map((statusCode) => ({
    trackNumber,
    statusCode,
    at: new Date().toISOString(),
    description: '',
  })),
  account.accountId,
);
await services.returns.saveSettings(account.scope, shopIds[0], {
  enabled: true,
  windowDays: 14,
  ways: [
    { way: 'point', companyIds: [1] },
    { way: 'courier', companyIds: [1] },
  ],
  payer: 'buyer_unless_fault',
  autoApprove: null,
});
const pageUrl = services.returns.orderPageUrl(account.accountId, shopIds[0], orderId) as string;

// the list: RETURNS returns over a year, of every status and shop
const seedStarted = performance.now();
const now = Date.now();
const rows: Insertable<Tables['returns']>[] = [];
for (let index = 0; index < RETURNS; index++) {
  const at = new Date(now - Math.floor((index / RETURNS) * 365 * 86_400_000)).toISOString();
  const reason = RETURN_REASONS[index % RETURN_REASONS.length];
  rows.push({
    account_id: account.accountId,
    shop_id: shopIds[index % shopIds.length],
    order_id: 1_000_000 + index,
    order_number: `WC-${index}`,
    status: RETURN_STATUSES[index % RETURN_STATUSES.length],
    code: `RB${String(index).padStart(9, '0')}`,
    way: index % 3 === 0 ? 'courier' : 'point',
    company_id: 1,
    point_id: index % 3 === 0 ? null : pointId,
    cost_kopecks: 30_000 + (index % 50) * 100,
    payer: index % 2 ? 'shop' : 'buyer',
    goods_kopecks: 60_000 + (index % 20) * 5_000,
    lines: toJson([
      {
        line: 0,
        productId: null,
        name: 'Футболка',
        vendorCode: 'TEE-1',
        count: 1,
        priceKopecks: 140_000,
        reason,
        comment: null,
      },
    ]),
    photos: toJson([]),
    created_by: index % 4 ? 'buyer' : 'shop',
    approved_by: null,
    refusal_reason: null,
    parcel_order_id: null,
    language: 'ru',
    created_at: at,
    updated_at: at,
  });
}
await database.db.transaction().execute(async (trx) => {
  for (let start = 0; start < rows.length; start += 500)
    await trx
      .insertInto('returns')
      .values(rows.slice(start, start + 500))
      .execute();
});
if (database.kind === 'postgres') await sql`vacuum analyze returns`.execute(database.db);
else {
  await sql`analyze`.execute(database.db);
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
}
const seedMs = Math.round(performance.now() - seedStarted);
const app = await buildApp({ config: bench.config, database, services });
await serveUntilTerm(bench, app, {
  token: account.token,
  pagePath: new URL(pageUrl).pathname,
  returns: RETURNS,
  shopId: shopIds[1],
  seedMs,
});
