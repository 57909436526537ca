/**
 * Returns through HTTP: the shop's rules, the shop's own return and its parcel (an order back,
 * returnOf) tracked to the shop, the buyer's return by the signed link with rules approving it,
 * refusals and cancels with their events; bad input writes nothing; another account, another
 * shop, unsigned or altered links, and the lookup's one answer and its limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { tilePng } from '../../../test/support/browser.js';
import type { ApiClient } from '../../../test/support/client.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { deliveredOrder, FAR_FUTURE } from '../../../test/support/returns.js';
import { startReceiver, type FakeReceiver } from '../../../test/support/webhook-receiver.js';
import { WebhookPump } from '../webhooks/pump.js';
import { DeliveryCharges } from '../reports/charges.js';
import {
  approvedByRules,
  defaultSettings,
  newReturnCode,
  payerOf,
  returnableCounts,
  unitPriceKopecks,
} from './rules.js';
import { checkPhoto } from './photos.js';

let t: TestApp;
let a: OrderingAccount;
let shopKey: ApiClient;
let stranger: ApiClient;
let delivered: { id: number; cmsId: string };
let hooks: FakeReceiver;

beforeAll(async () => {
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '60', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  a = await orderingAccount(t);
  hooks = await startReceiver();
  const hook = await a.owner.post('/v2/webhooks', {
    url: hooks.url,
    eventTypes: ['return.approved', 'return.received'],
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  shopKey = a.owner.withToken(a.shopKey);
  stranger = (await t.newAccount('Stranger')).client;
  delivered = await deliveredOrder(a.owner, a.worker, { shopId: a.shopId, pointId: a.pointId });
});
afterAll(async () => {
  await hooks.close();
  await t.close();
});

const returnBody = (overrides: Record<string, unknown> = {}) => ({
  orderId: delivered.id,
  lines: [{ line: 1, count: 1, reason: 'defective', comment: 'Трещина' }],
  way: 'point',
  companyId: 1,
  pointId: a.pointId,
  ...overrides,
});

async function events(type: string) {
  return (await a.owner.get(`/v2/events?types=${type}&limit=1000`)).body as Array<{
    orderId: number;
    payload: { return?: Record<string, unknown> };
  }>;
}

describe('the rules, pure', () => {
  it('counts what may still come back, prices units as paid, decides who pays and what rules approve', () => {
    const lines = [
      { id: 1, name: 'a', vendorCode: 'A', count: 2, priceCod: 1500, discount: 100, priceDeclared: 1200 },
      { id: 2, name: 'b', vendorCode: 'B', count: 1, priceCod: 0, discount: 0, priceDeclared: 500 },
    ];
    expect(unitPriceKopecks(lines[0])).toBe(140_000);
    expect(unitPriceKopecks(lines[1])).toBe(50_000);
    expect(
      returnableCounts(lines, [
        { status: 'approved', lines: [{ line: 0, count: 1 }] },
        { status: 'refused', lines: [{ line: 0, count: 1 }] },
        { status: 'cancelled', lines: [{ line: 1, count: 1 }] },
      ]),
    ).toEqual([1, 1]);
    expect(payerOf('buyer_unless_fault', [{ reason: 'did_not_fit' }])).toBe('buyer');
    expect(payerOf('buyer_unless_fault', [{ reason: 'did_not_fit' }, { reason: 'defective' }])).toBe('shop');
    const settings = {
      ...defaultSettings(1),
      autoApprove: { reasons: ['defective' as const], maxGoodsValue: 2000, withinDays: 7 },
    };
    expect(approvedByRules(settings, { reasons: ['defective'], goodsKopecks: 200_000, daysSinceDelivery: 7 })).toBe(
      true,
    );
    expect(approvedByRules(settings, { reasons: ['defective'], goodsKopecks: 200_001, daysSinceDelivery: 0 })).toBe(
      false,
    );
    expect(approvedByRules(settings, { reasons: ['changed_mind'], goodsKopecks: 1, daysSinceDelivery: 0 })).toBe(false);
    expect(approvedByRules(settings, { reasons: ['defective'], goodsKopecks: 1, daysSinceDelivery: 8 })).toBe(false);
    expect(approvedByRules(defaultSettings(1), { reasons: ['defective'], goodsKopecks: 1, daysSinceDelivery: 0 })).toBe(
      false,
    );
    expect(newReturnCode()).toMatch(/^R[0-9A-HJKMNP-TV-Z]{10}$/);
  });

  it('takes a picture by its own header, never by its name', () => {
    expect(checkPhoto(tilePng())).toMatchObject({ ok: true, contentType: 'image/png', width: 256 });
    expect(checkPhoto(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toMatchObject({ ok: false });
    expect(checkPhoto(Buffer.from('%PDF-1.4 not a picture'))).toMatchObject({ ok: false });
    expect(checkPhoto(Buffer.alloc(0))).toMatchObject({ ok: false, reason: 'is empty' });
  });
});

describe("the shop's return rules", () => {
  it('answers defaults with the page link, saves rules, refuses a company that cannot carry the way', async () => {
    const initial = await a.owner.get(`/v2/shops/${a.shopId}/return-settings`);
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({
      enabled: true,
      windowDays: 14,
      payer: 'buyer_unless_fault',
      autoApprove: null,
    });
    expect(initial.body.pageUrl).toMatch(
      new RegExp(`^http://delivery.test/site/returns/${a.shopId}-${a.accountId}-[A-Za-z0-9_-]{16}$`),
    );

    const bad = await a.owner.put(`/v2/shops/${a.shopId}/return-settings`, {
      enabled: true,
      windowDays: 14,
      ways: [
        { way: 'post', companyIds: [1] },
        { way: 'courier', companyIds: [999_999] },
      ],
      payer: 'buyer',
      autoApprove: null,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'ways[0].companyIds[0]',
      'ways[1].companyIds[0]',
    ]);
    expect((await a.owner.put(`/v2/shops/${a.shopId}/return-settings`, { windowDays: 0 })).status).toBe(400);
    // nothing was written
    expect((await a.owner.get(`/v2/shops/${a.shopId}/return-settings`)).body.ways).toEqual([]);

    const saved = await a.owner.put(`/v2/shops/${a.shopId}/return-settings`, {
      enabled: true,
      windowDays: 30,
      ways: [
        { way: 'point', companyIds: [1] },
        { way: 'courier', companyIds: [1] },
      ],
      payer: 'buyer_unless_fault',
      autoApprove: { reasons: ['defective', 'wrong_item'], maxGoodsValue: 5000, withinDays: null },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.windowDays).toBe(30);
    expect((await shopKey.get(`/v2/shops/${a.shopId}/return-settings`)).status).toBe(200);
    expect((await shopKey.get(`/v2/shops/${a.otherShopId}/return-settings`)).status).toBe(403);
    expect((await stranger.get(`/v2/shops/${a.shopId}/return-settings`)).status).toBe(404);
    expect((await t.client().get(`/v2/shops/${a.shopId}/return-settings`)).status).toBe(401);
  });
});

describe("the shop's own return and its parcel", () => {
  let returnId: number;
  let parcelId: number;

  it('refuses bad lines, a way without its point, an order not delivered, and writes nothing', async () => {
    const tooMany = await a.owner.post(
      '/v2/returns',
      returnBody({ lines: [{ line: 0, count: 3, reason: 'defective' }] }),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([
      { field: 'lines[0].count', message: 'at most 2 of line 0 may still be returned' },
    ]);
    const noLine = await a.owner.post('/v2/returns', returnBody({ lines: [{ line: 7, count: 1, reason: 'other' }] }));
    expect(noLine.body.errors[0].field).toBe('lines[0].line');
    const badReason = await a.owner.post(
      '/v2/returns',
      returnBody({ lines: [{ line: 0, count: 1, reason: 'bored' }] }),
    );
    expect(badReason.status).toBe(400);
    expect((await a.owner.post('/v2/returns', returnBody({ pointId: null }))).body.errors[0].field).toBe('pointId');
    const notAPicture = await a.owner.post(
      '/v2/returns',
      returnBody({ photos: [{ data: Buffer.from('GIF89a? no: a script').toString('base64') }] }),
    );
    expect(notAPicture.status).toBe(400);
    expect(notAPicture.body.errors[0].field).toBe('photos[0]');
    const fresh = await preparedOrder(a.owner, a.worker, orderBody({ shopId: a.shopId, pointId: a.pointId }));
    const early = await a.owner.post(
      '/v2/returns',
      returnBody({ orderId: fresh.id, lines: [{ line: 0, count: 1, reason: 'other' }] }),
    );
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('order_state');
    expect((await a.owner.get('/v2/returns')).body).toEqual([]);
  });

  it('keeps its returns from other accounts and other shops', async () => {
    expect((await stranger.post('/v2/returns', returnBody())).status).toBe(404);
    const other = await a.owner.post('/v2/orders', orderBody({ shopId: a.otherShopId, pointId: a.pointId }));
    const foreign = await shopKey.post('/v2/returns', returnBody({ orderId: other.body.id }));
    expect(foreign.status).toBe(403);
    expect((await t.client().post('/v2/returns', returnBody())).status).toBe(401);
  });

  it('approves it at once: a reverse order with returnOf, registered, priced, its photos kept', async () => {
    const made = await shopKey.post('/v2/returns', returnBody({ photos: [{ data: tilePng().toString('base64') }] }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    returnId = made.body.id;
    parcelId = made.body.parcelOrderId;
    expect(made.body).toMatchObject({
      shopId: a.shopId,
      orderId: delivered.id,
      orderNumber: delivered.cmsId,
      status: 'approved',
      approvedBy: 'shop',
      createdBy: 'shop',
      way: 'point',
      payer: 'shop',
      goodsSum: 600,
      refundSum: 600,
      lines: [{ line: 1, count: 1, price: 600, reason: 'defective', name: 'Кружка', vendorCode: 'MUG-1' }],
    });
    expect(made.body.code).toMatch(/^R[0-9A-Z]{10}$/);
    expect(made.body.cost).toBeGreaterThan(0);
    expect(made.body.photos).toEqual([
      expect.stringMatching(/^http:\/\/delivery.test\/files\/[A-Za-z0-9_-]{22}\.png$/),
    ]);
    const parcel = (await a.owner.get(`/v2/orders/${parcelId}`)).body;
    expect(parcel).toMatchObject({
      returnOf: { returnId, orderId: delivered.id },
      shopId: a.shopId,
      status: 12,
      pickup: { type: 1, pointId: a.pointId },
      products: [{ name: 'Кружка', count: 1, priceCod: 0 }],
      priceCod: 0,
      delivery: { type: 2, company: { id: 1 } },
    });
    expect(parcel.deliveryAddress.city.name).toBe('Москва');
    expect(parcel.sender.fullName).toBe('Светлана Котова');
    expect((await a.owner.post(`/v2/returns/${returnId}/approve`)).status).toBe(409);
  });

  it('follows the parcel: in transit, then received at the shop, each with its event carrying the sums', async () => {
    await a.worker.runDue(FAR_FUTURE());
    expect((await a.owner.get(`/v2/orders/${parcelId}`)).body.status).toBe(44);
    await t.runtime.services.returnParcels.dispatch();
    const read = await a.owner.get(`/v2/returns/${returnId}`);
    expect(read.body.status).toBe('received');
    const received = await events('return.received');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      orderId: delivered.id,
      payload: {
        cmsId: delivered.cmsId,
        return: {
          id: returnId,
          status: 'received',
          goodsSum: 600,
          refundSum: 600,
          payer: 'shop',
          parcelOrderId: parcelId,
        },
      },
    });
    expect((await events('return.in_transit')).length).toBe(1);
    expect((await events('return.approved'))[0].payload.return?.lines).toEqual([
      { line: 1, productId: null, vendorCode: 'MUG-1', name: 'Кружка', count: 1, price: 600, reason: 'defective' },
    ]);
    // the shop's bill charges the parcel's delivery like any other, named for what it is
    const lines = [];
    for await (const line of new DeliveryCharges(t.runtime.services.orders).chargesIn({
      accountId: a.accountId,
      timeZone: 'Europe/Moscow',
      from: new Date(Date.now() - 86_400_000).toISOString(),
      to: new Date(Date.now() + 86_400_000).toISOString(),
      start: '2000-01-01',
      end: '2100-01-01',
    }))
      lines.push(line);
    const charged = lines.find((line) => line.orderId === parcelId && line.source === 'delivery');
    expect(charged?.description).toContain(`Доставка возврата ${returnId} по заказу ${delivered.id}`);
    expect(charged?.amount).toBeGreaterThan(0);
    // nothing moves twice
    await t.runtime.services.returnParcels.dispatch();
    expect((await events('return.received')).length).toBe(1);
    expect((await a.owner.post(`/v2/returns/${returnId}/cancel`)).status).toBe(409);
  });

  it("tells the shop's webhook, with the lines and sums a CMS refunds from", async () => {
    const quiet = { error: () => undefined, warn: () => undefined };
    const pump = new WebhookPump(t.runtime.services.webhooks, t.runtime.services.jobs, quiet, {
      concurrency: 2,
      pollMs: 20,
    });
    await pump.drain();
    const bodies = hooks.received.map(
      (call) => JSON.parse(call.body) as { type: string; data: { payload: { return: Record<string, unknown> } } },
    );
    expect(bodies.map((body) => body.type)).toEqual(['return.approved', 'return.received']);
    expect(bodies[1].data.payload.return).toMatchObject({
      id: returnId,
      status: 'received',
      goodsSum: 600,
      refundSum: 600,
      payer: 'shop',
      lines: [{ vendorCode: 'MUG-1', count: 1, price: 600, reason: 'defective' }],
    });
    expect(hooks.received[0].headers['webhook-signature']).toBeDefined();
  });

  it('lists, filters and scopes the returns', async () => {
    const list = await a.owner.get(`/v2/returns?orderId=${delivered.id}&status=received`);
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body[0].id).toBe(returnId);
    expect((await a.owner.get('/v2/returns?status=requested')).body).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await a.owner.get(`/v2/returns?dateFrom=${today}&dateTo=${today}`)).body.length).toBe(1);
    expect((await a.owner.get('/v2/returns?dateFrom=2020-01-01&dateTo=2020-01-02')).body).toEqual([]);
    expect((await a.owner.get('/v2/returns?status=lost')).status).toBe(400);
    const typed = await a.owner.get('/v2/returns?dateFrom=07.01.2027');
    expect(typed.status).toBe(400);
    expect(typed.body.errors[0].field).toBe('dateFrom');
    const backwards = await a.owner.get('/v2/returns?dateFrom=2027-02-01&dateTo=2027-01-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].field).toBe('dateTo');
    expect((await shopKey.get(`/v2/returns?shopId=${a.otherShopId}`)).status).toBe(403);
    expect((await stranger.get('/v2/returns')).body).toEqual([]);
    expect((await stranger.get(`/v2/returns/${returnId}`)).status).toBe(404);
    expect((await t.client().get('/v2/returns')).status).toBe(401);
  });
});

describe("the buyer's return by the signed link", () => {
  const pageOf = () => {
    const url = t.runtime.services.returns.orderPageUrl(a.accountId, a.shopId, delivered.id) as string;
    return new URL(url).pathname;
  };

  it('shows the goods that may still come back, the ways with their prices, in Russian or English', async () => {
    const page = await t.client().get(pageOf());
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toContain('Футболка');
    expect(page.text).toContain('Книга');
    // the mug came back already
    expect(page.text).not.toContain('data-line="1"');
    expect(page.text).toContain('Возврат товаров');
    expect((await t.client().get(`${pageOf()}?lang=en`)).text).toContain('Return goods');
    expect(page.text).toContain('name="option" value="point:1"');
    expect(page.text).toContain('name="option" value="courier:1"');
  });

  it('makes a requested return the shop then refuses; a fault the rules approve at once', async () => {
    const asked = await t.client().post(pageOf(), {
      lines: [{ line: 0, count: 1, reason: 'did_not_fit' }],
      option: 'courier:1',
      point: {},
    });
    expect(asked.status, asked.text).toBe(201);
    const [mine] = (await a.owner.get(`/v2/returns?orderId=${delivered.id}&status=requested`)).body;
    expect(mine).toMatchObject({
      createdBy: 'buyer',
      payer: 'buyer',
      way: 'courier',
      approvedBy: null,
      goodsSum: 1400,
    });
    expect(mine.refundSum).toBe(Math.max(0, 1400 - mine.cost));
    expect((await a.owner.post(`/v2/returns/${mine.id}/refuse`, { reason: '' })).status).toBe(400);
    const refused = await a.owner.post(`/v2/returns/${mine.id}/refuse`, { reason: 'Товар носили' });
    expect(refused.body).toMatchObject({ status: 'refused', refusalReason: 'Товар носили' });
    expect((await events('return.refused'))[0].payload.return).toMatchObject({
      id: mine.id,
      refusalReason: 'Товар носили',
    });
    expect((await a.owner.post(`/v2/returns/${mine.id}/approve`)).status).toBe(409);

    const fault = await t.client().post(
      pageOf(),
      {
        lines: [{ line: 2, count: 1, reason: 'wrong_item' }],
        option: 'point:1',
        point: { 'point-1': String(a.pointId) },
      },
      { headers: { 'accept-language': 'en' } },
    );
    expect(fault.status, fault.text).toBe(201);
    const [approved] = (await a.owner.get(`/v2/returns?orderId=${delivered.id}&status=approved`)).body;
    expect(approved).toMatchObject({ approvedBy: 'rules', payer: 'shop', lines: [{ line: 2 }] });
    // the page shows its code and what to do
    const page = await t.client().get(pageOf());
    expect(page.text).toContain(approved.code);
    expect(page.text).toContain('<svg');
    const cancelled = await a.owner.post(`/v2/returns/${approved.id}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await a.owner.get(`/v2/orders/${approved.parcelOrderId}`)).body.status).toBe(10);
  });

  it('refuses more than is left, in the page language, and a way the shop does not allow', async () => {
    const more = await t.client().post(`${pageOf()}?lang=en`, {
      lines: [{ line: 0, count: 5, reason: 'other' }],
      option: 'point:1',
      point: { 'point-1': String(a.pointId) },
    });
    expect(more.status).toBe(400);
    expect(more.body.message).toBe('Check the quantities and the chosen point.');
    const way = await t.client().post(pageOf(), {
      lines: [{ line: 0, count: 1, reason: 'other' }],
      option: 'courier:3',
    });
    expect(way.status).toBe(400);
    expect(way.body.message).toBe('Проверьте количество и выбранный пункт.');
    // a plain form (no script) is answered with the page
    const form = await t
      .client()
      .post(pageOf(), 'lines[0][line]=0&lines[0][count]=9&lines[0][reason]=other&option=point:1', {
        form: true,
      });
    expect(form.status).toBe(400);
    expect(form.text).toContain('Проверьте количество');
  });

  it("is linked from a delivered order's tracking page, not from one on its way", async () => {
    const trackingPath = async (id: number) =>
      new URL((await a.owner.get(`/v2/orders/${id}`)).body.trackingUrl as string).pathname;
    const page = await t.client().get(await trackingPath(delivered.id));
    expect(page.text).toContain(`href="http://delivery.test${pageOf()}"`);
    expect(page.text).toContain('Вернуть товар');
    const onItsWay = await preparedOrder(a.owner, a.worker, orderBody({ shopId: a.shopId, pointId: a.pointId }));
    expect((await t.client().get(await trackingPath(onItsWay.id))).text).not.toContain('/site/returns/');
  });

  it('opens nothing with an altered link, another shop, another account or a return parcel', async () => {
    const path = pageOf();
    const altered = path.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect((await t.client().get(altered)).status).toBe(404);
    // the order's token under the other shop's (signed) page
    const otherShop = new URL(
      t.runtime.services.returns.orderPageUrl(a.accountId, a.otherShopId, 1) as string,
    ).pathname.split('/')[3];
    const [, , , , orderToken] = path.split('/');
    expect((await t.client().get(`/site/returns/${otherShop}/${orderToken}`)).status).toBe(404);
    // a link made for an order of another shop opens nothing under this one
    const other = await a.owner.post('/v2/orders', orderBody({ shopId: a.otherShopId, pointId: a.pointId }));
    const crossed = new URL(t.runtime.services.returns.orderPageUrl(a.accountId, a.shopId, other.body.id) as string)
      .pathname;
    expect((await t.client().get(crossed)).status).toBe(404);
    const [received] = (await a.owner.get('/v2/returns?status=received')).body;
    const parcel = new URL(
      t.runtime.services.returns.orderPageUrl(a.accountId, a.shopId, received.parcelOrderId) as string,
    ).pathname;
    expect((await t.client().get(parcel)).status).toBe(404);
    expect((await t.client().get('/site/returns/1-1-AAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await t.client().post(altered, { lines: [], option: 'point:1' })).status).toBe(404);
    // a body near the page's limit, built to be slow to parse, under an altered link: refused before it is read
    const keys = `{${Array.from({ length: 500_000 }, (_, index) => `"k${index}":1`).join(',')}}`;
    const slow = await t.app.inject({
      method: 'POST',
      url: altered,
      headers: { 'content-type': 'application/json' },
      payload: keys,
    });
    expect(slow.statusCode).toBe(404);
    expect(slow.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('the lookup by order number and phone', () => {
  it('gives one answer for an unknown order and a wrong phone, opens the right one, and limits guesses', async () => {
    const shopPage = new URL((await a.owner.get(`/v2/shops/${a.shopId}/return-settings`)).body.pageUrl).pathname;
    const page = await t.client().get(shopPage);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Номер заказа');
    const ask = (number: string, phone: string) =>
      t.client().post(shopPage, { number, phone }, { form: true, headers: { 'x-forwarded-for': '10.9.9.9' } });
    const unknown = await ask('NO-SUCH', '+7 921 555-66-77');
    const wrongPhone = await ask(delivered.cmsId, '+7 999 000-00-00');
    expect(unknown.status).toBe(200);
    expect(wrongPhone.status).toBe(200);
    expect(unknown.text.replace('NO-SUCH', '')).toBe(wrongPhone.text.replace(delivered.cmsId, ''));
    // another shop's order, even with its phone, is not found under this shop
    const other = await a.owner.post(
      '/v2/orders',
      orderBody({ shopId: a.otherShopId, pointId: a.pointId }, { cmsId: 'OTHER-1' }),
    );
    expect(other.status).toBe(201);
    expect((await ask('OTHER-1', '+79215556677')).text).toBe(unknown.text.replace('NO-SUCH', 'OTHER-1'));
    const found = await ask(delivered.cmsId, '8 (921) 555-66-77');
    expect(found.status).toBe(303);
    expect(found.headers.location).toMatch(
      new RegExp(`/site/returns/${a.shopId}-${a.accountId}-[^/]+/${delivered.id}-`),
    );
    let limited = 0;
    for (let i = 0; i < 12; i++) if ((await ask('NO-SUCH', '+70000000000')).status === 429) limited++;
    expect(limited).toBeGreaterThan(0);
  });
});
