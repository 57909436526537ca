/**
 * Test mode on the order: an order through the account's contract in the company's test
 * environment says so (delivery.testMode: true, an extension); orders through a live
 * contract or a built-in company carry no such field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { realCarrierEnv, startFakeCdek, type FakeRealCarrier } from '../../../test/support/fake-real-carriers.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';

const CDEK = 1001;
let t: TestApp;
let cdek: FakeRealCarrier;
let account: OrderingAccount;
const params = { clientId: 'good-id', clientSecret: 'good-secret' };

beforeAll(async () => {
  cdek = await startFakeCdek();
  t = await createTestApp({ env: realCarrierEnv({ cdek }) });
  account = await orderingAccount(t);
});
afterAll(async () => {
  await t.close();
  await cdek.close();
});

const cdekOrder = (cmsId: string) =>
  orderBody(
    { shopId: account.shopId, pointId: account.pointId },
    { cmsId, delivery: { company: { id: CDEK }, type: 2 } },
  );

describe('delivery.testMode', () => {
  it('is true on orders through a contract in the test environment, from creation through registration', async () => {
    expect((await account.owner.post(`/v2/carrier-integrations/${CDEK}`, { params, testMode: true })).status).toBe(204);
    const draft = await account.owner.post('/v2/orders', cdekOrder('TEST-0'));
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect((await account.owner.get(`/v2/orders/${draft.body.id}`)).body.delivery.testMode).toBe(true);
    const { id } = await preparedOrder(account.owner, account.worker, cdekOrder('TEST-1'));
    const order = (await account.owner.get(`/v2/orders/${id}`)).body;
    expect(order.delivery.testMode).toBe(true);
    const listed = (await account.owner.get(`/v2/orders?perPage=100`)).body as Array<{
      id: number;
      delivery: { testMode?: boolean };
    }>;
    expect(listed.find((item) => item.id === id)?.delivery.testMode).toBe(true);
  });

  it('is absent through a live contract and with built-in companies', async () => {
    expect((await account.owner.post(`/v2/carrier-integrations/${CDEK}`, { params, testMode: false })).status).toBe(
      204,
    );
    const { id } = await preparedOrder(account.owner, account.worker, cdekOrder('LIVE-1'));
    expect((await account.owner.get(`/v2/orders/${id}`)).body.delivery).not.toHaveProperty('testMode');
    const builtIn = await preparedOrder(
      account.owner,
      account.worker,
      orderBody({ shopId: account.shopId, pointId: account.pointId }),
    );
    expect((await account.owner.get(`/v2/orders/${builtIn.id}`)).body.delivery).not.toHaveProperty('testMode');
  });
});
