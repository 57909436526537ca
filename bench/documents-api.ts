/**
 * Figures of the documents endpoints, through HTTP (fastify.inject) on a real database:
 * POST /v2/orders/stickers for 500 Prepared orders per type and without type (ZIP), then
 * POST /v2/orders/waybills and POST /v2/orders/act-assembly for the same orders. Includes
 * reading the orders, rendering, writing the files and marking the orders.
 * One order is created, confirmed and registered through the API; its row is copied to make
 * the others (the copies share its track number: rendering cost is the same).
 * Wall time of each call (one call each, in order) and the process's peak RSS after it.
 * Run: npx tsx bench/documents-api.ts                      (SQLite in memory)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/documents-api.ts
 */
import { performance } from 'node:perf_hooks';
import { createTestApp } from '../test/support/app.js';
import { shopBody, warehouseBody } from '../test/support/fixtures.js';
import { JobWorker } from '../src/platform/jobs.js';
import { dropOffPointOf } from '../test/support/orders.js';

const ORDERS = Number(process.env.ORDERS ?? 500);
const t = await createTestApp();
try {
  const { client: owner } = await t.newAccount('Bench');
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  const shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
  const spb = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
  const pointId = t.runtime.services.reference.registry.pointsIn(1, spb!.id)[0].id;
  const created = await owner.post('/v2/orders', {
    shopId,
    cmsId: 'BENCH-1',
    products: [{ name: 'Книга', vendorCode: 'BOOK-1', priceDeclared: 800, priceCod: 900, count: 1, weight: 0.5, dimensions: { width: 15, height: 4, length: 22 } }],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
    // company 1 takes parcels only at a drop-off point chosen in advance
    pickup: { pointId: dropOffPointOf(t, 1) },
  });
  const first = created.body.id as number;
  await owner.post('/v2/orders/confirm', { ids: [first] });
  const worker = new JobWorker(t.runtime.services.jobs, { error: () => undefined, warn: () => undefined });
  t.runtime.services.tracking.registerJobs(worker);
  await worker.runDue();

  const db = t.runtime.database.db;
  const row = await db.selectFrom('orders').selectAll().where('id', '=', first).executeTakeFirstOrThrow();
  // the row as read (SQLite flags come back as 1/0, which it takes again)
  const { id: _id, ...copy } = row;
  const ids = [first];
  for (let index = 1; index < ORDERS; index += 1) {
    const inserted = await db.insertInto('orders').values(copy as never).returning('id').executeTakeFirstOrThrow();
    ids.push(Number(inserted.id));
  }

  const figures: Array<{ call: string; status: number; ms: number; peakRssMb: number }> = [];
  const time = async (call: string, url: string, body: unknown) => {
    const started = performance.now();
    const response = await owner.post(url, body);
    figures.push({ call, status: response.status, ms: Math.round(performance.now() - started), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
  };
  await time('warm-up: stickers type 2, 1 order', '/v2/orders/stickers', { ids: [first], type: 2 });
  for (const type of [1, 2, 3] as const) await time(`stickers type ${type}, ${ORDERS} orders`, '/v2/orders/stickers', { ids, type });
  await time(`stickers, no type (ZIP), ${ORDERS} orders`, '/v2/orders/stickers', { ids });
  await time(`waybills (1 act), ${ORDERS} orders`, '/v2/orders/waybills', { date: '2026-12-01', ids });
  await time(`act-assembly, ${ORDERS} orders`, '/v2/orders/act-assembly', { ids });

  console.log(`Documents endpoints on ${t.config.databaseKind}, node ${process.version}; peak RSS is the whole process so far`);
  console.table(figures);
} finally {
  await t.close();
}
