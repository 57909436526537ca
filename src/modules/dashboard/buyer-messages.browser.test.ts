/**
 * The buyer-messages page end to end in Chromium (playwright-core): reached from the shops page;
 * SMS turned on without its key refused beside the key's field; e-mail turned on at two moments
 * with sandbox orders, saved; the at_point Russian SMS template given an unknown variable, the
 * refusal shown beside it, fixed while the preview follows the text typed (its parts counted, a
 * real order's number in it), saved; then an order's messages on its order page. axe-core and
 * desktop and phone screenshots under artifacts/dashboard-buyer-messages/.
 */
import fs from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  BROWSER_TESTS,
  builtApp,
  checkPage,
  dashboardPage,
  launchChromium,
  screenshots,
  signInAs,
} from '../../../test/support/browser.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { startFakeSmtp, type FakeSmtp } from '../../../test/support/smtp.js';

const { shot } = screenshots('dashboard-buyer-messages');
const OWNER = { email: 'owner@messages.example', password: 'owner password 1' };
const POLL = { timeout: 15_000 };

describe.skipIf(!BROWSER_TESTS)('the buyer messages page in Chromium', () => {
  let t: TestApp;
  let a: OrderingAccount;
  let smtp: FakeSmtp;
  let order: { id: number; trackNumber: string };
  let origin: string;
  let appDir: string;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[] = [];
  afterEach(() => expect(cspViolations).toEqual([]));

  beforeAll(async () => {
    appDir = await builtApp();
    smtp = await startFakeSmtp();
    t = await createTestApp({
      env: {
        APP_DIR: appDir,
        // statuses move only when the test pushes them
        SIMULATION_STEP_SECONDS: '0',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Доставка <noreply@delivery.test>',
      },
    });
    a = await orderingAccount(t, { name: 'Сообщения' });
    t.runtime.services.buyerMessageDispatcher.registerJobs(a.worker);
    await t.runtime.services.accounts.addEmployee(a.accountId, { name: 'Владелец', ...OWNER });
    // registered before the shop sends anything: its event waits for the dispatcher, which reads the settings then
    order = await preparedOrder(
      a.owner,
      a.worker,
      orderBody(a, {
        cmsId: 'MSG-1',
        recipient: { fullName: 'Светлана Котова', phone: '+79215556677', email: 'svetlana@buyer.test' },
      }),
    );
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    ({ page, cspViolations } = await dashboardPage(browser, { locale: 'ru-RU' }));
    await signInAs(page, origin, OWNER);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  });

  /** What Mantine shows under a field, its description and error (their ids are the field's aria-describedby). */
  const fieldError = async (field: Locator): Promise<string> => {
    const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
    const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
    return texts.join(' ');
  };
  const choose = async (select: string, option: string) => {
    await page.getByTestId(select).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  it('sets the channels, writes a template with its preview, and shows an order’s messages', async () => {
    const started = Date.now();
    await page.goto(`${origin}/app/settings/shops`);
    await choose('settings-shop', 'Мой магазин');
    await page.getByTestId('shop-buyer-messages').click();
    await page.waitForURL(`**/settings/buyer-messages?shop=${a.shopId}`);

    // SMS on with its gateway but no key: refused beside the key's field, nothing saved
    const sms = page.getByTestId('bm-channel-sms');
    await sms.getByTestId('bm-enabled-sms').check();
    await choose('bm-sms-gateway', 'SMS.ru');
    await page.getByTestId('bm-save-settings').click();
    const apiId = sms.getByTestId('bm-sms-api-id');
    await expect.poll(() => fieldError(apiId), POLL).toMatch(/apiId/);
    await sms.getByTestId('bm-enabled-sms').uncheck();

    // e-mail at two moments, sandbox orders too
    const email = page.getByTestId('bm-channel-email');
    await email.getByTestId('bm-enabled-email').check();
    for (const box of await email.locator('[data-testid^="bm-moment-email-"]').all()) {
      const moment = (await box.getAttribute('data-testid'))?.replace('bm-moment-email-', '');
      await box.setChecked(moment === 'registered' || moment === 'at_point');
    }
    await page.getByTestId('bm-sandbox').check();
    await page.getByTestId('bm-save-settings').click();
    await page.getByTestId('bm-settings-saved').waitFor();
    const settings = (await a.owner.get(`/v2/shops/${a.shopId}/buyer-messages`)).body;
    expect(settings).toMatchObject({
      sandbox: true,
      email: { enabled: true, moments: ['registered', 'at_point'] },
      sms: { enabled: false, configured: false },
    });

    // the at_point SMS in Russian: an unknown variable is refused beside its field
    await choose('bm-template-moment', 'Ждёт в пункте выдачи');
    const smsTemplate = page.getByTestId('bm-template-sms');
    await expect.poll(() => smsTemplate.inputValue(), POLL).toContain('ждёт вас');
    expect(await smsTemplate.getAttribute('data-own')).toBe('false');
    await smsTemplate.fill('Заказ {{ order.numbr }} ждёт');
    // the preview cannot render it either
    await page.getByTestId('bm-preview').getByTestId('api-error').waitFor();
    await page.getByTestId('bm-save-templates').click();
    await expect.poll(() => fieldError(smsTemplate), POLL).toMatch(/numbr/);

    // fixed: the refusal's word goes, the preview follows the text as typed, with the sample order, then a real one
    const preview = page.getByTestId('bm-preview');
    const smsText = preview.getByTestId('bm-preview-sms');
    const parts = () => preview.getByTestId('bm-preview-sms-count').getAttribute('data-segments');
    await smsTemplate.fill('{{ shop.brand }}: заказ {{ order.number }} ждёт вас');
    expect(await fieldError(smsTemplate)).not.toMatch(/numbr/);
    await expect.poll(() => smsText.textContent(), POLL).toBe('МойБренд: заказ SITE-1042 ждёт вас');
    expect(await parts()).toBe('1');
    await smsTemplate.fill(
      '{{ shop.brand }}: заказ {{ order.number }} ждёт вас {{ point.place }}. {{ point.address }}, {{ point.hours }}',
    );
    await expect.poll(parts, POLL).toBe('2');
    await preview.getByTestId('bm-preview-order').fill(String(order.id));
    await expect.poll(() => smsText.textContent(), POLL).toContain('заказ MSG-1 ждёт вас в пункте выдачи');
    expect(await preview.getByTestId('bm-preview-subject').textContent()).toContain('MSG-1');
    await checkPage(page, shot, 'buyer-messages-edited');
    // the e-mail's HTML on demand, in its frame, with the order's number, under the frame page's own policy
    await preview.getByTestId('bm-preview-show-html').click();
    const emailFrame = page.frameLocator('[data-testid="bm-preview-html"]');
    await expect.poll(() => emailFrame.locator('body').textContent(), POLL).toContain('MSG-1');
    expect(await emailFrame.locator('a', { hasText: 'Отписаться' }).count()).toBe(1);
    await emailFrame.locator('body').waitFor();
    await shot(page, 'buyer-messages-email-html');

    await page.getByTestId('bm-save-templates').click();
    await page.getByTestId('bm-templates-saved').waitFor();
    expect(await smsTemplate.getAttribute('data-own')).toBe('true');
    const templates = (await a.owner.get(`/v2/shops/${a.shopId}/buyer-messages/templates`)).body as {
      templates: Array<{ moment: string; language: string; sms: string; custom: string[] }>;
    };
    expect(templates.templates.find((row) => row.moment === 'at_point' && row.language === 'ru')).toMatchObject({
      custom: ['sms'],
      sms: expect.stringContaining('{{ point.hours }}'),
    });

    // the order's messages: registered sent by e-mail; at the point, queued (the worker not run since)
    await t.runtime.services.buyerMessageDispatcher.dispatch();
    await a.worker.runDue();
    const pushed = await t
      .client()
      .post(
        '/v2/tracking/events/1',
        { events: [41, 42].map((statusCode) => ({ trackNumber: order.trackNumber, statusCode })) },
        { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(1) } },
      );
    expect(pushed.status, pushed.text).toBeLessThan(300);
    await t.runtime.services.buyerMessageDispatcher.dispatch();
    const toBuyer = smtp.mails.filter((mail) => mail.to[0] === 'svetlana@buyer.test');
    expect(toBuyer.map((mail) => mail.subject)).toEqual([expect.stringContaining('заказ № MSG-1 оформлен')]);

    await page.goto(`${origin}/app/orders/${order.id}`);
    const rows = page.getByTestId('order-buyer-messages').getByTestId('order-buyer-message');
    await expect.poll(() => rows.count(), POLL).toBe(2);
    const row = (moment: string) => page.locator(`[data-testid="order-buyer-message"][data-moment="${moment}"]`);
    expect(await row('registered').getAttribute('data-status')).toBe('sent');
    expect(await row('registered').textContent()).toContain('Отправлено');
    expect(await row('at_point').getAttribute('data-status')).toBe('pending');
    expect(await row('at_point').textContent()).toContain('Ждёт в пункте выдачи');
    await checkPage(page, shot, 'order-buyer-messages');
    console.info(`buyer messages page test: ${Date.now() - started} ms`);
  }, 90_000);
});
