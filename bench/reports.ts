/**
 * Figures of the reports issue (16), in process on a generated dataset:
 *   - the orders report (analytical type 1) over ORDERS orders of one account, written in the
 *     request (no row threshold): wall time and the process's peak RSS;
 *   - the bill of a month with BILL_ORDERS deliveries (another account; all handed over and
 *     delivered): wall time of closing the period (lines from the charge sources, the PDF, the
 *     remittance xlsx, the rows) and the peak RSS after it.
 * RSS includes SQLite's memory-mapped database pages; the peak V8 heap is what the process holds.
 * NODE_OPTIONS=--max-old-space-size=256 proves the report streams (it would run out otherwise).
 * Run: npx tsx bench/reports.ts            (SQLite; ORDERS default 1,000,000, BILL_ORDERS 100,000)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test ORDERS=200000 npx tsx bench/reports.ts
 */
import { sql } from 'kysely';
import { performance } from 'node:perf_hooks';
import { OrderStore } from '../src/modules/orders/store.js';
import type { OrderDoc } from '../src/modules/orders/document.js';
import { seedAccount, startBenchService } from './fixture.js';

const total = Number(process.env.ORDERS ?? 1_000_000);
const billOrders = Number(process.env.BILL_ORDERS ?? 100_000);
const MONTH = { start: '2026-09-01', end: '2026-10-01' };
/** Peak V8 heap while a step runs: RSS also counts SQLite's memory-mapped database pages. */
let peakHeapMb = 0;
const heapSampler = setInterval(() => {
  peakHeapMb = Math.max(peakHeapMb, Math.round(process.memoryUsage().heapUsed / 1048576));
}, 50);
heapSampler.unref();
function takePeakHeap(): number {
  const peak = Math.max(peakHeapMb, Math.round(process.memoryUsage().heapUsed / 1048576));
  peakHeapMb = 0;
  return peak;
}
const bench = await startBenchService({ REPORT_SYNC_ROWS: '100000000', SIMULATION_STEP_SECONDS: '0' });
const { services, database } = bench.runtime;
try {
  /** A new account with `count` orders, all created in MONTH, handed over and delivered. */
  async function seedMonth(name: string, count: number) {
    const account = await seedAccount(services, name);
    const { scope, warehouseId } = account;
    const shopId = await services.shops.create(scope, {
      name: 'Магазин',
      brand: 'Бренд',
      warehouse: { id: warehouseId },
      platform: 'woocommerce',
    });
    const spb = services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
    const moscow = services.reference.localities.find({ countryCode: 'RU', name: 'Москва' });
    if (!spb || !moscow) throw new Error('reference data lacks Санкт-Петербург or Москва');
    const pointId = services.reference.registry.pointsIn(1, spb.id)[0].id;
    const dropOff = services.reference.registry.pointsIn(1, moscow.id)[0].id;
    const templates: OrderDoc[] = [];
    for (const type of [1, 2] as const) {
      const id = await services.orders.create(
        scope,
        {
          shopId,
          cmsId: 'B-1',
          products: [
            {
              name: 'Книга',
              vendorCode: 'BOOK',
              priceDeclared: 800,
              priceCod: 900,
              count: 1,
              weight: 0.5,
              dimensions: { width: 15, height: 4, length: 22 },
            },
          ],
          deliveryAddress: {
            city: { countryCode: 'RU', name: 'Санкт-Петербург' },
            street: 'Невский проспект',
            house: '10',
          },
          recipient: { fullName: 'Пётр Сидоров', phone: '+79990001122' },
          delivery:
            type === 1 ? { company: { id: 1 }, type: 1, point: { id: pointId } } : { company: { id: 1 }, type: 2 },
          pickup: { pointId: dropOff },
        },
        undefined,
      );
      const { id: _id, ...doc } = await services.orders.get(scope, id);
      void _id;
      templates.push(doc as OrderDoc);
    }
    await database.db.deleteFrom('orders').where('account_id', '=', account.accountId).execute();

    const from = Date.parse(`${MONTH.start}T00:00:00+03:00`);
    const span = Date.parse(`${MONTH.end}T00:00:00+03:00`) - from - 3 * 3600_000;
    const store = new OrderStore(database.db, database.kind);
    await database.db.transaction().execute(async (trx) => {
      const batch: OrderDoc[] = [];
      for (let index = 0; index < count; index++) {
        const template = templates[index % 2];
        const created = from + Math.floor((index / count) * span);
        const at = (offset: number) => new Date(created + offset).toISOString();
        const paidByCard = index % 5 === 0;
        batch.push({
          ...template,
          status: 44,
          statusHistory: [
            { code: 44, name: 'Доставлен', date: at(2 * 3600_000), description: null },
            { code: 41, name: 'Принят службой доставки', date: at(3600_000), description: null },
            ...template.statusHistory.map((item) => ({ ...item, date: at(0) })),
          ],
          creationDate: at(0),
          cmsId: `B-${index}`,
          trackNumber: `RP${String(index).padStart(11, '0')}`,
          pay: { ...template.pay, type: paidByCard ? 3 : 2, status: { code: 'paid', date: at(2 * 3600_000) } },
          delivery: {
            ...template.delivery,
            factPrice:
              Math.round(
                (template.delivery.totalPrice ?? 0) * 100 -
                  (paidByCard
                    ? template.delivery.priceCommissionCod * 100 - template.delivery.priceCommissionCodCard * 100
                    : 0),
              ) / 100,
          },
        });
        if (batch.length === 1000) await store.insertMany(account.accountId, batch.splice(0), {}, trx);
      }
      if (batch.length) await store.insertMany(account.accountId, batch, {}, trx);
    });
    return account;
  }

  const seedStarted = performance.now();
  const account = await seedMonth('Отчёты', total);
  const billing = await seedMonth('Счёт', billOrders);
  const { scope } = account;
  if (database.kind === 'postgres') await sql`vacuum analyze orders`.execute(database.db);
  else await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
  const seedMs = Math.round(performance.now() - seedStarted);
  const rssBefore = Math.round(process.memoryUsage().rss / 1048576);

  takePeakHeap();
  const reportStarted = performance.now();
  const { file } = await services.analyticalReports.create(scope, {
    date: { from: MONTH.start, to: '2026-09-30' },
    type: 1,
  });
  const reportMs = Math.round(performance.now() - reportStarted);
  const peakAfterReport = Math.round(process.resourceUsage().maxRSS / 1024);
  const reportHeapMb = takePeakHeap();

  const billStarted = performance.now();
  const made = await services.billing.closePeriod({ accountId: billing.accountId, ...MONTH }, new Date());
  const billMs = Math.round(performance.now() - billStarted);
  const bills = await services.billing.listBills(billing.scope, {}, { page: 1, perPage: 1, offset: 0 });

  console.log(
    JSON.stringify({
      database: database.kind,
      orders: total,
      seedMs,
      rssBeforeReportMb: rssBefore,
      ordersReport: { ms: reportMs, peakRssMb: peakAfterReport, peakHeapMb: reportHeapMb, file },
      monthBill: {
        made,
        ms: billMs,
        deliveries: billOrders,
        sum: bills.items[0]?.sum,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        peakHeapMb: takePeakHeap(),
      },
    }),
  );
} finally {
  await bench.cleanup();
}
