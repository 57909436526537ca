/** What order tests of several areas need: a pickup point, a job worker, a Prepared order. */
import { expect } from 'vitest';
import { JobWorker } from '../../src/platform/jobs.js';
import type { TestApp } from './app.js';
import type { ApiClient } from './client.js';
import { shopBody, warehouseBody } from './fixtures.js';

const quiet = { error: () => undefined, warn: () => undefined };

/** The first point of a company's network (company 1 by default) in a city (Санкт-Петербург by default). */
export function pickupPointIn(t: TestApp, city = 'Санкт-Петербург', companyId = 1): number {
  const locality = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: city });
  if (!locality) throw new Error(`${city} is not in the reference data`);
  return t.runtime.services.reference.registry.pointsIn(companyId, locality.id)[0].id;
}

/** A drop-off point of `companyId` in Москва, where the test warehouses are. */
export function dropOffPointOf(t: TestApp, companyId: number, city = 'Москва'): number {
  const locality = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: city });
  const point = locality ? t.runtime.services.reference.registry.pointsIn(companyId, locality.id)[0] : undefined;
  if (!point) throw new Error(`Company ${companyId} has no point in ${city}`);
  return point.id;
}

/** A worker that runs the orders' jobs (registration, tracking) when a test calls runDue(). */
export function orderJobWorker(t: TestApp): JobWorker {
  const worker = new JobWorker(t.runtime.services.jobs, quiet);
  t.runtime.services.tracking.registerJobs(worker);
  return worker;
}

/** Creates, confirms and registers an order: it comes back Prepared (13) with a track number. */
export async function preparedOrder(
  client: ApiClient,
  worker: JobWorker,
  body: Record<string, unknown>,
): Promise<{ id: number; trackNumber: string }> {
  const created = await client.post('/v2/orders', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  expect((await client.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
  await worker.runDue();
  const order = (await client.get(`/v2/orders/${id}`)).body;
  expect(order.status).toBe(13);
  return { id, trackNumber: order.trackNumber };
}

/** A small valid order of `shopId`: one book, cash on delivery, to `pointId` in Санкт-Петербург (company 1). */
export function orderBody(
  at: { shopId: number; pointId: number },
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    shopId: at.shopId,
    cmsId: 'SITE-77',
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
    delivery: { company: { id: 1 }, type: 1, point: { id: at.pointId } },
    ...overrides,
  };
}

export interface OrderingAccount {
  owner: ApiClient;
  accountId: number;
  warehouseId: number;
  shopId: number;
  /** A second shop of the account, on its own warehouse when asked. */
  otherShopId: number;
  /** The first shop's API key. */
  shopKey: string;
  pointId: number;
  worker: JobWorker;
}

/** What order tests start from: an account with a warehouse and two shops, the first one's key, a pickup point and a job worker. */
export async function orderingAccount(
  t: TestApp,
  options: { name?: string; otherShopOwnWarehouse?: boolean } = {},
): Promise<OrderingAccount> {
  const account = await t.newAccount(options.name ?? 'Owner');
  const owner = account.client;
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id as number;
  const shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id as number;
  const otherWarehouseId = options.otherShopOwnWarehouse
    ? ((await owner.post('/v2/warehouses', warehouseBody({ name: 'Второй склад' }))).body.id as number)
    : warehouseId;
  const otherShopId = (await owner.post('/v2/shops', shopBody(otherWarehouseId, { name: 'Второй магазин' }))).body
    .id as number;
  const shopKey = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey as string;
  return {
    owner,
    accountId: account.accountId,
    warehouseId,
    shopId,
    otherShopId,
    shopKey,
    pointId: pickupPointIn(t),
    worker: orderJobWorker(t),
  };
}
