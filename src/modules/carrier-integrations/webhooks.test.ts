/**
 * CDEK's status webhooks: connecting a contract subscribes the account's own signed address
 * (once, however often it connects); an ORDER_STATUS update sent there moves that account's
 * order like a poll would; addresses we did not give are 404. Disconnecting deletes the
 * subscription by a job (CDEK down: retried later; the disconnect itself never fails for it),
 * with the contract's sealed credentials kept only until that job ran or gave up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { realCarrierEnv, startFakeCdek, type FakeRealCarrier } from '../../../test/support/fake-real-carriers.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { WEBHOOK_UNSUBSCRIBE_JOB } from './webhooks.js';

const CDEK = 1001;
let t: TestApp;
let cdek: FakeRealCarrier;
let account: OrderingAccount;
let stranger: OrderingAccount;
let hookTrack = '';
const cdekParams = { params: { clientId: 'good-id', clientSecret: 'good-secret' } };

beforeAll(async () => {
  cdek = await startFakeCdek();
  t = await createTestApp({ env: realCarrierEnv({ cdek }) });
  account = await orderingAccount(t);
  stranger = await orderingAccount(t, { name: 'Stranger' });
  t.runtime.services.carrierWebhooks.registerJobs(account.worker);
});
afterAll(async () => {
  await t.close();
  await cdek.close();
});

const send = (path: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: path, payload: payload as Record<string, unknown> });
const pathOf = (url: string) => new URL(url).pathname;
const update = (cdekNumber: string, code: string) => ({
  type: 'ORDER_STATUS',
  date_time: '2026-01-05T10:00:00+0000',
  uuid: 'u-1',
  attributes: {
    is_return: false,
    cdek_number: cdekNumber,
    code,
    status_date_time: new Date().toISOString(),
    city_name: 'Москва',
  },
});

describe('CDEK webhooks', () => {
  it("subscribes the account's own address when the contract is connected, once", async () => {
    expect((await account.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams)).status).toBe(204);
    await account.worker.runDue();
    expect((await account.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams)).status).toBe(204);
    await account.worker.runDue();
    const url = t.runtime.services.carrierWebhooks.urlOf(account.accountId, CDEK) as string;
    expect(cdek.webhooks).toEqual([{ uuid: 'webhook-1', type: 'ORDER_STATUS', url }]);
    expect(url).toMatch(new RegExp(`/v2/carrier-webhooks/cdek/${account.accountId}-[0-9a-f]{64}$`));
  });

  it("moves the account's order by an ORDER_STATUS update; other updates are ignored with 200", async () => {
    const body = orderBody(
      { shopId: account.shopId, pointId: account.pointId },
      { cmsId: 'HOOK-1', delivery: { company: { id: CDEK }, type: 2 } },
    );
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, body);
    hookTrack = trackNumber;
    const path = pathOf(t.runtime.services.carrierWebhooks.urlOf(account.accountId, CDEK) as string);
    const moved = await send(path, update(trackNumber, 'ACCEPTED_IN_RECIPIENT_CITY'));
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ applied: 1, ignored: [] });
    expect((await account.owner.get(`/v2/orders/${id}`)).body.status).toBe(412);
    expect((await send(path, { type: 'PRINT_FORM', attributes: { url: 'x' } })).json()).toEqual({
      applied: 0,
      ignored: [],
    });
    expect((await send(path, update(trackNumber, 'SOMETHING_NEW'))).json()).toEqual({ applied: 0, ignored: [] });
    expect((await send(path, update('999', 'DELIVERED'))).json()).toMatchObject({
      applied: 0,
      ignored: [{ trackNumber: '999' }],
    });
  });

  it("is 404 at an address we did not give, and never moves another account's order", async () => {
    const path = pathOf(t.runtime.services.carrierWebhooks.urlOf(account.accountId, CDEK) as string);
    const forged = path.replace(/-[0-9a-f]{64}$/, `-${'0'.repeat(64)}`);
    const refused = await send(forged, update('1', 'DELIVERED'));
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'not_found', errors: [], logId: expect.any(String) });
    expect((await send(path.replace('/cdek/', '/boxberry/'), update('1', 'DELIVERED'))).statusCode).toBe(400);
    expect(
      (await send(`/v2/carrier-webhooks/cdek/${stranger.accountId}-abc`, update('1', 'DELIVERED'))).statusCode,
    ).toBe(404);
    // the stranger has no contract: its own signed address is not live either
    const strangers = pathOf(t.runtime.services.carrierWebhooks.urlOf(stranger.accountId, CDEK) as string);
    expect((await send(strangers, update('1', 'DELIVERED'))).statusCode).toBe(404);
    expect((await send(path, { attributes: {} })).statusCode).toBe(400);
    // with a contract of its own, the stranger's address still reaches only its own orders
    expect((await stranger.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams)).status).toBe(204);
    expect((await send(strangers, update(hookTrack, 'DELIVERED'))).json()).toMatchObject({
      applied: 0,
      ignored: [{ trackNumber: hookTrack }],
    });
  });
});

describe('a CDEK partial delivery', () => {
  it('a webhook DELIVERED of a parcel handed over in part: the order is read, 47 with the lines bought and the cash taken', async () => {
    const body = orderBody(
      { shopId: account.shopId, pointId: account.pointId },
      {
        cmsId: 'HOOK-PARTIAL',
        delivery: { company: { id: CDEK }, type: 2 },
        products: [
          { name: 'Лампа', vendorCode: 'HP-LAMP', priceDeclared: 500, priceCod: 500, count: 2, weight: 0.5 },
          { name: 'Кружка', vendorCode: 'HP-MUG', priceDeclared: 200, priceCod: 200, count: 1, weight: 0.3 },
        ],
      },
    );
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, body);
    const path = pathOf(t.runtime.services.carrierWebhooks.urlOf(account.accountId, CDEK) as string);
    expect((await send(path, update(trackNumber, 'TAKEN_BY_COURIER'))).json()).toEqual({ applied: 1, ignored: [] });
    cdek.partialDeliveries.set(trackNumber, { handed: { 'HP-LAMP': 1 }, paymentSum: 500 });
    expect((await send(path, update(trackNumber, 'DELIVERED'))).json()).toEqual({ applied: 1, ignored: [] });
    const order = (await account.owner.get(`/v2/orders/${id}`)).body;
    expect(order.status).toBe(47);
    expect(order.partialBuyout.collected).toBe(500);
    expect(order.partialBuyout.lines.map((line: { bought: number }) => line.bought)).toEqual([1, 0]);
  });
});

describe('disconnecting a CDEK contract', () => {
  const urlOf = (who: OrderingAccount) => t.runtime.services.carrierWebhooks.urlOf(who.accountId, CDEK) as string;
  const retiredRows = () =>
    t.runtime.database.db.selectFrom('carrier_retired_contracts').select(['account_id', 'credentials']).execute();
  const unsubscribeJobs = () =>
    t.runtime.database.db
      .selectFrom('jobs')
      .select(['id', 'status', 'last_error'])
      .where('kind', '=', WEBHOOK_UNSUBSCRIBE_JOB)
      .orderBy('id')
      .execute();
  const makeDue = () =>
    t.runtime.database.db
      .updateTable('jobs')
      .set({ run_at: new Date(Date.now() - 1000).toISOString() })
      .where('kind', '=', WEBHOOK_UNSUBSCRIBE_JOB)
      .where('status', '=', 'pending')
      .execute();

  it("deletes the account's subscription with CDEK by a job, then erases the credentials kept for it", async () => {
    await account.worker.runDue(); // the stranger's subscription, from its connect above
    expect(cdek.webhooks.map((hook) => hook.url)).toEqual([urlOf(account), urlOf(stranger)]);
    expect((await account.owner.delete(`/v2/carrier-integrations/${CDEK}`)).status).toBe(204);
    const kept = await retiredRows();
    expect(kept).toHaveLength(1);
    expect(kept[0].credentials).not.toMatch(/good-secret|good-id/);
    expect(cdek.webhooks).toHaveLength(2); // nothing asked of CDEK in the request
    await account.worker.runDue();
    expect(cdek.webhooks.map((hook) => hook.url)).toEqual([urlOf(stranger)]);
    expect(cdek.calls).toContain('DELETE /v2/webhooks/webhook-1');
    expect(await retiredRows()).toEqual([]);
    expect((await send(pathOf(urlOf(account)), update(hookTrack, 'DELIVERED'))).statusCode).toBe(404);
  });

  it('CDEK down: the disconnect still succeeds and the deletion is retried later', async () => {
    cdek.mode = '500';
    try {
      expect((await stranger.owner.delete(`/v2/carrier-integrations/${CDEK}`)).status).toBe(204);
      await account.worker.runDue();
      const [, waiting] = await unsubscribeJobs();
      expect(waiting).toMatchObject({ status: 'pending', last_error: expect.stringMatching(/500/) });
      expect(cdek.webhooks.map((hook) => hook.url)).toEqual([urlOf(stranger)]);
      expect(await retiredRows()).toHaveLength(1);
    } finally {
      cdek.mode = 'ok';
    }
    await makeDue();
    await account.worker.runDue();
    expect(cdek.webhooks).toEqual([]);
    expect(await retiredRows()).toEqual([]);
  });

  it('keeps the subscription of a contract connected again before the job ran; the last attempt erases the credentials all the same', async () => {
    expect((await account.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams)).status).toBe(204);
    await account.worker.runDue();
    expect((await account.owner.delete(`/v2/carrier-integrations/${CDEK}`)).status).toBe(204);
    expect((await account.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams)).status).toBe(204);
    await account.worker.runDue();
    expect(cdek.webhooks.map((hook) => hook.url)).toEqual([urlOf(account)]);
    expect(await retiredRows()).toEqual([]);

    cdek.mode = 'auth';
    try {
      expect((await account.owner.delete(`/v2/carrier-integrations/${CDEK}`)).status).toBe(204);
      const last = (await unsubscribeJobs()).at(-1);
      await t.runtime.database.db
        .updateTable('jobs')
        .set({ max_attempts: 1 })
        .where('id', '=', Number(last?.id))
        .execute();
      await account.worker.runDue();
      expect((await unsubscribeJobs()).at(-1)).toMatchObject({ status: 'failed' });
      expect(await retiredRows()).toEqual([]);
    } finally {
      cdek.mode = 'ok';
    }
  });
});
