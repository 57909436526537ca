/**
 * Buyers' messages through HTTP, with a local SMTP server and fakes of SMS.ru and Telegram: a
 * shop's channels saved (credentials checked and never answered), its templates checked when
 * saved and previewed with a real order, each status's message sent once, quiet hours holding an
 * SMS until morning, the buyer's Telegram subscription from the tracking page, one-click
 * unsubscribe honoured at once, sandbox orders skipped unless asked, the order's message log and
 * the report; and the refusals (no token, another account, a shop key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { SMSRU_API_ID, startFakeSmsRu, type FakeSmsGateway } from '../../../test/support/fake-sms-gateways.js';
import { startCommandUpdate, startFakeTelegram, type FakeTelegram } from '../../../test/support/fake-telegram.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { startFakeSmtp, type FakeSmtp } from '../../../test/support/smtp.js';

const BOT_TOKEN = '123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr';

let t: TestApp;
let a: OrderingAccount;
let smtp: FakeSmtp;
let sms: FakeSmsGateway;
let telegram: FakeTelegram;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  sms = await startFakeSmsRu();
  telegram = await startFakeTelegram();
  telegram.addBot(BOT_TOKEN, 'my_shop_bot');
  t = await createTestApp({
    env: {
      SIMULATION_STEP_SECONDS: '0',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Доставка <noreply@delivery.test>',
      SMSRU_URL: sms.url,
      TELEGRAM_API_URL: telegram.url,
      PUBLIC_URL: 'http://127.0.0.1:1',
    },
  });
  a = await orderingAccount(t);
  t.runtime.services.buyerMessageDispatcher.registerJobs(a.worker);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await sms.close();
  await telegram.close();
});

const dispatch = async (now?: Date) => {
  await t.runtime.services.buyerMessageDispatcher.dispatch(now);
  await a.worker.runDue(now);
};
const push = (trackNumber: string, statusCode: number) =>
  t
    .client()
    .post(
      '/v2/tracking/events/1',
      { events: [{ trackNumber, statusCode }] },
      { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
    );
const messagesOf = async (id: number) =>
  (await a.owner.get(`/v2/orders/${id}/buyer-messages`)).body as Array<{
    moment: string;
    channel: string;
    status: string;
    reason: string | null;
    address: string;
    segments: number | null;
    cost: number | null;
    sendAfter: string;
  }>;
const withEmail = (overrides: Record<string, unknown> = {}) =>
  orderBody(a, {
    recipient: { fullName: 'Светлана Котова', phone: '8 (921) 555-66-77', email: 'svetlana@buyer.test' },
    ...overrides,
  });

describe('a shop’s buyer-message settings', () => {
  it('answers the defaults, saves channels with checked credentials and never answers them', async () => {
    const before = await a.owner.get(`/v2/shops/${a.shopId}/buyer-messages`);
    expect(before.status, before.text).toBe(200);
    expect(before.body.email).toMatchObject({ enabled: false });
    expect(before.body.sms).toMatchObject({ enabled: false, configured: false });

    const saved = await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages`, {
      sandbox: true,
      quietHours: null,
      brand: { color: '#aa3300' },
      email: { enabled: true, moments: ['registered', 'at_point', 'delivered'] },
      sms: { enabled: true, gateway: 'smsru', apiId: SMSRU_API_ID, moments: ['at_point'] },
      telegram: { enabled: true, botToken: BOT_TOKEN },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.sms).toMatchObject({ enabled: true, configured: true, gateway: 'smsru' });
    expect(saved.body.telegram).toMatchObject({ enabled: true, botUsername: 'my_shop_bot' });
    expect(saved.text).not.toContain(SMSRU_API_ID);
    expect(saved.text).not.toContain(BOT_TOKEN);
    expect(telegram.webhookOf(BOT_TOKEN)?.url).toMatch(/\/buyer\/telegram\//);
  });

  it('refuses a wrong key or token before saving anything, an incomplete channel, a shop key and another account', async () => {
    const wrongKey = await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages`, {
      sms: { enabled: true, gateway: 'smsru', apiId: 'WRONG-KEY' },
    });
    expect(wrongKey.status).toBe(422);
    expect(wrongKey.body).toMatchObject({ code: 'channel_refused', errors: [{ field: 'sms' }] });
    const badBot = await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages`, {
      telegram: { enabled: true, botToken: '999:unknown-token' },
    });
    expect(badBot.status).toBe(422);
    expect(badBot.text).not.toContain('999:unknown-token');
    const incomplete = await a.owner.put(`/v2/shops/${a.otherShopId}/buyer-messages`, { telegram: { enabled: true } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors[0].field).toBe('telegram.botToken');
    const still = await a.owner.get(`/v2/shops/${a.shopId}/buyer-messages`);
    expect(still.body.sms.configured).toBe(true);
    expect((await t.client(a.shopKey).put(`/v2/shops/${a.shopId}/buyer-messages`, { sandbox: false })).status).toBe(
      403,
    );
    const stranger = (await t.newAccount('Stranger')).client;
    expect((await stranger.get(`/v2/shops/${a.shopId}/buyer-messages`)).status).toBe(404);
    expect((await t.client().get(`/v2/shops/${a.shopId}/buyer-messages`)).status).toBe(401);
  });
});

describe('templates', () => {
  it('refuses an unknown variable naming the field, saves a good one and previews it with a real order', async () => {
    const bad = await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages/templates`, {
      templates: { at_point: { ru: { sms: 'Заказ {{ order.numbr }} ждёт' } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'templates.at_point.ru.sms', message: expect.stringMatching(/numbr/) }]);
    // nothing written: the shop still has no template of its own
    const untouched = (await a.owner.get(`/v2/shops/${a.shopId}/buyer-messages/templates`)).body as {
      templates: Array<{ custom: string[] }>;
    };
    expect(untouched.templates.every((row) => row.custom.length === 0)).toBe(true);
    // a loop over a huge range is stopped by the render limit, and refused
    const slow = await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages/templates`, {
      templates: { delivered: { ru: { sms: '{% for i in (1..100000000) %}{{ i }}{% endfor %}' } } },
    });
    expect(slow.status).toBe(400);
    expect(slow.body.errors[0].field).toBe('templates.delivered.ru.sms');
    const unknownFilter = await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages/templates`, {
      templates: { at_point: { en: { subject: 'Order {{ order.number | shout }}' } } },
    });
    expect(unknownFilter.status).toBe(400);
    expect(unknownFilter.body.errors[0].field).toBe('templates.at_point.en.subject');
    const saved = await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages/templates`, {
      templates: { at_point: { ru: { sms: '{{ shop.brand }}: заказ {{ order.number }} ждёт вас в пункте выдачи' } } },
    });
    expect(saved.status, saved.text).toBe(200);
    const row = (saved.body.templates as Array<{ moment: string; language: string; custom: string[] }>).find(
      (item) => item.moment === 'at_point' && item.language === 'ru',
    );
    expect(row?.custom).toEqual(['sms']);

    const created = await a.owner.post('/v2/orders', withEmail({ cmsId: 'PREVIEW-1' }));
    const preview = await a.owner.post(`/v2/shops/${a.shopId}/buyer-messages/preview`, {
      moment: 'at_point',
      channel: 'email',
      orderId: created.body.id,
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.subject).toContain('заказ № PREVIEW-1');
    expect(preview.body.html).toContain('#aa3300');
    const smsPreview = await a.owner.post(`/v2/shops/${a.shopId}/buyer-messages/preview`, {
      moment: 'at_point',
      channel: 'sms',
      orderId: created.body.id,
    });
    expect(smsPreview.body.text).toContain('заказ PREVIEW-1 ждёт вас в пункте выдачи');

    // the e-mail's HTML as a page of its own, for the dashboard's frame
    const html = await a.owner.get(
      `/v2/shops/${a.shopId}/buyer-messages/preview.html?moment=at_point&orderId=${created.body.id}&body=${encodeURIComponent('Привет, {{ recipient.name }}')}`,
    );
    expect(html.status, html.text).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(html.text).toContain('Привет, Светлана Котова');
    expect(html.text).toContain('#aa3300');
    const wrong = await a.owner.get(
      `/v2/shops/${a.shopId}/buyer-messages/preview.html?moment=at_point&body=${encodeURIComponent('{{ nope }}')}`,
    );
    expect(wrong.status).toBe(400);
    const stranger = (await t.newAccount('Stranger 2')).client;
    expect((await stranger.get(`/v2/shops/${a.shopId}/buyer-messages/preview.html?moment=at_point`)).status).toBe(404);
    expect(smsPreview.body.sms).toMatchObject({ encoding: 'ucs2', segments: 1 });
  });
});

describe('sending', () => {
  it('sends each moment once per channel, by e-mail with the brand and by SMS, and logs it on the order', async () => {
    const mails = smtp.mails.length;
    const { id, trackNumber } = await preparedOrder(a.owner, a.worker, withEmail({ cmsId: 'SEND-1' }));
    await dispatch();
    await push(trackNumber, 41);
    await push(trackNumber, 42);
    // the same status again (a company repeating itself): no second message
    await push(trackNumber, 42);
    await dispatch();
    await dispatch();
    const log = await messagesOf(id);
    expect(log.map((item) => `${item.moment}:${item.channel}:${item.status}`).sort()).toEqual([
      'at_point:email:sent',
      'at_point:sms:sent',
      'registered:email:sent',
    ]);
    expect(log.find((item) => item.channel === 'sms')?.address).toMatch(/^\+7921\*\*\*77$/);
    const toBuyer = smtp.mails.slice(mails).filter((mail) => mail.to[0] === 'svetlana@buyer.test');
    expect(toBuyer.map((mail) => mail.subject)).toEqual([
      expect.stringContaining('заказ № SEND-1 оформлен'),
      expect.stringContaining('заказ № SEND-1 ждёт вас в пункте выдачи'),
    ]);
    expect(toBuyer[1].raw).toMatch(/List-Unsubscribe:/i);
    expect(toBuyer[1].raw).toContain('text/html');
    const sent = sms.sent.filter((message) => message.phone === '79215556677');
    expect(sent.map((message) => message.text)).toEqual([
      expect.stringContaining('заказ SEND-1 ждёт вас в пункте выдачи'),
    ]);
    // the gateway is asked a few minutes later whether it arrived
    await a.worker.runDue(new Date(Date.now() + 6 * 60_000));
    const delivered = (await messagesOf(id)).find((item) => item.channel === 'sms');
    expect(delivered?.status).toBe('delivered');
    // SMS.ru's price comes with the status
    expect(delivered?.cost).toBeGreaterThan(0);
  });

  it('writes a message in the default words when the shop’s stored template fails at sending, and sends the rest', async () => {
    const saved = await a.owner.put(`/v2/shops/${a.otherShopId}/buyer-messages`, {
      sandbox: true,
      quietHours: null,
      email: { enabled: true, moments: ['registered'] },
    });
    expect(saved.status, saved.text).toBe(200);
    // a template that passed when saved and fails now (a variable since gone), written as an older version left it
    await t.runtime.database.db
      .updateTable('buyer_message_settings')
      .set({ templates: JSON.stringify({ registered: { ru: { subject: 'Заказ {{ order.gone }}' } } }) })
      .where('shop_id', '=', a.otherShopId)
      .execute();
    const mails = smtp.mails.length;
    const { id } = await preparedOrder(
      a.owner,
      a.worker,
      orderBody(
        { shopId: a.otherShopId, pointId: a.pointId },
        { cmsId: 'FALLBACK-1', recipient: { fullName: 'Анна', phone: '+79215550000', email: 'anna@buyer.test' } },
      ),
    );
    await dispatch();
    expect((await messagesOf(id)).map((item) => `${item.moment}:${item.channel}:${item.status}`)).toEqual([
      'registered:email:sent',
    ]);
    const mail = smtp.mails.slice(mails).find((item) => item.to[0] === 'anna@buyer.test');
    expect(mail?.subject).toContain('заказ № FALLBACK-1 оформлен');
  });

  it('holds an SMS due in the buyer’s quiet hours until their morning', async () => {
    await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages`, { quietHours: { from: '21:00', to: '09:00' } });
    const { id, trackNumber } = await preparedOrder(a.owner, a.worker, withEmail({ cmsId: 'NIGHT-1' }));
    await dispatch();
    await push(trackNumber, 41);
    await push(trackNumber, 42);
    // 20:30 UTC: 23:30 in Санкт-Петербург
    const night = new Date(Date.now() + 86_400_000);
    night.setUTCHours(20, 30, 0, 0);
    await dispatch(night);
    const held = (await messagesOf(id)).find((item) => item.channel === 'sms');
    expect(held).toMatchObject({ status: 'held', reason: expect.stringContaining('quiet hours') });
    const morning = new Date(night);
    morning.setUTCDate(morning.getUTCDate() + 1);
    morning.setUTCHours(6, 0, 0, 0);
    expect(held?.sendAfter).toBe(morning.toISOString());
    await a.worker.runDue(new Date(morning.getTime() + 1000));
    // sent, and (its delivery asked five minutes after, which the morning's clock has passed) delivered
    expect(['sent', 'delivered']).toContain((await messagesOf(id)).find((item) => item.channel === 'sms')?.status);
    await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages`, { quietHours: null });
  });

  it('subscribes a buyer to the shop’s bot from the tracking page, and sends them there', async () => {
    const { id, trackNumber } = await preparedOrder(a.owner, a.worker, withEmail({ cmsId: 'TG-1' }));
    await dispatch();
    const order = (await a.owner.get(`/v2/orders/${id}`)).body;
    const page = await t.app.inject({ method: 'GET', url: new URL(order.trackingUrl).pathname });
    const link = /https:\/\/t\.me\/my_shop_bot\?start=([A-Za-z0-9_-]+)/.exec(page.body);
    expect(link, 'the tracking page links the bot').not.toBeNull();
    telegram.addChat(BOT_TOKEN, 5550001);
    const webhook = telegram.webhookOf(BOT_TOKEN);
    const answered = await t.app.inject({
      method: 'POST',
      url: new URL(webhook?.url ?? '').pathname,
      headers: { 'x-telegram-bot-api-secret-token': webhook?.secretToken ?? '', 'content-type': 'application/json' },
      payload: JSON.stringify(startCommandUpdate({ chatId: 5550001, text: `/start ${link?.[1]}` })),
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const forged = await t.app.inject({
      method: 'POST',
      url: new URL(webhook?.url ?? '').pathname,
      headers: { 'x-telegram-bot-api-secret-token': 'forged', 'content-type': 'application/json' },
      payload: JSON.stringify(startCommandUpdate({ chatId: 666, text: `/start ${link?.[1]}` })),
    });
    expect(forged.statusCode).toBe(401);
    await push(trackNumber, 41);
    await dispatch();
    const toChat = telegram.sent.filter((message) => message.chatId === '5550001');
    expect(toChat.map((message) => message.text)).toEqual([
      expect.stringContaining('Здесь будут новости о заказе TG-1'),
      expect.stringContaining('заказ № TG-1 передан в'),
    ]);
    expect(toChat[1].parseMode).toBe('HTML');
  });

  it('stops a channel at once when the buyer unsubscribes with one click', async () => {
    const { id, trackNumber } = await preparedOrder(a.owner, a.worker, withEmail({ cmsId: 'UNSUB-1' }));
    await dispatch();
    const mail = smtp.mails.filter((item) => item.subject.includes('UNSUB-1')).at(-1);
    const unsubscribe = /List-Unsubscribe:\s*<([^>]+)>/i.exec(mail?.raw ?? '')?.[1] ?? '';
    expect(unsubscribe).toMatch(/\/buyer\/unsubscribe\//);
    const path = new URL(unsubscribe).pathname;
    const pageAnswer = await t.app.inject({ method: 'GET', url: path });
    expect(pageAnswer.statusCode).toBe(200);
    expect(pageAnswer.body).toContain('Отписаться');
    const done = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `${path}x` })).statusCode).toBe(404);
    await push(trackNumber, 41);
    await push(trackNumber, 42);
    await dispatch();
    const log = await messagesOf(id);
    expect(log.find((item) => item.moment === 'at_point' && item.channel === 'email')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('unsubscribed'),
    });
    expect(log.find((item) => item.moment === 'at_point' && item.channel === 'sms')?.status).toBe('sent');
  });

  it('skips a sandbox order unless the shop asks, and reports the messages and SMS parts', async () => {
    await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages`, { sandbox: false });
    const { id } = await preparedOrder(a.owner, a.worker, withEmail({ cmsId: 'SANDBOX-1' }));
    await dispatch();
    const log = await messagesOf(id);
    expect(log.map((item) => `${item.moment}:${item.channel}`)).toContain('registered:email');
    for (const item of log)
      expect(item).toMatchObject({ status: 'skipped', reason: expect.stringContaining('sandbox') });
    const today = new Date().toISOString().slice(0, 10);
    const report = await a.owner.get(`/v2/reports/buyer-messages?dateFrom=${today}&dateTo=${today}`);
    expect(report.status, report.text).toBe(200);
    const smsRow = (report.body.rows as Array<{ channel: string; sent: number; segments: number }>).find(
      (row) => row.channel === 'sms',
    );
    expect(smsRow?.sent).toBeGreaterThanOrEqual(3);
    expect(smsRow?.segments).toBeGreaterThanOrEqual(3);
    const typed = await a.owner.get(`/v2/reports/buyer-messages?dateFrom=07.01.2027&dateTo=${today}`);
    expect(typed.status).toBe(400);
    expect(typed.body.errors[0].field).toBe('dateFrom');
    const tooLong = await a.owner.get('/v2/reports/buyer-messages?dateFrom=2025-01-01&dateTo=2026-12-31');
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].field).toBe('dateTo');
    expect((await t.client(a.shopKey).get(`/v2/reports/buyer-messages?dateFrom=${today}&dateTo=${today}`)).status).toBe(
      403,
    );
  });
});
