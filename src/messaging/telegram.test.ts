/**
 * The shop bot's Telegram client against the fake Bot API (test/support/fake-telegram.ts, written
 * from https://core.telegram.org/bots/api), and the pure helpers beside it: HTML escaping as the
 * "HTML style" section asks, the deep link's payload read back from /start, the update schema.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommandUpdate, startFakeTelegram, type FakeTelegram } from '../../test/support/fake-telegram.js';
import { compileValidator } from '../platform/validation.js';
import { TelegramBotClient } from './telegram.js';
import { deepLink, escapeTelegramHtml, isStartPayload, startPayloadOf } from './telegram-html.js';
import { readStartCommand, TelegramUpdate } from './telegram-update.js';
import { MessagingError } from './types.js';

const TOKEN = '7012345678:AAE-shop_bot-test-token-0123456789abcdef';
const OTHER_TOKEN = '7012345679:AAE-revoked-token-0123456789abcdefgh';
const BUYER_CHAT = 412345678;
const signal = () => AbortSignal.timeout(10_000);

/** The MessagingError a call throws (fails the test if it throws something else or nothing). */
async function refusalOf(call: Promise<unknown>): Promise<MessagingError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MessagingError);
  return error as MessagingError;
}

let telegram: FakeTelegram;
let bot: TelegramBotClient;

beforeAll(async () => {
  telegram = await startFakeTelegram();
  telegram.addBot(TOKEN, 'shop_orders_bot');
  telegram.addChat(TOKEN, BUYER_CHAT);
  bot = new TelegramBotClient({ token: TOKEN, baseUrl: telegram.url });
});
afterAll(() => telegram.close());

describe('Telegram bot client', () => {
  it("tells the bot's id and username (getMe)", async () => {
    expect(await bot.identity(signal())).toEqual({ id: 7012345678, username: 'shop_orders_bot' });
  });

  it('sends HTML as it is, the text inside it escaped, link previews off', async () => {
    const link = '<a href="https://shop.example/t/1042">Где посылка</a>';
    const html = `<b>Заказ 1042</b> передан в доставку: ${escapeTelegramHtml('«Ромашка» & <Ко>')}\n${link}`;
    const { messageId } = await bot.sendMessage(String(BUYER_CHAT), html, signal());
    const sent = telegram.sent.at(-1);
    expect(sent).toMatchObject({
      token: TOKEN,
      chatId: String(BUYER_CHAT),
      text: html,
      parseMode: 'HTML',
      linkPreviewOptions: { is_disabled: true },
      messageId,
    });
    expect(sent?.text).toContain('«Ромашка» &amp; &lt;Ко&gt;');
  });

  it('is refused, permanently, when the text carries an unescaped "<"', async () => {
    const error = await refusalOf(bot.sendMessage(String(BUYER_CHAT), 'Размер <XL> в наличии', signal()));
    expect(error).toMatchObject({ permanent: true, code: 'bad_request' });
    expect(error.message).toContain("can't parse entities");
  });

  it('takes a wrong token as permanent, and never says the token', async () => {
    const revoked = new TelegramBotClient({ token: OTHER_TOKEN, baseUrl: telegram.url });
    const error = await refusalOf(revoked.identity(signal()));
    expect(error).toMatchObject({ permanent: true, code: 'auth' });
    expect(error.message).toContain('401');
    expect(error.message).not.toContain(OTHER_TOKEN);
    expect(error.message).not.toContain('AAE-revoked');
  });

  it('takes a token not shaped like one (Telegram answers 404) as a bad token too', async () => {
    const mangled = new TelegramBotClient({ token: 'not-a-token', baseUrl: telegram.url });
    const error = await refusalOf(mangled.identity(signal()));
    expect(error).toMatchObject({ permanent: true, code: 'auth' });
    expect(error.message).not.toContain('not-a-token');
  });

  it('refuses a token that would leave the URL path, without sending it anywhere', async () => {
    const before = telegram.calls.length;
    const slashed = new TelegramBotClient({ token: '123:abc/../../x?y', baseUrl: telegram.url });
    const error = await refusalOf(slashed.identity(signal()));
    expect(error).toMatchObject({ permanent: true, code: 'auth' });
    expect(error.message).not.toContain('abc/../');
    expect(telegram.calls.length).toBe(before);
  });

  it('keeps the token out of the message when Telegram cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new TelegramBotClient({ token: TOKEN, baseUrl: `http://127.0.0.1:${port}` });
    const error = await refusalOf(unreachable.sendMessage('1', 'x', signal()));
    expect(error).toMatchObject({ permanent: false, code: 'unreachable' });
    expect(error.message).not.toContain(TOKEN);
  });

  it("keeps the token out of Node's own words, which quote the URL", async () => {
    // fetch refuses a URL it cannot parse with "Failed to parse URL from <the URL>": the token is in it.
    const misconfigured = new TelegramBotClient({ token: TOKEN, baseUrl: 'http://[telegram-api' });
    const error = await refusalOf(misconfigured.identity(signal()));
    expect(error).toMatchObject({ permanent: false, code: 'unreachable' });
    expect(error.message).toContain('/bot<token>/getMe');
    expect(error.message).not.toContain(TOKEN);
  });

  it('takes a chat that blocked the bot as permanent', async () => {
    telegram.addChat(TOKEN, 500100200);
    telegram.block(500100200);
    const error = await refusalOf(bot.sendMessage('500100200', 'Заказ доставлен', signal()));
    expect(error).toMatchObject({ permanent: true, code: 'blocked' });
    expect(error.message).toContain('bot was blocked by the user');
  });

  it("takes a chat Telegram does not know as permanent, in Telegram's words", async () => {
    const error = await refusalOf(bot.sendMessage('999000111', 'Заказ доставлен', signal()));
    expect(error).toMatchObject({ permanent: true, code: 'chat_not_found' });
    expect(error.message).toContain('Bad Request: chat not found');
  });

  it('takes flood control (429) as temporary and says how long to wait', async () => {
    telegram.throttleNext(17);
    const error = await refusalOf(bot.sendMessage(String(BUYER_CHAT), 'Заказ в пути', signal()));
    expect(error).toMatchObject({ permanent: false, code: 'throttled' });
    expect(error.message).toContain('retry after 17 s');
    expect((await bot.sendMessage(String(BUYER_CHAT), 'Заказ в пути', signal())).messageId).toBeGreaterThan(0);
  });

  it("takes Telegram's 5xx (a proxy's HTML page) as temporary", async () => {
    telegram.failNext(1);
    const error = await refusalOf(bot.identity(signal()));
    expect(error).toMatchObject({ permanent: false, code: 'unavailable' });
    expect(error.message).toContain('502');
    expect(error.message).not.toContain(TOKEN);
  });

  it('leaves an abort by the caller as the caller made it', async () => {
    const stopped = AbortSignal.abort(new Error('the job was stopped'));
    await expect(bot.identity(stopped)).rejects.toThrow('the job was stopped');
  });

  it('sets the webhook for messages only, with the secret Telegram sends back, and deletes it', async () => {
    const received: Array<{ secret: string | undefined; body: unknown }> = [];
    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const secret = request.headers['x-telegram-bot-api-secret-token'];
        received.push({ secret: typeof secret === 'string' ? secret : undefined, body: JSON.parse(body) });
        response.writeHead(secret === 'hook-secret_42' ? 200 : 401).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/telegram/hook`;
    try {
      await bot.setWebhook(hookUrl, 'hook-secret_42', signal());
      expect(telegram.webhookOf(TOKEN)).toEqual({
        url: hookUrl,
        secretToken: 'hook-secret_42',
        allowedUpdates: ['message'],
      });

      const update = startCommandUpdate({ chatId: 600700800, text: '/start ord_1042-x7', languageCode: 'ru' });
      expect(await telegram.sendUpdate(TOKEN, update)).toBe(200);
      expect(received[0]?.secret).toBe('hook-secret_42');
      const read = compileValidator<TelegramUpdate>(TelegramUpdate, 'body').parse(received[0]?.body);
      expect(readStartCommand(read)).toEqual({ chatId: '600700800', payload: 'ord_1042-x7', languageCode: 'ru' });
      // The /start opened the chat: the bot may write to it now.
      expect(
        (await bot.sendMessage('600700800', 'Подписка на заказ 1042 включена', signal())).messageId,
      ).toBeGreaterThan(0);

      await bot.deleteWebhook(signal());
      expect(telegram.webhookOf(TOKEN)).toBeNull();
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('refuses a secret token outside the documented alphabet before asking Telegram', async () => {
    const error = await refusalOf(bot.setWebhook('https://shop.example/hook', 'has spaces!', signal()));
    expect(error).toMatchObject({ permanent: true, code: 'bad_request' });
    expect(telegram.webhookOf(TOKEN)).toBeNull();
  });
});

describe('Telegram HTML and deep links', () => {
  it('escapes only &, < and >', () => {
    expect(escapeTelegramHtml(`a & b <c> "d" 'e' &amp;`)).toBe(`a &amp; b &lt;c&gt; "d" 'e' &amp;amp;`);
    expect(escapeTelegramHtml('Заказ №7')).toBe('Заказ №7');
  });

  it('reads the payload of /start and of /start@botname', () => {
    expect(startPayloadOf('/start ord_1042-x7')).toBe('ord_1042-x7');
    expect(startPayloadOf('/start@shop_orders_bot ord_1042-x7')).toBe('ord_1042-x7');
    expect(startPayloadOf('  /start   AbC09_-  ')).toBe('AbC09_-');
    expect(startPayloadOf(`/start ${'a'.repeat(64)}`)).toBe('a'.repeat(64));
  });

  it('refuses what no deep link of ours could have sent', () => {
    for (const text of [
      '/start',
      '/start ',
      '/start@shop_orders_bot',
      '/starting ord_1',
      '/startord_1',
      'start ord_1',
      '/help ord_1',
      '/start ord 1',
      '/start ord.1',
      '/start заказ',
      '/start ord=1',
      `/start ${'a'.repeat(65)}`,
      'Здравствуйте, где мой заказ?',
    ])
      expect(startPayloadOf(text), text).toBeNull();
  });

  it('builds the t.me link that brings the payload back', () => {
    expect(deepLink('shop_orders_bot', 'ord_1042-x7')).toBe('https://t.me/shop_orders_bot?start=ord_1042-x7');
    expect(deepLink('@shop_orders_bot', 'x')).toBe('https://t.me/shop_orders_bot?start=x');
    expect(startPayloadOf(`/start ${new URL(deepLink('shop_orders_bot', 'ord_7')).searchParams.get('start')}`)).toBe(
      'ord_7',
    );
    expect(() => deepLink('shop_orders_bot', 'ord 7')).toThrow(RangeError);
    expect(() => deepLink('shop_orders_bot', '')).toThrow(RangeError);
    expect(() => deepLink('shop_orders_bot', 'a'.repeat(65))).toThrow(RangeError);
    expect(() => deepLink('shop/bot', 'ord_7')).toThrow(RangeError);
    expect(isStartPayload('a'.repeat(64))).toBe(true);
  });
});

describe('Telegram webhook update', () => {
  const validator = compileValidator<TelegramUpdate>(TelegramUpdate, 'body');

  it('reads a /start from a private chat, with or without a language', () => {
    const withLanguage = validator.parse(startCommandUpdate({ chatId: 42, text: '/start p1', languageCode: 'en' }));
    expect(readStartCommand(withLanguage)).toEqual({ chatId: '42', payload: 'p1', languageCode: 'en' });
    const without = validator.parse(startCommandUpdate({ chatId: 43, text: '/start p2' }));
    expect(readStartCommand(without)).toEqual({ chatId: '43', payload: 'p2', languageCode: null });
  });

  it('keeps chat ids past 32 bits exact', () => {
    const update = validator.parse(startCommandUpdate({ chatId: 7_123_456_789_012, text: '/start p3' }));
    expect(readStartCommand(update)?.chatId).toBe('7123456789012');
  });

  it('ignores other messages, group chats and updates without a message', () => {
    expect(readStartCommand(validator.parse(startCommandUpdate({ chatId: 44, text: 'привет' })))).toBeNull();
    expect(readStartCommand(validator.parse(startCommandUpdate({ chatId: 45, text: '/start' })))).toBeNull();
    const group = startCommandUpdate({ chatId: 46, text: '/start@shop_orders_bot p4', chatType: 'supergroup' });
    expect(readStartCommand(validator.parse(group))).toBeNull();
    expect(readStartCommand(validator.parse({ update_id: 9, edited_message: { text: '/start p5' } }))).toBeNull();
    const photo = { update_id: 10, message: { message_id: 1, date: 1, chat: { id: 47, type: 'private' }, photo: [] } };
    expect(readStartCommand(validator.parse(photo))).toBeNull();
  });

  it('refuses a body that is no update', () => {
    expect(() => validator.parse({ message: { chat: { id: 1, type: 'private' }, text: '/start p6' } })).toThrow();
    expect(() => validator.parse({ update_id: 1, message: { chat: { id: 'x', type: 'private' } } })).toThrow();
  });
});
