/**
 * Idempotency keys across a crash. A crash is simulated by a request that never gets past a
 * point (its process "stops" there: nothing after it runs, not even the idempotency hooks),
 * and by handing its key row to a dead owner whose lease has lapsed, as a killed process leaves it.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Type from 'typebox';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import type { ApiClient } from '../../test/support/client.js';
import { boxBody, kitBody, productBody, shopBody, warehouseBody } from '../../test/support/fixtures.js';
import { orderBody, orderingAccount, type OrderingAccount } from '../../test/support/orders.js';
import { Created } from './schemas.js';
import { IDEMPOTENCY_LEASE_MS } from './idempotency.js';

let t: TestApp;
let account: OrderingAccount;
let client: ApiClient;
/** A request stops here for good; whoever waits for its key hears it got there. */
const arrivals = new Map<string, () => void>();
const waits = new Map<string, Promise<void>>();
function arrived(key: string): Promise<void> {
  if (!waits.has(key)) waits.set(key, new Promise<void>((resolve) => arrivals.set(key, resolve)));
  return waits.get(key) as Promise<void>;
}
const die = (key: unknown) => {
  void arrived(String(key));
  arrivals.get(String(key))?.();
  return new Promise<never>(() => undefined);
};

const errorLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line.trim()) errorLines.push(JSON.parse(line) as Record<string, unknown>);
  });
  t = await createTestApp({
    env: { LOG_LEVEL: 'error' },
    logStream,
    configure(app) {
      // The process dies after the handler (its effect committed) and before the answer is stored or sent.
      app.addHook('onSend', async (request, _reply, payload) => {
        if (request.headers['x-test-die'] === 'after-commit') await die(request.headers['idempotency-key']);
        return payload;
      });
      // A create whose process may die before its effect.
      app.post(
        '/v2/test/boxes',
        { schema: { body: Type.Object({ name: Type.String() }), response: { 201: Created } } },
        async (request, reply) => {
          if (request.headers['x-test-die'] === 'before-effect') await die(request.headers['idempotency-key']);
          const id = await t.runtime.services.boxes.create(request.scope, {
            ...boxBody(),
            name: request.body.name,
          } as never);
          return reply.code(201).send({ id });
        },
      );
      // An answer that is known only when it is sent (a body made after the effect).
      app.post('/v2/test/report', { schema: { body: Type.Object({ name: Type.String() }) } }, async (request) => {
        const id = await t.runtime.services.boxes.create(request.scope, {
          ...boxBody(),
          name: request.body.name,
        } as never);
        return { made: [id], at: 'now' };
      });
    },
  });
  account = await orderingAccount(t);
  client = account.owner;
});
afterAll(async () => t.close());

/** What a kill -9 leaves: the key's owner no longer renews its lease. */
async function ownerDies(key: string): Promise<void> {
  const past = new Date(Date.now() - 1000).toISOString();
  const result = await t.runtime.database.db
    .updateTable('idempotency_keys')
    .set({ owner: 'dead-host:1:0', lease_until: past })
    .where('account_id', '=', account.accountId)
    .where('idem_key', '=', key)
    .executeTakeFirst();
  expect(Number(result.numUpdatedRows)).toBe(1);
}

const orders = async (cmsId: string) =>
  ((await client.get(`/v2/orders?list=0&search=${cmsId}`)).body as Array<{ id: number; cmsId: string }>).filter(
    (order) => order.cmsId === cmsId,
  );
const boxes = async (name: string) =>
  (await client.get(`/v2/boxes?name=${encodeURIComponent(name)}`)).body as Array<{ id: number }>;

describe('Idempotency-Key after a crash', () => {
  it('replays the answer of an order whose effect committed but whose answer never went out, and creates no second order', async () => {
    const body = orderBody(account, { cmsId: 'CRASH-1' });
    const key = { 'idempotency-key': 'order-crash-1' };
    void client.post('/v2/orders', body, { headers: { ...key, 'x-test-die': 'after-commit' } });
    await arrived('order-crash-1');
    const created = await orders('CRASH-1');
    expect(created).toHaveLength(1);
    await ownerDies('order-crash-1');

    const retry = await client.post('/v2/orders', body, { headers: key });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual({ id: (created[0] as { id: number }).id });
    expect(await orders('CRASH-1')).toHaveLength(1);
  });

  it('replays it even while the first process is still alive (the answer is being sent)', async () => {
    const key = { 'idempotency-key': 'box-crash-alive' };
    void client.post('/v2/boxes', boxBody({ name: 'Alive' }), { headers: { ...key, 'x-test-die': 'after-commit' } });
    await arrived('box-crash-alive');
    const retry = await client.post('/v2/boxes', boxBody({ name: 'Alive' }), { headers: key });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ id: (await boxes('Alive'))[0].id });
    expect(await boxes('Alive')).toHaveLength(1);
  });

  it('replays 204 for an operation without a body', async () => {
    const id = (await client.post('/v2/orders', orderBody(account, { cmsId: 'CRASH-PACK' }))).body.id as number;
    const key = { 'idempotency-key': 'pack-crash' };
    void client.post('/v2/orders/pack', { ids: [id] }, { headers: { ...key, 'x-test-die': 'after-commit' } });
    await arrived('pack-crash');
    await ownerDies('pack-crash');
    const retry = await client.post('/v2/orders/pack', { ids: [id] }, { headers: key });
    expect(retry.status).toBe(204);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await client.get(`/v2/orders/${id}`)).body.isPacked).toBe(true);
  });

  it('runs the request once when its first process died before anything committed, as soon as the lease lapses', async () => {
    const key = { 'idempotency-key': 'box-crash-before' };
    void client.post('/v2/test/boxes', { name: 'Before' }, { headers: { ...key, 'x-test-die': 'before-effect' } });
    await arrived('box-crash-before');
    expect(await boxes('Before')).toHaveLength(0);

    // its process still holds the lease: in progress
    const early = await client.post('/v2/test/boxes', { name: 'Before' }, { headers: key });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('idempotency_request_in_progress');

    await ownerDies('box-crash-before');
    const retry = await client.post('/v2/test/boxes', { name: 'Before' }, { headers: key });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await boxes('Before')).toEqual([expect.objectContaining({ id: retry.body.id })]);
    const again = await client.post('/v2/test/boxes', { name: 'Before' }, { headers: key });
    expect(again.body).toEqual(retry.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await boxes('Before')).toHaveLength(1);
  });

  it('says so, and does not run it again, when the effect committed but its answer could not be recorded with it', async () => {
    const key = { 'idempotency-key': 'report-crash' };
    void client.post('/v2/test/report', { name: 'Report' }, { headers: { ...key, 'x-test-die': 'after-commit' } });
    await arrived('report-crash');
    await ownerDies('report-crash');
    const retry = await client.post('/v2/test/report', { name: 'Report' }, { headers: key });
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe('idempotency_outcome_unknown');
    expect(await boxes('Report')).toHaveLength(1);
  });

  it('undoes the effect of a first request that lost its key to another process meanwhile', async () => {
    const key = { 'idempotency-key': 'box-stalled' };
    // the first request stalls before its effect; its lease lapses and a retry takes the key over
    let resume = () => undefined as void;
    const stalled = new Promise<void>((resolve) => (resume = resolve));
    let reached = () => undefined as void;
    const atStall = new Promise<void>((resolve) => (reached = resolve));
    const original = t.runtime.services.boxes.create.bind(t.runtime.services.boxes);
    t.runtime.services.boxes.create = async (...args) => {
      if ((args[1] as { name: string }).name === 'Stalled') {
        reached();
        await stalled;
      }
      return original(...args);
    };
    try {
      const first = client.post('/v2/boxes', boxBody({ name: 'Stalled' }), { headers: key });
      await atStall;
      await ownerDies('box-stalled');
      await t.runtime.database.db
        .updateTable('idempotency_keys')
        .set({ owner: 'another-host:2:0', lease_until: new Date(Date.now() + IDEMPOTENCY_LEASE_MS).toISOString() })
        .where('idem_key', '=', 'box-stalled')
        .execute();
      resume();
      const answer = await first;
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('idempotency_request_in_progress');
      expect(await boxes('Stalled')).toHaveLength(0);
    } finally {
      t.runtime.services.boxes.create = original;
    }
  });

  it('records with the effect of every create the answer the route then sends', async () => {
    const key = (name: string) => ({ headers: { 'idempotency-key': `create-${name}` } });
    const warehouse = await client.post('/v2/warehouses', warehouseBody({ name: 'Keyed' }), key('warehouse'));
    const shop = await client.post('/v2/shops', shopBody(warehouse.body.id, { name: 'Keyed shop' }), key('shop'));
    const product = await client.post('/v2/products', productBody({ vendorCode: 'KEYED-1' }), key('product'));
    const kit = await client.post('/v2/kits', kitBody(shop.body.id, [product.body.id]), key('kit'));
    const box = await client.post('/v2/boxes', boxBody({ name: 'Keyed box' }), key('box'));
    const order = await client.post('/v2/orders', orderBody(account, { cmsId: 'KEYED-1' }), key('order'));
    const answers = [warehouse, shop, product, kit, box, order];
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const rows = await t.runtime.database.db
      .selectFrom('idempotency_keys')
      .select(['idem_key', 'status_code', 'response_body', 'effect_committed'])
      .where('idem_key', 'like', 'create-%')
      .orderBy('idem_key')
      .execute();
    expect(rows).toHaveLength(6);
    // the recorded answer and the sent one agree (a difference is logged as an error)
    expect(errorLines.filter((line) => String(line.msg).startsWith('idempotency:'))).toEqual([]);
    for (const answer of answers)
      expect(rows.map((row) => JSON.parse(row.response_body as string))).toContainEqual(answer.body);
  });
});
