/**
 * Webhook endpoints through HTTP, and delivery to a real receiver on loopback: signatures
 * verified with the standardwebhooks library, an outage, a hanging receiver, the disable
 * window on a simulated clock, secret rotation, redirects not followed.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { orderingAccount, orderBody, preparedOrder } from '../../../test/support/orders.js';
import { startFakeSmtp, type FakeSmtp } from '../../../test/support/smtp.js';
import { startReceiver, type FakeReceiver, type ReceivedCall } from '../../../test/support/webhook-receiver.js';
import { JobWorker } from '../../platform/jobs.js';
import { WebhookPump } from './pump.js';

const quiet = { error: () => undefined, warn: () => undefined };
const HOUR = 3_600_000;
const OWNER_EMAIL = `owner-${process.pid}@shop.test`;

let t: TestApp;
let smtp: FakeSmtp;
let owner: ApiClient;
let accountId: number;
let shopId: number;
let otherShopId: number;
let shopKey: string;
let pointId: number;
let worker: JobWorker;
let pump: WebhookPump;
const receivers: FakeReceiver[] = [];

beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await createTestApp({
    env: {
      SIMULATION_STEP_SECONDS: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT_SECONDS: '2',
      WEBHOOK_RETRY_FIRST_SECONDS: '1',
      SMTP_URL: smtp.url,
    },
  });
  const account = await orderingAccount(t);
  ({ shopId, otherShopId, shopKey, pointId, worker } = account);
  owner = account.owner;
  accountId = account.accountId;
  // the owner's address (the account's first employee) is where notices are e-mailed
  await t.runtime.services.accounts.addEmployee(accountId, {
    name: 'Owner',
    email: OWNER_EMAIL,
    password: 'password-1',
  });
  pump = new WebhookPump(t.runtime.services.webhooks, t.runtime.services.jobs, quiet, { concurrency: 8, pollMs: 20 });
});

afterAll(async () => {
  await pump.stop(100);
  for (const receiver of receivers) await receiver.close();
  await t.close();
  await smtp.close();
});

async function receiver(): Promise<FakeReceiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

async function endpoint(
  url: string,
  extra: Record<string, unknown> = {},
  client = owner,
): Promise<{ id: number; secret: string }> {
  const created = await client.post('/v2/webhooks', { url, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

const order = () => withDropOffOrder();
function withDropOffOrder(overrides: Record<string, unknown> = {}) {
  return orderBody({ shopId, pointId }, overrides);
}

const push = (trackNumber: string, statusCode: number) =>
  t
    .client()
    .post(
      '/v2/tracking/events/1',
      { events: [{ trackNumber, statusCode }] },
      { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
    );

function verified(
  secret: string,
  call: ReceivedCall,
): { type: string; data: { id: number; orderId: number; statusTo: number | null } } {
  return new Webhook(secret).verify(call.body, call.headers as Record<string, string>) as {
    type: string;
    data: { id: number; orderId: number; statusTo: number | null };
  };
}

async function eventsOf(orderId: number): Promise<Array<{ id: number; type: string }>> {
  return (
    (await owner.get('/v2/events?afterId=0&limit=1000')).body as Array<{ id: number; type: string; orderId: number }>
  ).filter((event) => event.orderId === orderId);
}

describe('webhook endpoints', () => {
  it('are created with a secret shown once, listed, read, replaced and deleted', async () => {
    const created = await owner.post('/v2/webhooks', {
      url: 'https://shop.example.com/hooks',
      eventTypes: ['order.status_changed'],
      description: 'ERP',
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const id = created.body.id as number;
    const read = await owner.get(`/v2/webhooks/${id}`);
    expect(read.body).toMatchObject({
      id,
      kind: 'webhook',
      url: 'https://shop.example.com/hooks',
      shopId: null,
      eventTypes: ['order.status_changed'],
      enabled: true,
      description: 'ERP',
      disabledReason: null,
    });
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
    const list = await owner.get('/v2/webhooks');
    expect(list.headers['x-total-count']).toBe(String(list.body.length));
    expect(list.body.map((item: { id: number }) => item.id)).toContain(id);
    expect(
      (await owner.put(`/v2/webhooks/${id}`, { url: 'https://shop.example.com/v2', enabled: false, shopId })).status,
    ).toBe(204);
    expect((await owner.get(`/v2/webhooks/${id}`)).body).toMatchObject({
      url: 'https://shop.example.com/v2',
      enabled: false,
      shopId,
      eventTypes: [],
    });
    expect((await owner.delete(`/v2/webhooks/${id}`)).status).toBe(204);
    expect((await owner.get(`/v2/webhooks/${id}`)).status).toBe(404);
  });

  it('refuses bad input with field errors and writes nothing', async () => {
    const before = (await owner.get('/v2/webhooks?perPage=1000')).body.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'ftp://shop.example.com/x' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'https://user:pw@shop.example.com/' }, 'url'],
      [{}, 'url'],
      [{ url: 'https://shop.example.com/', eventTypes: ['order.nope'] }, 'eventTypes'],
      [{ url: 'https://shop.example.com/', shopId: 987654321 }, 'shopId'],
      [{ url: 'https://shop.example.com/', enabled: 'maybe' }, 'enabled'],
    ];
    for (const [body, field] of cases) {
      const response = await owner.post('/v2/webhooks', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({
        code: 'validation_failed',
        message: expect.any(String),
        errors: [expect.objectContaining({ field: expect.stringContaining(field) })],
      });
    }
    expect((await owner.get('/v2/webhooks?perPage=1000')).body.length).toBe(before);
    expect((await owner.get('/v2/webhooks/abc')).status).toBe(400);
    const { id } = await endpoint('https://shop.example.com/bad-input');
    for (const path of [
      `/v2/webhooks/${id}/deliveries?status=nope`,
      `/v2/webhooks/${id}/attempts?deliveryId=0`,
      `/v2/webhooks/${id}/deliveries?perPage=1001`,
      '/v2/webhooks?shopId=abc',
    ]) {
      const response = await owner.get(path);
      expect(response.status, path).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ field: expect.any(String) });
    }
    expect((await owner.post(`/v2/webhooks/${id}/deliveries/abc/redeliver`)).status).toBe(400);
    expect((await owner.put(`/v2/webhooks/${id}`, { url: 'gopher://x' })).status).toBe(400);
    expect((await owner.get(`/v2/webhooks/${id}`)).body.url).toBe('https://shop.example.com/bad-input');
    await owner.delete(`/v2/webhooks/${id}`);
  });

  it("keeps other accounts and other shops' keys out", async () => {
    const { id } = await endpoint('https://shop.example.com/a');
    const { id: shopEndpoint } = await endpoint('https://shop.example.com/s', { shopId });
    expect((await t.client().get('/v2/webhooks')).status).toBe(401);
    expect((await t.client().post('/v2/webhooks', { url: 'https://x.example.com/' })).status).toBe(401);
    const stranger = (await t.newAccount('Stranger')).client;
    expect((await stranger.get('/v2/webhooks')).body).toEqual([]);
    for (const [method, path] of [
      ['GET', `/v2/webhooks/${id}`],
      ['PUT', `/v2/webhooks/${id}`],
      ['DELETE', `/v2/webhooks/${id}`],
      ['POST', `/v2/webhooks/${id}/rotate-secret`],
      ['POST', `/v2/webhooks/${id}/test`],
      ['GET', `/v2/webhooks/${id}/deliveries`],
      ['GET', `/v2/webhooks/${id}/attempts`],
      ['POST', `/v2/webhooks/${id}/deliveries/1/redeliver`],
    ] as const) {
      const response = await stranger.call(
        method,
        path,
        method === 'PUT' ? { url: 'https://evil.example.com/' } : undefined,
      );
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await owner.get(`/v2/webhooks/${id}`)).body.url).toBe('https://shop.example.com/a');
    // a shop key: its own shop's endpoints only
    const key = owner.withToken(shopKey);
    expect((await key.get(`/v2/webhooks/${id}`)).status).toBe(403);
    expect((await key.get(`/v2/webhooks/${shopEndpoint}`)).status).toBe(200);
    expect((await key.post('/v2/webhooks', { url: 'https://x.example.com/', shopId: otherShopId })).status).toBe(403);
    expect((await key.get(`/v2/webhooks?shopId=${otherShopId}`)).status).toBe(403);
    const own = await key.post('/v2/webhooks', { url: 'https://x.example.com/' });
    expect(own.status).toBe(201);
    expect((await owner.get(`/v2/webhooks/${own.body.id}`)).body.shopId).toBe(shopId);
    expect(
      (await key.get('/v2/webhooks?perPage=1000')).body.every((item: { shopId: number }) => item.shopId === shopId),
    ).toBe(true);
    for (const extra of [id, shopEndpoint, own.body.id]) await owner.delete(`/v2/webhooks/${extra}`);
  });
});

describe('delivery', () => {
  it('signs every event by the Standard Webhooks scheme, the id being the /v2/events id', async () => {
    const hook = await receiver();
    const { id, secret } = await endpoint(hook.url);
    const orderId = (await owner.post('/v2/orders', order())).body.id as number;
    await pump.drain();
    const mine = hook.received
      .map((call) => verified(secret, call))
      .filter((message) => message.data.orderId === orderId);
    const events = await eventsOf(orderId);
    expect(mine.map((message) => message.data.id)).toEqual(events.map((event) => event.id));
    expect(mine[0]).toMatchObject({ type: 'order.created', data: { orderId, shopId, statusTo: 11 } });
    const call = hook.received.find((each) => verified(secret, each).data.orderId === orderId) as ReceivedCall;
    expect(call.headers['webhook-id']).toBe(String(events[0].id));
    expect(call.headers['content-type']).toBe('application/json');
    // a wrong secret does not verify
    expect(() =>
      new Webhook(`whsec_${Buffer.from('another secret of 24 bytes').toString('base64')}`).verify(
        call.body,
        call.headers as Record<string, string>,
      ),
    ).toThrow();
    const deliveries = (await owner.get(`/v2/webhooks/${id}/deliveries`)).body;
    expect(deliveries[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatus: 200,
      messageId: String(events[0].id),
    });
    const attempts = (await owner.get(`/v2/webhooks/${id}/attempts`)).body;
    expect(attempts[0]).toMatchObject({ httpStatus: 200, responseHead: '{"ok":true}', error: null });
    await owner.delete(`/v2/webhooks/${id}`);
  });

  it('sends a test message, and only the shop and types asked for', async () => {
    const hook = await receiver();
    const { id, secret } = await endpoint(hook.url, { shopId, eventTypes: ['order.status_changed'] });
    const queued = await owner.post(`/v2/webhooks/${id}/test`);
    expect(queued.status).toBe(202);
    await owner.post('/v2/orders', withDropOffOrder({ shopId: otherShopId }));
    const created = (await owner.post('/v2/orders', order())).body.id as number;
    await owner.post('/v2/orders/cancel', { ids: [created] });
    await pump.drain();
    const messages = hook.received.map((call) => verified(secret, call));
    expect(messages.map((message) => message.type)).toEqual(['webhook.test', 'order.status_changed']);
    expect(messages[1].data).toMatchObject({ orderId: created, statusTo: 10 });
    expect(hook.received[0].headers['webhook-id']).toMatch(/^test_/);
    await owner.delete(`/v2/webhooks/${id}`);
  });

  it('delivers every event, in order per order and none twice, after the receiver was down for a while', async () => {
    const hook = await receiver();
    const { id, secret } = await endpoint(hook.url);
    hook.mode = 'fail';
    const orders = [];
    for (let n = 0; n < 3; n++) orders.push(await preparedOrder(owner, worker, order()));
    for (const { trackNumber } of orders) await push(trackNumber, 41);
    await pump.drain();
    // down: the oldest delivery was tried and failed, nothing after it went out of order
    expect((await owner.get(`/v2/webhooks/${id}`)).body.failingSince).not.toBeNull();
    const failed = (await owner.get(`/v2/webhooks/${id}/attempts`)).body;
    expect(failed[0]).toMatchObject({
      httpStatus: 503,
      responseHead: 'receiver is down for maintenance',
      error: 'HTTP 503',
    });
    // still down an hour later (simulated): tried again, still nothing delivered
    const start = Date.now();
    await pump.drain(new Date(start + HOUR));
    expect((await owner.get(`/v2/webhooks/${id}/deliveries?status=delivered`)).body).toEqual([]);
    hook.mode = 'ok';
    await pump.drain(new Date(start + 3 * HOUR));
    const seen = new Set<string>();
    const unique = hook.received
      .filter(
        (call) =>
          call.headers['webhook-id'] &&
          !seen.has(String(call.headers['webhook-id'])) &&
          seen.add(String(call.headers['webhook-id'])),
      )
      .map((call) => verified(secret, call));
    for (const { id: orderId } of orders) {
      const expected = (await eventsOf(orderId)).map((event) => event.id);
      expect(unique.filter((message) => message.data.orderId === orderId).map((message) => message.data.id)).toEqual(
        expected,
      );
    }
    // taken (answered 2xx) once each: the failures were answered 503 and retried, nothing taken was sent again
    const taken = hook.received.filter((call) => call.answered === 200).map((call) => call.headers['webhook-id']);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.length).toBe(unique.length);
    expect((await owner.get(`/v2/webhooks/${id}`)).body).toMatchObject({ failingSince: null, enabled: true });
    expect((await owner.get(`/v2/webhooks/${id}/deliveries?status=pending`)).body).toEqual([]);
    await owner.delete(`/v2/webhooks/${id}`);
  });

  it('starts afresh when the URL is fixed: what waited goes to the new receiver at once', async () => {
    const broken = await receiver();
    const fixed = await receiver();
    broken.mode = 'fail';
    const { id, secret } = await endpoint(broken.url, { eventTypes: ['order.created'] });
    const orderId = (await owner.post('/v2/orders', order())).body.id as number;
    await pump.drain();
    expect((await owner.get(`/v2/webhooks/${id}`)).body.failingSince).not.toBeNull();
    expect((await owner.put(`/v2/webhooks/${id}`, { url: fixed.url, eventTypes: ['order.created'] })).status).toBe(204);
    await pump.drain();
    expect(fixed.received.map((call) => verified(secret, call).data.orderId)).toEqual([orderId]);
    expect((await owner.get(`/v2/webhooks/${id}`)).body).toMatchObject({ failingSince: null, url: fixed.url });
    await owner.delete(`/v2/webhooks/${id}`);
  });

  it('keeps order with several senders at once (any process may send; one at a time per endpoint)', async () => {
    const hook = await receiver();
    const { id, secret } = await endpoint(hook.url);
    const orderIds: number[] = [];
    // several dispatches: several jobs for the one endpoint, claimed by two senders together
    for (let n = 0; n < 4; n++) {
      const orderId = (await owner.post('/v2/orders', order())).body.id as number;
      orderIds.push(orderId);
      await owner.post('/v2/orders/cancel', { ids: [orderId] });
      await t.runtime.services.webhooks.dispatch();
    }
    const other = new WebhookPump(t.runtime.services.webhooks, t.runtime.services.jobs, quiet, {
      concurrency: 8,
      pollMs: 20,
    });
    await Promise.all([pump.drain(), other.drain(), pump.drain()]);
    const taken = hook.received.filter((call) => call.answered === 200).map((call) => verified(secret, call));
    expect(new Set(taken.map((message) => message.data.id)).size).toBe(taken.length);
    for (const orderId of orderIds) {
      expect(taken.filter((message) => message.data.orderId === orderId).map((message) => message.data.id)).toEqual(
        (await eventsOf(orderId)).map((event) => event.id),
      );
    }
    expect((await owner.get(`/v2/webhooks/${id}/deliveries?status=pending`)).body).toEqual([]);
    await owner.delete(`/v2/webhooks/${id}`);
  });

  it('lets a fast receiver have its events while another one hangs', async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.mode = 'hang';
    const hung = await endpoint(slow.url);
    const quick = await endpoint(fast.url);
    pump.start();
    try {
      const started = Date.now();
      const orderId = (await owner.post('/v2/orders', order())).body.id as number;
      const arrived = () => fast.received.find((call) => verified(quick.secret, call).data.orderId === orderId);
      while (!arrived() && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 20));
      // the fast one had its event while the slow one's attempt (2 s timeout here) was still open
      expect(arrived()).toBeDefined();
      expect((await owner.get(`/v2/webhooks/${hung.id}/attempts`)).body).toEqual([]);
      while (slow.hanging === 0 && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(slow.hanging).toBeGreaterThan(0);
      // and the API answers meanwhile
      const listStarted = Date.now();
      expect((await owner.get('/v2/webhooks')).status).toBe(200);
      expect(Date.now() - listStarted).toBeLessThan(500);
    } finally {
      await pump.stop(5000);
    }
    await pump.drain();
    const attempts = (await owner.get(`/v2/webhooks/${hung.id}/attempts`)).body;
    expect(attempts[attempts.length - 1]).toMatchObject({
      httpStatus: null,
      error: expect.stringContaining('no answer within 2000 ms'),
    });
    await owner.delete(`/v2/webhooks/${hung.id}`);
    await owner.delete(`/v2/webhooks/${quick.id}`);
  });

  it('backs off exponentially from the first step, with jitter, up to the cap', () => {
    const webhooks = t.runtime.services.webhooks;
    const first = t.config.webhookRetryFirstSeconds * 1000;
    const waits = Array.from({ length: 200 }, () => webhooks.backOffMs(1));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(first * 0.8);
    expect(Math.max(...waits)).toBeLessThanOrEqual(first * 1.2);
    expect(new Set(waits).size).toBeGreaterThan(1);
    expect(webhooks.backOffMs(4)).toBeGreaterThanOrEqual(first * 8 * 0.8);
    expect(webhooks.backOffMs(60)).toBeLessThanOrEqual(t.config.webhookRetryMaxSeconds * 1000 * 1.2);
    // three days of retries before the default disable window: the window is longer
    expect(t.config.webhookDisableAfterHours).toBeGreaterThanOrEqual(72);
  });

  it('disables an endpoint failing past the window, tells the account, and sends again by hand', async () => {
    const hook = await receiver();
    hook.mode = 'fail';
    const { id, secret } = await endpoint(hook.url);
    const orderId = (await owner.post('/v2/orders', order())).body.id as number;
    const start = Date.now();
    await pump.drain();
    await pump.drain(new Date(start + 50 * HOUR));
    expect((await owner.get(`/v2/webhooks/${id}`)).body.enabled).toBe(true);
    // 120 hours (WEBHOOK_DISABLE_AFTER_HOURS' default) without a success
    await pump.drain(new Date(start + 121 * HOUR));
    const disabled = (await owner.get(`/v2/webhooks/${id}`)).body;
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('disabled after 120 h') });
    const given = (await owner.get(`/v2/webhooks/${id}/deliveries`)).body;
    expect(given.every((delivery: { status: string }) => delivery.status === 'failed')).toBe(true);
    const notices = (await owner.get('/v2/notifications?perPage=1000')).body.filter(
      (notice: { type: string; text: string }) =>
        notice.type === 'webhookDisabled' && notice.text.includes(`endpoint ${id} `),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0].text).toContain(`Webhook endpoint ${id}`);
    // and e-mailed to the owner, by the notifications' own e-mail job
    const mailer = new JobWorker(t.runtime.services.jobs, quiet);
    t.runtime.services.notifications.registerJobs(mailer);
    await mailer.runDue();
    expect(
      smtp.mails.filter((mail) => mail.to.includes(OWNER_EMAIL) && mail.subject.includes(`Webhook endpoint ${id}`)),
    ).toHaveLength(1);
    // disabled: no more deliveries queued, a redelivery refused until enabled again
    expect((await owner.post(`/v2/webhooks/${id}/deliveries/${given[0].id}/redeliver`)).status).toBe(409);
    hook.mode = 'ok';
    expect((await owner.put(`/v2/webhooks/${id}`, { url: hook.url, enabled: true })).status).toBe(204);
    expect((await owner.get(`/v2/webhooks/${id}`)).body).toMatchObject({
      enabled: true,
      disabledReason: null,
      failingSince: null,
    });
    const again = await owner.post(`/v2/webhooks/${id}/deliveries/${given[given.length - 1].id}/redeliver`);
    expect(again.status).toBe(202);
    expect((await owner.post(`/v2/webhooks/${id}/deliveries/987654321/redeliver`)).status).toBe(404);
    await pump.drain();
    const delivered = hook.received.filter(
      (call) => call.answered === 200 && call.headers['webhook-id'] === given[given.length - 1].messageId,
    );
    expect(delivered).toHaveLength(1);
    expect(verified(secret, delivered[0]).data.orderId).toBe(orderId);
    await owner.delete(`/v2/webhooks/${id}`);
  });

  it('rotates the secret: both sign during the grace period', async () => {
    const hook = await receiver();
    const { id, secret: old } = await endpoint(hook.url, { eventTypes: ['order.created'] });
    const rotated = await owner.post(`/v2/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(old);
    expect(Date.parse(rotated.body.previousSecretValidUntil)).toBeGreaterThan(Date.now() + 23 * HOUR);
    await owner.post('/v2/orders', order());
    await pump.drain();
    const during = hook.received[hook.received.length - 1];
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(old, during).type).toBe('order.created');
    expect(verified(rotated.body.secret, during).type).toBe('order.created');
    // after the grace period only the new secret signs
    await t.runtime.database.db
      .updateTable('webhook_endpoints')
      .set({ previous_secret_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    await owner.post('/v2/orders', order());
    await pump.drain();
    const after = hook.received[hook.received.length - 1];
    expect(() => verified(old, after)).toThrow();
    expect(verified(rotated.body.secret, after).type).toBe('order.created');
    await owner.delete(`/v2/webhooks/${id}`);
  });

  it('never follows a redirect (the target it names is not called)', async () => {
    const hook = await receiver();
    const target = await receiver();
    hook.mode = 'redirect';
    hook.redirectTo = target.url;
    const { id } = await endpoint(hook.url, { eventTypes: ['order.created'] });
    await owner.post('/v2/orders', order());
    await pump.drain();
    expect(hook.received.length).toBe(1);
    expect(target.received).toEqual([]);
    expect((await owner.get(`/v2/webhooks/${id}/attempts`)).body[0]).toMatchObject({ httpStatus: 302 });
    await owner.delete(`/v2/webhooks/${id}`);
  });

  it('does not touch the e-mail notifications or /v2/events (both read the same outbox)', async () => {
    const orderId = (await owner.post('/v2/orders', order())).body.id as number;
    await pump.drain();
    expect((await eventsOf(orderId)).map((event) => event.type)).toEqual(['order.created']);
    expect(await t.runtime.services.events.consumerPosition('webhooks')).toBeGreaterThan(0);
    expect(accountId).toBeGreaterThan(0);
  });
});
