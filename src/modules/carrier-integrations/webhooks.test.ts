/**
 * CDEK's status webhooks: connecting a contract subscribes the account's own signed address
 * (once, however often it connects); an ORDER_STATUS update sent there moves that account's
 * order like a poll would; addresses we did not give are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { realCarrierEnv, startFakeCdek, type FakeRealCarrier } from '../../../test/support/fake-real-carriers.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';

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

const send = (path: string, payload: unknown) => t.app.inject({ method: 'POST', url: path, payload: payload as Record<string, unknown> });
const pathOf = (url: string) => new URL(url).pathname;
const update = (cdekNumber: string, code: string) => ({ type: 'ORDER_STATUS', date_time: '2026-01-05T10:00:00+0000', uuid: 'u-1', attributes: { is_return: false, cdek_number: cdekNumber, code, status_date_time: new Date().toISOString(), city_name: 'Москва' } });

describe('CDEK webhooks', () => {
  it('subscribes the account\'s own address when the contract is connected, once', async () => {
    expect((await account.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams)).status).toBe(204);
    await account.worker.runDue();
    expect((await account.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams)).status).toBe(204);
    await account.worker.runDue();
    const url = t.runtime.services.carrierWebhooks.urlOf(account.accountId, CDEK) as string;
    expect(cdek.webhooks).toEqual([{ uuid: 'webhook-1', type: 'ORDER_STATUS', url }]);
    expect(url).toMatch(new RegExp(`/v2/carrier-webhooks/cdek/${account.accountId}-[0-9a-f]{64}$`));
  });

  it('moves the account\'s order by an ORDER_STATUS update; other updates are ignored with 200', async () => {
    const body = orderBody({ shopId: account.shopId, pointId: account.pointId }, { cmsId: 'HOOK-1', delivery: { company: { id: CDEK }, type: 2 } });
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, body);
    hookTrack = trackNumber;
    const path = pathOf(t.runtime.services.carrierWebhooks.urlOf(account.accountId, CDEK) as string);
    const moved = await send(path, update(trackNumber, 'ACCEPTED_IN_RECIPIENT_CITY'));
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ applied: 1, ignored: [] });
    expect((await account.owner.get(`/v2/orders/${id}`)).body.status).toBe(412);
    expect((await send(path, { type: 'PRINT_FORM', attributes: { url: 'x' } })).json()).toEqual({ applied: 0, ignored: [] });
    expect((await send(path, update(trackNumber, 'SOMETHING_NEW'))).json()).toEqual({ applied: 0, ignored: [] });
    expect((await send(path, update('999', 'DELIVERED'))).json()).toMatchObject({ applied: 0, ignored: [{ trackNumber: '999' }] });
  });

  it('is 404 at an address we did not give, and never moves another account\'s order', async () => {
    const path = pathOf(t.runtime.services.carrierWebhooks.urlOf(account.accountId, CDEK) as string);
    const forged = path.replace(/-[0-9a-f]{64}$/, `-${'0'.repeat(64)}`);
    const refused = await send(forged, update('1', 'DELIVERED'));
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'not_found', errors: [], logId: expect.any(String) });
    expect((await send(path.replace('/cdek/', '/boxberry/'), update('1', 'DELIVERED'))).statusCode).toBe(400);
    expect((await send(`/v2/carrier-webhooks/cdek/${stranger.accountId}-abc`, update('1', 'DELIVERED'))).statusCode).toBe(404);
    // the stranger has no contract: its own signed address is not live either
    const strangers = pathOf(t.runtime.services.carrierWebhooks.urlOf(stranger.accountId, CDEK) as string);
    expect((await send(strangers, update('1', 'DELIVERED'))).statusCode).toBe(404);
    expect((await send(path, { attributes: {} })).statusCode).toBe(400);
    // with a contract of its own, the stranger's address still reaches only its own orders
    expect((await stranger.owner.post(`/v2/carrier-integrations/${CDEK}`, cdekParams)).status).toBe(204);
    expect((await send(strangers, update(hookTrack, 'DELIVERED'))).json()).toMatchObject({ applied: 0, ignored: [{ trackNumber: hookTrack }] });
  });
});
