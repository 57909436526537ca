/** The recipient's public tracking page and the status-only answers, over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { shopBody } from '../../../test/support/fixtures.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';

let t: TestApp;
let account: OrderingAccount;

beforeAll(async () => {
  // statuses come from pushed events only: the page's content does not depend on a clock
  t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '0' } });
  account = await orderingAccount(t);
});
afterAll(async () => t.close());

const push = (trackNumber: string, statusCode: number, at: string) =>
  t
    .client()
    .post(
      '/v2/tracking/events/1',
      { events: [{ trackNumber, statusCode, at }] },
      { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
    );

/** The path of a link (inject takes paths; the links carry PUBLIC_URL). */
const pathOf = (url: string) => new URL(url).pathname;

async function trackingUrlOf(id: number): Promise<string> {
  const order = (await account.owner.get(`/v2/orders/${id}`)).body;
  expect(order.trackingUrl).toMatch(/^http:\/\/delivery\.test\/track\//);
  return order.trackingUrl as string;
}

describe('the order tracking link', () => {
  it('is sealed: the link of a track number alone shows the status, never the point or the shop', async () => {
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, orderBody(account));
    const url = await trackingUrlOf(id);
    expect(url).not.toBe(`http://delivery.test/track/punktir/${trackNumber}`);
    expect(url).toMatch(new RegExp(`^http://delivery\\.test/track/punktir/${trackNumber}/[A-Za-z0-9_-]{16}$`));
    expect((await account.owner.get(`/v2/tracking?id=${id}`)).body.trackingUrl).toBe(url);

    // what such a link (all links before sealing) still shows: the status and the company
    const old = await t.client().get(`/track/punktir/${trackNumber}`);
    expect(old.status).toBe(200);
    expect(old.text).toContain('Готов к отгрузке');
    expect(old.text).toContain('Пунктир');
    const point = (await account.owner.get(`/v2/orders/${id}`)).body.delivery.point;
    expect(old.text).not.toContain(point.address);
    expect(old.text).not.toContain('МойБренд');
    expect(old.text).not.toContain('SITE-77');
  });
});

describe('the tracking page', () => {
  it('shows the statuses, the point with its coordinates, hours and hold date, the shop and the company, with no token', async () => {
    const { id, trackNumber } = await preparedOrder(account.owner, account.worker, orderBody(account));
    expect((await push(trackNumber, 41, '2026-03-02T09:15:00Z')).body.applied).toBe(1);
    expect((await push(trackNumber, 42, '2026-03-04T18:30:00Z')).body.applied).toBe(1);
    const order = (await account.owner.get(`/v2/orders/${id}`)).body;
    const point = order.delivery.point;
    expect(point.holdDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const page = await t.client().get(pathOf(order.trackingUrl));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-log-id']).toEqual(expect.any(String));
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.text).toContain('<html lang="ru">');
    for (const status of ['В пункте выдачи', 'Принят службой доставки', 'Готов к отгрузке', 'Подтверждён'])
      expect(page.text).toContain(status);
    // the shop's draft is not the recipient's business
    expect(page.text).not.toContain('Черновик');
    // the dates in the account's zone (Moscow, UTC+3): 18:30 UTC is 21:30 there
    expect(page.text).toMatch(/4\sмарта\s2026\sг\.\sв\s21:30/);
    expect(page.text).toContain(escapeText(point.name));
    expect(page.text).toContain(escapeText(point.address));
    expect(page.text).toContain(`${point.latitude.toFixed(6)}, ${point.longitude.toFixed(6)}`);
    expect(page.text).toContain(`https://www.openstreetmap.org/?mlat=${point.latitude}&#38;mlon=${point.longitude}`);
    expect(page.text).toMatch(/Пн–(Пт|Сб|Вс) \d\d:\d\d–\d\d:\d\d|круглосуточно/);
    // arrived on 4 March in Moscow; the company keeps parcels 7 days
    expect(point.holdDate).toBe('2026-03-11');
    expect(page.text).toMatch(/Хранится до: <strong>11\sмарта\s2026\sг\.<\/strong>/);
    expect(page.text).toContain('Пунктир');
    expect(page.text).toContain('МойБренд');
    expect(page.text).toContain('SITE-77');
    expect(page.text).toContain('900,00');
    // what a recipient does not need and a forwarded link must not show
    for (const personal of ['Светлана', 'Котова', '79215556677', 'Литейный', 'Книга'])
      expect(page.text).not.toContain(personal);
  });

  it('speaks English by ?lang=en or Accept-Language, Russian by default', async () => {
    const { id } = await preparedOrder(account.owner, account.worker, orderBody(account));
    const path = pathOf(await trackingUrlOf(id));
    const english = await t.client().get(`${path}?lang=en`);
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('Ready for shipment');
    expect(english.text).toContain('Pickup point');
    expect(english.text).not.toContain('Готов к отгрузке');
    const byHeader = await t.client().get(path, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8,ru;q=0.5' } });
    expect(byHeader.text).toContain('Ready for shipment');
    const russianFirst = await t.client().get(path, { headers: { 'accept-language': 'ru-RU,en;q=0.9' } });
    expect(russianFirst.text).toContain('Готов к отгрузке');
    const unknownLanguage = await t.client().get(`${path}?lang=fr`, { headers: { 'accept-language': 'fr' } });
    expect(unknownLanguage.text).toContain('Готов к отгрузке');
  });

  it('shows a courier delivery with its city only', async () => {
    const courier = orderBody(account, {
      delivery: { company: { id: 1 }, type: 2 },
      deliveryAddress: {
        city: { countryCode: 'RU', name: 'Санкт-Петербург' },
        street: 'Литейный проспект',
        house: '3',
        flat: '45',
        zipCode: '191028',
      },
    });
    const { id } = await preparedOrder(account.owner, account.worker, courier);
    const page = await t.client().get(pathOf(await trackingUrlOf(id)));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Доставка курьером');
    expect(page.text).toContain('Санкт-Петербург');
    for (const personal of ['Литейный', '191028', 'Светлана', '79215556677']) expect(page.text).not.toContain(personal);
  });

  it('escapes what the shop wrote (its brand, the order number)', async () => {
    const attack = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'';
    const shopId = (
      await account.owner.post(
        '/v2/shops',
        shopBody(account.warehouseId, { name: 'XSS shop', brand: `Brand ${attack}` }),
      )
    ).body.id as number;
    const { id } = await preparedOrder(
      account.owner,
      account.worker,
      orderBody({ ...account, shopId }, { cmsId: `N-${attack}`, comment: attack }),
    );
    const page = await t.client().get(pathOf(await trackingUrlOf(id)));
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>');
    expect(page.text).not.toContain('<img');
    expect(page.text).toContain(
      'Brand &#60;script&#62;alert(1)&#60;/script&#62;&#60;img src=x onerror=alert(2)&#62;&#34;&#39;',
    );
    expect(page.text).toContain('N-&#60;script&#62;');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  });
});

describe('a link that names no parcel', () => {
  it('is a 404 page with the log id, showing nothing of the parcel whose track number or seal it borrows', async () => {
    const first = await preparedOrder(account.owner, account.worker, orderBody(account));
    const second = await preparedOrder(account.owner, account.worker, orderBody(account, { cmsId: 'OTHER-88' }));
    const firstUrl = await trackingUrlOf(first.id);
    const secondUrl = await trackingUrlOf(second.id);
    const seal = (url: string) => url.split('/').pop() as string;
    const mixed = [
      `/track/punktir/${first.trackNumber}/${seal(secondUrl)}`,
      `/track/punktir/${second.trackNumber}/${seal(firstUrl)}`,
      `/track/punktir/${first.trackNumber}/${seal(firstUrl).slice(0, -1)}A`,
      `/track/other/${first.trackNumber}/${seal(firstUrl)}`,
      `/track/punktir/PT00000000000/${seal(firstUrl)}`,
      `/track/punktir/PT00000000000`,
      '/track/punktir',
      '/track/',
    ];
    for (const path of mixed) {
      const page = await t.client().get(path);
      expect(page.status, path).toBe(404);
      expect(page.headers['content-type'], path).toBe('text/html; charset=utf-8');
      const logId = page.headers['x-log-id'] as string;
      expect(logId, path).toMatch(/^[0-9a-f]{32}$/);
      expect(page.text, path).toContain(logId);
      expect(page.text, path).toContain('Посылка не найдена');
      for (const leaked of ['SITE-77', 'OTHER-88', 'МойБренд', 'Готов к отгрузке'])
        expect(page.text, `${path} ${leaked}`).not.toContain(leaked);
    }
    expect((await t.client().get('/track/punktir/PT00000000000/x?lang=en')).text).toContain('Parcel not found');
  });

  it('of another account is not found either: the seal binds the order', async () => {
    const other = await orderingAccount(t, { name: 'Other' });
    const theirs = await preparedOrder(other.owner, other.worker, orderBody(other, { cmsId: 'THEIRS-1' }));
    const theirUrl = (await other.owner.get(`/v2/orders/${theirs.id}`)).body.trackingUrl as string;
    const mine = await preparedOrder(account.owner, account.worker, orderBody(account));
    const myUrl = await trackingUrlOf(mine.id);
    expect((await t.client().get(pathOf(theirUrl))).text).toContain('THEIRS-1');
    const borrowed = await t.client().get(`/track/punktir/${theirs.trackNumber}/${myUrl.split('/').pop()}`);
    expect(borrowed.status).toBe(404);
    expect(borrowed.text).not.toContain('THEIRS-1');
  });
});

describe('GET /site/tracking/{trackNumber}', () => {
  it('answers the current status only, without a token', async () => {
    const { trackNumber } = await preparedOrder(account.owner, account.worker, orderBody(account));
    await push(trackNumber, 41, '2026-03-02T09:15:00Z');
    const answer = await t.client().get(`/site/tracking/${trackNumber}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      trackNumber,
      code: 41,
      name: 'Принят службой доставки',
      date: '2026-03-02T09:15:00.000Z',
    });
    expect((await t.client().get(`/site/tracking/${trackNumber}?lang=en`)).body.name).toBe(
      'Accepted by the delivery company',
    );
  });

  it('is a 404 error body for an unknown track number', async () => {
    const answer = await t.client().get('/site/tracking/NOPE123');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'not_found', errors: [], logId: answer.headers['x-log-id'] });
  });
});

/** How the page writes a value of reference data (point names may hold quotes). */
function escapeText(value: string): string {
  return value.replace(/[&<>"'`]/g, (char) => `&#${char.charCodeAt(0)};`);
}
