/**
 * Creates, confirms and tracks an order with the generated client.
 *
 *   URL=http://127.0.0.1:8080 TOKEN=<account token> [SHOP_ID=<id>] npx tsx clients/typescript/example.ts
 *
 * Without SHOP_ID it first creates a warehouse in Москва and a shop on it. It prices the
 * delivery to Санкт-Петербург, takes the first company delivering to pickup points and its
 * first point, asks where that company takes parcels (GET /v2/orders/shipment), creates the
 * order (with an Idempotency-Key, so a retry cannot create two), confirms it and waits for
 * its track number: `npm start` registers confirmed orders with their company in the background.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDeliveryClient, ok, type DeliveryClient, type OrderInput, type TrackingRecord } from './src/index.js';

export interface ExampleOptions {
  shopId?: number;
  /** Called between looks at the tracking record (the script sleeps; a test runs the job worker). */
  wait: () => Promise<void>;
  log?: (line: string) => void;
  attempts?: number;
}

export async function createConfirmAndTrack(
  api: DeliveryClient,
  options: ExampleOptions,
): Promise<{ orderId: number; tracking: TrackingRecord }> {
  const log = options.log ?? (() => undefined);
  let shopId = options.shopId;
  if (shopId === undefined) {
    const workday = { from: '09:00', to: '18:00' };
    const warehouse = ok(
      await api.POST('/v2/warehouses', {
        body: {
          name: 'Склад на Складской',
          type: 1,
          address: {
            street: 'Складская улица',
            house: '7',
            city: { countryCode: 'RU', name: 'Москва', region: 'Москва' },
          },
          contact: { name: 'Иван Петров', phone: '+79161234567' },
          schedule: [workday, workday, workday, workday, workday, null, null],
        },
      }),
    );
    shopId = ok(
      await api.POST('/v2/shops', {
        body: { name: 'Магазин из примера', brand: 'Пример', warehouse: { id: warehouse.id } },
      }),
    ).id;
    log(`created warehouse ${warehouse.id} and shop ${shopId}`);
  }

  const book = {
    priceDeclared: 800,
    priceCod: 900,
    count: 1,
    weight: 0.5,
    dimensions: { width: 15, height: 4, length: 22 },
  };
  const prices = ok(
    await api.POST('/v2/calculator', {
      params: { header: { 'Shop-Id': shopId } },
      body: {
        reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' },
        products: [book],
        priceDeclared: 800,
        priceCod: 900,
        type: 1,
      },
    }),
  );
  // a company of the service (a number); an account's own delivery method is '{accountId}_{methodId}'
  const company = prices['1'].find(
    (candidate): candidate is typeof candidate & { deliveryCompanyId: number } =>
      typeof candidate.deliveryCompanyId === 'number' && candidate.points !== undefined && candidate.points.length > 0,
  );
  const firstPoint = company?.points?.[0];
  if (!company || firstPoint === undefined) throw new Error('No company delivers to a pickup point in Санкт-Петербург');
  const pointId = typeof firstPoint === 'number' ? firstPoint : firstPoint.id;
  log(`${company.deliveryCompanyName}: ${company.totalPrice ?? company.points?.length} to point ${pointId}`);

  const [shipment] = ok(
    await api.GET('/v2/orders/shipment', {
      params: { query: { region: 'Москва', companyId: company.deliveryCompanyId, pickupType: 1 } },
    }),
  );
  const dropOff = shipment?.pickupPointRequired ? shipment.points[0]?.id : undefined;

  const order: OrderInput = {
    shopId,
    cmsId: `EXAMPLE-${Date.now()}`,
    products: [{ name: 'Книга', vendorCode: 'BOOK-1', ...book }],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
    delivery: { company: { id: company.deliveryCompanyId }, type: 1, point: { id: pointId } },
    ...(dropOff !== undefined ? { pickup: { pointId: dropOff } } : {}),
  };
  const orderId = ok(
    await api.POST('/v2/orders', { params: { header: { 'Idempotency-Key': randomUUID() } }, body: order }),
  ).id;
  log(`created order ${orderId} (a draft)`);
  ok(await api.POST('/v2/orders/confirm', { body: { ids: [orderId] } }));
  log(`confirmed order ${orderId}`);

  for (let attempt = 0; attempt < (options.attempts ?? 30); attempt++) {
    const tracking = ok(await api.GET('/v2/tracking', { params: { query: { id: orderId } } }));
    const latest = tracking.statusHistory[0];
    log(
      `status ${latest?.code} ${latest?.name ?? ''}${tracking.trackNumber ? `, track number ${tracking.trackNumber}` : ''}`,
    );
    if (tracking.trackNumber) return { orderId, tracking };
    await options.wait();
  }
  throw new Error(`Order ${orderId} got no track number: is the job worker running?`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const baseUrl = process.env.URL ?? 'http://127.0.0.1:8080';
  const token = process.env.TOKEN;
  if (!token) {
    process.stderr.write('Set TOKEN to an account token (npm run cli -- account create --name Example).\n');
    process.exit(2);
  }
  const api = createDeliveryClient({ baseUrl, token });
  const { tracking } = await createConfirmAndTrack(api, {
    shopId: process.env.SHOP_ID ? Number(process.env.SHOP_ID) : undefined,
    wait: () => new Promise((resolve) => setTimeout(resolve, 2000)),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`${tracking.trackingUrl ?? tracking.trackNumber}\n`);
}
