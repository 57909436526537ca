/**
 * Buyers' messages, the pure parts: every moment's default renders in Russian and English for
 * each channel with the sample order; a shop's mistakes are found when saved; Russian plurals
 * and dates; quiet hours across time zones and midnight; the moments of events; signed links.
 */
import { describe, expect, it } from 'vitest';
import { smsSegments } from '../../messaging/sms-text.js';
import { sampleContext } from './context.js';
import { quietHoursEnd } from './dispatch.js';
import { emailHtml } from './email-html.js';
import { readTelegramPayload, readUnsubscribeToken, telegramPayload, unsubscribeToken } from './links.js';
import { LANGUAGES, MOMENTS, momentOf } from './moments.js';
import { inQuietHours } from './settings.js';
import { renderTemplate, templateOf, templateProblem } from './templates.js';

describe('default templates', () => {
  it('render every moment in Russian and English, for e-mail, SMS and Telegram', async () => {
    for (const language of LANGUAGES)
      for (const moment of MOMENTS) {
        const context = sampleContext(language);
        const subject = await renderTemplate(templateOf({}, moment, language, 'subject'), context);
        const text = await renderTemplate(templateOf({}, moment, language, 'text'), context);
        const sms = await renderTemplate(templateOf({}, moment, language, 'sms'), context);
        const telegram = await renderTemplate(templateOf({}, moment, language, 'text'), context, true);
        expect(subject, `${moment} ${language}`).toContain('SITE-1042');
        expect(text).toContain(context.hello);
        expect(text).not.toMatch(/\{\{|\{%/);
        // an SMS of the defaults is at most two parts in Cyrillic
        expect(smsSegments(sms).segments, `${moment} ${language}: ${sms}`).toBeLessThanOrEqual(2);
        expect(telegram).not.toContain('<script');
      }
    const atPoint = await renderTemplate(templateOf({}, 'at_point', 'ru', 'subject'), sampleContext('ru'));
    expect(atPoint).toBe('МойБренд: заказ № SITE-1042 ждёт вас в пункте выдачи до 10.12.2026');
  });

  it('escapes what the buyer and the shop wrote in Telegram HTML, and keeps SMS plain', async () => {
    const context = { ...sampleContext('ru'), hello: 'Здравствуйте, <b>Ann</b> & Co!' };
    expect(await renderTemplate('{{ hello }}', context, true)).toBe('Здравствуйте, &lt;b&gt;Ann&lt;/b&gt; &amp; Co!');
    expect(await renderTemplate('{{ hello }}', context)).toBe('Здравствуйте, <b>Ann</b> & Co!');
  });
});

describe('a shop’s own template', () => {
  const sample = sampleContext('ru');
  it('is refused with what is wrong: an unknown variable or filter, a syntax error, a partial, too long', async () => {
    expect(await templateProblem('Заказ {{ order.numbr }}', sample)).toMatch(/numbr/);
    expect(await templateProblem('{{ order.number | shout }}', sample)).toMatch(/shout/);
    expect(await templateProblem('{% if order.number %}', sample)).toMatch(/cannot be read|tag/);
    expect(await templateProblem('{% include "secret" %}', sample)).not.toBeNull();
    expect(await templateProblem('x'.repeat(4001), sample)).toMatch(/longer/);
    expect(await templateProblem('{% for i in (1..100000000) %}{{ i }}{% endfor %}', sample)).not.toBeNull();
    expect(await templateProblem('Заказ {{ order.number }} придёт {{ promise.date | ru_date }}', sample)).toBeNull();
  });

  it('says the e-mail’s text in Telegram unless the shop wrote Telegram its own', () => {
    expect(templateOf({}, 'delivered', 'ru', 'telegram')).toBe(templateOf({}, 'delivered', 'ru', 'text'));
    const own = { delivered: { ru: { text: 'Письмо', telegram: 'Телеграм' } } };
    expect(templateOf(own, 'delivered', 'ru', 'telegram')).toBe('Телеграм');
    expect(templateOf({ delivered: { ru: { text: 'Письмо' } } }, 'delivered', 'ru', 'telegram')).toBe('Письмо');
  });

  it('has Russian plural forms and dates', async () => {
    const say = (days: number) => renderTemplate('{{ n | plural: "день", "дня", "дней" }}', { n: days });
    expect(await say(1)).toBe('1 день');
    expect(await say(3)).toBe('3 дня');
    expect(await say(5)).toBe('5 дней');
    expect(await say(21)).toBe('21 день');
    expect(await renderTemplate('{{ n | plural: "day", "days" }}', { n: 2 })).toBe('2 days');
    expect(await renderTemplate('{{ d | ru_date }}, {{ d | numeric_date }}', { d: '2026-12-03' })).toBe(
      '3 декабря, 03.12.2026',
    );
  });
});

describe('quiet hours', () => {
  const quiet = { from: '21:00', to: '09:00' };
  it('run past midnight', () => {
    expect(inQuietHours(quiet, '22:30')).toBe(true);
    expect(inQuietHours(quiet, '08:59')).toBe(true);
    expect(inQuietHours(quiet, '09:00')).toBe(false);
    expect(inQuietHours(null, '03:00')).toBe(false);
  });

  it('hold a message until 09:00 in the buyer’s zone, not the server’s', () => {
    // 19:30 UTC is 22:30 in Moscow and 02:30 next day in Novosibirsk: both quiet, each until its own 09:00
    const now = new Date('2026-12-01T19:30:00Z');
    expect(quietHoursEnd(quiet, 'Europe/Moscow', now).toISOString()).toBe('2026-12-02T06:00:00.000Z');
    expect(quietHoursEnd(quiet, 'Asia/Novosibirsk', now).toISOString()).toBe('2026-12-02T02:00:00.000Z');
    // 07:00 UTC is 10:00 in Moscow: sent now; 14:00 in Vladivostok... 17:00: now too
    const day = new Date('2026-12-01T07:00:00Z');
    expect(quietHoursEnd(quiet, 'Europe/Moscow', day)).toEqual(day);
    // 05:00 UTC is 08:00 in Moscow: held an hour
    expect(quietHoursEnd(quiet, 'Europe/Moscow', new Date('2026-12-01T05:00:00Z')).toISOString()).toBe(
      '2026-12-01T06:00:00.000Z',
    );
  });
});

describe('moments of events', () => {
  it('maps statuses and events, and a repeated hand-over status is no second hand-over', () => {
    const status = (from: number | null, to: number) =>
      momentOf({ type: 'order.status_changed', statusFrom: from, statusTo: to });
    expect(status(12, 13)).toBe('registered');
    expect(status(13, 14)).toBe('handed_over');
    expect(status(14, 41)).toBeNull();
    expect(status(412, 42)).toBe('at_point');
    expect(status(412, 43)).toBe('out_for_delivery');
    expect(status(43, 44)).toBe('delivered');
    expect(status(43, 462)).toBe('refused');
    expect(status(71, 72)).toBe('return_received');
    expect(momentOf({ type: 'order.late', statusFrom: 41, statusTo: 41 })).toBe('late');
    expect(momentOf({ type: 'order.storage_ending', statusFrom: 42, statusTo: 42 })).toBe('storage_ending');
    expect(momentOf({ type: 'order.created', statusFrom: null, statusTo: 11 })).toBeNull();
  });
});

describe('signed links', () => {
  it('read back what they name and refuse a change', () => {
    const token = unsubscribeToken('key', { accountId: 7, shopId: 3, channel: 'sms', address: '79161234567' });
    expect(readUnsubscribeToken('key', token)).toEqual({
      accountId: 7,
      shopId: 3,
      channel: 'sms',
      address: '79161234567',
    });
    expect(readUnsubscribeToken('other', token)).toBeNull();
    expect(readUnsubscribeToken('key', `${token.slice(0, -1)}x`)).toBeNull();
    const payload = telegramPayload('key', 7, 1042);
    expect(payload).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(readTelegramPayload('key', payload)).toEqual({ accountId: 7, orderId: 1042 });
    expect(readTelegramPayload('key', payload.replace('1042', '1043'))).toBeNull();
  });

  it('put the brand, the tracking button and the unsubscribe link in the e-mail, escaped', () => {
    const html = emailHtml(
      { brand: 'Shop <&>', logoUrl: null, color: '#aa0000', language: 'ru' },
      'Тема',
      'Строка <b>1</b>\nhttps://delivery.example/t/abc',
      { tracking: 'https://delivery.example/t/abc', unsubscribe: 'https://delivery.example/u/x' },
    );
    expect(html).toContain('Shop &lt;&amp;&gt;');
    expect(html).toContain('Строка &lt;b&gt;1&lt;/b&gt;');
    expect(html).toContain('<a href="https://delivery.example/t/abc"');
    expect(html).toContain('Отследить заказ');
    expect(html).toContain('https://delivery.example/u/x');
    expect(html).toContain('#aa0000');
  });
});
