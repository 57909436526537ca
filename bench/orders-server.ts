/**
 * The service for the orders figures, on a fresh database (SQLite in a temp DATA_DIR, or a
 * throw-away database on the PostgreSQL server of BENCH_DATABASE_URL / DATABASE_URL: a
 * database rather than a schema, so the migrator of tests running beside it is not confused). Seeds one
 * account with a shop, 3 catalogue products and ORDERS (default 200000) orders, bulk
 * inserted from real priced orders with varied content. Prints `READY {url, token, ...}`.
 * APP_DIR: serve the dashboard built there at /app/ (bench/dashboard.ts), with an employee who
 * signs in (BENCH_EMPLOYEE_EMAIL, BENCH_EMPLOYEE_PASSWORD).
 */
import { sql } from 'kysely';
import { OrderStore } from '../src/modules/orders/store.js';
import type { OrderDoc } from '../src/modules/orders/document.js';
import type { OrderInput } from '../src/modules/orders/schemas.js';
import { buildApp } from '../src/app.js';
import { seedAccount, serveUntilTerm, startBenchService } from './fixture.js';

const bench = await startBenchService(
  {
    DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX ?? '20',
    ...(process.env.APP_DIR ? { APP_DIR: process.env.APP_DIR } : {}),
  },
  'database',
);
const { services, database } = bench.runtime;
const config = bench.config;
const account = await seedAccount(services, 'Orders bench');
const { scope, warehouseId } = account;
if (process.env.BENCH_EMPLOYEE_EMAIL && process.env.BENCH_EMPLOYEE_PASSWORD) {
  await services.accounts.addEmployee(account.accountId, {
    name: 'Оператор',
    email: process.env.BENCH_EMPLOYEE_EMAIL,
    password: process.env.BENCH_EMPLOYEE_PASSWORD,
  });
}
const shopIds: number[] = [];
for (let index = 0; index < 5; index++)
  shopIds.push(
    await services.shops.create(scope, {
      name: `Магазин ${index}`,
      brand: `Бренд ${index}`,
      warehouse: { id: warehouseId },
      platform: 'woocommerce',
    }),
  );
const productIds: number[] = [];
for (const [index, name] of ['Футболка', 'Кружка', 'Носки'].entries()) {
  productIds.push(
    await services.products.create(scope, {
      name,
      vendorCode: `P-${index}`,
      priceDeclared: 500 + index * 100,
      priceCod: 700 + index * 100,
      weight: 0.2 + index * 0.1,
      dimensions: { width: 20, height: 5, length: 25 },
    }),
  );
}
const spb = services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
if (!spb) throw new Error('Санкт-Петербург is not in the reference data');
const pointId =
  services.reference.registry
    .pointsIn(1, spb.id)
    .find((point) => point.cashPaymentAvailable && point.limits.maxWeight === null)?.id ??
  services.reference.registry.pointsIn(1, spb.id)[0].id;
// company 1 takes parcels only at a drop-off point chosen in advance: one in Москва, where the warehouse is
const moscow = services.reference.localities.find({ countryCode: 'RU', name: 'Москва' });
const dropOffPointId = moscow ? services.reference.registry.pointsIn(1, moscow.id)[0]?.id : undefined;
if (dropOffPointId === undefined) throw new Error('company 1 has no drop-off point in Москва');

/** What a plugin sends: a priced order with 3 products by reference. */
const orderBody = (type: 1 | 2): OrderInput => ({
  shopId: shopIds[0],
  cmsId: 'WC-1',
  products: productIds.map((id, index) => ({ id, count: index + 1 })),
  deliveryAddress: {
    city: { countryCode: 'RU', name: 'Санкт-Петербург' },
    street: 'Невский проспект',
    house: '10',
    flat: '5',
  },
  recipient: { fullName: 'Пётр Сидоров', phone: '+79990001122', email: 'petr@example.com' },
  delivery: type === 1 ? { company: { id: 1 }, type: 1, point: { id: pointId } } : { company: { id: 1 }, type: 2 },
  clientPrice: 250,
  pickup: { pointId: dropOffPointId },
});

// Templates: real priced orders of both types, then varied and bulk-inserted.
const templates: OrderDoc[] = [];
for (const type of [1, 2] as const) {
  const id = await services.orders.create(scope, orderBody(type), undefined);
  const { id: _id, ...doc } = await services.orders.get(scope, id);
  void _id;
  templates.push(doc as OrderDoc);
}
const STATUSES = [11, 11, 12, 13, 41, 411, 42, 44, 44, 44, 10, 83];
const NAMES = ['Пётр Сидоров', 'Анна Смирнова', 'Ольга Ёлкина', 'Иван Кузнецов', 'Мария Попова', 'Сергей Волков'];
const total = Number(process.env.ORDERS ?? 200_000);
const store = new OrderStore(database.db, database.kind);
const seedStarted = performance.now();
const startMs = Date.now() - 180 * 86400_000;
await database.db.transaction().execute(async (trx) => {
  const batch: OrderDoc[] = [];
  for (let index = 0; index < total; index++) {
    const template = templates[index % 2];
    const status = STATUSES[index % STATUSES.length];
    const at = new Date(startMs + Math.floor((index / total) * 180 * 86400_000)).toISOString();
    batch.push({
      ...template,
      status,
      statusHistory: [{ code: status, name: 'x', date: at, description: null }, ...template.statusHistory],
      creationDate: at,
      cmsId: `WC-${100000 + index}`,
      shopId: shopIds[index % shopIds.length],
      trackNumber: status >= 13 && status !== 83 ? `PU${String(index).padStart(11, '0')}` : null,
      recipient: {
        ...template.recipient,
        fullName: `${NAMES[index % NAMES.length]} ${index}`,
        phone: `+7999${String(index).padStart(7, '0')}`,
      },
      error: status === 83 ? 'The address is not served.' : null,
    });
    if (batch.length === 1000) await store.insertMany(account.accountId, batch.splice(0), {}, trx);
  }
  if (batch.length) await store.insertMany(account.accountId, batch, {}, trx);
});
if (database.kind === 'postgres') await sql`vacuum analyze orders`.execute(database.db);
else {
  await sql`analyze`.execute(database.db);
  // the seed went through the WAL: fold it into the database now, as a server running for a while has
  // long done, rather than in the middle of the measured requests
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
}
services.orders.changed(account.accountId);
const seedMs = Math.round(performance.now() - seedStarted);

const app = await buildApp({ config, database, services });
await serveUntilTerm(bench, app, {
  token: account.token,
  orders: total + 2,
  seedMs,
  shopId: shopIds[0],
  body: orderBody(1),
  // the floor under a cold page reads the same file (bench/page-floor-server.ts)
  ...(database.kind === 'sqlite' ? { sqliteFile: config.databaseUrl.replace(/^sqlite:/, '') } : {}),
});
