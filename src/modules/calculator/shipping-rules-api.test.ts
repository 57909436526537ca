import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';

let t: TestApp;
let owner: ApiClient;
let stranger: ApiClient;
let shopId: number;
let otherShopId: number;
let otherShopKey: ApiClient;

const SPB = { reception: { cityName: 'Санкт-Петербург', countryCode: 'RU' } };
const CART = { ...SPB, products: [{ vendorCode: 'MUG', priceDeclared: 1000, count: 2, weight: 0.5 }] };
const rulesOf = (id: number) => `/v2/shops/${id}/shipping-rules`;

type Company = { deliveryCompanyId: number | string; totalPrice?: number; tariffName: string | null };

beforeAll(async () => {
  t = await createTestApp({ env: { CALCULATOR_CACHE_SECONDS: '60' } });
  owner = (await t.newAccount('Owner')).client;
  stranger = (await t.newAccount('Stranger')).client;
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
  otherShopId = (await owner.post('/v2/shops', shopBody(warehouseId, { name: 'Второй' }))).body.id;
  otherShopKey = owner.withToken((await owner.get(`/v2/shops/${otherShopId}`)).body.apiKey);
});
afterAll(async () => t.close());

function couriers(body: unknown, id = shopId) {
  return owner
    .post('/v2/calculator', body, { headers: { 'shop-id': String(id) } })
    .then((answer) => answer.body['2'] as Company[]);
}

async function versionCount(id: number): Promise<number> {
  const row = await t.runtime.database.db
    .selectFrom('shipping_rule_versions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('shop_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('shipping rules: storage and versions', () => {
  it('answers version 0 and no rules before the first write', async () => {
    const answer = await owner.get(rulesOf(shopId));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      version: 0,
      createdAt: null,
      createdBy: null,
      comment: null,
      revertedFrom: null,
      ruleCount: 0,
      rules: [],
    });
    expect((await owner.get(`${rulesOf(shopId)}/versions`)).body).toEqual({ items: [] });
  });

  it('writes each change as a version (who, when), lists them, reverts to one as a new version', async () => {
    const first = await owner.put(rulesOf(shopId), {
      rules: [{ name: 'Наценка', actions: [{ type: 'markup', percent: 10 }] }],
      comment: 'first',
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      version: 1,
      ruleCount: 1,
      comment: 'first',
      createdBy: { kind: 'account', employeeId: null },
      rules: [{ name: 'Наценка', enabled: true, stop: false, actions: [{ type: 'markup', percent: 10 }] }],
    });
    expect(Date.parse(first.body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const second = await owner.put(rulesOf(shopId), { rules: [] });
    expect(second.body).toMatchObject({ version: 2, ruleCount: 0, rules: [] });
    expect((await owner.get(rulesOf(shopId))).body.version).toBe(2);

    const reverted = await owner.post(`${rulesOf(shopId)}/revert`, { version: 1 });
    expect(reverted.status).toBe(200);
    expect(reverted.body).toMatchObject({ version: 3, revertedFrom: 1, ruleCount: 1 });
    expect((await owner.get(rulesOf(shopId))).body.rules).toEqual(first.body.rules);
    const versions = await owner.get(`${rulesOf(shopId)}/versions`);
    expect(versions.body.items.map((item: { version: number }) => item.version)).toEqual([3, 2, 1]);
    expect(versions.body.items[2]).toMatchObject({ comment: 'first', ruleCount: 1 });

    const unknown = await owner.post(`${rulesOf(shopId)}/revert`, { version: 99 });
    expect(unknown.status).toBe(404);
    await owner.put(rulesOf(shopId), { rules: [] });
  });

  it('refuses bad rules with a 400 naming each field, and writes nothing', async () => {
    const before = await versionCount(shopId);
    const schema = await owner.put(rulesOf(shopId), {
      rules: [
        { name: 'x', actions: [] },
        { name: 'y', actions: [{ type: 'markup', percent: -1 }] },
      ],
    });
    expect(schema.status).toBe(400);
    expect(schema.body.code).toBe('validation_failed');
    expect(schema.body.errors.map((error: { field: string }) => error.field)).toContain('rules[0].actions');
    const rule = await owner.put(
      rulesOf(shopId),
      {
        rules: [
          { name: 'ok', actions: [{ type: 'hide' }] },
          { name: 'bad', conditions: { hours: { from: 18, to: 9 } }, actions: [{ type: 'discount' }] },
        ],
      },
      { headers: { 'accept-language': 'ru' } },
    );
    expect(rule.status).toBe(400);
    expect(rule.body.code).toBe('validation_failed');
    expect(rule.body.errors).toEqual([
      { field: 'rules[1].conditions.hours.to', message: 'должно быть позже from' },
      { field: 'rules[1].actions[0].percent', message: 'укажите процент или сумму' },
    ]);
    expect(rule.body.message).toContain('rules[1].conditions.hours.to');
    const english = await owner.put(rulesOf(shopId), {
      rules: [{ name: 'bad', conditions: { weight: { min: 5, max: 1 } }, actions: [{ type: 'hide' }] }],
    });
    expect(english.body.errors).toEqual([
      { field: 'rules[0].conditions.weight.max', message: 'must not be less than min' },
    ]);
    // a date as a person types it in Russia is named, not guessed (07.01.2027: January or July?)
    const dotted = await owner.put(rulesOf(shopId), {
      rules: [{ name: 'bad', conditions: { dates: { from: '07.01.2027' } }, actions: [{ type: 'hide' }] }],
    });
    expect(dotted.status).toBe(400);
    expect(dotted.body.errors).toEqual([
      { field: 'rules[0].conditions.dates.from', message: 'must be a date YYYY-MM-DD' },
    ]);
    const revert = await owner.post(`${rulesOf(shopId)}/revert`, { version: 'one' });
    expect(revert.status).toBe(400);
    expect(revert.body.errors[0].field).toBe('version');
    expect(await versionCount(shopId)).toBe(before);
  });

  it("refuses without a token, another account's shop, a shop key outside its shop", async () => {
    const anonymous = t.client();
    const body = { rules: [] };
    for (const [method, path, payload] of [
      ['GET', '', undefined],
      ['PUT', '', body],
      ['GET', '/versions', undefined],
      ['POST', '/revert', { version: 1 }],
      ['POST', '/explain', SPB],
    ] as const) {
      const ask = (client: ApiClient, id: number) =>
        method === 'GET'
          ? client.get(`${rulesOf(id)}${path}`)
          : method === 'PUT'
            ? client.put(`${rulesOf(id)}${path}`, payload)
            : client.post(`${rulesOf(id)}${path}`, payload);
      expect((await ask(anonymous, shopId)).status, `${method} ${path}`).toBe(401);
      expect((await ask(stranger, shopId)).status, `${method} ${path}`).toBe(404);
      expect((await ask(otherShopKey, shopId)).status, `${method} ${path}`).toBe(403);
    }
    // the shop's own key may
    expect((await otherShopKey.get(rulesOf(otherShopId))).status).toBe(200);
    expect((await otherShopKey.put(rulesOf(otherShopId), body)).body.createdBy).toEqual({
      kind: 'shop',
      employeeId: null,
    });
  });
});

describe('shipping rules in the calculator', () => {
  it('apply with applyWidgetSettings only, after the widget settings, and a change is never served stale', async () => {
    await owner.put(`/v2/shops/${shopId}/widget-settings`, { priceRules: [{ kind: 'fixed', amount: 300 }] });
    const plain = await couriers(CART);
    const widget = await couriers({ ...CART, applyWidgetSettings: true });
    expect(widget.every((company) => company.totalPrice === 300)).toBe(true);

    await owner.put(rulesOf(shopId), {
      rules: [
        {
          name: 'Курьер +10% за наличные',
          conditions: { deliveryTypes: [2], payment: ['cash'] },
          actions: [{ type: 'markup', percent: 10 }],
        },
        { name: 'Скидка', conditions: { segments: ['vip'] }, actions: [{ type: 'discount', amount: 50 }] },
      ],
    });
    // an answer remembered for the old rules (60 s) is not served: the key holds the rules' version
    expect((await couriers({ ...CART, applyWidgetSettings: true })).map((c) => c.totalPrice)).toEqual(
      widget.map(() => 300),
    );
    const cash = await couriers({
      ...CART,
      products: [{ ...CART.products[0], priceCod: 1000 }],
      applyWidgetSettings: true,
    });
    expect(cash.every((company) => company.totalPrice === 330)).toBe(true);
    const vip = await couriers({ ...CART, segment: 'vip', applyWidgetSettings: true });
    expect(vip.every((company) => company.totalPrice === 250)).toBe(true);
    // without applyWidgetSettings neither the widget settings nor the rules apply
    expect(await couriers({ ...CART, segment: 'vip' })).toEqual(plain);

    await owner.put(rulesOf(shopId), {
      rules: [
        {
          name: 'Только самый дешёвый и первым',
          actions: [{ type: 'keepCheapest' }, { type: 'rename', name: 'Лучший', description: 'Выбор магазина' }],
        },
      ],
    });
    const kept = await couriers({ ...CART, applyWidgetSettings: true });
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ tariffName: 'Лучший', specificity: ['Выбор магазина'] });
    await owner.put(rulesOf(shopId), { rules: [] });
    await owner.put(`/v2/shops/${shopId}/widget-settings`, {});
    expect(await couriers({ ...CART, applyWidgetSettings: true })).toEqual(plain);
  });

  it('hides what a rule hides, everywhere: the calculator, one company, an order', async () => {
    const all = await couriers(CART);
    const hidden = all[0].deliveryCompanyId as number;
    await owner.put(rulesOf(shopId), {
      rules: [{ name: 'Без этой службы', conditions: { companyIds: [hidden] }, actions: [{ type: 'hide' }] }],
    });
    const shown = await couriers({ ...CART, applyWidgetSettings: true });
    expect(shown.map((company) => company.deliveryCompanyId)).not.toContain(hidden);
    const one = await owner.post(
      '/v2/calculator/one',
      { ...CART, applyWidgetSettings: true },
      { headers: { 'shop-id': String(shopId), type: '2', 'company-id': String(hidden) } },
    );
    expect(one.body).toEqual([]);
    await owner.put(rulesOf(shopId), { rules: [] });
  });
});

describe('explain', () => {
  it('answers every offer with its matched rules and price steps, the price the calculator answers', async () => {
    await owner.put(`/v2/shops/${shopId}/widget-settings`, { rounding: { step: 10, mode: 'up' } });
    await owner.put(rulesOf(shopId), {
      rules: [
        { name: 'Наценка', conditions: { deliveryTypes: [2] }, actions: [{ type: 'markup', amount: 15 }] },
        { name: 'Почту скрыть', conditions: { deliveryTypes: [3] }, actions: [{ type: 'hide' }] },
      ],
    });
    const explained = await owner.post(`${rulesOf(shopId)}/explain`, CART);
    expect(explained.status).toBe(200);
    expect(explained.body.version).toBeGreaterThan(0);
    const courier = explained.body.offers.filter((offer: { deliveryType: number }) => offer.deliveryType === 2);
    const answered = await couriers({ ...CART, applyWidgetSettings: true });
    expect(courier.map((offer: { price: number }) => offer.price)).toEqual(answered.map((c) => c.totalPrice));
    expect(courier[0].matched.map((rule: { ruleName: string }) => rule.ruleName)).toEqual([
      'widget settings: rounding',
      'Наценка',
    ]);
    expect(courier[0].steps[0]).toMatchObject({ rule: -1, before: courier[0].basePrice });
    expect(courier[0].steps[1]).toMatchObject({ rule: 0, after: courier[0].price });
    const post = explained.body.offers.filter((offer: { deliveryType: number }) => offer.deliveryType === 3);
    expect(post.length).toBeGreaterThan(0);
    expect(
      post.every((offer: { hidden: boolean; hiddenBy: string }) => offer.hidden && offer.hiddenBy === 'Почту скрыть'),
    ).toBe(true);

    // unsaved rules, as the editor tries them
    const trying = await owner.post(`${rulesOf(shopId)}/explain`, {
      ...CART,
      rules: [{ name: 'Бесплатно', actions: [{ type: 'fixedPrice', amount: 0 }] }],
    });
    expect(trying.body.version).toBe(0);
    expect(trying.body.offers.every((offer: { price: number }) => offer.price === 0)).toBe(true);
    const bad = await owner.post(`${rulesOf(shopId)}/explain`, {
      ...CART,
      rules: [{ name: 'x', conditions: { price: { min: 2, max: 1 } }, actions: [{ type: 'hide' }] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('rules[0].conditions.price.max');
    await owner.put(rulesOf(shopId), { rules: [] });
    await owner.put(`/v2/shops/${shopId}/widget-settings`, {});
  });
});
