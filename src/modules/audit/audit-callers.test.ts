/**
 * Changes made without a bearer token land in the account they change, naming their caller: a
 * carrier's status push (one push, orders of two accounts: each in its own account's chain), the
 * buyer's return by the signed link, the checkout widget's order, a fulfilment warehouse's staff
 * inspecting a returned parcel. None of them in account 0's chain; every chain still verifies.
 */
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  FULFILMENT_WAREHOUSE,
  fulfilmentAccount,
  fulfilmentOrder,
  newProduct,
  putInStock,
} from '../../../test/support/fulfilment.js';
import { orderingAccount, preparedOrder, orderBody, type OrderingAccount } from '../../../test/support/orders.js';
import { deliveredOrder } from '../../../test/support/returns.js';
import { accountOfWrite } from '../../platform/audit.js';
import type { Tables } from '../../platform/db/tables.js';
import { auditCommand } from './commands.js';
import type { AuditEntryView } from './service.js';

async function trail(owner: ApiClient, query: string): Promise<AuditEntryView[]> {
  const answer = await owner.get(`/v2/audit?perPage=1000${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

async function accountZeroOperations(t: TestApp): Promise<string[]> {
  const rows = await t.runtime.database.db
    .selectFrom('audit_entries')
    .select('operation')
    .where('account_id', '=', 0)
    .execute();
  return rows.map((row) => row.operation);
}

async function verifiesEveryChain(t: TestApp): Promise<void> {
  const said = await auditCommand.run(['verify'], async () => t.runtime.services);
  expect(said).toMatch(/^The audit trail verifies: \d+ entries in \d+ chain/);
}

describe('carriers, buyers and the widget', () => {
  let t: TestApp;
  let a: OrderingAccount;
  let b: OrderingAccount;

  beforeAll(async () => {
    t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '60', WIDGET_RATE_LIMIT_PER_MINUTE: '1000' } });
    a = await orderingAccount(t, { name: 'Shop A' });
    b = await orderingAccount(t, { name: 'Shop B' });
  });
  afterAll(async () => t?.close());

  it("puts one push's changes of two accounts' orders each in its own account, by the carrier", async () => {
    const first = await preparedOrder(a.owner, a.worker, orderBody(a));
    const second = await preparedOrder(b.owner, b.worker, orderBody(b));
    const pushed = await t.client().post(
      '/v2/tracking/events/1',
      {
        events: [
          { trackNumber: first.trackNumber, statusCode: 41 },
          { trackNumber: second.trackNumber, statusCode: 41 },
        ],
      },
      { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1), 'user-agent': 'carrier/1' } },
    );
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.applied).toBe(2);
    for (const [account, order] of [
      [a, first],
      [b, second],
    ] as const) {
      const entries = await trail(account.owner, `&operation=pushTrackingEvents&record=orders:${order.id}`);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) {
        expect(entry).toMatchObject({ actor: { kind: 'carrier', id: '1' }, userAgent: 'carrier/1' });
        // the other account's order is not in this account's entries
        const other = account === a ? second.id : first.id;
        expect(entry.records).not.toContainEqual({ type: 'orders', ids: [other] });
      }
      expect(entries[0]?.records).toContainEqual({ type: 'orders', ids: [order.id] });
    }
    const byCarrier = await trail(a.owner, '&actor=carrier:1');
    expect(byCarrier.every((entry) => entry.operation === 'pushTrackingEvents')).toBe(true);
    expect(await accountZeroOperations(t)).not.toContain('pushTrackingEvents');
  });

  it("puts a buyer's return by the signed link in the shop's account, by the buyer from their address", async () => {
    const delivered = await deliveredOrder(a.owner, a.worker, { shopId: a.shopId, pointId: a.pointId });
    const rules = await a.owner.put(`/v2/shops/${a.shopId}/return-settings`, {
      enabled: true,
      windowDays: 30,
      ways: [
        { way: 'point', companyIds: [1] },
        { way: 'courier', companyIds: [1] },
      ],
      payer: 'buyer',
      autoApprove: null,
    });
    expect(rules.status, rules.text).toBe(200);
    const page = new URL(t.runtime.services.returns.orderPageUrl(a.accountId, a.shopId, delivered.id) as string)
      .pathname;
    const asked = await t
      .client()
      .post(
        page,
        { lines: [{ line: 0, count: 1, reason: 'did_not_fit' }], option: 'courier:1', point: {} },
        { headers: { 'x-forwarded-for': '203.0.113.7' } },
      );
    expect(asked.status, asked.text).toBe(201);
    const entries = await trail(a.owner, '&operation=requestReturnOnPage');
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.actor).toEqual({ kind: 'buyer', id: null });
    expect(entries[0]?.ip).toBeTruthy();
    expect(entries[0]?.records.some((record) => record.type === 'returns' || record.type === 'orders')).toBe(true);
    expect(await trail(b.owner, '&actor=buyer')).toEqual([]);
    expect(await accountZeroOperations(t)).not.toContain('requestReturnOnPage');
  });

  it("puts a buyer's one-click unsubscribe in the shop's account, by the buyer", async () => {
    const url = new URL(t.runtime.services.buyerMessages.unsubscribeUrl(b.accountId, b.shopId, 'sms', '79215556677'));
    const answer = await t.app.inject({ method: 'POST', url: url.pathname });
    expect(answer.statusCode, answer.body).toBe(200);
    const entries = await trail(b.owner, '&operation=unsubscribeBuyer');
    expect(entries.length).toBe(1);
    expect(entries[0]?.actor).toEqual({ kind: 'buyer', id: null });
    expect(await accountZeroOperations(t)).not.toContain('unsubscribeBuyer');
  });

  it("puts the widget's order in the shop's account, with the selection it was made of", async () => {
    const PAGE = 'https://shop.example';
    const issued = await a.owner.post(`/v2/shops/${a.shopId}/widget-key`, { allowedOrigins: [PAGE] });
    expect(issued.status).toBe(200);
    const key = issued.body.publicKey as string;
    const points = await t.app.inject({
      method: 'GET',
      url: `/widget/v1/api/points?bbox=30.1,59.85,30.5,60.05&zoom=13&weight=1&key=${key}`,
      headers: { origin: PAGE },
    });
    const point = JSON.parse(points.body).points[0] as { id: number; companyId: number };
    const selected = await t.app.inject({
      method: 'POST',
      url: `/widget/v1/api/selections?key=${key}`,
      headers: { origin: PAGE, 'content-type': 'application/json' },
      payload: JSON.stringify({
        city: { name: 'Санкт-Петербург' },
        products: [{ name: 'Кружка', price: 1000, count: 2, weight: 0.5, width: 10, height: 10, length: 15 }],
        mode: 1,
        companyId: point.companyId,
        pointId: point.id,
      }),
    });
    expect(selected.statusCode, selected.body).toBe(201);
    const made = await t.client(a.shopKey).post('/v2/widget/orders', {
      selectionToken: JSON.parse(selected.body).token,
      cmsId: 'W-1',
      recipient: { fullName: 'Анна Покупатель', phone: '+79990001122' },
    });
    expect(made.status, made.text).toBe(201);
    const entries = await trail(a.owner, `&record=orders:${made.body.id}`);
    expect(entries.map((entry) => entry.operation)).toContain('createOrderFromWidgetSelection');
    expect(entries.find((entry) => entry.operation === 'createOrderFromWidgetSelection')?.actor).toEqual({
      kind: 'shop-key',
      id: String(a.shopId),
    });
    expect(await trail(b.owner, `&record=orders:${made.body.id}`)).toEqual([]);
    expect(await accountZeroOperations(t)).toEqual([]);
    await verifiesEveryChain(t);
  });
});

describe('operators', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0', FULFILMENT_ACCEPT_SECONDS: '0' } });
  });
  afterAll(async () => t?.close());

  it("puts a warehouse's staff inspection in the returned order's account, by the staff token", async () => {
    const a = await fulfilmentAccount(t);
    const other = await fulfilmentAccount(t, { name: 'Other fulfilment shop' });
    const issued = await t.runtime.services.supplies.createOperatorToken(FULFILMENT_WAREHOUSE, 'Склад');
    const staff = t.client(issued.token);
    const lamp = await newProduct(a.owner, { vendorCode: 'AU-LAMP', name: 'Лампа' });
    await putInStock(t, a.accountId, lamp, 5);
    const id = (await a.owner.post('/v2/orders', fulfilmentOrder(t, a, [[lamp, 1]]))).body.id as number;
    expect((await a.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    await a.worker.runDue();
    const { trackNumber } = (await a.owner.get(`/v2/orders/${id}`)).body;
    for (const statusCode of [41, 411, 412, 42, 462, 71, 72])
      expect(
        (
          await t
            .client()
            .post(
              '/v2/tracking/events/1',
              { events: [{ trackNumber, statusCode }] },
              { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
            )
        ).status,
      ).toBe(200);
    const inspected = await staff.post(`/v2/fulfilment/operator/return-inspections/${id}`, {
      lines: [{ productId: lamp, outcome: 'stock', count: 1, reason: 'цела' }],
    });
    expect(inspected.status, inspected.text).toBe(200);
    const entries = await trail(a.owner, '&operation=inspectReturnedParcel');
    expect(entries.length, JSON.stringify(await trail(a.owner, '&actor=operator'))).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.actor).toEqual({ kind: 'operator', id: String(issued.id) });
    expect(entries.some((entry) => JSON.stringify(entry.records).includes(`{"type":"orders","ids":[${id}]}`))).toBe(
      true,
    );
    expect((await trail(a.owner, `&actor=operator:${issued.id}`)).length).toBe(entries.length);
    expect(await trail(other.owner, '&actor=operator')).toEqual([]);
    // the carrier's pushes of that order are the account's too
    expect((await trail(a.owner, '&actor=carrier:1')).length).toBeGreaterThanOrEqual(7);
    expect(await accountZeroOperations(t)).toEqual([]);
    await verifiesEveryChain(t);
  });
});

describe('the account a write names', () => {
  const db = new Kysely<Tables>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });

  it("reads an insert's account_id and an update's or delete's where account_id = ?", () => {
    const warehouse = { account_id: 7, name: 'x' } as unknown as Insertable<Tables['warehouses']>;
    expect(accountOfWrite(db.insertInto('warehouses').values(warehouse).compile())).toBe(7);
    expect(
      accountOfWrite(
        db.updateTable('orders').set({ status: 1 }).where('id', '=', 3).where('account_id', '=', 9).compile(),
      ),
    ).toBe(9);
    expect(accountOfWrite(db.deleteFrom('shops').where('account_id', '=', 4).compile())).toBe(4);
    // none named, or not one: not told
    expect(accountOfWrite(db.updateTable('orders').set({ status: 1 }).where('id', '=', 3).compile())).toBe(null);
    expect(
      accountOfWrite(
        db
          .updateTable('orders')
          .set({ status: 1 })
          .where((eb) => eb.or([eb('account_id', '=', 1), eb('account_id', '=', 2)]))
          .compile(),
      ),
    ).toBe(null);
  });
});
