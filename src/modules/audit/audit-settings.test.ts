/**
 * Settings' values before and after in the trail, through HTTP: widget settings, return
 * settings, a delivery method, buyer-message settings and templates, the DaData keys. Secrets
 * (a bot's token, an SMS gateway's API id, the DaData keys) appear nowhere in an entry or the export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { startFakeCdek, type FakeRealCarrier } from '../../../test/support/fake-real-carriers.js';
import { SMSRU_API_ID, startFakeSmsRu, type FakeSmsGateway } from '../../../test/support/fake-sms-gateways.js';
import { startFakeTelegram, type FakeTelegram } from '../../../test/support/fake-telegram.js';
import { orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import type { AuditEntryView } from './service.js';

const BOT_TOKEN = '123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr';
const DADATA_KEY = 'dadata-api-key-0123456789abcdef';
const DADATA_SECRET = 'dadata-secret-key-0123456789abcdef';

let t: TestApp;
let a: OrderingAccount;
let sms: FakeSmsGateway;
let telegram: FakeTelegram;
let cdek: FakeRealCarrier;

beforeAll(async () => {
  sms = await startFakeSmsRu();
  telegram = await startFakeTelegram();
  telegram.addBot(BOT_TOKEN, 'audit_shop_bot');
  cdek = await startFakeCdek();
  t = await createTestApp({
    env: {
      SMSRU_URL: sms.url,
      TELEGRAM_API_URL: telegram.url,
      PUBLIC_URL: 'http://127.0.0.1:1',
      CARRIER_CDEK_URL: `${cdek.baseUrl}/v2`,
      CARRIER_CDEK_TEST_URL: `${cdek.baseUrl}/v2`,
      CARRIER_TIMEOUT_MS: '2000',
    },
  });
  a = await orderingAccount(t, { name: 'Settings shop' });
});
afterAll(async () => {
  await t?.close();
  await sms?.close();
  await telegram?.close();
  await cdek?.close();
});

async function latest(operation: string): Promise<AuditEntryView> {
  const answer = await a.owner.get(`/v2/audit?operation=${operation}`);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.length, `no entry of ${operation}`).toBeGreaterThan(0);
  return answer.body[0];
}

describe('settings before and after', () => {
  it('widget settings, return settings and a delivery method', async () => {
    const widget = `/v2/shops/${a.shopId}/widget-settings`;
    expect((await a.owner.put(widget, { freeDeliveryFrom: 3000 })).status).toBe(204);
    expect((await a.owner.put(widget, { freeDeliveryFrom: 5000, hiddenCompanyIds: [2] })).status).toBe(204);
    const widgetEntry = await latest('replaceWidgetSettings');
    expect(widgetEntry.changes?.[0]).toMatchObject({
      type: 'widget_settings',
      ids: [a.shopId],
      before: { freeDeliveryFrom: 3000, hiddenCompanyIds: [] },
      after: { freeDeliveryFrom: 5000, hiddenCompanyIds: [2] },
    });

    const returns = `/v2/shops/${a.shopId}/return-settings`;
    const saved = await a.owner.put(returns, {
      enabled: true,
      windowDays: 21,
      ways: [{ way: 'point', companyIds: [1] }],
      payer: 'buyer',
      autoApprove: null,
    });
    expect(saved.status, saved.text).toBe(200);
    const returnsEntry = (await a.owner.get(`/v2/audit?record=return_settings:${a.shopId}`)).body[0] as AuditEntryView;
    expect(returnsEntry.changes?.[0]).toMatchObject({
      type: 'return_settings',
      before: null,
      after: { enabled: true, windowDays: 21, payer: 'buyer' },
    });

    const method = {
      name: 'Свои курьеры',
      type: 2,
      radiusKm: 30,
      priceRules: [{ weightTo: 5, price: 300 }, { price: 600 }],
      freeFrom: 5000,
      days: { min: 1, max: 2 },
      cashPaymentAvailable: true,
      cardPaymentAvailable: true,
    };
    const created = await a.owner.post('/v2/delivery-methods', method);
    expect(created.status, created.text).toBe(201);
    expect((await a.owner.put(`/v2/delivery-methods/${created.body.id}`, { ...method, radiusKm: 45 })).status).toBe(
      204,
    );
    const methodEntry = await latest('replaceOwnDeliveryMethod');
    expect(methodEntry.changes?.[0]).toMatchObject({
      type: 'delivery_methods',
      before: { name: 'Свои курьеры', radiusKm: 30 },
      after: { radiusKm: 45 },
    });
  });

  it('buyer-message settings and templates, never the bot token or the gateway API id', async () => {
    const saved = await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages`, {
      email: { enabled: true, moments: ['registered'] },
      sms: { enabled: true, gateway: 'smsru', apiId: SMSRU_API_ID, moments: ['at_point'] },
      telegram: { enabled: true, botToken: BOT_TOKEN },
    });
    expect(saved.status, saved.text).toBe(200);
    const entry = (await a.owner.get(`/v2/audit?record=buyer_message_settings:${a.shopId}`)).body[0] as AuditEntryView;
    expect(entry.changes?.[0]).toMatchObject({
      before: { sms: { enabled: false, configured: false }, telegram: { enabled: false } },
      after: {
        sms: { enabled: true, configured: true, gateway: 'smsru' },
        telegram: { enabled: true, botUsername: 'audit_shop_bot' },
        credentialsGiven: ['sms.apiId', 'telegram.botToken'],
      },
    });

    const templates = await a.owner.put(`/v2/shops/${a.shopId}/buyer-messages/templates`, {
      templates: { at_point: { ru: { sms: 'Заказ {{ order.number }} ждёт' } } },
    });
    expect(templates.status, templates.text).toBe(200);
    const templatesEntry = (await a.owner.get(`/v2/audit?record=buyer_message_templates:${a.shopId}`))
      .body[0] as AuditEntryView;
    expect(templatesEntry.changes?.[0]).toMatchObject({
      before: {},
      after: { at_point: { ru: { sms: 'Заказ {{ order.number }} ждёт' } } },
    });
  });

  it('a carrier contract: the mode and which credentials, never their values', async () => {
    const connected = await a.owner.post('/v2/carrier-integrations/1001', {
      params: { clientId: 'good-id', clientSecret: 'good-secret' },
    });
    expect(connected.status, connected.text).toBeLessThan(300);
    const entry = (await a.owner.get('/v2/audit?record=carrier_integrations:1001')).body[0] as AuditEntryView;
    expect(entry.changes?.[0]).toMatchObject({
      before: null,
      after: {
        companyId: 1001,
        testMode: false,
        credentials: '[hidden]',
        credentialFields: ['clientId', 'clientSecret'],
      },
    });
    expect((await a.owner.call('DELETE', '/v2/carrier-integrations/1001')).status).toBeLessThan(300);
    const removed = (await a.owner.get('/v2/audit?record=carrier_integrations:1001')).body[0] as AuditEntryView;
    expect(removed.changes?.[0]).toMatchObject({ before: { companyId: 1001, testMode: false }, after: null });
    const all = JSON.stringify((await a.owner.get('/v2/audit?perPage=1000')).body);
    expect(all).not.toContain('good-secret');
    expect(all).not.toContain('good-id');
  });

  it('the DaData keys: set or not, never their values, in the entry and the export', async () => {
    const set = await a.owner.put('/v2/account/address-settings', {
      dadataApiKey: DADATA_KEY,
      dadataSecretKey: DADATA_SECRET,
    });
    expect(set.status, set.text).toBe(200);
    const entry = await latest('changeAddressSettings');
    expect(entry.changes?.[0]).toMatchObject({
      type: 'address_settings',
      before: { dadataApiKey: null, dadataSecretKey: null },
      after: { dadataApiKey: '[hidden]', dadataSecretKey: '[hidden]' },
    });

    const exported = await t.app.inject({
      method: 'GET',
      url: '/v2/audit/export?format=csv',
      headers: { authorization: `Bearer ${a.owner.token}` },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain('changeAddressSettings');
    const everything = `${exported.body}${JSON.stringify((await a.owner.get('/v2/audit?perPage=1000')).body)}`;
    for (const secret of [BOT_TOKEN, SMSRU_API_ID, DADATA_KEY, DADATA_SECRET, a.shopKey])
      expect(everything).not.toContain(secret);
    // and not in the stored rows either
    const rows = await t.runtime.database.db.selectFrom('audit_entries').select(['changes', 'records']).execute();
    for (const secret of [BOT_TOKEN, SMSRU_API_ID, DADATA_KEY, DADATA_SECRET])
      expect(JSON.stringify(rows)).not.toContain(secret);
  });
});
