/**
 * The buyer's returns page in Chromium at a phone's size: from the tracking page's link a buyer
 * returns one item of three of a delivered order (quantity, reason, a photo, a point near them),
 * and gets the return's code and QR code; then the lookup by number and phone in English.
 * Screenshots under artifacts/returns-page/.
 */
import net from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  accessibilityFindings,
  BROWSER_TESTS,
  cspViolationsOf,
  launchChromium,
  PHONE,
  screenshots,
  tilePng,
} from '../../../test/support/browser.js';
import { orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import { deliveredOrder } from '../../../test/support/returns.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe.skipIf(!BROWSER_TESTS)("the buyer's returns page in Chromium at a phone size", () => {
  let t: TestApp;
  let a: OrderingAccount;
  let browser: Browser;
  let origin: string;
  let delivered: { id: number; cmsId: string };
  const { shot } = screenshots('returns-page');

  beforeAll(async () => {
    // the links the service makes name its PUBLIC_URL: the app on a loopback port chosen first
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { SIMULATION_STEP_SECONDS: '60', PUBLIC_URL: origin } });
    a = await orderingAccount(t);
    delivered = await deliveredOrder(a.owner, a.worker, { shopId: a.shopId, pointId: a.pointId });
    await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages`, { brand: { color: '#7a1f5c' } });
    await a.owner.put(`/v2/shops/${a.shopId}/return-settings`, {
      enabled: true,
      windowDays: 14,
      ways: [
        { way: 'point', companyIds: [1] },
        { way: 'courier', companyIds: [1] },
      ],
      payer: 'buyer_unless_fault',
      autoApprove: { reasons: ['did_not_fit'], maxGoodsValue: 1000, withinDays: null },
    });
    await t.app.listen({ host: '127.0.0.1', port });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function phonePage(locale: string): Promise<{ page: Page; csp: string[] }> {
    const context = await browser.newContext({ viewport: PHONE, locale, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return { page, csp: cspViolationsOf(page) };
  }

  it('takes a buyer from the tracking page to a return of one item of three, with its code and QR code', async () => {
    const { page, csp } = await phonePage('ru-RU');
    const trackingUrl = (await a.owner.get(`/v2/orders/${delivered.id}`)).body.trackingUrl as string;
    await page.goto(`${origin}${new URL(trackingUrl).pathname}`);
    await page.getByRole('link', { name: 'Вернуть товар' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Возврат товаров' }).isVisible()).toBe(true);
    expect(await page.locator('[data-line]').count()).toBe(3);
    expect(await accessibilityFindings(page)).toEqual([]);
    await shot(page, 'order-phone');

    // the mug: one of three lines, one unit, did not fit, with a photo, at the point offered first
    await page.locator('#count-1').selectOption('1');
    await page.locator('#reason-1').selectOption('did_not_fit');
    await page.locator('#comment-1').fill('Слишком маленькая');
    // and a large photo (over 1 MB): the page makes it smaller (a JPEG) before sending
    const large = tilePng(800, true);
    expect(large.length).toBeGreaterThan(1024 * 1024);
    await page.locator('#photos').setInputFiles([
      { name: 'mug.png', mimeType: 'image/png', buffer: tilePng() },
      { name: 'IMG_2041.png', mimeType: 'image/png', buffer: large },
    ]);
    expect(await page.locator('input[name=option]:checked').inputValue()).toBe('point:1');
    await shot(page, 'form-filled-phone');
    await page.getByRole('button', { name: '3. Оформить возврат' }).click();
    // the photo is redrawn and sent first: on a loaded machine that takes seconds
    await expect.poll(() => page.locator('.return .code').count(), { timeout: 20_000 }).toBe(1);
    const code = (await page.locator('.return .code').textContent()) as string;
    expect(code).toMatch(/^R[0-9A-Z]{10}$/);
    // approved by the shop's rules at once: the QR code and what to do are on the page
    expect(await page.locator('.return .qr svg').count()).toBe(1);
    await expect.poll(() => page.getByText('принесите в пункт').isVisible()).toBe(true);
    // what is left of the order may still come back: the mug was the only unit of its line
    expect(await page.locator('[data-line]').count()).toBe(2);
    expect(await accessibilityFindings(page)).toEqual([]);
    await shot(page, 'return-made-phone');
    expect(csp).toEqual([]);

    const [made] = (await a.owner.get(`/v2/returns?orderId=${delivered.id}`)).body;
    expect(made).toMatchObject({
      code,
      status: 'approved',
      approvedBy: 'rules',
      createdBy: 'buyer',
      lines: [{ line: 1, count: 1, reason: 'did_not_fit', comment: 'Слишком маленькая' }],
      photos: [expect.stringMatching(/\.png$/), expect.stringMatching(/\.jpe?g$/)],
    });
    expect(made.parcelOrderId).toBeGreaterThan(0);
  }, 120_000);

  it('finds the order by number and phone in English, the same answer for a wrong phone', async () => {
    const { page } = await phonePage('en-GB');
    const shopPage = (await a.owner.get(`/v2/shops/${a.shopId}/return-settings`)).body.pageUrl as string;
    await page.goto(`${origin}${new URL(shopPage).pathname}`);
    await page.getByLabel('Order number').fill(delivered.cmsId);
    await page.getByLabel('Phone').fill('+7 999 000 00 00');
    await page.getByRole('button', { name: 'Find the order' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('No delivered order');
    await shot(page, 'lookup-refused-phone');
    await page.getByLabel('Phone').fill('+7 921 555-66-77');
    await page.getByRole('button', { name: 'Find the order' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Return goods' }).isVisible()).toBe(true);
    expect(await page.locator('.return .code').count()).toBe(1);
    expect(await accessibilityFindings(page)).toEqual([]);
    await shot(page, 'lookup-found-phone');
  }, 120_000);
});
