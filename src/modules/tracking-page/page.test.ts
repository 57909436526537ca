/** The page renderer, the language choice and the link seal: pure rules. */
import { describe, expect, it } from 'vitest';
import { TrackingLinks } from './links.js';
import { pageLanguage, renderMissingPage, renderTrackingPage, scheduleLines, type TrackingView } from './page.js';

const ATTACK = '<script>alert(1)</script><img src=x onerror="alert(2)">\'`&';

function view(overrides: Partial<TrackingView> = {}): TrackingView {
  return {
    lang: 'ru',
    timeZone: 'Asia/Yekaterinburg',
    trackNumber: 'PT12345678901',
    orderNumber: 'SITE-77',
    shopName: 'МойБренд',
    companyName: 'Пунктир',
    history: [
      { code: 42, name: 'В пункте выдачи', at: '2026-03-04T18:30:00Z', description: 'Прибыл в ПВЗ на Литейном' },
      { code: 13, name: 'Готов к отгрузке', at: '2026-03-01T07:00:00Z', description: null },
    ],
    deliveryType: 1,
    city: null,
    expected: { from: '2026-03-05', to: '2026-03-07' },
    point: {
      name: 'ПВЗ Литейный',
      address: 'Санкт-Петербург, Литейный пр., 3',
      description: 'Вход со двора',
      latitude: 59.9386,
      longitude: 30.3141,
      schedule: [...Array(5).fill({ from: '10:00', to: '20:00' }), { from: '10:00', to: '18:00' }, null],
      holdDate: '2026-03-11',
      storageEnding: false,
    },
    codToPay: 1234.5,
    ...overrides,
  };
}

describe('renderTrackingPage', () => {
  it('writes the statuses in the account zone, the point, hours, coordinates, map link and hold date', () => {
    const html = renderTrackingPage(view());
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    // 18:30 UTC is 23:30 in Yekaterinburg (UTC+5)
    expect(html).toMatch(/4\sмарта\s2026\sг\.\sв\s23:30/);
    expect(html).toContain('Прибыл в ПВЗ на Литейном');
    expect(html).toContain('<li>Пн–Пт 10:00–20:00</li><li>Сб 10:00–18:00</li><li>Вс выходной</li>');
    expect(html).toContain('59.938600, 30.314100');
    expect(html).toContain(
      'href="https://www.openstreetmap.org/?mlat=59.9386&#38;mlon=30.3141#map=17/59.9386/30.3141"',
    );
    expect(html).toMatch(/Хранится до: <strong>11\sмарта\s2026\sг\.<\/strong>/);
    expect(html).toMatch(/1\s234,50\s₽/);
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/);
  });

  it('shows the city and expected dates of a courier delivery, and the storage warning in English', () => {
    const courier = renderTrackingPage(view({ point: null, deliveryType: 2, city: 'Санкт-Петербург' }));
    expect(courier).toContain('Доставка курьером');
    expect(courier).toMatch(/5\s?–\s?7\sмарта\s2026\sг\./);
    const english = renderTrackingPage(view({ lang: 'en', point: { ...view().point!, storageEnding: true } }));
    expect(english).toMatch(/Kept until: <strong>11\sMarch\s2026<\/strong>/);
    expect(english).toContain('Storage ends soon');
    expect(english).toContain('<li>Mon–Fri 10:00–20:00</li>');
  });

  it('escapes every value a shop or a company wrote', () => {
    const html = renderTrackingPage(
      view({
        trackNumber: ATTACK,
        orderNumber: ATTACK,
        shopName: ATTACK,
        companyName: ATTACK,
        history: [{ code: 42, name: ATTACK, at: '2026-03-04T18:30:00Z', description: ATTACK }],
        point: { ...view().point!, name: ATTACK, address: ATTACK, description: ATTACK },
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('"alert(2)"');
    // 10: each field once, the current status twice (summary and history)
    expect(
      html.split(
        '&#60;script&#62;alert(1)&#60;/script&#62;&#60;img src=x onerror=&#34;alert(2)&#34;&#62;&#39;&#96;&#38;',
      ).length - 1,
    ).toBe(10);
    const courier = renderTrackingPage(view({ point: null, deliveryType: 2, city: ATTACK }));
    expect(courier).not.toContain('<script>');
  });

  it('a missing page names the log id', () => {
    expect(renderMissingPage('en', 'abc123')).toContain('Reference for support: abc123');
  });
});

describe('scheduleLines', () => {
  it('joins days with the same hours; a locker is open all day', () => {
    expect(scheduleLines(Array(7).fill({ from: '00:00', to: '24:00' }), 'ru')).toEqual(['Пн–Вс круглосуточно']);
    expect(
      scheduleLines(
        [{ from: '09:00', to: '18:00' }, null, { from: '09:00', to: '18:00' }, null, null, null, null],
        'en',
      ),
    ).toEqual(['Mon 09:00–18:00', 'Tue closed', 'Wed 09:00–18:00', 'Thu–Sun closed']);
  });
});

describe('pageLanguage', () => {
  it('takes ?lang, then the best of ru and en in Accept-Language, else Russian', () => {
    expect(pageLanguage('en', 'ru')).toBe('en');
    expect(pageLanguage(undefined, undefined)).toBe('ru');
    expect(pageLanguage('de', 'de-DE, en-US;q=0.7, ru;q=0.3')).toBe('en');
    expect(pageLanguage(undefined, 'en;q=0.5, ru-RU;q=0.8')).toBe('ru');
    expect(pageLanguage(undefined, 'en;q=0, fr')).toBe('ru');
  });
});

describe('TrackingLinks', () => {
  const links = new TrackingLinks('https://delivery.example', 'key-1');
  const parcel = { companyId: 1, companyCode: 'punktir', trackNumber: 'PT12345678901', accountId: 5, orderId: 77 };

  it('seals the company, track number, account and order with the key', () => {
    const url = links.url(parcel);
    expect(url).toMatch(/^https:\/\/delivery\.example\/track\/punktir\/PT12345678901\/[A-Za-z0-9_-]{16}$/);
    const seal = url.split('/').pop()!;
    expect(links.opens(parcel, seal)).toBe(true);
    expect(links.opens({ ...parcel, orderId: 78 }, seal)).toBe(false);
    expect(links.opens({ ...parcel, accountId: 6 }, seal)).toBe(false);
    expect(links.opens({ ...parcel, trackNumber: 'PT12345678902' }, seal)).toBe(false);
    expect(new TrackingLinks('https://delivery.example', 'key-2').opens(parcel, seal)).toBe(false);
    expect(links.opens(parcel, seal.slice(0, 15))).toBe(false);
  });
});
