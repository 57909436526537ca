/**
 * Figures of the documents endpoints, through HTTP (fastify.inject) on a real database:
 * POST /v2/orders/stickers for 500 Prepared orders per type and without type (ZIP), then
 * POST /v2/orders/waybills and POST /v2/orders/act-assembly for the same orders. Includes
 * reading the orders, rendering, writing the files and marking the orders.
 * The orders: bench/registered-orders.ts.
 * Wall time of each call (one call each, in order) and the process's peak RSS after it.
 * Run: npx tsx bench/documents-api.ts                      (SQLite in memory)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/documents-api.ts
 */
import { performance } from 'node:perf_hooks';
import { createTestApp } from '../test/support/app.js';
import { registeredOrders } from './registered-orders.js';

const ORDERS = Number(process.env.ORDERS ?? 500);
const t = await createTestApp();
try {
  const { owner, ids } = await registeredOrders(t, ORDERS);
  const first = ids[0];

  const figures: Array<{ call: string; status: number; ms: number; peakRssMb: number }> = [];
  const time = async (call: string, url: string, body: unknown) => {
    const started = performance.now();
    const response = await owner.post(url, body);
    figures.push({
      call,
      status: response.status,
      ms: Math.round(performance.now() - started),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    });
  };
  await time('warm-up: stickers type 2, 1 order', '/v2/orders/stickers', { ids: [first], type: 2 });
  for (const type of [1, 2, 3] as const)
    await time(`stickers type ${type}, ${ORDERS} orders`, '/v2/orders/stickers', { ids, type });
  await time(`stickers, no type (ZIP), ${ORDERS} orders`, '/v2/orders/stickers', { ids });
  await time(`waybills (1 act), ${ORDERS} orders`, '/v2/orders/waybills', { date: '2026-12-01', ids });
  await time(`act-assembly, ${ORDERS} orders`, '/v2/orders/act-assembly', { ids });

  console.log(
    `Documents endpoints on ${t.config.databaseKind}, node ${process.version}; peak RSS is the whole process so far`,
  );
  console.table(figures);
} finally {
  await t.close();
}
