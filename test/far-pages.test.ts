/**
 * Every page of every orders list, near or far, read through the lists' directories
 * (platform/list-directory.ts) is the answer OFFSET paging gives, byte for byte, with the same
 * total, and stays so while orders are created and change lists between reads. The other way
 * is the same service with its memory not trusted (the read cache suspended, as when another
 * process's messages may be missed): every page then steps over the rows before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, usingPostgres, type TestApp } from './support/app.js';
import { orderBody, orderingAccount, type OrderingAccount } from './support/orders.js';

let t: TestApp;
let a: OrderingAccount;
/** Orders made: enough for several blocks of the directory (128 rows each) in most lists. */
const ORDERS = 420;
const PER_PAGE = 25;

const CITIES = ['Санкт-Петербург', 'Москва', 'Казань', 'Пермь'];

async function createOrders(count: number, from: number): Promise<number[]> {
  const ids: number[] = [];
  for (let index = from; index < from + count; index++) {
    const response = await a.owner.post(
      '/v2/orders',
      orderBody(
        { shopId: index % 3 === 0 ? a.otherShopId : a.shopId, pointId: a.pointId },
        {
          cmsId: `FAR-${index}`,
          ...(index % 4 === 1 ? { payment: { type: 1 } } : {}),
          deliveryAddress: {
            city: { countryCode: 'RU', name: CITIES[index % CITIES.length] },
            street: 'Невский',
            house: String(index),
          },
          recipient: { fullName: index % 5 === 0 ? `Иван Петров ${index}` : 'Светлана Котова', phone: '+79215556677' },
        },
      ),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    ids.push(response.body.id as number);
  }
  return ids;
}

/** The filters of GET /v2/orders (§4.4), each with values that leave orders in and out. */
const FILTERS = [
  'list=0',
  'list=1',
  'list=2',
  'list=6',
  'list=0&deliveryType=1',
  'list=0&shopId={shop}',
  'list=0&shopId=0',
  'list=0&warehouseId={warehouse}',
  'list=0&dateFrom=2020-01-01&dateTo=2099-12-31',
  'list=0&statuses[]=1&statuses[]=2',
  'list=0&deliveryCompanies[]=1',
  'list=0&paymentMethods[]=1',
  'list=0&stickerFormed=0',
  'list=0&wasInAct=0',
  'list=0&packed=0',
  'list=0&storagingEnds=0',
  'list=0&withCod=1',
  'list=0&codReceived=0',
  'list=0&recipientCountry=RU',
  'list=0&recipientCity=' + encodeURIComponent('Каз'),
  'list=0&search=' + encodeURIComponent('Петров'),
  'list=0&reservationStatus=0',
  'list=0&autoReservation=0',
];

const urlOf = (filter: string, page: number) =>
  `/v2/orders?${filter.replace('{shop}', String(a.shopId)).replace('{warehouse}', String(a.warehouseId))}&perPage=${PER_PAGE}&page=${page}`;

/** Each page of a list as the service answers it: status, the headers saying the total, the body's bytes. */
async function readAllPages(filter: string): Promise<string[]> {
  const answers: string[] = [];
  for (let page = 1; ; page++) {
    const response = await t.app.inject({
      method: 'GET',
      url: urlOf(filter, page),
      headers: { authorization: `Bearer ${a.owner.token}` },
    });
    expect(response.statusCode, `${filter} page ${page}: ${response.body}`).toBe(200);
    const totals = Object.entries(response.headers)
      .filter(([name]) => /total|count|page/i.test(name))
      .map(([name, value]) => `${name}=${value}`)
      .join(';');
    answers.push(`${totals}\n${response.body}`);
    if (JSON.parse(response.body).length === 0 && !/"data"/.test(response.body)) break;
    if (page > ORDERS / PER_PAGE + 3) break;
  }
  return answers;
}

/** Every list read through the directories and read by OFFSET: the same answers. */
async function expectPagesAsOffsetGives(filters: readonly string[]): Promise<void> {
  const cache = t.runtime.services.readCache;
  const throughDirectories = [];
  // a far page first: the directory is made by the page that needs it, whatever the order
  for (const filter of filters) {
    await t.app.inject({ method: 'GET', url: urlOf(filter, 9), headers: { authorization: `Bearer ${a.owner.token}` } });
    throughDirectories.push(await readAllPages(filter));
  }
  cache.suspend();
  try {
    for (const [index, filter] of filters.entries())
      expect(await readAllPages(filter), filter).toEqual(throughDirectories[index]);
  } finally {
    cache.resume();
  }
}

beforeAll(async () => {
  // the test reads thousands of pages a minute with one token
  t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
  a = await orderingAccount(t);
  const ids = await createOrders(ORDERS, 0);
  // some orders move to other lists: confirmed, cancelled
  const confirmed = await a.owner.post('/v2/orders/confirm', {
    ids: ids.filter((_, index) => index % 4 === 0 && index % 3 === 2),
  });
  expect(confirmed.status, String(JSON.stringify(confirmed.body)).slice(0, 400)).toBe(204);
  expect((await a.owner.post('/v2/orders/cancel', { ids: ids.filter((_, index) => index % 11 === 3) })).status).toBe(
    204,
  );
}, 120_000);
afterAll(async () => t.close());

describe('far pages of the orders lists', () => {
  it('answers every page of every filter as OFFSET paging does, byte for byte', async () => {
    await expectPagesAsOffsetGives(FILTERS);
  }, 120_000);

  it('stays exact while orders are created and change lists between reads', async () => {
    const watched = [
      'list=0',
      'list=1',
      'list=2',
      'list=0&shopId={shop}',
      'list=0&search=' + encodeURIComponent('Петров'),
    ];
    for (let round = 0; round < 4; round++) {
      for (const filter of watched) await readAllPages(filter);
      const made = await createOrders(3, ORDERS + round * 3);
      const listed = (await a.owner.get('/v2/orders?list=1&perPage=1000')).body as Array<{ id: number }>;
      // drafts deep in the list (older orders) leave it, a new one too
      const leaving = [listed[listed.length - 1 - round * 13]?.id, listed[200 + round]?.id, made[0]].filter(
        (id): id is number => typeof id === 'number',
      );
      expect((await a.owner.post('/v2/orders/cancel', { ids: leaving })).status).toBe(204);
      await expectPagesAsOffsetGives(watched);
    }
  }, 120_000);
});

describe.skipIf(!usingPostgres)('far pages with another process writing (PostgreSQL)', () => {
  it('follows the writes another process tells of, block by block', async () => {
    const second = await createTestApp({ beside: t, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    try {
      const inSecond = second.client(a.owner.token);
      const watched = ['list=0', 'list=1', 'list=0&shopId={shop}'];
      for (const filter of watched) await readAllPages(filter);
      const totalOf = async () => Number((await a.owner.get('/v2/orders?list=1&perPage=1')).headers['x-total-count']);
      const before = await totalOf();
      const listed = (await a.owner.get('/v2/orders?list=1&perPage=1000')).body as Array<{ id: number }>;
      const leaving = [listed[listed.length - 2].id, listed[150].id];
      expect((await inSecond.post('/v2/orders/cancel', { ids: leaving })).status).toBe(204);
      const made = await inSecond.post(
        '/v2/orders',
        orderBody({ shopId: a.shopId, pointId: a.pointId }, { cmsId: 'FAR-2ND' }),
      );
      expect(made.status).toBe(201);
      for (let waited = 0; (await totalOf()) !== before - 1; waited += 10) {
        expect(waited, 'the other process’s writes reach this one').toBeLessThan(5000);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await expectPagesAsOffsetGives(watched);
    } finally {
      await second.close();
    }
  }, 60_000);
});
