import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPriceRules } from './rules.js';
import { priceRulesOf } from './present.js';
import type { WidgetSettingsFull } from './schemas.js';
import {
  bindRules,
  compileRules,
  evaluateOffer,
  ruleProblems,
  type OfferFacts,
  type RequestFacts,
} from './shipping-rules.js';
import type { ShippingRule } from './shipping-rules-schemas.js';

const request: RequestFacts = {
  cartKopecks: 300_000,
  weightGrams: 2_500,
  longestSideCm: 40,
  itemCount: 3,
  vendorCodes: new Set(['GLASS-1', 'BOOK-7']),
  regionCode: '77',
  localityFias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
  localityName: 'Москва',
  distanceKm: 12,
  payment: 'cash',
  weekday: 5,
  hour: 14,
  date: '2026-11-27',
  segment: 'vip',
};
const offer: OfferFacts = {
  type: 1,
  companyId: 2,
  tariffName: 'Посылка',
  pointKind: 2,
  daysMax: 3,
  insuranceKopecks: 1_500,
};

function run(rules: ShippingRule[], facts: Partial<RequestFacts> = {}, on: Partial<OfferFacts> = {}, base = 40_000) {
  return evaluateOffer(
    bindRules(null, compileRules(rules, 1), { ...request, ...facts }),
    { ...offer, ...on },
    base,
    true,
  );
}

describe('shipping rules engine (pure)', () => {
  it('applies the actions of matching rules in order, with a step per price change', () => {
    const outcome = run([
      { name: '+10% cash', conditions: { payment: ['cash'] }, actions: [{ type: 'markup', percent: 10 }] },
      { name: 'card only', conditions: { payment: ['card'] }, actions: [{ type: 'fixedPrice', amount: 1 }] },
      { name: 'round', actions: [{ type: 'round', step: 50, mode: 'up' }] },
    ]);
    expect(outcome.priceKopecks).toBe(45_000);
    expect(outcome.matched.map((rule) => rule.ruleName)).toEqual(['+10% cash', 'round']);
    expect(outcome.steps).toEqual([
      { rule: 0, ruleName: '+10% cash', action: 'markup 10% + 0', beforeKopecks: 40_000, afterKopecks: 44_000 },
      { rule: 2, ruleName: 'round', action: 'round up to 50', beforeKopecks: 44_000, afterKopecks: 45_000 },
    ]);
  });

  it('hides, stops, and skips disabled rules', () => {
    const hideLockers: ShippingRule = {
      name: 'no lockers for glass',
      conditions: { vendorCodes: { any: ['GLASS-1'] }, pointKinds: [2] },
      actions: [{ type: 'hide' }],
    };
    expect(run([hideLockers]).hiddenBy).toBe('no lockers for glass');
    expect(run([hideLockers], {}, { pointKind: 1 }).hiddenBy).toBeNull();
    expect(run([{ ...hideLockers, enabled: false }]).hiddenBy).toBeNull();
    const stopped = run([
      { name: 'free', actions: [{ type: 'fixedPrice', amount: 0 }], stop: true },
      { name: 'never', actions: [{ type: 'markup', amount: 100 }] },
    ]);
    expect(stopped.priceKopecks).toBe(0);
    expect(stopped.matched).toHaveLength(1);
  });

  it('reads every kind of condition', () => {
    const when = (conditions: ShippingRule['conditions'], facts: Partial<RequestFacts> = {}, on = {}) =>
      run([{ name: 'r', conditions, actions: [{ type: 'fixedPrice', amount: 1 }] }], facts, on).priceKopecks === 100;
    expect(when({ cartValue: { min: 3000 } })).toBe(true);
    expect(when({ cartValue: { min: 3000.01 } })).toBe(false);
    expect(when({ weight: { max: 2.5 } })).toBe(true);
    expect(when({ weight: { max: 2.4 } })).toBe(false);
    expect(when({ longestSide: { min: 41 } })).toBe(false);
    expect(when({ itemCount: { min: 3, max: 3 } })).toBe(true);
    expect(when({ vendorCodes: { none: ['BOOK-7'] } })).toBe(false);
    expect(when({ regionCodes: ['78'] })).toBe(false);
    expect(when({ localities: ['москва'] })).toBe(true);
    expect(when({ localities: ['0c5b2444-70a0-4932-980c-b4dc0d3f02b5'] }, { localityName: 'x' })).toBe(true);
    expect(when({ deliveryTypes: [2] })).toBe(false);
    expect(when({ pointKinds: [1] }, {}, { pointKind: null })).toBe(false);
    expect(when({ distanceKm: { max: 10 } })).toBe(false);
    expect(when({ companyIds: [2, '5_1'] })).toBe(true);
    expect(when({ companyIds: ['5_1'] }, {}, { companyId: '5_1' })).toBe(true);
    expect(when({ tariffs: ['Экспресс'] })).toBe(false);
    expect(when({ days: { max: 2 } })).toBe(false);
    expect(when({ price: { min: 400, max: 400 } })).toBe(true);
    expect(when({ payment: ['prepaid'] })).toBe(false);
    expect(when({ weekdays: [5] })).toBe(true);
    expect(when({ hours: { from: 9, to: 14 } })).toBe(false);
    expect(when({ hours: { from: 14, to: 15 } })).toBe(true);
    expect(when({ dates: { from: '2026-11-27', to: '2026-11-27' } })).toBe(true);
    expect(when({ dates: { to: '2026-11-26' } })).toBe(false);
    expect(when({ segments: ['vip'] })).toBe(true);
    expect(when({ segments: ['vip'] }, { segment: null })).toBe(false);
  });

  it('keeps a markup within its floor and ceiling, frees from a cart value, adds insurance once', () => {
    expect(run([{ name: 'r', actions: [{ type: 'markup', percent: 50, ceiling: 500 }] }]).priceKopecks).toBe(50_000);
    expect(run([{ name: 'r', actions: [{ type: 'discount', amount: 1000, floor: 99 }] }]).priceKopecks).toBe(9_900);
    expect(run([{ name: 'r', actions: [{ type: 'freeFrom', cartValue: 3000 }] }]).priceKopecks).toBe(0);
    expect(run([{ name: 'r', actions: [{ type: 'freeFrom', cartValue: 3001 }] }]).priceKopecks).toBe(40_000);
    const insured = run([
      { name: 'a', actions: [{ type: 'requireInsurance' }] },
      { name: 'b', actions: [{ type: 'requireInsurance' }] },
    ]);
    expect(insured.priceKopecks).toBe(41_500);
    expect(insured.insured).toBe(true);
  });

  it('a price condition reads the price the rules before it made', () => {
    const outcome = run([
      { name: 'double', actions: [{ type: 'markup', percent: 100 }] },
      { name: 'cap', conditions: { price: { min: 500 } }, actions: [{ type: 'fixedPrice', amount: 500 }] },
    ]);
    expect(outcome.priceKopecks).toBe(50_000);
  });

  it('collects what acts beyond the price: days, names, pins, order, keeping', () => {
    const outcome = run([
      { name: 'friday', conditions: { weekdays: [5] }, actions: [{ type: 'addDays', days: 1 }] },
      { name: 'slow', conditions: { days: { min: 4 } }, actions: [{ type: 'addDays', days: 2 }] },
      { name: 'name', actions: [{ type: 'rename', name: 'Эконом', description: 'Хрупкое — бережно' }] },
      {
        name: 'pin',
        actions: [
          { type: 'pin', position: 2 },
          { type: 'sort', by: 'price' },
        ],
      },
      { name: 'keep', actions: [{ type: 'keepCheapest' }] },
    ]);
    // the days condition reads the days the rules before it added
    expect(outcome.addDays).toBe(3);
    expect(outcome.rename).toBe('Эконом');
    expect(outcome.descriptions).toEqual(['Хрупкое — бережно']);
    expect(outcome.pin).toBe(2);
    expect(outcome.sortBy).toBe('price');
    expect(outcome.keep).toEqual([{ rule: 4, ruleName: 'keep', by: 'cheapest' }]);
  });

  it('names each problem of a rule list by its field path', () => {
    expect(
      ruleProblems([
        {
          name: 'bad',
          conditions: { cartValue: { min: 5, max: 1 }, hours: { from: 10, to: 9 }, dates: { from: '2026-02-31' } },
          actions: [{ type: 'markup' }, { type: 'rename' }, { type: 'discount', amount: 1, floor: 10, ceiling: 5 }],
        },
      ]),
    ).toEqual([
      { field: 'rules[0].conditions.cartValue.max', message: 'must not be less than min' },
      { field: 'rules[0].conditions.hours.to', message: 'must be later than from' },
      { field: 'rules[0].conditions.dates.from', message: 'must be a date YYYY-MM-DD' },
      { field: 'rules[0].actions[0].percent', message: 'give a percent or an amount' },
      { field: 'rules[0].actions[1].name', message: 'give a name or a description' },
      { field: 'rules[0].actions[2].ceiling', message: 'must not be less than floor' },
    ]);
  });
});

const money = fc.oneof(
  fc.constant(null),
  fc.double({ min: 0, max: 5000, noNaN: true }),
  fc.integer({ min: 0, max: 900 }),
);
const widgetSettings: fc.Arbitrary<WidgetSettingsFull> = fc.record({
  defaultDimensions: fc.constant(null),
  defaultWeight: fc.constant(null),
  priceRules: fc.array(
    fc.record({
      type: fc.constantFrom(null, 1 as const, 2 as const, 3 as const),
      companyId: fc.constantFrom(null, 0, 1, 2, 7),
      kind: fc.constantFrom('markup' as const, 'discount' as const, 'fixed' as const),
      percent: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1000, noNaN: true })),
      amount: money,
    }),
    { maxLength: 6 },
  ),
  freeDeliveryFrom: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 10_000 })),
  rounding: fc.oneof(
    fc.constant(null),
    fc.record({
      step: fc.constantFrom(0.5, 1, 10, 49.99, 100),
      mode: fc.constantFrom('up' as const, 'down' as const, 'nearest' as const),
    }),
  ),
  hiddenCompanyIds: fc.constant([]),
  defaultServices: fc.constant([]),
});

describe('widget settings as the first rules', () => {
  it('price every offer exactly as applyPriceRules does (and with no shop rules, explain is that price)', () => {
    fc.assert(
      fc.property(
        widgetSettings,
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.constantFrom(1, 2, 3),
        fc.constantFrom(1, 2, 7, '3_4'),
        (widget, base, cart, type, companyId) => {
          const today = applyPriceRules(base, priceRulesOf(widget), {
            type,
            companyId: typeof companyId === 'number' ? companyId : 0,
            orderKopecks: cart,
          });
          const bound = bindRules(widget, null, { ...request, cartKopecks: cart });
          const outcome = evaluateOffer(bound, { ...offer, type, companyId }, base, true);
          expect(outcome.priceKopecks).toBe(today);
          const steps = outcome.steps ?? [];
          expect(steps.length ? steps[steps.length - 1].afterKopecks : base).toBe(today);
          // each step starts where the one before ended
          for (const [index, step] of steps.entries())
            expect(step.beforeKopecks).toBe(index === 0 ? base : steps[index - 1].afterKopecks);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
