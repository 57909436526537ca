/**
 * The real companies' pickup-point directories imported into our points: shared by every
 * account, read through one contract, upserted by the company's code (a point gone from the
 * directory is hidden, keeping its id), served by GET /v2/lists/points and, for accounts
 * with the contract, the calculator's type-1 options.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  realCarrierEnv,
  startFakeBoxberry,
  startFakeCdek,
  type FakeRealCarrier,
} from '../../../test/support/fake-real-carriers.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { POINTS_IMPORT_JOB } from './points-import.js';

let t: TestApp;
let cdek: FakeRealCarrier;
let boxberry: FakeRealCarrier;
let account: OrderingAccount;
let stranger: ApiClient;
const CDEK = 1001;

const point = (code: string, name: string, latitude: number, extra: Record<string, unknown> = {}) => ({
  code,
  name,
  type: 'PVZ',
  location: {
    country_code: 'RU',
    city: 'Москва',
    postal_code: '125009',
    address: `${name}, 1`,
    latitude,
    longitude: 37.61,
  },
  work_time_list: [{ day: 1, time: '10:00/20:00' }],
  have_cash: true,
  have_cashless: true,
  weight_max: 20,
  ...extra,
});

beforeAll(async () => {
  [cdek, boxberry] = await Promise.all([startFakeCdek(), startFakeBoxberry()]);
  t = await createTestApp({ env: realCarrierEnv({ cdek, boxberry }) });
  account = await orderingAccount(t);
  stranger = (await t.newAccount('Stranger')).client;
});
afterAll(async () => {
  await t.close();
  await Promise.all([cdek.close(), boxberry.close()]);
});

const listed = async (client: ApiClient, companyId: number) =>
  (await client.get(`/v2/lists/points?companyId=${companyId}&perPage=100`)).body as Array<{
    id: number;
    name: string;
    cashPaymentAvailable: boolean;
  }>;

describe("importing a real company's pickup points", () => {
  it('imports nothing without a contract', async () => {
    expect(await t.runtime.services.carrierPoints.importPoints(CDEK)).toEqual({
      accountId: null,
      visible: 0,
      added: 0,
      hidden: 0,
    });
    expect(await listed(account.owner, CDEK)).toEqual([]);
  });

  it('queues an import when a contract is connected; the import lists the points for every account', async () => {
    expect(
      (
        await account.owner.post(`/v2/carrier-integrations/${CDEK}`, {
          params: { clientId: 'good-id', clientSecret: 'good-secret' },
        })
      ).status,
    ).toBe(204);
    const queued = await t.runtime.database.db
      .selectFrom('jobs')
      .select(['kind', 'payload'])
      .where('kind', '=', POINTS_IMPORT_JOB)
      .execute();
    expect(queued).toHaveLength(1);
    const outcome = await t.runtime.services.carrierPoints.importPoints(CDEK);
    expect(outcome).toEqual({ accountId: account.accountId, visible: 2, added: 2, hidden: 0 });
    const points = await listed(stranger, CDEK);
    expect(points.map((item) => item.name).sort()).toEqual(['На Тверской', 'Постамат']);
    expect(points.every((item) => Math.floor(item.id / 10_000_000) === CDEK)).toBe(true);
    const locker = (await stranger.get(`/v2/lists/points?companyId=${CDEK}&types=2`)).body;
    expect(locker).toHaveLength(1);
    expect(locker[0]).toMatchObject({ name: 'Постамат', cashPaymentAvailable: false, cardPaymentAvailable: true });
  });

  it("offers the imported points as CDEK's type-1 options to the account with the contract only", async () => {
    const body = { reception: { cityName: 'Москва' }, sender: { cityName: 'Санкт-Петербург' }, pickupType: 1 };
    const mine = await account.owner.post('/v2/calculator', body);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const option = mine.body['1'].find((item: { deliveryCompanyId: number }) => item.deliveryCompanyId === CDEK);
    expect(
      option,
      JSON.stringify(mine.body['1'].map((item: { deliveryCompanyId: number }) => item.deliveryCompanyId)),
    ).toBeDefined();
    expect(option.points.map((item: { name: string }) => item.name)).toContain('На Тверской');
    const theirs = await stranger.post('/v2/calculator', body);
    expect(theirs.body['1'].some((item: { deliveryCompanyId: number }) => item.deliveryCompanyId === CDEK)).toBe(false);
  });

  it("registers an order to an imported point with the point's CDEK code", async () => {
    const tverskaya = (await listed(account.owner, CDEK)).find((item) => item.name === 'На Тверской');
    const body = orderBody(
      { shopId: account.shopId, pointId: tverskaya?.id as number },
      {
        cmsId: 'PVZ-1',
        deliveryAddress: { city: { countryCode: 'RU', name: 'Москва' }, street: 'Тверская', house: '5' },
        delivery: { company: { id: CDEK }, type: 1, point: { id: tverskaya?.id } },
      },
    );
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, body);
    // CDEK's number is ours (ASCII); the shop's goes in the comment
    expect(trackNumber).toBe(cdek.created.get(String(id))?.track);
    expect(JSON.parse(cdek.bodies.get('POST /v2/orders') ?? '{}')).toMatchObject({
      number: String(id),
      comment: 'Заказ магазина PVZ-1',
      delivery_point: 'MSK123',
    });
  });

  it('keeps ids by code, hides points gone from the directory, and ignores an empty directory', async () => {
    const before = new Map((await listed(account.owner, CDEK)).map((item) => [item.name, item.id]));
    cdek.directory = [
      point('MSK123', 'На Тверской (переехал)', 55.757, { have_cash: false }),
      point('MSK777', 'Новый', 55.76),
    ];
    try {
      expect(await t.runtime.services.carrierPoints.importPoints(CDEK)).toMatchObject({
        visible: 2,
        added: 1,
        hidden: 1,
      });
      const after = await listed(account.owner, CDEK);
      const moved = after.find((item) => item.name === 'На Тверской (переехал)');
      expect(moved?.id).toBe(before.get('На Тверской'));
      expect(moved?.cashPaymentAvailable).toBe(false);
      expect(after.some((item) => item.id === before.get('Постамат'))).toBe(false);
      const rows = await t.runtime.database.db
        .selectFrom('delivery_points')
        .select(['id', 'hidden'])
        .where('company_id', '=', CDEK)
        .execute();
      expect(rows).toHaveLength(3);
      cdek.directory = [];
      expect(await t.runtime.services.carrierPoints.importPoints(CDEK)).toMatchObject({
        visible: 0,
        added: 0,
        hidden: 0,
      });
      expect(await listed(account.owner, CDEK)).toHaveLength(2);
    } finally {
      cdek.directory = null;
    }
  });

  it("registers an order to a point hidden after the order was made with the point's code (points are hidden, never deleted)", async () => {
    const tverskaya = (await listed(account.owner, CDEK)).find((item) => item.name.startsWith('На Тверской'));
    const body = orderBody(
      { shopId: account.shopId, pointId: tverskaya?.id as number },
      {
        cmsId: 'PVZ-HIDDEN',
        deliveryAddress: { city: { countryCode: 'RU', name: 'Москва' }, street: 'Тверская', house: '5' },
        delivery: { company: { id: CDEK }, type: 1, point: { id: tverskaya?.id } },
      },
    );
    const created = await account.owner.post('/v2/orders', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    cdek.directory = [point('MSK777', 'Новый', 55.76)];
    try {
      expect(await t.runtime.services.carrierPoints.importPoints(CDEK)).toMatchObject({ hidden: 1 });
      expect((await listed(account.owner, CDEK)).some((item) => item.id === tverskaya?.id)).toBe(false);
      expect((await account.owner.post('/v2/orders/confirm', { ids: [created.body.id] })).status).toBe(204);
      await account.worker.runDue();
      expect(JSON.parse(cdek.bodies.get('POST /v2/orders') ?? '{}')).toMatchObject({
        number: String(created.body.id),
        delivery_point: 'MSK123',
      });
      expect((await account.owner.get(`/v2/orders/${created.body.id}`)).body.trackNumber).toBe(
        cdek.created.get(String(created.body.id))?.track,
      );
    } finally {
      cdek.directory = null;
    }
  });

  it("imports Boxberry's ListPoints too, with its load limit", async () => {
    expect(
      (await account.owner.post('/v2/carrier-integrations/1002', { params: { token: 'good-token' } })).status,
    ).toBe(204);
    expect(await t.runtime.services.carrierPoints.importPoints(1002)).toMatchObject({ visible: 1, added: 1 });
    const [only] = (await account.owner.get('/v2/lists/points?companyId=1002')).body;
    expect(only).toMatchObject({ cardPaymentAvailable: true });
  });

  it("offers Boxberry's type 1 with its points, priced by DeliveryCosts to the locality's point nearest its centre", async () => {
    const body = { reception: { cityName: 'Москва' }, sender: { cityName: 'Санкт-Петербург' }, pickupType: 1 };
    const mine = await account.owner.post('/v2/calculator', body);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const option = mine.body['1'].find((item: { deliveryCompanyId: number }) => item.deliveryCompanyId === 1002);
    expect(option).toMatchObject({ tariffName: 'Boxberry Пункт выдачи', deliveryPlanDays: { min: 4, max: 4 } });
    expect(option.points).toEqual([
      expect.objectContaining({ name: 'Москва Тверская_7796', priceDelivery: 249, deliveryCompanyId: 1002 }),
    ]);
    expect(mine.body['2'].find((item: { deliveryCompanyId: number }) => item.deliveryCompanyId === 1002)).toMatchObject(
      { priceDelivery: 389.5 },
    );
    // no Boxberry point in the locality: no type 1 (a far point's price is not offered)
    const elsewhere = await account.owner.post('/v2/calculator', { ...body, reception: { cityName: 'Новосибирск' } });
    expect(elsewhere.body['1'].some((item: { deliveryCompanyId: number }) => item.deliveryCompanyId === 1002)).toBe(
      false,
    );
    const theirs = await stranger.post('/v2/calculator', body);
    expect(theirs.body['1'].some((item: { deliveryCompanyId: number }) => item.deliveryCompanyId === 1002)).toBe(false);
  });

  it("registers an order to a Boxberry point with the point's code (ParselCreate shop.name)", async () => {
    const [only] = await listed(account.owner, 1002);
    const body = orderBody(
      { shopId: account.shopId, pointId: only.id },
      {
        cmsId: 'BB-PVZ-1',
        deliveryAddress: { city: { countryCode: 'RU', name: 'Москва' }, street: 'Тверская', house: '1' },
        delivery: { company: { id: 1002 }, type: 1, point: { id: only.id } },
      },
    );
    const { trackNumber } = await preparedOrder(account.owner, account.worker, body);
    expect(trackNumber).toBe(boxberry.created.get('BB-PVZ-1')?.track);
    const sdata = JSON.parse(new URLSearchParams(boxberry.bodies.get('POST /json.php') ?? '').get('sdata') ?? '{}');
    expect(sdata).toMatchObject({ order_id: 'BB-PVZ-1', vid: '1', shop: { name: '77961' } });
    expect(sdata.kurdost).toBeUndefined();
  });
});
