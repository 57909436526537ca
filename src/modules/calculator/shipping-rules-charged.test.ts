/**
 * Shown = charged, over random carts and random rule lists (fast-check): each offer's price is
 * the same in the calculator, the widget's quotes, the widget's selection and the order
 * confirmed from it; explain gives the same prices; rules that match nothing leave the
 * calculator's answer as it was without rules.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { shopBody, warehouseBody } from '../../../test/support/fixtures.js';
import type { RuleAction, RuleConditions, ShippingRule } from './shipping-rules-schemas.js';

const PAGE = 'https://shop.example';
const CITY = 'Санкт-Петербург';

let t: TestApp;
let owner: ApiClient;
let shopId: number;
let publicKey: string;
let orderNumber = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { WIDGET_RATE_LIMIT_PER_MINUTE: '100000' } });
  owner = (await t.newAccount('Owner')).client;
  const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
  shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
  publicKey = (await owner.post(`/v2/shops/${shopId}/widget-key`, { allowedOrigins: [PAGE] })).body.publicKey;
});
afterAll(async () => t.close());

function page(path: string, body: unknown) {
  return t.app
    .inject({
      method: 'POST',
      url: `/widget/v1/api${path}?key=${publicKey}`,
      headers: { origin: PAGE, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
    .then((response) => ({ status: response.statusCode, body: JSON.parse(response.body) }));
}

interface Cart {
  products: Array<{ name: string; price: number; count: number; weight: number }>;
  cod: boolean;
  /** The buyer's segment and way of paying on delivery, as the shop's page tells the widget. */
  segment?: string;
  paymentOnDelivery?: 'cash' | 'card';
}

/** The calculator body the widget makes of a cart (widget/service.ts calculatorBody). */
function calculatorBody(cart: Cart) {
  return {
    reception: { countryCode: 'RU', cityName: CITY },
    products: cart.products.map((product) => ({
      priceDeclared: product.price,
      priceCod: cart.cod ? product.price : 0,
      count: product.count,
      weight: product.weight,
    })),
    calcCod: cart.cod,
    ...(cart.segment ? { segment: cart.segment } : {}),
    ...(cart.paymentOnDelivery ? { paymentOnDelivery: cart.paymentOnDelivery } : {}),
    applyWidgetSettings: true,
    applyDefaultDimensions: true,
  };
}

type Company = {
  deliveryCompanyId: number | string;
  totalPrice?: number;
  points?: Array<{ id: number; totalPrice: number }>;
};
type Answer = Record<'1' | '2' | '3', Company[]>;

const lowest = (company: Company) =>
  company.totalPrice ?? Math.min(...(company.points ?? []).map((point) => point.totalPrice));

async function calculate(cart: Cart): Promise<Answer> {
  const answer = await owner.post('/v2/calculator', calculatorBody(cart), { headers: { 'shop-id': String(shopId) } });
  expect(answer.status).toBe(200);
  return answer.body;
}

const range = (max: number) =>
  fc
    .tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max }))
    .map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) }));

const conditions: fc.Arbitrary<RuleConditions> = fc.record(
  {
    cartValue: range(8000),
    weight: range(6),
    itemCount: range(6),
    deliveryTypes: fc.subarray([1, 2, 3] as const, { minLength: 1 }),
    pointKinds: fc.subarray([1, 2, 3] as const, { minLength: 1 }),
    companyIds: fc.subarray([1, 2, 3, 5, 6, 7], { minLength: 1 }),
    price: range(800),
    payment: fc.subarray(['prepaid', 'cash', 'card'] as const, { minLength: 1 }),
    segments: fc.subarray(['vip', 'opt'], { minLength: 1 }),
    days: range(10),
  },
  { requiredKeys: [] },
);

const action: fc.Arbitrary<RuleAction> = fc.oneof(
  fc.record({
    type: fc.constantFrom('markup' as const, 'discount' as const),
    percent: fc.integer({ min: 1, max: 60 }),
    amount: fc.integer({ min: 0, max: 150 }),
    floor: fc.constantFrom(null, 50),
    ceiling: fc.constantFrom(null, 900),
  }),
  fc.record({ type: fc.constant('fixedPrice' as const), amount: fc.integer({ min: 0, max: 500 }) }),
  fc.record({ type: fc.constant('freeFrom' as const), cartValue: fc.integer({ min: 0, max: 8000 }) }),
  fc.record({
    type: fc.constant('round' as const),
    step: fc.constantFrom(1, 10, 50, 99.9),
    mode: fc.constantFrom('up' as const, 'down' as const, 'nearest' as const),
  }),
  fc.record({ type: fc.constantFrom('hide' as const, 'requireInsurance' as const, 'keepCheapest' as const) }),
  fc.record({ type: fc.constant('addDays' as const), days: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ type: fc.constant('rename' as const), name: fc.constantFrom('Эконом', 'Быстро') }),
  fc.record({ type: fc.constant('pin' as const), position: fc.integer({ min: 1, max: 3 }) }),
);

const rule: fc.Arbitrary<ShippingRule> = fc.record({
  name: fc.constantFrom('a', 'b', 'c'),
  enabled: fc.boolean(),
  conditions,
  actions: fc.array(action, { minLength: 1, maxLength: 2 }),
  stop: fc.boolean(),
});

const cart: fc.Arbitrary<Cart> = fc.record(
  {
    products: fc.array(
      fc.record({
        name: fc.constant('Кружка'),
        price: fc.integer({ min: 100, max: 5000 }),
        count: fc.integer({ min: 1, max: 3 }),
        weight: fc.constantFrom(0.2, 0.5, 1, 2.5),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    cod: fc.boolean(),
    segment: fc.constantFrom(undefined, 'vip', 'opt'),
    paymentOnDelivery: fc.constantFrom(undefined, 'card' as const),
  },
  { requiredKeys: ['products', 'cod'] },
);

const widgetSettings = fc.record({
  priceRules: fc.array(
    fc.record({
      kind: fc.constantFrom('markup', 'discount', 'fixed'),
      percent: fc.integer({ min: 0, max: 30 }),
      amount: fc.integer({ min: 0, max: 100 }),
      type: fc.constantFrom(null, 1, 2, 3),
    }),
    { maxLength: 2 },
  ),
  freeDeliveryFrom: fc.constantFrom(null, 3000),
  rounding: fc.constantFrom(null, { step: 10, mode: 'up' }),
});

describe('a segment and a way of paying', () => {
  it('price an order made through the API as they priced its quote', async () => {
    await owner.put(`/v2/shops/${shopId}/widget-settings`, {});
    const vip: ShippingRule = {
      name: 'VIP',
      enabled: true,
      conditions: { segments: ['vip'], deliveryTypes: [2] },
      actions: [{ type: 'fixedPrice', amount: 7 }],
      stop: false,
    };
    expect((await owner.put(`/v2/shops/${shopId}/shipping-rules`, { rules: [vip] })).status).toBe(200);
    const items: Cart = { products: [{ name: 'Кружка', price: 900, count: 1, weight: 0.5 }], cod: false };
    const plain = (await calculate(items))['2'][0];
    const asVip = (await calculate({ ...items, segment: 'vip' }))['2'].find(
      (company) => company.deliveryCompanyId === plain.deliveryCompanyId,
    );
    expect(asVip?.totalPrice).toBe(7);
    expect(plain.totalPrice).not.toBe(7);
    const order = (segment?: string) =>
      owner.post('/v2/orders', {
        shopId,
        cmsId: `SEG-${segment ?? 'none'}`,
        products: [{ name: 'Кружка', priceDeclared: 900, count: 1, weight: 0.5 }],
        deliveryAddress: { city: { countryCode: 'RU', name: CITY }, street: 'Невский проспект', house: '1' },
        recipient: { fullName: 'Анна Покупатель', phone: '+79990001122' },
        delivery: { company: { id: plain.deliveryCompanyId }, type: 2 },
        applyWidgetSettings: true,
        applyDefaultDimensions: true,
        ...(segment ? { segment } : {}),
      });
    const withSegment = await order('vip');
    expect(withSegment.status, JSON.stringify(withSegment.body)).toBe(201);
    const read = (await owner.get(`/v2/orders/${withSegment.body.id}`)).body;
    expect(read).toMatchObject({ segment: 'vip', delivery: { totalPrice: 7 } });
    const without = (await owner.get(`/v2/orders/${(await order()).body.id}`)).body;
    expect(without.delivery.totalPrice).toBe(plain.totalPrice);
    await owner.put(`/v2/shops/${shopId}/shipping-rules`, { rules: [] });
  });
});

describe('shown = charged under random shipping rules', () => {
  it('rules that match nothing leave the answer as it was without rules', async () => {
    await fc.assert(
      fc.asyncProperty(widgetSettings, cart, async (settings, items) => {
        await owner.put(`/v2/shops/${shopId}/widget-settings`, settings);
        await owner.put(`/v2/shops/${shopId}/shipping-rules`, { rules: [] });
        const without = await calculate(items);
        await owner.put(`/v2/shops/${shopId}/shipping-rules`, {
          rules: [{ name: 'never', conditions: { segments: ['never'] }, actions: [{ type: 'hide' }] }],
        });
        expect(await calculate(items)).toEqual(without);
      }),
      { numRuns: 6 },
    );
  });

  it('prices each offer alike in the calculator, explain, the widget, its selection and the order', async () => {
    await fc.assert(
      fc.asyncProperty(
        widgetSettings,
        fc.array(rule, { maxLength: 6 }),
        cart,
        fc.nat(),
        async (settings, rules, items, pick) => {
          await owner.put(`/v2/shops/${shopId}/widget-settings`, settings);
          const saved = await owner.put(`/v2/shops/${shopId}/shipping-rules`, { rules });
          expect(saved.status, JSON.stringify(saved.body)).toBe(200);
          const answer = await calculate(items);

          // the widget's quotes: each option at the calculator's price of that company and type
          const quotes = await page('/quotes', { city: { name: CITY }, ...items });
          expect(quotes.status).toBe(200);
          const shown = new Map<string, number>();
          for (const type of ['1', '2', '3'] as const)
            for (const company of answer[type]) shown.set(`${type}:${company.deliveryCompanyId}`, lowest(company));
          const quoted = new Map<string, number>(
            quotes.body.options.map((option: { mode: number; companyId: number; totalPrice: number }) => [
              `${option.mode}:${option.companyId}`,
              option.totalPrice,
            ]),
          );
          expect(quoted).toEqual(shown);

          // explain: the prices of the offers it did not hide are the answer's
          const explained = await owner.post(`/v2/shops/${shopId}/shipping-rules/explain`, calculatorBody(items));
          const explainedLowest = new Map<string, number>();
          for (const offer of explained.body.offers as Array<{
            deliveryType: number;
            companyId: number;
            price: number;
            hidden: boolean;
          }>) {
            if (offer.hidden) continue;
            const key = `${offer.deliveryType}:${offer.companyId}`;
            explainedLowest.set(key, Math.min(explainedLowest.get(key) ?? Number.POSITIVE_INFINITY, offer.price));
          }
          expect(explainedLowest).toEqual(shown);

          // one offer chosen: the selection quotes it at the price shown, the order is charged that
          const offers = (['1', '2', '3'] as const).flatMap((type) =>
            answer[type].map((company) => ({ type: Number(type) as 1 | 2 | 3, company })),
          );
          if (offers.length === 0) return;
          const chosen = offers[pick % offers.length];
          const point =
            chosen.type === 1 ? chosen.company.points?.[pick % (chosen.company.points?.length ?? 1)] : undefined;
          if (chosen.type === 3) return; // a post office is chosen on the map: the selection needs one of its offices
          const selected = await page('/selections', {
            city: { name: CITY },
            ...items,
            mode: chosen.type,
            companyId: chosen.company.deliveryCompanyId,
            ...(point ? { pointId: point.id } : {}),
            ...(chosen.type === 2 ? { address: { street: 'Невский проспект', house: '1' } } : {}),
          });
          expect(selected.status, JSON.stringify(selected.body)).toBe(201);
          const price = point ? point.totalPrice : (chosen.company.totalPrice as number);
          expect(selected.body.quote.totalPrice).toBe(price);
          orderNumber += 1;
          const made = await owner.post('/v2/widget/orders', {
            selectionToken: selected.body.token,
            cmsId: `P-${orderNumber}`,
            recipient: { fullName: 'Анна Покупатель', phone: '+79990001122' },
          });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
          const order = await owner.get(`/v2/orders/${made.body.id}`);
          // cash on delivery: the buyer pays the price shown as the order's clientPrice (the order's own total
          // adds the company's commission on collecting it); prepaid: the order's delivery is charged at it
          if (items.cod) expect(order.body.clientPrice).toBe(price);
          else expect(order.body.delivery.totalPrice).toBe(price);
        },
      ),
      { numRuns: 25 },
    );
  });
});
