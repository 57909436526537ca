/**
 * Pickups with a contracted real company: CDEK's courier (an intake) is offered for direct
 * shipment (4) to the account with the contract only, booked by the pickup job through the
 * account's own driver, and Done when CDEK says the intake is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { realCarrierEnv, startFakeCdek, type FakeRealCarrier } from '../../../test/support/fake-real-carriers.js';
import { nextWorkday } from '../../../test/support/fixtures.js';
import { orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';

const CDEK = 1001;
let t: TestApp;
let cdek: FakeRealCarrier;
let account: OrderingAccount;
let stranger: OrderingAccount;

const DAY = nextWorkday();

beforeAll(async () => {
  cdek = await startFakeCdek();
  t = await createTestApp({ env: realCarrierEnv({ cdek }) });
  account = await orderingAccount(t);
  stranger = await orderingAccount(t, { name: 'Stranger' });
  t.runtime.services.pickups.registerJobs(account.worker);
});
afterAll(async () => {
  await t.close();
  await cdek.close();
});

const companyIds = async (who: OrderingAccount, type: 3 | 4) =>
  (
    (await who.owner.get(`/v2/pickups/companies?warehouseId=${who.warehouseId}&type=${type}`)).body as Array<{
      id: number;
    }>
  ).map((item) => item.id);

describe('pickups with a contracted company', () => {
  it('offers CDEK for direct shipment only once the account has a contract with it', async () => {
    expect(await companyIds(account, 4)).not.toContain(CDEK);
    const shipment = `/v2/orders/shipment?region=${encodeURIComponent('Москва')}&companyId=${CDEK}&pickupType=4`;
    expect((await account.owner.get(shipment)).status).toBe(404);
    const refused = await account.owner.post('/v2/pickups', {
      warehouseId: account.warehouseId,
      companyId: CDEK,
      type: 4,
      date: DAY,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('companyId');
    expect(
      (
        await account.owner.post(`/v2/carrier-integrations/${CDEK}`, {
          params: { clientId: 'good-id', clientSecret: 'good-secret' },
        })
      ).status,
    ).toBe(204);
    const offers = (await account.owner.get(`/v2/pickups/companies?warehouseId=${account.warehouseId}&type=4`)).body;
    expect(offers.find((item: { id: number }) => item.id === CDEK)).toEqual({
      id: CDEK,
      name: 'СДЭК',
      price: 0,
      countFree: 0,
      commentAvailable: true,
    });
    expect(await companyIds(account, 3)).not.toContain(CDEK);
    // an order may name the contracted company, so its shipment options are there too: to this account only
    const options = await account.owner.get(shipment);
    expect(options.status).toBe(200);
    expect(options.body).toHaveLength(3);
    expect(options.body[0]).toMatchObject({ pricePickup: 0, pickupPointRequired: false, points: [] });
    expect((await stranger.owner.get(shipment)).status).toBe(404);
    expect(await companyIds(stranger, 4)).not.toContain(CDEK);
    const theirs = await stranger.owner.post('/v2/pickups', {
      warehouseId: stranger.warehouseId,
      companyId: CDEK,
      type: 4,
      date: DAY,
    });
    expect(theirs.status).toBe(400);
  });

  it("books a CDEK intake through the account's contract and is Done when CDEK says so", async () => {
    const created = await account.owner.post('/v2/pickups', {
      warehouseId: account.warehouseId,
      companyId: CDEK,
      type: 4,
      date: DAY,
      comment: 'Звонить за час',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    await account.worker.runDue();
    expect((await account.owner.get(`/v2/pickups/${id}`)).body).toMatchObject({
      status: 2,
      number: 'intake-1',
      time: { from: '09:00', to: '18:00' },
    });
    expect(cdek.calls).toContain('POST /v2/intakes');
    await account.worker.runDue(new Date(`${DAY}T09:01:00+03:00`));
    expect((await account.owner.get(`/v2/pickups/${id}`)).body.status).toBe(3);
    expect(cdek.calls).toContain('GET /v2/intakes/intake-1');
  });
});
