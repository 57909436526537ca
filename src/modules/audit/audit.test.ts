/**
 * The audit trail through HTTP on a real database: an entry for each kind of actor (account
 * token, employee, scoped key, shop key, a job, an operator's command), the operation and the
 * records, settings' values before and after, nothing for a refused change; the owners' list,
 * filters and export; the hash chain verified, and an edited, a deleted and a cut-off entry
 * found; retention keeps the chain verifiable; AUDIT_TRAIL=0 writes none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAuditContext, runAudited } from '../../platform/audit.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { orderBody, orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import { catchLinks, type LinkCatcher } from '../../../test/support/links.js';
import { warehouseBody } from '../../../test/support/fixtures.js';
import { auditCommand } from './commands.js';
import type { AuditEntryView } from './service.js';

let t: TestApp;
let shop: OrderingAccount;
let links: LinkCatcher;
const PASSWORD = 'a long enough password';

beforeAll(async () => {
  t = await createTestApp();
  links = catchLinks(t);
  shop = await orderingAccount(t, { name: 'Audited shop' });
});
afterAll(async () => t?.close());

async function entries(query = ''): Promise<AuditEntryView[]> {
  const answer = await shop.owner.get(`/v2/audit?perPage=1000${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

const audit = () => t.runtime.services.audit;
const db = () => t.runtime.database.db;

describe('entries', () => {
  it('name who changed what: an account token creating, confirming and cancelling an order', async () => {
    const created = await shop.owner.call('POST', '/v2/orders', orderBody(shop), {
      headers: { 'user-agent': 'audit-test/1' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect((await shop.owner.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
    const trail = await entries(`&record=orders:${id}`);
    const create = trail.find((entry) => entry.operation === 'createOrder');
    expect(create).toMatchObject({
      actor: { kind: 'account-token', id: null },
      userAgent: 'audit-test/1',
      ip: '127.0.0.1',
    });
    expect(create?.records).toContainEqual({ type: 'orders', ids: [id] });
    expect(trail.some((entry) => entry.operation === 'confirmOrders')).toBe(true);
    // the job that registers it with the company is the service's own doing
    await shop.worker.runDue();
    const system = await entries(`&actor=system&record=orders:${id}`);
    expect(system.length).toBeGreaterThan(0);
    expect(system[0]?.operation).toMatch(/^job:/);
  });

  it('write one entry for a change sent with an Idempotency-Key, and none for its replay', async () => {
    const headers = { 'idempotency-key': `audit-${Date.now()}` };
    const first = await shop.owner.call('POST', '/v2/warehouses', warehouseBody(), { headers });
    const again = await shop.owner.call('POST', '/v2/warehouses', warehouseBody(), { headers });
    expect(again.body).toEqual(first.body);
    expect(await entries(`&record=warehouses:${first.body.id}`)).toHaveLength(1);
    expect(JSON.stringify(await entries())).not.toContain('idempotency_keys');
  });

  it('write nothing for a refused change', async () => {
    const before = (await entries()).length;
    expect((await shop.owner.post('/v2/orders', { ...orderBody(shop), shopId: 999999 })).status).toBeGreaterThan(399);
    expect((await shop.owner.put(`/v2/shops/${shop.shopId}`, { name: '' })).status).toBe(400);
    expect((await entries()).length).toBe(before);
  });

  it('name a scoped key, a shop key and an employee', async () => {
    const key = await shop.owner.post('/v2/api-keys', { name: 'catalogue', scopes: ['catalogue'] });
    const keyClient = t.client(key.body.key);
    const product = await keyClient.post('/v2/products', {
      shopId: shop.shopId,
      name: 'Книга',
      vendorCode: 'AUDIT-1',
      price: 800,
      weight: 0.5,
      dimensions: { width: 15, height: 4, length: 22 },
    });
    expect(product.status, product.text).toBe(201);
    const byKey = await entries(`&actor=api-key:${key.body.id}`);
    expect(byKey[0]).toMatchObject({ operation: 'createProduct' });
    expect(byKey[0]?.records).toContainEqual({ type: 'products', ids: [product.body.id] });
    const keyEntry = (await entries('&operation=createApiKey'))[0];
    expect(keyEntry?.changes?.[0]?.after).toMatchObject({ scopes: ['catalogue'], name: 'catalogue' });
    expect(JSON.stringify(keyEntry)).not.toContain(key.body.key);

    const shopKey = t.client(shop.shopKey);
    const order = await shopKey.post('/v2/orders', orderBody(shop));
    expect(order.status).toBe(201);
    expect((await entries(`&actor=shop-key:${shop.shopId}&record=orders:${order.body.id}`)).length).toBe(1);

    expect(
      (await shop.owner.post('/v2/employees', { email: 'audit-owner@shop.example', name: 'Ольга', role: 'owner' }))
        .status,
    ).toBe(201);
    const token = await links.tokenFor('audit-owner@shop.example', 'invitation');
    const accepted = await t.client().post('/v2/auth/invitation', { token, password: PASSWORD });
    expect(accepted.status).toBe(200);
    const employeeId = accepted.body.employeeId as number;
    const login = await t.client().post('/v2/auth/login', { email: 'audit-owner@shop.example', password: PASSWORD });
    const employee = t.client(login.body.token);
    expect((await employee.post('/v2/orders/cancel', { ids: [order.body.id] })).status).toBe(204);
    const cancelled = await entries(`&actor=employee:${employeeId}`);
    expect(cancelled[0]).toMatchObject({ operation: 'cancelOrders' });
    expect(cancelled[0]?.records).toContainEqual({ type: 'orders', ids: [order.body.id] });
  });

  it('keep the values before and after of settings: a shop, its shipping rules, a webhook, an employee', async () => {
    const current = (await shop.owner.get(`/v2/shops/${shop.shopId}`)).body;
    const { id: _id, apiKey: _key, ...editable } = current;
    const renamed = await shop.owner.put(`/v2/shops/${shop.shopId}`, { ...editable, name: 'Новое имя' });
    expect(renamed.status, renamed.text).toBe(204);
    const shopEntry = (await entries(`&operation=replaceShop&record=shops:${shop.shopId}`))[0];
    expect(shopEntry?.changes?.[0]).toMatchObject({ type: 'shops', before: { name: current.name } });
    expect(shopEntry?.changes?.[0]?.after).toMatchObject({ name: 'Новое имя' });
    expect(JSON.stringify(shopEntry)).not.toContain(current.apiKey);

    expect((await shop.owner.put(`/v2/shops/${shop.shopId}/shipping-rules`, { rules: [] })).status).toBe(200);
    const rules = (await entries(`&record=shipping_rules:${shop.shopId}`))[0];
    expect(rules?.changes?.[0]?.after).toMatchObject({ version: 1, rules: [] });

    const hook = await shop.owner.post('/v2/webhooks', {
      url: 'https://receiver.example/hook',
      events: ['order.created'],
    });
    expect(hook.status).toBe(201);
    expect(
      (
        await shop.owner.put(`/v2/webhooks/${hook.body.id}`, {
          url: 'https://receiver.example/other',
          events: ['order.created'],
        })
      ).status,
    ).toBe(204);
    const hookEntry = (await entries(`&record=webhook_endpoints:${hook.body.id}&operation=replaceWebhook`))[0];
    expect(hookEntry?.changes?.[0]).toMatchObject({
      before: { url: 'https://receiver.example/hook', secret: '[hidden]' },
      after: { url: 'https://receiver.example/other' },
    });
  });

  it('name an operator running a command, in the account it names', async () => {
    await runAudited(
      newAuditContext({
        accountId: shop.accountId,
        actor: { kind: 'operator', id: 'ops' },
        operation: 'cli:account rename',
      }),
      () => db().updateTable('accounts').set({ name: 'Переименован' }).where('id', '=', shop.accountId).execute(),
    );
    expect((await entries('&actor=operator:ops'))[0]).toMatchObject({
      operation: 'cli:account rename',
      records: [{ type: 'accounts', ids: [] }],
    });
  });

  it('are read by owners only, of their own account, with paging and an export', async () => {
    const stranger = (await t.newAccount('Stranger')).client;
    expect((await stranger.get('/v2/audit')).body).toEqual([]);
    expect((await t.client(shop.shopKey).get('/v2/audit')).status).toBe(403);
    expect((await t.client().get('/v2/audit')).status).toBe(401);
    const page = await shop.owner.get('/v2/audit?perPage=2&page=1');
    expect(page.body.length).toBe(2);
    expect(Number(page.headers['x-total-count'])).toBeGreaterThan(2);
    expect((await shop.owner.get('/v2/audit?record=orders')).status).toBe(400);
    expect((await shop.owner.get('/v2/audit?perPage=5000')).status).toBe(400);
    expect((await shop.owner.get('/v2/audit?from=07.01.2027')).body.errors[0].field).toBe('from');
    const backwards = await shop.owner.get('/v2/audit?from=2027-02-01T00:00:00Z&to=2027-01-01T00:00:00Z');
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].field).toBe('to');
    const other = await t.newAccount('Exporter');
    await other.client.post('/v2/warehouses', warehouseBody());
    const jsonl = await t.app.inject({
      method: 'GET',
      url: '/v2/audit/export?format=jsonl',
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(jsonl.statusCode).toBe(200);
    expect(jsonl.headers['content-type']).toContain('application/x-ndjson');
    const exported = jsonl.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(exported).toMatchObject([{ operation: 'createWarehouse', records: [{ type: 'warehouses' }] }]);
    const csv = await shop.owner.get('/v2/audit/export?format=csv&operation=createOrder');
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('id,at,actor,operation,records,changes,ip,userAgent,seq,hash');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.includes('createOrder'))).toBe(true);
  });
});

describe('the chain', () => {
  it('verifies, and finds an edited, a deleted and a cut-off entry', async () => {
    await audit().seal();
    const sound = await audit().verify(shop.accountId);
    expect(sound.broken).toBeNull();
    expect(sound.checked).toBeGreaterThan(5);
    const sealed = await db()
      .selectFrom('audit_entries')
      .select(['id', 'operation', 'seq'])
      .where('account_id', '=', shop.accountId)
      .orderBy('seq')
      .execute();
    const victim = sealed[2] as { id: number; operation: string };
    await db()
      .updateTable('audit_entries')
      .set({ operation: 'nothing happened' })
      .where('id', '=', victim.id)
      .execute();
    const edited = await audit().verify(shop.accountId);
    expect(edited.broken).toMatchObject({ entryId: Number(victim.id), reason: 'it was changed after it was sealed' });
    await expect(
      auditCommand.run(['verify', '--account', String(shop.accountId)], async () => t.runtime.services),
    ).rejects.toThrow(`broken at entry ${victim.id}`);
    await db().updateTable('audit_entries').set({ operation: victim.operation }).where('id', '=', victim.id).execute();
    expect((await audit().verify(shop.accountId)).broken).toBeNull();

    const next = sealed[4] as { id: number };
    await db()
      .deleteFrom('audit_entries')
      .where('id', '=', Number((sealed[3] as { id: number }).id))
      .execute();
    const deleted = await audit().verify(shop.accountId);
    expect(deleted.broken?.entryId).toBe(Number(next.id));

    // a cut-off tail (in another account's chain, whole but for it) is found by the chain's head
    const other = await t.newAccount('Tail');
    await other.client.post('/v2/warehouses', warehouseBody());
    await other.client.post('/v2/warehouses', warehouseBody());
    await audit().seal();
    const tail = await db()
      .selectFrom('audit_entries')
      .select('id')
      .where('account_id', '=', other.accountId)
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    await db().deleteFrom('audit_entries').where('id', '=', tail.id).execute();
    const cut = await audit().verify(other.accountId);
    expect(cut.broken).toMatchObject({ entryId: null });
    expect(cut.broken?.reason).toContain('last entries are missing');
  });

  it('stays verifiable from the retained start after retention deletes old entries', async () => {
    const account = await t.newAccount('Retained');
    for (let index = 0; index < 4; index++)
      expect((await account.client.post('/v2/warehouses', warehouseBody())).status).toBe(201);
    expect((await account.client.put('/v2/audit/settings', { retentionDays: 30 })).status).toBe(200);
    expect((await account.client.get('/v2/audit/settings')).body).toEqual({ retentionDays: 30 });
    await audit().seal();
    const rows = await db()
      .selectFrom('audit_entries')
      .select(['id', 'seq'])
      .where('account_id', '=', account.accountId)
      .orderBy('seq')
      .execute();
    // the first two made 40 days old (an edit the chain sees); retention then deletes exactly those, and what is kept verifies
    const old = rows.slice(0, 2).map((row) => Number(row.id));
    await db()
      .updateTable('audit_entries')
      .set({ at: new Date(Date.now() - 40 * 86_400_000).toISOString() })
      .where('id', 'in', old)
      .execute();
    expect((await audit().verify(account.accountId)).broken).not.toBeNull();
    const deleted = await audit().applyRetention();
    expect(deleted).toBe(2);
    const after = await audit().verify(account.accountId);
    expect(after.broken).toBeNull();
    expect(after.checked).toBe(rows.length - 2);
    const settingEntry = (await account.client.get('/v2/audit?operation=setAuditSettings')).body[0];
    expect(settingEntry.changes[0]).toMatchObject({ before: { retentionDays: null }, after: { retentionDays: 30 } });
  });
});

describe('off', () => {
  it('writes no entry with AUDIT_TRAIL=0', async () => {
    const quiet = await createTestApp({ env: { AUDIT_TRAIL: '0' } });
    try {
      const account = await quiet.newAccount('Quiet');
      expect((await account.client.post('/v2/warehouses', warehouseBody())).status).toBe(201);
      const count = await quiet.runtime.database.db
        .selectFrom('audit_entries')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(count.count)).toBe(0);
    } finally {
      await quiet.close();
    }
  });
});
