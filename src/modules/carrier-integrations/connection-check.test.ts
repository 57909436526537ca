/**
 * "Check connection" (POST /v2/carrier-integrations/{companyId}/check) against each real
 * company's loopback fake: right credentials, wrong ones (the company's own message shown),
 * a company that answers too late, and one whose port is closed; a stored contract checked,
 * another account's contract (404), no token (401), a shop key (403).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import {
  realCarrierEnv,
  startFakeBoxberry,
  startFakeCdek,
  startFakeRussianPost,
  type FakeRealCarrier,
} from '../../../test/support/fake-real-carriers.js';
import { startFakeYandexDelivery, YANDEX_STATION } from '../../../test/support/fake-yandex-delivery.js';
import { orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';

/** Short, so a fake that waits 600 ms is a timeout without slowing the suite. */
const TIMEOUT_MS = 250;

let t: TestApp;
let fakes: { cdek: FakeRealCarrier; boxberry: FakeRealCarrier; post: FakeRealCarrier; yandex: FakeRealCarrier };
let account: OrderingAccount;
let stranger: ApiClient;

interface Company {
  id: number;
  fake: () => FakeRealCarrier;
  good: Record<string, string>;
  bad: Record<string, string>;
  /** The fake's own words for refused credentials (test/support/fake-*.ts). */
  said: string;
}

const POST_GOOD = {
  accessToken: 'good-token',
  login: 'shop',
  password: 'pass',
  indexFrom: '101000',
  trackingLogin: 'track',
  trackingPassword: 'track-pass',
};
const COMPANIES: Company[] = [
  {
    id: 1001,
    fake: () => fakes.cdek,
    good: { clientId: 'good-id', clientSecret: 'good-secret' },
    bad: { clientId: 'good-id', clientSecret: 'wrong' },
    said: 'Bad credentials',
  },
  {
    id: 1002,
    fake: () => fakes.boxberry,
    good: { token: 'good-token' },
    bad: { token: 'wrong' },
    said: 'Неверный API-токен',
  },
  {
    id: 1003,
    fake: () => fakes.post,
    good: POST_GOOD,
    bad: { ...POST_GOOD, accessToken: 'wrong' },
    said: 'Unauthorized',
  },
  {
    id: 1004,
    fake: () => fakes.yandex,
    good: { token: 'good-token', platformStationId: YANDEX_STATION },
    bad: { token: 'wrong', platformStationId: YANDEX_STATION },
    said: 'Access denied',
  },
];

beforeAll(async () => {
  const [cdek, boxberry, post, yandex] = await Promise.all([
    startFakeCdek(),
    startFakeBoxberry(),
    startFakeRussianPost(),
    startFakeYandexDelivery(),
  ]);
  fakes = { cdek, boxberry, post, yandex };
  t = await createTestApp({ env: { ...realCarrierEnv(fakes), CARRIER_TIMEOUT_MS: String(TIMEOUT_MS) } });
  account = await orderingAccount(t);
  stranger = (await t.newAccount('Чужой')).client;
});
afterAll(async () => {
  await t?.close();
  await Promise.all(Object.values(fakes ?? {}).map((fake) => fake.close()));
});

const check = (client: ApiClient, companyId: number, body?: unknown) =>
  client.post(`/v2/carrier-integrations/${companyId}/check`, body ?? {});

describe.each(COMPANIES)('check connection with company $id', (company) => {
  it('accepted: right credentials, nothing stored', async () => {
    const answer = await check(account.owner, company.id, { params: company.good });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ companyId: company.id, outcome: 'accepted', companyMessage: null });
    expect(answer.body.message.ru).toMatch(/приняла эти данные/);
    expect(answer.body.message.en).toMatch(/accepted/);
    const listed = (await account.owner.get('/v2/carrier-integrations')).body as Array<{
      companyId: number;
      connected: boolean;
    }>;
    expect(listed.find((one) => one.companyId === company.id)?.connected).toBe(false);
  });

  it("refused: wrong credentials, with the company's own message", async () => {
    const answer = await check(account.owner, company.id, { params: company.bad });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.outcome).toBe('refused');
    expect(answer.body.companyMessage).toBe(company.said);
    expect(answer.body.message.ru).toContain(`«${company.said}»`);
    expect(answer.body.message.en).toContain(`“${company.said}”`);
  });

  it('timeout: the company answers after its timeout', async () => {
    const fake = company.fake();
    fake.delayMs = TIMEOUT_MS + 400;
    try {
      const answer = await check(account.owner, company.id, { params: company.good });
      expect(answer.body.outcome, answer.text).toBe('timeout');
      expect(answer.body.message.en).toMatch(/did not answer within 0.3 s/);
      expect(answer.body.message.ru).toMatch(/не ответила за 0,3 с/);
      expect(answer.body.durationMs).toBeLessThan(TIMEOUT_MS + 300);
    } finally {
      fake.delayMs = 0;
    }
  });
});

describe('a stored contract', () => {
  it('is checked without params; another account has none (404)', async () => {
    const connected = await account.owner.post('/v2/carrier-integrations/1002', {
      params: { token: 'good-token' },
    });
    expect(connected.status, connected.text).toBe(204);
    const answer = await check(account.owner, 1002);
    expect(answer.body.outcome, answer.text).toBe('accepted');
    const foreign = await check(stranger, 1002);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
  });

  it('no token is a 401, a shop key a 403, an unknown company a 404, wrong params a 400', async () => {
    expect((await check(t.client(), 1002, { params: { token: 'good-token' } })).status).toBe(401);
    const byShop = await check(t.client(account.shopKey), 1002);
    expect(byShop.status).toBe(403);
    expect((await check(account.owner, 1999)).status).toBe(404);
    const missing = await check(account.owner, 1001, { params: { clientId: 'good-id' } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toMatch(/params\.clientSecret/);
  });
});

describe('a company down', () => {
  it('unreachable: each company on a closed port', async () => {
    await Promise.all(Object.values(fakes).map((fake) => fake.close()));
    for (const company of COMPANIES) {
      const answer = await check(account.owner, company.id, { params: company.good });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.outcome, `${company.id}: ${answer.text}`).toBe('unreachable');
      expect(answer.body.message.ru).toMatch(/Не удалось связаться/);
      expect(answer.body.message.en).toMatch(/could not be reached/);
    }
  });
});
