/**
 * Employees and roles through HTTP: owners invite, change and remove employees; a
 * manager acts for the shops given to them only (the Shop-Id header chooses one, default the
 * first), as that shop's key would; managers and shop keys cannot manage employees; another
 * account's employee is 404; a removed employee's token stops working at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { orderBody, orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import { shopBody } from '../../../test/support/fixtures.js';
import { catchLinks, type LinkCatcher } from '../../../test/support/links.js';

let t: TestApp;
let shop: OrderingAccount;
let thirdShopId: number;
let links: LinkCatcher;
const PASSWORD = 'a long enough password';

async function signIn(email: string): Promise<ApiClient> {
  const response = await t.client().post('/v2/auth/login', { email, password: PASSWORD });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return t.client(response.body.token as string);
}

/** Invites by e-mail, and the invitee accepts by the link: answers the employee's id. */
async function invite(body: Record<string, unknown>): Promise<number> {
  const response = await shop.owner.post('/v2/employees', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const token = await links.tokenFor(String(body.email), 'invitation');
  const accepted = await t.client().post('/v2/auth/invitation', { token, password: PASSWORD });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return accepted.body.employeeId as number;
}

beforeAll(async () => {
  t = await createTestApp();
  links = catchLinks(t);
  shop = await orderingAccount(t, { name: 'Roles shop' });
  thirdShopId = (await shop.owner.post('/v2/shops', shopBody(shop.warehouseId, { name: 'Третий магазин' }))).body
    .id as number;
});
afterAll(async () => t?.close());

describe('employees (owners manage them)', () => {
  it('invites a manager of two shops, lists, changes and removes them', async () => {
    const id = await invite({
      name: 'Менеджер',
      email: 'Manager@Shop.example',
      role: 'manager',
      shopIds: [shop.otherShopId, shop.shopId],
    });
    const list = await shop.owner.get('/v2/employees');
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual({
      id,
      name: 'Менеджер',
      email: 'manager@shop.example',
      role: 'manager',
      shopIds: [shop.otherShopId, shop.shopId],
      secondFactor: false,
      createdAt: expect.any(String),
    });

    const manager = await signIn('manager@shop.example');
    const who = await manager.get('/v2/auth/session');
    expect(who.body).toMatchObject({
      kind: 'employee',
      role: 'manager',
      managedShops: [{ id: shop.otherShopId }, { id: shop.shopId }],
    });

    const changed = await shop.owner.put(`/v2/employees/${id}`, { role: 'manager', shopIds: [thirdShopId] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ role: 'manager', shopIds: [thirdShopId] });
    // the change applies to the manager's next request
    expect(
      (await manager.get(`/v2/shops/${shop.shopId}`, { headers: { 'shop-id': String(shop.shopId) } })).status,
    ).toBe(403);
    expect((await manager.get(`/v2/shops/${thirdShopId}`)).status).toBe(200);

    expect((await shop.owner.delete(`/v2/employees/${id}`)).status).toBe(204);
    expect((await manager.get('/v2/auth/session')).status).toBe(401);
    expect((await shop.owner.get(`/v2/employees/${id}`)).status).toBe(404);
  });

  it('an owner employee sees the whole account and may manage employees; the last owner stays', async () => {
    const id = await invite({ email: 'owner2@shop.example', role: 'owner' });
    const owner = await signIn('owner2@shop.example');
    expect((await owner.get('/v2/auth/session')).body).toMatchObject({ role: 'owner', managedShops: null });
    expect((await owner.get('/v2/employees')).status).toBe(200);
    expect(Number((await owner.get('/v2/shops')).headers['x-total-count'])).toBe(3);
    // the only owner employee cannot be made a manager or removed
    const lastOwner = await owner.put(`/v2/employees/${id}`, { role: 'manager', shopIds: [shop.shopId] });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.code).toBe('last_owner');
    expect((await owner.delete(`/v2/employees/${id}`)).status).toBe(409);
  });

  it('refuses bad input with field errors and writes nothing', async () => {
    const before = (await shop.owner.get('/v2/employees')).body.length;
    const noShops = await shop.owner.post('/v2/employees', {
      email: 'm1@shop.example',
      role: 'manager',
    });
    expect(noShops.status).toBe(400);
    expect(noShops.body.errors).toContainEqual(expect.objectContaining({ field: 'shopIds' }));
    const unknownShop = await shop.owner.post('/v2/employees', {
      email: 'm2@shop.example',
      role: 'manager',
      shopIds: [shop.shopId, 999999],
    });
    expect(unknownShop.status).toBe(400);
    expect(unknownShop.body.errors).toContainEqual(expect.objectContaining({ field: 'shopIds[1]' }));
    const ownerWithShops = await shop.owner.post('/v2/employees', {
      email: 'm3@shop.example',
      role: 'owner',
      shopIds: [shop.shopId],
    });
    expect(ownerWithShops.status).toBe(400);
    const badRole = await shop.owner.post('/v2/employees', {
      email: 'm4@shop.example',
      role: 'admin',
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.code).toBe('validation_failed');
    const badEmail = await shop.owner.post('/v2/employees', { email: 'not an e-mail', role: 'owner' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.errors).toContainEqual(expect.objectContaining({ field: 'email' }));
    expect((await shop.owner.get('/v2/employees')).body.length).toBe(before);
    expect((await shop.owner.get('/v2/employees/invitations')).body).toEqual([]);
    await invite({ email: 'taken@shop.example', role: 'owner' });
    const taken = await shop.owner.post('/v2/employees', { email: 'taken@shop.example', role: 'owner' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('email_taken');
    expect((await shop.owner.post('/v2/employees', { email: 'pending@shop.example', role: 'owner' })).status).toBe(201);
    const again = await shop.owner.post('/v2/employees', { email: 'pending@shop.example', role: 'owner' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_invited');
  });
});

describe('roles enforced by the API', () => {
  let manager: ApiClient;
  let ownOrderId: number;
  let otherOrderId: number;

  beforeAll(async () => {
    await invite({ email: 'shop1.manager@shop.example', role: 'manager', shopIds: [shop.shopId] });
    manager = await signIn('shop1.manager@shop.example');
    ownOrderId = (
      await shop.owner.post('/v2/orders', orderBody({ shopId: shop.shopId, pointId: shop.pointId }), {
        headers: { 'shop-id': String(shop.shopId) },
      })
    ).body.id as number;
    const other = await shop.owner.post('/v2/orders', orderBody({ shopId: shop.otherShopId, pointId: shop.pointId }), {
      headers: { 'shop-id': String(shop.otherShopId) },
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    otherOrderId = other.body.id as number;
  });

  it("a manager sees their shop's orders and not another shop's", async () => {
    expect((await manager.get(`/v2/orders/${ownOrderId}`)).status).toBe(200);
    const list = await manager.get('/v2/orders?perPage=100');
    const ids = (list.body as Array<{ id: number }>).map((order) => order.id);
    expect(ids).toContain(ownOrderId);
    expect(ids).not.toContain(otherOrderId);
    expect((await manager.get(`/v2/orders/${otherOrderId}`)).status).toBe(403);
    // naming the other shop is refused, not switched to
    const named = await manager.get('/v2/orders', { headers: { 'shop-id': String(shop.otherShopId) } });
    expect(named.status).toBe(403);
    expect(named.body.message).toMatch(/not one of the shops you manage/);
    expect((await manager.get('/v2/shops')).body.map((item: { id: number }) => item.id)).toEqual([shop.shopId]);
  });

  it('a manager reads their own notifications (a person, unlike a shop key)', async () => {
    expect((await manager.get('/v2/notifications')).status).toBe(200);
    expect((await t.client(shop.shopKey).get('/v2/notifications')).status).toBe(403);
  });

  it('a manager cannot manage employees nor do what concerns the whole account', async () => {
    expect((await manager.get('/v2/employees')).status).toBe(403);
    const invited = await manager.post('/v2/employees', { email: 'sneaky@shop.example', role: 'owner' });
    expect(invited.status).toBe(403);
    expect((await manager.post('/v2/shops', shopBody(shop.warehouseId))).status).toBe(403);
    expect((await manager.post(`/v2/shops/${shop.shopId}/api-key`)).status).toBe(403);
  });

  it('a shop key cannot manage employees; no token is 401; another account gets 404', async () => {
    expect((await t.client(shop.shopKey).get('/v2/employees')).status).toBe(403);
    expect((await t.client().get('/v2/employees')).status).toBe(401);
    const someone = (await shop.owner.get('/v2/employees')).body[0].id as number;
    const stranger = (await t.newAccount('Stranger')).client;
    expect((await stranger.get(`/v2/employees/${someone}`)).status).toBe(404);
    expect((await stranger.put(`/v2/employees/${someone}`, { role: 'owner' })).status).toBe(404);
    expect((await stranger.delete(`/v2/employees/${someone}`)).status).toBe(404);
    expect((await shop.owner.get(`/v2/employees/${someone}`)).status).toBe(200);
  });
});
