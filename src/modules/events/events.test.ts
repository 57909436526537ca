/** GET /v2/events: the outbox every order change writes, read by cursor. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, usingPostgres, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { orderingAccount, preparedOrder } from '../../../test/support/orders.js';
import type { JobWorker } from '../../platform/jobs.js';

let t: TestApp;
let owner: ApiClient;
let ownerAccountId: number;
let shopId: number;
let otherShopId: number;
let shopKey: string;
let pointId: number;
let worker: JobWorker;

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0' } });
  ({
    owner,
    accountId: ownerAccountId,
    shopId,
    otherShopId,
    shopKey,
    pointId,
    worker,
  } = await orderingAccount(t, { name: 'Events owner' }));
});
afterAll(async () => t.close());

function orderBody(overrides: Record<string, unknown> = {}) {
  return {
    shopId,
    cmsId: 'EV-1',
    products: [{ name: 'Книга', priceDeclared: 800, priceCod: 0, count: 1, weight: 0.5 }],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
    ...overrides,
  };
}

const push = (events: unknown[]) =>
  t
    .client()
    .post(
      '/v2/tracking/events/1',
      { events },
      { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
    );

interface SeenEvent {
  id: number;
  orderId: number;
  type: string;
  statusFrom: number | null;
  statusTo: number | null;
  payload: { reason?: string };
}

async function eventsOf(client: ApiClient, orderId: number, query = '') {
  const all = await client.get(`/v2/events?afterId=0&limit=1000${query}`);
  expect(all.status, JSON.stringify(all.body)).toBe(200);
  return (all.body as SeenEvent[]).filter((event) => event.orderId === orderId);
}

describe('order events', () => {
  it("records an order's whole journey in order: created, confirmed, registered, 41, 42, 44", async () => {
    const { id, trackNumber } = await preparedOrder(owner, worker, orderBody());
    expect((await push([{ trackNumber, statusCode: 41 }])).body.applied).toBe(1);
    expect((await push([{ trackNumber, statusCode: 42, description: 'Ждёт в пункте выдачи' }])).body.applied).toBe(1);
    expect((await push([{ trackNumber, statusCode: 44 }])).body.applied).toBe(1);

    const events = await eventsOf(owner, id);
    const ids = events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(events[0]).toMatchObject({
      type: 'order.created',
      orderId: id,
      shopId,
      statusFrom: null,
      statusTo: 11,
      payload: { cmsId: 'EV-1', trackNumber: null },
    });
    const changes = events
      .filter((event) => event.type === 'order.status_changed')
      .map((event) => [event.statusFrom, event.statusTo]);
    expect(changes).toEqual([
      [11, 12],
      [12, 13],
      [13, 41],
      [41, 42],
      [42, 44],
    ]);
    const atPoint = events.find((event) => event.statusTo === 42 && event.type === 'order.status_changed');
    expect(atPoint).toMatchObject({
      payload: { trackNumber, description: 'Ждёт в пункте выдачи' },
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    // the type filter, and the cursor: after the last id nothing more
    const onlyChanges = await eventsOf(owner, id, '&types=order.status_changed');
    expect(onlyChanges).toHaveLength(5);
    // a comma list names several types, as the query's description says
    expect(await eventsOf(owner, id, '&types=order.created,order.status_changed')).toHaveLength(6);
    const last = ids[ids.length - 1];
    expect(
      (await owner.get(`/v2/events?afterId=${last}`)).body.filter((event: { orderId: number }) => event.orderId === id),
    ).toEqual([]);
    // pages of two follow each other without gaps
    const first = (await owner.get(`/v2/events?afterId=${ids[0] - 1}&limit=2`)).body;
    const second = (await owner.get(`/v2/events?afterId=${first[1].id}&limit=2`)).body;
    expect([...first, ...second].map((event: { id: number }) => event.id)).toEqual(ids.slice(0, 4));
  });

  it('marks problems, returns, storage ending and cancels', async () => {
    // an order that cannot be priced is a draft with an error: it enters the problems list at once
    const unpriced = (
      await owner.post('/v2/orders', orderBody({ delivery: { company: { id: 1 }, type: 1, point: { id: 999999999 } } }))
    ).body.id;
    expect((await eventsOf(owner, unpriced)).map((event) => event.type)).toEqual(['order.created', 'order.problem']);

    const draft = (await owner.post('/v2/orders', orderBody())).body.id;
    expect((await owner.post('/v2/orders/cancel', { ids: [draft] })).status).toBe(204);
    expect((await eventsOf(owner, draft)).map((event) => [event.type, event.statusTo])).toEqual([
      ['order.created', 11],
      ['order.status_changed', 10],
    ]);

    const { id, trackNumber } = await preparedOrder(owner, worker, orderBody());
    await push([{ trackNumber, statusCode: 41 }]);
    await push([{ trackNumber, statusCode: 42 }]);
    expect((await owner.post('/v2/orders/return', { ids: [id] })).status).toBe(204);
    await push([{ trackNumber, statusCode: 51 }]);
    await push([{ trackNumber, statusCode: 71 }]);
    const returns = (await eventsOf(owner, id, '&types=order.sent_for_return')).map(
      (event) => (event as { payload: { reason: string } }).payload.reason,
    );
    expect(returns).toEqual(['requested', 'status']);

    // a refusal at delivery is a problem; storage ending is marked once
    const refused = await preparedOrder(owner, worker, orderBody());
    await push([{ trackNumber: refused.trackNumber, statusCode: 41 }]);
    await push([{ trackNumber: refused.trackNumber, statusCode: 462 }]);
    expect(await eventsOf(owner, refused.id, '&types=order.problem')).toMatchObject([
      { statusFrom: 41, statusTo: 462 },
    ]);
  });

  it('writes the event with the change or not at all: a refused batch leaves none', async () => {
    const draft = (await owner.post('/v2/orders', orderBody())).body.id;
    const before = (await eventsOf(owner, draft)).length;
    expect((await owner.post('/v2/orders/confirm', { ids: [draft, 987654321] })).status).toBe(404);
    expect(await eventsOf(owner, draft)).toHaveLength(before);
  });

  it('refuses bad input with the error body', async () => {
    for (const query of [
      'afterId=-1',
      'limit=0',
      'limit=1001',
      'types=order.nope',
      'shopId=0',
      'afterId=abc',
      'afterId=99999999999999999999',
      'shopId=99999999999999999999',
    ]) {
      const response = await owner.get(`/v2/events?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body).toMatchObject({
        code: 'validation_failed',
        message: expect.any(String),
        errors: [expect.objectContaining({ field: expect.any(String) })],
      });
    }
  });

  it('shows an account only its own events, and a shop key only its shop', async () => {
    expect((await t.client().get('/v2/events')).status).toBe(401);
    expect((await t.client('nope').get('/v2/events')).status).toBe(401);
    const stranger = (await t.newAccount('Stranger')).client;
    expect((await stranger.get('/v2/events?afterId=0')).body).toEqual([]);

    const other = (await owner.post('/v2/orders', orderBody({ shopId: otherShopId }))).body.id;
    const key = owner.withToken(shopKey);
    const seen = (await key.get('/v2/events?afterId=0&limit=1000')).body as Array<{ shopId: number; orderId: number }>;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((event) => event.shopId === shopId)).toBe(true);
    expect(seen.some((event) => event.orderId === other)).toBe(false);
    expect((await key.get(`/v2/events?shopId=${otherShopId}`)).status).toBe(403);
    expect(
      (await owner.get(`/v2/events?afterId=0&limit=1000&shopId=${otherShopId}`)).body.map(
        (event: { orderId: number }) => event.orderId,
      ),
    ).toEqual([other]);
  });

  it.runIf(usingPostgres)(
    'never answers an event behind a cursor already given, even when its write commits late',
    async () => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written: () => void = () => undefined;
      const didWrite = new Promise<void>((resolve) => (written = resolve));
      // a write in flight: its row id is taken now, it commits after a later order's
      const slow = t.runtime.database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('order_events')
          .values({
            account_id: ownerAccountId,
            shop_id: shopId,
            order_id: 424242,
            type: 'order.created',
            status_from: null,
            status_to: 11,
            at: new Date().toISOString(),
            payload: '{"cmsId":null,"trackNumber":null}',
          })
          .execute();
        written();
        await held;
      });
      await didWrite;
      const fast = (await owner.post('/v2/orders', orderBody())).body.id;
      const seen = (await owner.get('/v2/events?afterId=0&limit=1000')).body as Array<{ id: number; orderId: number }>;
      expect(seen[seen.length - 1].orderId).toBe(fast);
      const cursor = seen[seen.length - 1].id;
      release();
      await slow;
      expect(
        (await owner.get(`/v2/events?afterId=${cursor}`)).body.map((event: { orderId: number }) => event.orderId),
      ).toEqual([424242]);
    },
  );

  it('forgets events after 30 days', async () => {
    const id = (await owner.post('/v2/orders', orderBody())).body.id;
    expect(await eventsOf(owner, id)).toHaveLength(1);
    const purged = await t.runtime.services.events.purgeOld(new Date(Date.now() + 31 * 86_400_000));
    expect(purged).toBeGreaterThan(0);
    expect(await eventsOf(owner, id)).toEqual([]);
  });
});
