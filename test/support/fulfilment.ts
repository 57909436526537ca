/** What fulfilment tests start from: an account whose shop keeps its goods at a warehouse of the service, and stock checks. */
import { expect } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from './app.js';
import type { ApiClient } from './client.js';
import { productBody, shopBody, warehouseBody } from './fixtures.js';
import { orderJobWorker, pickupPointIn } from './orders.js';
import type { JobWorker } from '../../src/platform/jobs.js';

/** The service's fulfilment warehouse of the tests (data/fulfilment-warehouses.json: offers automatic reservation). */
export const FULFILMENT_WAREHOUSE = 101;

export interface FulfilmentAccount {
  owner: ApiClient;
  accountId: number;
  /** The account's fulfilment-type warehouse (at FULFILMENT_WAREHOUSE). */
  warehouseId: number;
  shopId: number;
  shopKey: string;
  /** A shop of the account on an own warehouse. */
  ownShopId: number;
  pointId: number;
  worker: JobWorker;
}

export async function fulfilmentAccount(
  t: TestApp,
  options: { autoReserve?: boolean; name?: string } = {},
): Promise<FulfilmentAccount> {
  const account = await t.newAccount(options.name ?? 'Fulfilment owner');
  const owner = account.client;
  const warehouse = await owner.post(
    '/v2/warehouses',
    warehouseBody({
      name: 'Фулфилмент',
      type: 2,
      fulfilmentWarehouseId: FULFILMENT_WAREHOUSE,
      fulfilmentAutoReserve: options.autoReserve ?? true,
    }),
  );
  expect(warehouse.status, JSON.stringify(warehouse.body)).toBe(201);
  const shopId = (await owner.post('/v2/shops', shopBody(warehouse.body.id, { name: 'Фулфилмент-магазин' }))).body
    .id as number;
  const ownWarehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id as number;
  const ownShopId = (await owner.post('/v2/shops', shopBody(ownWarehouseId))).body.id as number;
  const shopKey = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey as string;
  // orders' jobs (registration, tracking) and the fulfilment ones (the built-in warehouses' clock, auto-reservation)
  const worker = orderJobWorker(t);
  t.runtime.services.supplies.registerJobs(worker);
  return {
    owner,
    accountId: account.accountId,
    warehouseId: warehouse.body.id,
    shopId,
    shopKey,
    ownShopId,
    pointId: pickupPointIn(t),
    worker,
  };
}

export async function newProduct(owner: ApiClient, overrides: Record<string, unknown> = {}): Promise<number> {
  const created = await owner.post('/v2/products', productBody({ batchAccounting: false, ...overrides }));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as number;
}

/** An order of the fulfilment shop for catalogue goods: `[productId, count]` per line. */
export function fulfilmentOrder(
  t: TestApp,
  at: FulfilmentAccount,
  goods: Array<[number, number]>,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    shopId: at.shopId,
    cmsId: 'FF-1',
    products: goods.map(([id, count]) => ({ id, count, priceCod: 0 })),
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
    delivery: { company: { id: 1 }, type: 1, point: { id: at.pointId } },
    ...overrides,
  };
}

/** Goods straight into stock, as an accepted supply would bring them (tests of stock rules that are not about supplies). */
export async function putInStock(
  t: TestApp,
  accountId: number,
  productId: number,
  count: number,
  batch: { batch: string; expires: string } | null = null,
  fulfilmentWarehouseId = FULFILMENT_WAREHOUSE,
): Promise<void> {
  const store = t.runtime.services.stock.store;
  await store.transaction((trx) =>
    store.receive(
      trx,
      accountId,
      { fulfilmentWarehouseId, productId, batch: batch?.batch ?? '', expires: batch?.expires ?? null },
      count,
      { actor: 'test', employeeId: null, reason: 'test stock' },
    ),
  );
}

/** Every stock row of the account against the sum of its movements and its allocations: the books must agree. */
export async function expectBooksBalance(t: TestApp, accountId: number): Promise<void> {
  const db = t.runtime.database.db;
  const rows = await db
    .selectFrom('stock')
    .select(['id', 'quantity', 'reserved'])
    .where('account_id', '=', accountId)
    .execute();
  for (const row of rows) {
    const moved = await db
      .selectFrom('stock_movements')
      .select([
        sql<number>`coalesce(sum(quantity_delta), 0)`.as('quantity'),
        sql<number>`coalesce(sum(reserved_delta), 0)`.as('reserved'),
      ])
      .where('stock_id', '=', row.id)
      .executeTakeFirstOrThrow();
    const held = await db
      .selectFrom('stock_allocations')
      .select(sql<number>`coalesce(sum(quantity), 0)`.as('reserved'))
      .where('stock_id', '=', row.id)
      .where('state', '=', 'reserved')
      .executeTakeFirstOrThrow();
    expect({ quantity: Number(row.quantity), reserved: Number(row.reserved) }).toEqual({
      quantity: Number(moved.quantity),
      reserved: Number(moved.reserved),
    });
    expect(Number(held.reserved)).toBe(Number(row.reserved));
    expect(Number(row.reserved)).toBeLessThanOrEqual(Number(row.quantity));
  }
}

/**
 * The staff inspect a returned parcel waiting at the warehouse: every line to `outcome` (or
 * the split given per product), with a reason. Answers the API's answer.
 */
export async function inspectReturned(
  t: TestApp,
  orderId: number,
  outcome: 'stock' | 'defect' | 'write_off' = 'stock',
  split: Record<number, Array<['stock' | 'defect' | 'write_off', number]>> = {},
  fulfilmentWarehouseId = FULFILMENT_WAREHOUSE,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const staff = t.client(
    (await t.runtime.services.supplies.createOperatorToken(fulfilmentWarehouseId, 'Приёмка')).token,
  );
  const parcel = await staff.get(`/v2/fulfilment/operator/return-inspections/${orderId}`);
  expect(parcel.status, JSON.stringify(parcel.body)).toBe(200);
  const lines = (parcel.body.lines as Array<{ productId: number; count: number }>).flatMap((line) =>
    (split[line.productId] ?? [[outcome, line.count]]).map(([lineOutcome, count]) => ({
      productId: line.productId,
      outcome: lineOutcome,
      count,
      reason: lineOutcome === 'stock' ? 'цел' : 'повреждён',
    })),
  );
  return staff.post(`/v2/fulfilment/operator/return-inspections/${orderId}`, { lines });
}
