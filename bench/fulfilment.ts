/**
 * Fulfilment figures, in one process on a throw-away database (SQLite, or the
 * PostgreSQL of BENCH_DATABASE_URL / DATABASE_URL):
 *  1. 200 concurrent PUT /v2/orders/reservation/{id} (through the HTTP stack, fastify.inject)
 *     competing for 10 units of one product, ROUNDS times: reservations/s and p99 latency,
 *     and that exactly 10 were reserved each round.
 *  2. The movement report over MOVEMENTS (default 1,000,000) movements of 2000 products over a
 *     year: time and peak RSS while it is written (sampled every 10 ms).
 *   npx tsx bench/fulfilment.ts            DATABASE_URL=postgres://... npx tsx bench/fulfilment.ts
 */
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { seedAccount, startBenchService } from './fixture.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONCURRENT = 200;
const UNITS = 10;
const MOVEMENTS = Number(process.env.MOVEMENTS ?? 1_000_000);
const PRODUCTS = 2000;
const FULFILMENT_WAREHOUSE = 101;

const bench = await startBenchService(
  {
    DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX ?? '20',
    FULFILMENT_ACCEPT_SECONDS: '0',
    SIMULATION_STEP_SECONDS: '0',
  },
  'database',
);
const { services, database } = bench.runtime;
const app = await buildApp({ config: bench.config, database, services });
await app.ready();
const account = await seedAccount(services, 'Fulfilment bench');
const { scope } = account;
const day = { from: '09:00', to: '18:00' };
const warehouseId = await services.warehouses.create(scope, {
  name: 'Фулфилмент',
  type: 2,
  fulfilmentWarehouseId: FULFILMENT_WAREHOUSE,
  address: { street: 'Складская', house: '1', city: { countryCode: 'RU', name: 'Москва', region: 'Москва' } },
  contact: { name: 'Иван', phone: '+79160000000' },
  schedule: [day, day, day, day, day, null, null],
});
const shopId = await services.shops.create(scope, {
  name: 'Магазин',
  brand: 'Бренд',
  warehouse: { id: warehouseId },
  platform: 'woocommerce',
});
const spb = services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
if (!spb) throw new Error('Санкт-Петербург is not in the reference data');
const pointId = services.reference.registry.pointsIn(1, spb.id)[0].id;
const dropOff = services.reference.registry.pointsIn(
  1,
  services.reference.localities.find({ countryCode: 'RU', name: 'Москва' })?.id ?? 0,
)[0]?.id;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

// ---------------------------------------------------------------- 1. concurrent reservations
const latencies: number[] = [];
let reservedTotal = 0;
let elapsedTotal = 0;
for (let round = 0; round < ROUNDS; round++) {
  const productId = await services.products.create(scope, { name: `Товар ${round}`, vendorCode: `R-${round}` });
  await services.stock.store.transaction((trx) =>
    services.stock.store.receive(
      trx,
      account.accountId,
      { fulfilmentWarehouseId: FULFILMENT_WAREHOUSE, productId, batch: '', expires: null },
      UNITS,
      { actor: 'bench', employeeId: null, reason: 'bench stock' },
    ),
  );
  const ids: number[] = [];
  for (let index = 0; index < CONCURRENT; index++) {
    ids.push(
      await services.orders.create(
        scope,
        {
          shopId,
          products: [{ id: productId, count: 1 }],
          deliveryAddress: {
            city: { countryCode: 'RU', name: 'Санкт-Петербург' },
            street: 'Невский проспект',
            house: '10',
          },
          recipient: { fullName: 'Пётр Сидоров', phone: '+79990001122' },
          delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
          ...(dropOff ? { pickup: { pointId: dropOff } } : {}),
        },
        undefined,
      ),
    );
  }
  const started = performance.now();
  const answers = await Promise.all(
    ids.map(async (id) => {
      const at = performance.now();
      const response = await app.inject({
        method: 'PUT',
        url: `/v2/orders/reservation/${id}`,
        headers: { authorization: `Bearer ${account.token}` },
      });
      latencies.push(performance.now() - at);
      return response.statusCode;
    }),
  );
  elapsedTotal += performance.now() - started;
  if (answers.some((status) => status !== 204))
    throw new Error(`round ${round}: answers ${[...new Set(answers)].join(', ')}`);
  const row = await database.db
    .selectFrom('stock')
    .select(['quantity', 'reserved'])
    .where('product_id', '=', productId)
    .executeTakeFirstOrThrow();
  if (Number(row.reserved) !== UNITS) throw new Error(`round ${round}: ${row.reserved} reserved of ${UNITS}`);
  reservedTotal += Number(row.reserved);
}
latencies.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    figure: `${CONCURRENT} concurrent reservations of ${UNITS} units, ${ROUNDS} rounds (HTTP through fastify.inject)`,
    database: database.kind,
    reservationsPerSecond: Math.round((CONCURRENT * ROUNDS) / (elapsedTotal / 1000)),
    p50Ms: Math.round(percentile(latencies, 50)),
    p99Ms: Math.round(percentile(latencies, 99)),
    reservedEachRound: reservedTotal / ROUNDS,
  }),
);

// ---------------------------------------------------------------- 2. movement report over 1M movements
const productIds: number[] = [];
const values = Array.from({ length: PRODUCTS }, (_, index) => ({
  name: `Товар отчёта ${index}`,
  vendorCode: `M-${String(index).padStart(5, '0')}`,
}));
for (const value of values) productIds.push(await services.products.create(scope, value));
const stockIds: number[] = [];
for (const productId of productIds) {
  stockIds.push(
    await services.stock.store.transaction((trx) =>
      services.stock.store.receive(
        trx,
        account.accountId,
        { fulfilmentWarehouseId: FULFILMENT_WAREHOUSE, productId, batch: '', expires: null },
        100_000,
        { actor: 'bench', employeeId: null, reason: 'opening' },
      ),
    ),
  );
}
const yearStart = Date.parse('2025-01-01T00:00:00Z');
const perProduct = Math.ceil(MOVEMENTS / PRODUCTS);
const KINDS: Array<{ kind: string; delta: number }> = [
  { kind: 'ship', delta: -2 },
  { kind: 'ship', delta: -1 },
  { kind: 'supply', delta: 5 },
  { kind: 'return', delta: 1 },
  { kind: 'write_off', delta: -1 },
];
const seedStarted = performance.now();
let batch: Array<Record<string, unknown>> = [];
const flush = async () => {
  if (batch.length === 0) return;
  await database.db
    .insertInto('stock_movements')
    .values(batch as never)
    .execute();
  batch = [];
};
for (let index = 0; index < PRODUCTS; index++) {
  for (let step = 0; step < perProduct; step++) {
    const { kind, delta } = KINDS[(index + step) % KINDS.length];
    batch.push({
      account_id: account.accountId,
      stock_id: stockIds[index],
      fulfilment_warehouse_id: FULFILMENT_WAREHOUSE,
      product_id: productIds[index],
      kind,
      quantity_delta: delta,
      reserved_delta: 0,
      supply_id: null,
      order_id: null,
      employee_id: null,
      actor: 'bench',
      reason: 'bench',
      at: new Date(yearStart + Math.floor(((step + 0.5) / perProduct) * 365 * 86400_000)).toISOString(),
    });
    if (batch.length >= 2000) await flush();
  }
}
await flush();
if (database.kind === 'postgres') await sql`analyze stock_movements`.execute(database.db);
const seededMs = performance.now() - seedStarted;

let peakRss = process.memoryUsage().rss;
const rssBefore = peakRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 10);
const reportStarted = performance.now();
const { file } = await services.movementReport.report(scope, {
  date: { from: '2025-01-01', to: '2025-12-31' },
  ids: productIds,
});
const reportMs = performance.now() - reportStarted;
clearInterval(sampler);
const stored = await services.files.open(file.slice(file.lastIndexOf('/') + 1));
console.log(
  JSON.stringify({
    figure: `movement report: ${PRODUCTS} products, ${perProduct * PRODUCTS} movements over a year`,
    database: database.kind,
    seedSeconds: Math.round(seededMs / 100) / 10,
    reportSeconds: Math.round(reportMs / 100) / 10,
    rssBeforeMb: Math.round(rssBefore / 1048576),
    peakRssMb: Math.round(peakRss / 1048576),
    fileMb: stored ? Math.round((stored.size / 1048576) * 10) / 10 : null,
  }),
);
stored?.body.destroy();
await app.close();
await bench.cleanup();
