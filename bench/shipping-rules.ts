/**
 * Figures of the shipping rules, in one process, without HTTP:
 *   1. the engine alone: 100 rules bound to a call and evaluated on every offer of a Moscow
 *      answer (each kind of point of each company, each courier and post offer), µs per calculation
 *      (goal ≤ 1 ms);
 *   2. the calculator's CPU per uncached answer (`calculateJson`, the answer cache off) for the
 *      calculator bench's varied Moscow carts with applyWidgetSettings, with 0, 10 and 100 rules,
 *      interleaved round by round so that the machine's drift falls on all three alike; and
 *      without applyWidgetSettings (the contract's plain call, which never reads rules).
 * Run: npx tsx bench/shipping-rules.ts   (ROUNDS=5, CARTS=600 by default; round 0 warms the JIT and is not counted)
 */
import type { CalculatorBody } from '../src/modules/calculator/schemas.js';
import {
  bindRules,
  compileRules,
  evaluateOffer,
  type OfferFacts,
  type RequestFacts,
} from '../src/modules/calculator/shipping-rules.js';
import type { ShippingRule } from '../src/modules/calculator/shipping-rules-schemas.js';
import { seedAccount, seedShop, startBenchService } from './fixture.js';

const rounds = Number(process.env.ROUNDS ?? 5);
const cartCount = Number(process.env.CARTS ?? 600);

/** A shop's rules as a big shop writes them: most look at the cart or the offer, some hold for the call. */
function rulesOf(count: number): ShippingRule[] {
  const templates: Array<(index: number) => ShippingRule> = [
    (i) => ({
      name: `courier markup ${i}`,
      conditions: { deliveryTypes: [2], cartValue: { min: 500 + i } },
      actions: [{ type: 'markup', percent: 5, ceiling: 900 }],
    }),
    (i) => ({
      name: `no lockers for heavy ${i}`,
      conditions: { pointKinds: [2], weight: { min: 20 + i } },
      actions: [{ type: 'hide' }],
    }),
    (i) => ({
      name: `free pickup in Moscow ${i}`,
      conditions: { deliveryTypes: [1], regionCodes: ['77'], cartValue: { min: 3000 + i * 10 } },
      actions: [{ type: 'freeFrom', cartValue: 3000 }],
    }),
    (i) => ({
      name: `cash +10% ${i}`,
      conditions: { payment: ['cash'], price: { min: 100 } },
      actions: [{ type: 'markup', percent: 10, amount: 0 }],
    }),
    (i) => ({
      name: `company ${i} discount`,
      conditions: { companyIds: [(i % 8) + 1], days: { max: 5 } },
      actions: [{ type: 'discount', amount: 20, floor: 99 }],
    }),
    (i) => ({ name: `friday ${i}`, conditions: { weekdays: [5] }, actions: [{ type: 'addDays', days: 1 }] }),
    (i) => ({ name: `vip ${i}`, conditions: { segments: ['vip'] }, actions: [{ type: 'fixedPrice', amount: 0 }] }),
    (i) => ({ name: `round ${i}`, actions: [{ type: 'round', step: 10, mode: 'up' }] }),
    (i) => ({
      name: `express name ${i}`,
      conditions: { deliveryTypes: [2], days: { max: 1 } },
      actions: [{ type: 'rename', name: 'Экспресс', description: 'Сегодня или завтра' }],
    }),
    (i) => ({
      name: `insure ${i}`,
      conditions: { cartValue: { min: 50_000 } },
      actions: [{ type: 'requireInsurance' }],
    }),
  ];
  return Array.from({ length: count }, (_, index) => templates[index % templates.length](index));
}

const bench = await startBenchService({ CALCULATOR_CACHE_SECONDS: '0' });
const { services } = bench.runtime;
const account = await seedAccount(services, 'Bench account');
const shopId = await seedShop(services, account);
const shop = await services.shops.resolveShopHeader(account.scope, String(shopId), false);
if (!shop) throw new Error('the bench shop was not made');
await services.widgetSettings.put(account.scope, shopId, { rounding: { step: 1, mode: 'up' } });

// the calculator bench's carts (bench/calculator.ts), with the shop's widget settings
const carts: CalculatorBody[] = Array.from({ length: cartCount }, (_, index) => ({
  reception: { cityName: 'Москва' },
  weight: 0.3 + (index % 97) * 0.05,
  dimensions: { width: 10 + (index % 13), height: 5 + (index % 7), length: 20 + (index % 11) },
  priceDeclared: 1000 + index,
  priceCod: 1000 + index,
  applyWidgetSettings: true,
}));

// 1. the engine alone, on the offers of one Moscow answer
const hundred = rulesOf(100);
const explained = await services.calculator.explain(account.scope, shop, carts[0], compileRules(hundred, 1));
const offers: Array<{ facts: OfferFacts; base: number }> = explained.offers.map((offer) => ({
  facts: {
    type: offer.deliveryType,
    companyId: offer.companyId,
    tariffName: offer.tariffName,
    pointKind: offer.pointKind,
    daysMax: offer.deliveryDays.max,
    insuranceKopecks: 500,
  },
  base: Math.round(offer.basePrice * 100),
}));
const request: RequestFacts = {
  cartKopecks: 300_000,
  weightGrams: 1200,
  longestSideCm: 30,
  itemCount: 1,
  vendorCodes: new Set(),
  regionCode: '77',
  localityFias: null,
  localityName: 'Москва',
  distanceKm: 10,
  payment: 'cash',
  weekday: 5,
  hour: 12,
  date: '2026-11-27',
  segment: null,
};
const compiled = compileRules(hundred, 1);
const widget = await services.widgetSettings.forShop(account.scope, shopId);
const calculations = 5000;
for (let warm = 0; warm < 500; warm++)
  for (const offer of offers) evaluateOffer(bindRules(widget, compiled, request), offer.facts, offer.base);
let started = process.hrtime.bigint();
for (let run = 0; run < calculations; run++) {
  const bound = bindRules(widget, compiled, request);
  for (const offer of offers) evaluateOffer(bound, offer.facts, offer.base);
}
const engineUs = Number(process.hrtime.bigint() - started) / 1000 / calculations;
started = process.hrtime.bigint();
for (let run = 0; run < calculations; run++) {
  const bound = bindRules(widget, compiled, request);
  for (const offer of offers) evaluateOffer(bound, offer.facts, offer.base, true);
}
const tracedUs = Number(process.hrtime.bigint() - started) / 1000 / calculations;
console.log(
  `engine: 100 rules (+ the widget's rounding) on the ${offers.length} offers of a Moscow answer: ${engineUs.toFixed(1)} µs a calculation, ${tracedUs.toFixed(1)} µs with the explain trace`,
);

// 2. the calculator's CPU per uncached answer
const cpuMs = (since: NodeJS.CpuUsage, count: number) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000 / count;
};
const scenarios: Array<{ name: string; rules: ShippingRule[] | null }> = [
  { name: 'no applyWidgetSettings', rules: null },
  { name: 'applyWidgetSettings, 0 rules', rules: [] },
  { name: 'applyWidgetSettings, 10 rules', rules: rulesOf(10) },
  { name: 'applyWidgetSettings, 100 rules', rules: hundred },
];
const totals = new Map<string, number[]>();
for (let round = 0; round <= rounds; round++) {
  const line: string[] = [];
  for (const scenario of scenarios) {
    await services.shippingRules.put(account.scope, shopId, { rules: scenario.rules ?? [] });
    const asked = scenario.rules === null ? carts.map((cart) => ({ ...cart, applyWidgetSettings: false })) : carts;
    // one answer first: the rules' read (one query, then the read cache) is not what is measured
    await services.calculator.calculateJson(account.scope, shop, asked[0]);
    const since = process.cpuUsage();
    for (const cart of asked) await services.calculator.calculateJson(account.scope, shop, cart);
    const ms = cpuMs(since, asked.length);
    if (round > 0) totals.set(scenario.name, [...(totals.get(scenario.name) ?? []), ms]);
    line.push(`${scenario.name} ${ms.toFixed(3)}`);
  }
  console.log(`round ${round}: CPU-ms an uncached Москва answer: ${line.join('; ')}`);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `median of ${rounds} rounds: ${scenarios.map((scenario) => `${scenario.name} ${median(totals.get(scenario.name) ?? []).toFixed(3)}`).join('; ')} CPU-ms`,
);
await bench.cleanup();
