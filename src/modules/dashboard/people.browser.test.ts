/**
 * People and access end to end in Chromium (playwright-core), on the suite's database and a fake
 * SMTP server: the first start's set-up link sets the owner's e-mail and password and opens the
 * dashboard; the owner invites a colleague as a manager of one shop, who opens the link from the
 * e-mail, chooses a password and sees only that shop; the colleague forgets the password, asks for a
 * link from the sign-in page and chooses a new one; the Security page. Russian and English, desktop
 * and phone (checkPage: axe-core with no serious or critical finding, screenshots under
 * artifacts/dashboard-people/).
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  BROWSER_TESTS,
  builtApp,
  checkPage,
  dashboardPage,
  launchChromium,
  screenshots,
} from '../../../test/support/browser.js';
import { orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import { startFakeSmtp, type FakeSmtp } from '../../../test/support/smtp.js';
import { JobWorker } from '../../platform/jobs.js';

const { shot } = screenshots('dashboard-people');
const OWNER = { email: 'owner@people.example', password: 'the owner password' };
const COLLEAGUE = { email: 'colleague@people.example', password: 'the colleague password' };
const quiet = { error: () => undefined, warn: () => undefined };

describe.skipIf(!BROWSER_TESTS)('people and access in the dashboard, in Chromium', () => {
  let t: TestApp;
  let shop: OrderingAccount;
  let smtp: FakeSmtp;
  let worker: JobWorker;
  let origin: string;
  let appDir: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let violations: string[] = [];
  afterEach(() => expect(violations).toEqual([]));

  beforeAll(async () => {
    appDir = await builtApp();
    smtp = await startFakeSmtp();
    t = await createTestApp({ env: { APP_DIR: appDir, SMTP_URL: smtp.url, SIGNUP: 'open' } });
    worker = new JobWorker(t.runtime.services.jobs, quiet);
    t.runtime.services.linkMail.registerJobs(worker, quiet as never);
    shop = await orderingAccount(t, { name: 'Люди и доступ' });
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  });

  async function newPage(locale: 'ru-RU' | 'en-US'): Promise<Page> {
    const { context, page, cspViolations } = await dashboardPage(browser, { locale });
    contexts.push(context);
    violations = cspViolations;
    return page;
  }

  /** The link of the latest e-mail to `to` (the queued job sent to the fake SMTP server), on this server's origin. */
  async function linkIn(to: string, page: string): Promise<string> {
    for (let tries = 0; tries < 50; tries++) {
      await worker.runDue();
      const mail = smtp.mails.filter((item) => item.to.includes(to)).at(-1);
      const text = mail?.raw.replace(/=\r?\n/g, '');
      const link = text?.match(new RegExp(`https?://[^\\s"<>]+/app/${page}#[\\w-]+`))?.[0];
      if (link) return `${origin}${new URL(link).pathname}${new URL(link).hash}`;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${page} link was e-mailed to ${to}`);
  }

  it('sets up the first owner by the set-up link and lands signed in (Russian)', async () => {
    const { url } = await t.runtime.services.access.setupLink(shop.accountId);
    const page = await newPage('ru-RU');
    await page.goto(`${origin}${new URL(url).pathname}${new URL(url).hash}`);
    await page.getByRole('heading', { name: 'Настройка входа' }).waitFor();
    // the token left the address bar
    expect(page.url()).toBe(`${origin}/app/setup`);
    await page.getByLabel('Ваше имя').fill('Владелица');
    await page.getByLabel('Эл. почта').fill(OWNER.email);
    await page.getByLabel(/^Новый пароль/).fill('короткий');
    await page.getByTestId('link-submit').click();
    await page
      .getByTestId('api-error')
      .getByText(/Пароль слишком простой/)
      .waitFor();
    await checkPage(page, shot, 'setup-ru');
    await page.getByLabel(/^Новый пароль/).fill(OWNER.password);
    await page.getByTestId('link-submit').click();
    await page.getByTestId('sign-out').waitFor();
    // an owner whose account has steps left lands on the first-run checklist
    await page.getByTestId('checklist-page').waitFor();
    expect(page.url()).toBe(`${origin}/app/checklist`);

    await page.goto(`${origin}/app/security`);
    await page.getByTestId('session-current').waitFor();
    await checkPage(page, shot, 'security-ru');
  }, 90_000);

  it('invites a colleague, who opens the e-mailed link, chooses a password and sees only their shop (English)', async () => {
    const owner = contexts[0].pages()[0];
    await owner.goto(`${origin}/app/settings/employees`);
    await owner.getByLabel('Эл. почта').first().fill(COLLEAGUE.email);
    await owner.locator('.mantine-MultiSelect-input').first().click();
    await owner.getByRole('option', { name: 'Мой магазин' }).click();
    await owner.keyboard.press('Escape');
    await owner.getByTestId('invite').click();
    await owner.getByTestId(`invitation-${COLLEAGUE.email}`).waitFor();
    await checkPage(owner, shot, 'employees-ru');

    const link = await linkIn(COLLEAGUE.email, 'invite');
    const page = await newPage('en-US');
    await page.goto(link);
    await page.getByText(`You are invited as ${COLLEAGUE.email}`).waitFor();
    await checkPage(page, shot, 'invite-en');
    await page.getByLabel(/^New password/).fill(COLLEAGUE.password);
    await page.getByTestId('link-submit').click();
    await page.getByTestId('sign-out').waitFor();
    const shops = await page.evaluate(async () => (await (await fetch('/v2/shops')).json()) as Array<{ id: number }>);
    expect(shops.map((item) => item.id)).toEqual([shop.shopId]);
    // a manager's navigation has no owners' section
    expect(await page.getByRole('link', { name: 'Employees' }).count()).toBe(0);
    await checkPage(page, shot, 'manager-orders-en');
    // the invitation is gone from the owner's list once accepted
    await owner.reload();
    await owner.getByTestId(`employee-${COLLEAGUE.email}`).waitFor();
    expect(await owner.getByTestId(`invitation-${COLLEAGUE.email}`).count()).toBe(0);
  }, 90_000);

  it('resets a forgotten password by the e-mailed link (English), then signs in with it', async () => {
    const page = await newPage('en-US');
    await page.goto(`${origin}/app/`);
    await page.getByTestId('forgot-password').click();
    await page.getByLabel('E-mail').fill(COLLEAGUE.email);
    await page.getByTestId('send-link').click();
    // on a loaded CI machine the answer once took more than the default 20 s
    await page.getByTestId('link-sent').waitFor({ timeout: 60_000 });
    await checkPage(page, shot, 'forgot-en');

    const link = await linkIn(COLLEAGUE.email, 'reset');
    await page.goto(link);
    await page.getByText(`For ${COLLEAGUE.email}.`).waitFor();
    await checkPage(page, shot, 'reset-en');
    const renewed = 'a renewed colleague password';
    await page.getByLabel(/^New password/).fill(renewed);
    await page.getByTestId('link-submit').click();
    await page.getByTestId('sign-out').waitFor();
    // the session opened by the invitation ended with the reset
    const before = contexts[1].pages()[0];
    await before.reload();
    await before.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await t.client().post('/v2/auth/login', COLLEAGUE)).status).toBe(401);
    expect((await t.client().post('/v2/auth/login', { email: COLLEAGUE.email, password: renewed })).status).toBe(200);
    // a used link says so
    await page.goto(link);
    await page.getByTestId('link-invalid').waitFor();
    await checkPage(page, shot, 'link-used-en');
  }, 90_000);
});
