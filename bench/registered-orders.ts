/**
 * A bench account with `count` Prepared, registered orders: one order is created, confirmed
 * and registered through the API (company 1, a pickup point in Санкт-Петербург); its row is
 * copied to make the others (the copies share its track number: documents cost the same).
 */
import type { ApiClient } from '../test/support/client.js';
import type { TestApp } from '../test/support/app.js';
import { shopBody, warehouseBody } from '../test/support/fixtures.js';
import { dropOffPointOf } from '../test/support/orders.js';
import { JobWorker } from '../src/platform/jobs.js';

export async function registeredOrders(
  t: TestApp,
  count: number,
): Promise<{ owner: ApiClient; ids: number[]; worker: JobWorker }> {
  const { client: owner } = await t.newAccount('Bench');
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  const shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
  const spb = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
  const pointId = t.runtime.services.reference.registry.pointsIn(1, spb!.id)[0].id;
  const created = await owner.post('/v2/orders', {
    shopId,
    cmsId: 'BENCH-1',
    products: [
      {
        name: 'Книга',
        vendorCode: 'BOOK-1',
        priceDeclared: 800,
        priceCod: 900,
        count: 1,
        weight: 0.5,
        dimensions: { width: 15, height: 4, length: 22 },
      },
    ],
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
  for (let index = 1; index < count; index += 1) {
    const inserted = await db
      .insertInto('orders')
      .values(copy as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(Number(inserted.id));
  }
  return { owner, ids, worker };
}
