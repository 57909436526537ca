/**
 * Russian Post's post offices imported from its passport unloading (one zip through the
 * account's contract) as type-3 points of company 1003: listed for everyone, upserted by
 * index (a second import changes nothing, a closed office is hidden), and an order naming an
 * office is priced and registered to that office's index ("до востребования").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  passportOffice,
  realCarrierEnv,
  startFakeRussianPost,
  type FakeRealCarrier,
} from '../../../test/support/fake-real-carriers.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { fromJson } from '../../platform/db/values.js';
import { POINTS_IMPORT_JOB } from './points-import.js';

const POST = 1003;
let t: TestApp;
let post: FakeRealCarrier;
let account: OrderingAccount;
let stranger: ApiClient;
const postParams = {
  params: {
    accessToken: 'good-token',
    login: 'shop',
    password: 'pass',
    indexFrom: '125009',
    trackingLogin: 'tl',
    trackingPassword: 'tp',
  },
};

interface ListedPoint {
  id: number;
  name: string;
  type: number;
  zipCode: string;
  address: string;
  schedule: Array<{ from: string; to: string } | null>;
  cashPaymentAvailable: boolean;
  cardPaymentAvailable: boolean;
  description: string | null;
  limits: { maxWeight: number | null };
}

beforeAll(async () => {
  post = await startFakeRussianPost();
  t = await createTestApp({ env: realCarrierEnv({ post }) });
  account = await orderingAccount(t);
  stranger = (await t.newAccount('Stranger')).client;
});
afterAll(async () => {
  await t.close();
  await post.close();
});

const offices = async (client: ApiClient) =>
  (await client.get(`/v2/lists/points?companyId=${POST}&perPage=100`)).body as ListedPoint[];
const importOffices = () => t.runtime.services.carrierPoints.importPoints(POST);
const backlogOrder = () =>
  (JSON.parse(post.bodies.get('PUT /1.0/user/backlog') ?? '[]') as Array<Record<string, unknown>>)[0];
const moscowPost = (cmsId: string, pointId: number) =>
  // with the address's postal code: Russian Post refuses an order without `index-to`
  orderBody(
    { shopId: account.shopId, pointId },
    {
      cmsId,
      deliveryAddress: {
        city: { countryCode: 'RU', name: 'Москва' },
        street: 'Тверская',
        house: '7',
        zipCode: '125009',
      },
      delivery: { company: { id: POST }, type: 3, point: { id: pointId } },
    },
  );

describe('Russian Post post offices', () => {
  it("connecting the contract queues the import; the unloading's offices become type-3 points for everyone", async () => {
    expect((await account.owner.post(`/v2/carrier-integrations/${POST}`, postParams)).status).toBe(204);
    const queued = await t.runtime.database.db
      .selectFrom('jobs')
      .select('payload')
      .where('kind', '=', POINTS_IMPORT_JOB)
      .execute();
    expect(queued.map((job) => fromJson(job.payload))).toContainEqual({ companyId: POST });
    expect(await importOffices()).toEqual({ accountId: account.accountId, visible: 2, added: 2, hidden: 0 });
    expect(post.calls).toContain('GET /1.0/unloading-passport/zip');
    const listed = await offices(stranger);
    expect(listed.map((office) => office.zipCode).sort()).toEqual(['101000', '125009']);
    const tverskaya = listed.find((office) => office.zipCode === '125009');
    expect(tverskaya).toMatchObject({
      name: 'Отделение почтовой связи 125009',
      type: 3,
      address: 'г Москва, ул Тверская, д. 7',
      cashPaymentAvailable: true,
      cardPaymentAvailable: true,
      description: 'Вход с Тверской',
      limits: expect.objectContaining({ maxWeight: 20 }),
    });
    expect(tverskaya?.schedule).toEqual([
      ...Array(5).fill({ from: '08:00', to: '20:00' }),
      { from: '09:00', to: '18:00' },
      null,
    ]);
    expect(listed.find((office) => office.zipCode === '101000')?.limits.maxWeight).toBeNull();
    expect((await stranger.get(`/v2/lists/points?companyId=${POST}&types=1`)).body).toEqual([]);
  });

  it('a second import of the same unloading changes nothing', async () => {
    const before = await offices(account.owner);
    expect(await importOffices()).toEqual({ accountId: account.accountId, visible: 2, added: 0, hidden: 0 });
    expect(await offices(account.owner)).toEqual(before);
  });

  it('prices and registers an order to a chosen office at that office\'s index, "до востребования"', async () => {
    const office = (await offices(account.owner)).find((item) => item.zipCode === '125009') as ListedPoint;
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, moscowPost('RP-OPS-1', office.id));
    expect(trackNumber).toBe(post.created.get('RP-OPS-1')?.track);
    expect(JSON.parse(post.bodies.get('POST /1.0/tariff') ?? '{}')).toMatchObject({ 'index-to': '125009' });
    expect(backlogOrder()).toMatchObject({
      'order-num': 'RP-OPS-1',
      'address-type-to': 'DEMAND',
      'index-to': 125009,
      'place-to': 'Москва',
    });
    expect(backlogOrder()['street-to']).toBeUndefined();
    const order = (await account.owner.get(`/v2/orders/${id}`)).body;
    expect(order.delivery.point).toMatchObject({ id: office.id, zipCode: '125009', isPost: true });
  });

  it('a post order without an office goes to the street address; a point that is not an office of the company is not kept', async () => {
    const { id } = await preparedOrder(account.owner, account.worker, moscowPost('RP-ADDR-1', account.pointId));
    expect(backlogOrder()).toMatchObject({
      'order-num': 'RP-ADDR-1',
      'address-type-to': 'DEFAULT',
      'street-to': 'Тверская',
      'house-to': '7',
    });
    expect((await account.owner.get(`/v2/orders/${id}`)).body.delivery.point).toBeNull();
  });

  it('hides a closed office (every day a day off) and one gone from the unloading; an empty unloading changes nothing', async () => {
    const before = new Map((await offices(account.owner)).map((office) => [office.zipCode, office.id]));
    const closedAllWeek = ['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс'].map((day) => `${day}, выходной`);
    post.directory = [
      passportOffice('125009', 'г Москва', 55.757, 37.613),
      passportOffice('101000', 'г Москва', 55.761, 37.638, { workTime: closedAllWeek }),
      passportOffice('141100', 'г Щёлково', 55.92, 38.0),
    ];
    try {
      expect(await importOffices()).toMatchObject({ visible: 2, added: 1, hidden: 1 });
      const after = await offices(account.owner);
      expect(after.map((office) => office.zipCode).sort()).toEqual(['125009', '141100']);
      expect(after.find((office) => office.zipCode === '125009')?.id).toBe(before.get('125009'));
      const hidden = await t.runtime.database.db
        .selectFrom('delivery_points')
        .select(['code', 'hidden'])
        .where('company_id', '=', POST)
        .where('code', '=', '101000')
        .executeTakeFirst();
      expect(Boolean(hidden?.hidden)).toBe(true);
      post.directory = [];
      expect(await importOffices()).toMatchObject({ visible: 0, added: 0, hidden: 0 });
      expect(await offices(account.owner)).toHaveLength(2);
    } finally {
      post.directory = null;
    }
  });

  it("an order to an office hidden after it was made is registered with the office's index; the post's refusal reaches the order", async () => {
    post.directory = null;
    await importOffices(); // the sample again: 101000 visible
    const office = (await offices(account.owner)).find((item) => item.zipCode === '101000') as ListedPoint;
    const created = await account.owner.post('/v2/orders', moscowPost('RP-CLOSED-1', office.id));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    post.directory = [passportOffice('125009', 'г Москва', 55.757, 37.613)];
    try {
      expect(await importOffices()).toMatchObject({ hidden: 1 });
      expect((await account.owner.post('/v2/orders/confirm', { ids: [created.body.id] })).status).toBe(204);
      await account.worker.runDue();
      expect(backlogOrder()).toMatchObject({
        'order-num': 'RP-CLOSED-1',
        'address-type-to': 'DEMAND',
        'index-to': 101000,
      });
      const order = (await account.owner.get(`/v2/orders/${created.body.id}`)).body;
      expect(order.trackNumber).toBeNull();
      expect(order.error).toMatch(/Russian Post refused: Почтовый индекс некорректен \(ILLEGAL_INDEX_TO\)/);
      expect(order.delivery.point).toMatchObject({ id: office.id, zipCode: '101000' });
    } finally {
      post.directory = null;
    }
  });
});
