/** Notifications from order events: shop flags, recipients, e-mail to a fake SMTP server, the endpoints. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { orderJobWorker, pickupPointIn, preparedOrder } from '../../../test/support/orders.js';
import { startFakeSmtp, type FakeSmtp } from '../../../test/support/smtp.js';
import type { JobWorker } from '../../platform/jobs.js';

let t: TestApp;
let smtp: FakeSmtp;
let owner: ApiClient;
let accountId: number;
let employee: ApiClient;
let employeeId: number;
let boss: ApiClient;
let warehouseId: number;
let pointId: number;
let worker: JobWorker;
const ALL_ON = {
  ordersExpirationInPickupPoint: true,
  ordersSentForReturn: true,
  newOrder: true,
  newProblemOrder: true,
};
const suffix = Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await createTestApp({
    env: { SIMULATION_STEP_SECONDS: '0', SMTP_URL: smtp.url, MAIL_FROM: 'Доставка <noreply@delivery.test>' },
  });
  const created = await t.runtime.services.accounts.createAccount({
    name: 'Notified',
    employee: { name: 'Owner', email: `owner-${suffix}@shop.test`, password: 'password-1' },
  });
  accountId = created.accountId;
  owner = t.client(created.token);
  employeeId = await t.runtime.services.accounts.addEmployee(accountId, {
    name: 'Manager',
    email: `manager-${suffix}@shop.test`,
    password: 'password-2',
  });
  employee = t.client(
    (await t.client().post('/v2/auth/login', { email: `manager-${suffix}@shop.test`, password: 'password-2' })).body
      .token,
  );
  boss = t.client(
    (await t.client().post('/v2/auth/login', { email: `owner-${suffix}@shop.test`, password: 'password-1' })).body
      .token,
  );
  warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  pointId = pickupPointIn(t);
  worker = orderJobWorker(t);
  t.runtime.services.notifications.registerJobs(worker);
  t.runtime.services.buyerMessageDispatcher.registerJobs(worker);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function newShop(notifications: Record<string, unknown>, emailNotifications = false): Promise<number> {
  const response = await owner.post(
    '/v2/shops',
    shopBody(warehouseId, { name: `Shop ${Math.random()}`, emailNotifications, notifications }),
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  // buyers hear of the built-in companies' (sandbox) orders only when the shop asks (modules/buyer-messages)
  if (emailNotifications)
    expect((await owner.put(`/v2/shops/${response.body.id}/buyer-messages`, { sandbox: true })).status).toBe(200);
  return response.body.id;
}

function orderBody(shopId: number, overrides: Record<string, unknown> = {}) {
  return {
    shopId,
    cmsId: 'N-1',
    products: [{ name: 'Книга', priceDeclared: 800, count: 1, weight: 0.5 }],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677', email: 'svetlana@buyer.test' },
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
    ...overrides,
  };
}

/** Dispatches the events, then sends the e-mails queued. */
async function deliver(): Promise<void> {
  await t.runtime.services.notifications.dispatch();
  await t.runtime.services.buyerMessageDispatcher.dispatch();
  await worker.runDue();
}

const mine = async (client: ApiClient, query = '') =>
  (await client.get(`/v2/notifications?perPage=1000${query}`)).body as Array<{
    id: number;
    type: string;
    orderId: number;
    text: string;
    read: boolean;
    email: string;
  }>;

describe('notifications', () => {
  it('tells the account owner and every employee of a new order, and e-mails them', async () => {
    const shopId = await newShop({ events: ALL_ON, currentAccount: { enabled: true }, employees: { enabled: true } });
    const mailsBefore = smtp.mails.length;
    const id = (await owner.post('/v2/orders', orderBody(shopId))).body.id;
    await deliver();

    const ownerList = await owner.get('/v2/notifications');
    expect(ownerList.status).toBe(200);
    expect(ownerList.headers['x-total-count']).toBeDefined();
    const forOwner = (await mine(owner)).filter((item) => item.orderId === id);
    expect(forOwner).toMatchObject([
      { type: 'newOrder', text: expect.stringContaining(`New order ${id} (N-1)`), read: false, email: 'sent' },
    ]);
    expect((await mine(employee)).filter((item) => item.orderId === id)).toMatchObject([
      { type: 'newOrder', email: 'sent' },
    ]);
    // the owner's own employee login is an employee too: it reads the employee notifications, not the account's
    // (its address had the owner's mail already: one mail per address)
    expect((await mine(boss)).filter((item) => item.orderId === id)).toMatchObject([
      { type: 'newOrder', email: 'none' },
    ]);

    const mails = smtp.mails.slice(mailsBefore);
    expect(mails.map((mail) => mail.to[0]).sort()).toEqual([
      `manager-${suffix}@shop.test`,
      `owner-${suffix}@shop.test`,
    ]);
    expect(mails[0].from).toBe('noreply@delivery.test');
    expect(mails[0].subject).toContain(`New order ${id} (N-1)`);
    // dispatching again makes nothing twice
    await deliver();
    expect(smtp.mails.length).toBe(mailsBefore + 2);
  });

  it('makes nothing when the flags are off, and only for the employees named', async () => {
    const silent = await newShop({
      events: { newOrder: false },
      currentAccount: { enabled: true },
      employees: { enabled: true },
    });
    const nobody = await newShop({ events: ALL_ON, currentAccount: { enabled: false }, employees: { enabled: false } });
    const named = await newShop({
      events: { newOrder: true },
      currentAccount: { enabled: false },
      employees: { enabled: true, ids: [employeeId] },
    });
    const ids: number[] = [];
    for (const shopId of [silent, nobody, named]) ids.push((await owner.post('/v2/orders', orderBody(shopId))).body.id);
    const mailsBefore = smtp.mails.length;
    await deliver();
    const all = [...(await mine(owner)), ...(await mine(employee)), ...(await mine(boss))];
    expect(all.filter((item) => item.orderId === ids[0] || item.orderId === ids[1])).toEqual([]);
    expect((await mine(employee)).filter((item) => item.orderId === ids[2])).toHaveLength(1);
    expect((await mine(boss)).filter((item) => item.orderId === ids[2])).toHaveLength(0);
    expect(smtp.mails.slice(mailsBefore).map((mail) => mail.to[0])).toEqual([`manager-${suffix}@shop.test`]);
  });

  it('e-mails the customer at the pickup point with the last day of storage, and tells the shop of problems and returns', async () => {
    const shopId = await newShop({ events: ALL_ON, currentAccount: { enabled: true } }, true);
    const { id, trackNumber } = await preparedOrder(owner, worker, orderBody(shopId, { cmsId: 'SITE-42' }));
    const pushed = (code: number) =>
      t
        .client()
        .post(
          '/v2/tracking/events/1',
          { events: [{ trackNumber, statusCode: code }] },
          { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
        );
    await pushed(41);
    await pushed(42);
    const mailsBefore = smtp.mails.length;
    await deliver();
    const order = (await owner.get(`/v2/orders/${id}`)).body;
    const [year, month, day] = order.delivery.point.holdDate.split('-');
    const customer = smtp.mails.slice(mailsBefore).filter((mail) => mail.to[0] === 'svetlana@buyer.test');
    expect(customer).toHaveLength(1);
    expect(customer[0].subject).toBe(
      `${order.brand}: заказ № SITE-42 ждёт вас в пункте выдачи до ${day}.${month}.${year}`,
    );
    expect(customer[0].raw).toContain('svetlana@buyer.test');

    expect((await owner.post('/v2/orders/return', { ids: [id] })).status).toBe(204);
    await deliver();
    expect((await mine(owner)).filter((item) => item.orderId === id).map((item) => item.type)).toContain(
      'ordersSentForReturn',
    );

    const refused = await preparedOrder(owner, worker, orderBody(shopId));
    await t
      .client()
      .post(
        '/v2/tracking/events/1',
        { events: [{ trackNumber: refused.trackNumber, statusCode: 462 }] },
        { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
      );
    await deliver();
    expect(
      (await mine(owner))
        .filter((item) => item.orderId === refused.id)
        .map((item) => item.type)
        .sort(),
    ).toEqual(['newOrder', 'newProblemOrder']);
  });

  it('e-mails the customer and tells the shop when an order is late past its promised date', async () => {
    const shopId = await newShop({ events: ALL_ON, currentAccount: { enabled: true } }, true);
    const { id } = await preparedOrder(owner, worker, orderBody(shopId, { cmsId: 'LATE-7' }));
    const promised = (await owner.get(`/v2/orders/${id}`)).body.delivery.promise as { byDate: string };
    await deliver();
    const mailsBefore = smtp.mails.length;
    const dayAfter = new Date(`${promised.byDate}T12:00:00Z`);
    dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
    expect(await t.runtime.services.lateOrders.markLate(dayAfter)).toBeGreaterThanOrEqual(1);
    await deliver();
    const customer = smtp.mails.slice(mailsBefore).filter((mail) => mail.to[0] === 'svetlana@buyer.test');
    expect(customer.map((mail) => mail.subject)).toEqual([expect.stringContaining('заказ № LATE-7 задерживается')]);
    expect((await mine(owner)).filter((item) => item.orderId === id && item.type === 'newProblemOrder')).toMatchObject([
      { text: expect.stringContaining(`is late: promised by ${promised.byDate}`) },
    ]);
  });

  it('retries an e-mail the SMTP server refused, without holding anything up', async () => {
    const shopId = await newShop({ events: { newOrder: true }, currentAccount: { enabled: true } });
    smtp.refuseNext(1);
    const id = (await owner.post('/v2/orders', orderBody(shopId))).body.id;
    await deliver();
    expect((await mine(owner)).find((item) => item.orderId === id)?.email).toBe('pending');
    await worker.runDue(new Date(Date.now() + 60 * 60_000));
    expect((await mine(owner)).find((item) => item.orderId === id)?.email).toBe('sent');
    expect(smtp.mails.filter((mail) => mail.subject.includes(`New order ${id} `))).toHaveLength(1);
  });

  it('marks notifications read; filters unread; refuses bad input and ids of others', async () => {
    const items = await mine(owner);
    expect(items.length).toBeGreaterThan(0);
    const [first, second] = items;
    expect((await owner.post('/v2/notifications/read', { ids: [first.id] })).status).toBe(204);
    expect((await mine(owner, '&unread=1')).some((item) => item.id === first.id)).toBe(false);
    expect((await mine(owner, '&unread=0')).map((item) => item.id)).toEqual([first.id]);

    for (const body of [{}, { ids: [] }, { ids: ['x'] }, { ids: [0] }]) {
      const response = await owner.post('/v2/notifications/read', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({
        code: 'validation_failed',
        message: expect.any(String),
        errors: [expect.objectContaining({ field: expect.any(String) })],
      });
    }
    expect((await owner.get('/v2/notifications?unread=2')).status).toBe(400);

    // an employee's notification is not the owner's: all or nothing
    const theirs = (await mine(employee))[0];
    const refused = await owner.post('/v2/notifications/read', { ids: [second.id, theirs.id] });
    expect(refused.status).toBe(404);
    expect(refused.body.errors).toEqual([{ id: theirs.id, message: `Notification ${theirs.id} was not found.` }]);
    expect((await mine(owner)).find((item) => item.id === second.id)?.read).toBe(false);
  });

  it('needs a token, is never visible to another account, and is not for shop keys', async () => {
    expect((await t.client().get('/v2/notifications')).status).toBe(401);
    expect((await t.client().post('/v2/notifications/read', { ids: [1] })).status).toBe(401);
    const stranger = (await t.newAccount('Stranger')).client;
    expect((await stranger.get('/v2/notifications')).body).toEqual([]);
    const ownerItem = (await mine(owner))[0];
    expect((await stranger.post('/v2/notifications/read', { ids: [ownerItem.id] })).status).toBe(404);
    const shopId = await newShop({});
    const key = (await owner.get(`/v2/shops/${shopId}`)).body.apiKey;
    expect((await t.client(key).get('/v2/notifications')).status).toBe(403);
  });
});

describe('without an SMTP server', () => {
  it('stores notifications and sends nothing', async () => {
    const plain = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0' } });
    try {
      const { client } = await plain.newAccount('No mail');
      const warehouse = (await client.post('/v2/warehouses', warehouseBody())).body.id;
      const shopId = (
        await client.post(
          '/v2/shops',
          shopBody(warehouse, { notifications: { events: { newOrder: true }, currentAccount: { enabled: true } } }),
        )
      ).body.id;
      const point = pickupPointIn(plain);
      const id = (
        await client.post('/v2/orders', {
          ...orderBody(shopId),
          delivery: { company: { id: 1 }, type: 1, point: { id: point } },
        })
      ).body.id;
      await plain.runtime.services.notifications.dispatch();
      expect((await client.get('/v2/notifications')).body).toMatchObject([
        { orderId: id, type: 'newOrder', email: 'none' },
      ]);
    } finally {
      await plain.close();
    }
  });
});
