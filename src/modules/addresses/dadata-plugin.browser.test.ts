/**
 * DaData's own front-end component (suggestions-jquery, HFLabs' official jQuery plugin, the one
 * DaData's documentation and the CMS plugins embed) pointed at this service in Chromium: a shop's
 * page on another origin with the shop's publishable widget key as the plugin's token. The plugin
 * asks status/address, suggests as the buyer types, enriches the chosen suggestion with a second
 * suggest, and hands the page DaData's shapes: it must parse ours.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { BROWSER_TESTS, launchChromium } from '../../../test/support/browser.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import { writeAddressFixture } from './test-fixture.js';

const require = createRequire(import.meta.url);
const JQUERY = fs.readFileSync(require.resolve('jquery/dist/jquery.min.js'), 'utf8');
const PLUGIN = fs.readFileSync(require.resolve('suggestions-jquery/dist/js/jquery.suggestions.min.js'), 'utf8');

describe.skipIf(!BROWSER_TESTS)("DaData's jQuery plugin pointed at the service, in Chromium", () => {
  let t: TestApp;
  let apiOrigin: string;
  let shop: http.Server;
  let shopOrigin: string;
  let publicKey: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp();
    await writeAddressFixture(t.runtime.database.db);
    t.runtime.services.addresses.forgetLoaded();
    apiOrigin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    shop = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Доставка</title>
<script>${JQUERY}</script><script>${PLUGIN}</script></head>
<body><label>Адрес <input id="address" name="address" autocomplete="off"></label>
<script>
window.selected = null; window.failures = [];
$('#address').suggestions({
  token: ${JSON.stringify('__KEY__')}.replace('__KEY__', new URLSearchParams(location.search).get('key')),
  type: 'ADDRESS',
  serviceUrl: ${JSON.stringify(`${'__API__'}/dadata/suggestions/api/4_1/rs`)}.replace('__API__', new URLSearchParams(location.search).get('api')),
  onSelect: function (suggestion) { window.selected = suggestion; },
  onSearchError: function (_query, _xhr, _status, error) { window.failures.push(String(error)); },
});
</script></body></html>`);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    const owner = (await t.newAccount('Plugin')).client;
    const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    const shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    publicKey = (await owner.post(`/v2/shops/${shopId}/widget-key`, { allowedOrigins: [shopOrigin] })).body.publicKey;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => shop.close(() => resolve()));
    await t.close();
  });

  it('suggests as the buyer types, and the chosen address arrives in DaData’s shape', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(apiOrigin)) calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await page.goto(`${shopOrigin}/?key=${encodeURIComponent(publicKey)}&api=${encodeURIComponent(apiOrigin)}`);
    await page.locator('#address').pressSequentially('москва ленина 5к2', { delay: 20 });
    const first = page.locator('.suggestions-suggestion').first();
    await expect.poll(async () => first.textContent(), { timeout: 15_000 }).toContain('Ленина');
    const shown = await page.locator('.suggestions-suggestion').allTextContents();
    expect(shown[0]).toContain('д 5 к 2');
    await first.click();
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { selected: unknown }).selected))
      .not.toBeNull();
    const selected = (await page.evaluate(() => (globalThis as unknown as { selected: unknown }).selected)) as {
      value: string;
      data: Record<string, unknown>;
    };
    expect(selected.value).toBe('г Москва, ул Ленина, д 5 к 2');
    expect(selected.data).toMatchObject({
      city: 'Москва',
      street_with_type: 'ул Ленина',
      house: '5',
      block_type: 'к',
      block: '2',
      fias_level: '8',
      postal_code: '101000',
    });
    // the plugin leaves a space after a house without a flat, for the buyer to go on typing
    expect((await page.inputValue('#address')).trim()).toBe('г Москва, ул Ленина, д 5 к 2');
    expect(await page.evaluate(() => (globalThis as unknown as { failures: string[] }).failures)).toEqual([]);
    expect(calls).toEqual(
      expect.arrayContaining([
        'GET /dadata/suggestions/api/4_1/rs/status/address',
        'POST /dadata/suggestions/api/4_1/rs/suggest/address',
      ]),
    );
    await context.close();
  }, 60_000);
});
