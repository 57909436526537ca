/**
 * The shipping rules page end to end in Chromium (playwright-core): reached from the shops
 * page; a saved rule of a kind the forms do not show edited as JSON; a markup of 10 % on courier
 * added with the forms, the explain panel pricing it before the save and a refused markup's
 * field error shown beside its rule; saved as a version; the earlier version restored. axe-core
 * and desktop and phone screenshots under artifacts/dashboard-shipping-rules/.
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
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';

const { shot } = screenshots('dashboard-shipping-rules');
const OWNER = { email: 'owner@rules.example', password: 'owner password 1' };
const POLL = { timeout: 15_000 };

describe.skipIf(!BROWSER_TESTS)('the shipping rules page in Chromium', () => {
  let t: TestApp;
  let owner: ApiClient;
  let shopId: number;
  let origin: string;
  let appDir: string;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[] = [];
  afterEach(() => expect(cspViolations).toEqual([]));

  beforeAll(async () => {
    appDir = await builtApp();
    t = await createTestApp({ env: { APP_DIR: appDir } });
    const account = await t.newAccount('Правила');
    owner = account.client;
    await t.runtime.services.accounts.addEmployee(account.accountId, { name: 'Владелец', ...OWNER });
    const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    shopId = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Лавка' }))).body.id;
    // version 1, written by the account's token: a rule the forms do not show
    await owner.put(`/v2/shops/${shopId}/shipping-rules`, {
      rules: [{ name: 'Округление', actions: [{ type: 'round', step: 10, mode: 'up' }] }],
      comment: 'начало',
    });
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    ({ page, cspViolations } = await dashboardPage(browser, { locale: 'ru-RU' }));
    await signInAs(page, origin, OWNER);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  });

  /** The price the explain panel shows for the first courier offer that is not hidden. */
  const courier = (): Locator =>
    page.locator('[data-testid="explain-offer"][data-delivery-type="2"][data-hidden="false"]').first();
  const courierPrice = async () => Number(await courier().getAttribute('data-price'));

  it('adds a markup on courier, sees its price explained, saves a version and reverts it', async () => {
    const started = Date.now();
    await page.goto(`${origin}/app/settings/shops`);
    await page.getByTestId('shop-shipping-rules').click();
    await page.waitForURL(`**/settings/shipping-rules?shop=${shopId}`);
    const rules = page.getByTestId('shipping-rule');
    await expect.poll(() => rules.count(), POLL).toBe(1);
    expect(await rules.first().getByTestId('rule-json').inputValue()).toContain('"round"');
    await courier().waitFor();
    const before = await courierPrice();
    expect(before % 10).toBe(0);

    await page.getByTestId('add-shipping-rule').click();
    const markup = rules.nth(1);
    await markup.getByTestId('rule-name').fill('Наценка на курьера');
    // the pills' field sits under the sticky header once scrolled to: opened from the keyboard
    await markup.getByTestId('rule-delivery-types').focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Курьер' }).click();
    await page.keyboard.press('Escape');
    // the new rule's markup is 10 % by default; the panel explains the unsaved rules
    await expect.poll(courierPrice, POLL).toBeCloseTo(before * 1.1, 1);
    // the unnamed rule (a markup on every type) may have been explained before the name was typed
    await expect
      .poll(() => courier().getByTestId('explain-step').last().textContent(), POLL)
      .toContain('Наценка на курьера');

    // a markup with neither percent nor amount: the service's field error beside the rule
    await markup.getByTestId('rule-action-percent').fill('');
    await markup.getByTestId('rule-problems').waitFor();
    expect(await markup.getByTestId('rule-problems').textContent()).toContain('actions[0]');
    await markup.getByTestId('rule-action-percent').fill('10');
    await markup.getByTestId('rule-problems').waitFor({ state: 'detached' });
    await checkPage(page, shot, 'shipping-rules-edited');

    await page.getByTestId('rules-comment').fill('наценка 10 %');
    await page.getByTestId('save-shipping-rules').click();
    await page.getByTestId('shipping-rules-saved').waitFor();
    const version2 = page.locator('[data-testid="rule-version"][data-version="2"]');
    await version2.waitFor();
    expect(await version2.textContent()).toContain('Владелец');
    const saved = (await owner.get(`/v2/shops/${shopId}/shipping-rules`)).body;
    expect(saved.version).toBe(2);
    expect(saved.rules[1]).toMatchObject({
      name: 'Наценка на курьера',
      conditions: { deliveryTypes: [2] },
      actions: [{ type: 'markup', percent: 10 }],
    });

    await page.locator('[data-testid="rule-version"][data-version="1"]').getByTestId('revert-version').click();
    await page.locator('[data-testid="rule-version"][data-version="3"]').waitFor();
    await expect.poll(() => rules.count(), POLL).toBe(1);
    await expect.poll(courierPrice, POLL).toBe(before);
    const reverted = (await owner.get(`/v2/shops/${shopId}/shipping-rules`)).body;
    expect(reverted).toMatchObject({ version: 3, revertedFrom: 1, ruleCount: 1 });
    await checkPage(page, shot, 'shipping-rules-reverted');
    console.info(`shipping rules page test: ${Date.now() - started} ms`);
  }, 90_000);
});
