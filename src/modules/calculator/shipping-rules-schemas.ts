/**
 * A shop's shipping rules as the API reads and writes them (an extension): an ordered
 * list of rules, each conditions (all must hold) and actions. Money in roubles and weights in
 * kg, as the rest of the calculator's API; the engine (shipping-rules.ts) works in kopecks and grams.
 */
import Type, { type Static } from 'typebox';
import { CodeId, Nullable } from '../../platform/schemas.js';
import { CalculatorBody, CompanyRef } from './schemas.js';

const Roubles = Type.Number({ minimum: 0, maximum: 100_000_000, description: 'roubles' });
const Range = (unit: string, maximum: number) =>
  Type.Object(
    {
      min: Type.Optional(Type.Number({ minimum: 0, maximum, description: unit })),
      max: Type.Optional(Type.Number({ minimum: 0, maximum, description: unit })),
    },
    { description: `From min to max inclusive (${unit}); either may be left out` },
  );
const DeliveryTypes = Type.Array(Type.Enum([1, 2, 3], { description: '1 pickup point, 2 courier, 3 national post' }), {
  maxItems: 3,
});
const Words = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 200, description });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10, 'x-message': 'must be a date YYYY-MM-DD' });

export const RuleConditions = Type.Object(
  {
    cartValue: Type.Optional(Range("the cart's value (declared, less the discount), roubles", 100_000_000)),
    weight: Type.Optional(Range('the parcel’s weight, kg', 100_000)),
    longestSide: Type.Optional(Range("the longest side of the cart's parcels, cm", 10_000)),
    itemCount: Type.Optional(Range('the number of items (the products’ counts)', 1_000_000)),
    vendorCodes: Type.Optional(
      Type.Object({
        any: Type.Optional(Words('holds when the cart has one of these products (vendor codes)')),
        none: Type.Optional(Words('holds when the cart has none of these products')),
      }),
    ),
    regionCodes: Type.Optional(Words("the recipient's region codes (GET /v2/lists/localities regionCode)")),
    localities: Type.Optional(Words("the recipient's localities: FIAS ids or names")),
    deliveryTypes: Type.Optional(DeliveryTypes),
    pointKinds: Type.Optional(
      Type.Array(Type.Enum([1, 2, 3], { description: '1 pickup point, 2 parcel locker, 3 post office' }), {
        maxItems: 3,
        description: 'For pickup: the kinds of point (a courier offer has none and never matches)',
      }),
    ),
    distanceKm: Type.Optional(Range('from the sender’s locality to the recipient’s, km', 50_000)),
    companyIds: Type.Optional(Type.Array(CompanyRef, { maxItems: 200 })),
    tariffs: Type.Optional(Words('tariff names (as the answer gives tariffName), exactly')),
    days: Type.Optional(Range('the offer’s latest delivery day, calendar days from today', 365)),
    price: Type.Optional(Range("the offer's price at this rule (after the rules before it), roubles", 100_000_000)),
    payment: Type.Optional(
      Type.Array(Type.Enum(['prepaid', 'cash', 'card']), {
        maxItems: 3,
        description: 'prepaid: nothing collected on delivery; cash or card: collected on delivery that way',
      }),
    ),
    weekdays: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { maxItems: 7, description: '1 Monday … 7 Sunday' }),
    ),
    hours: Type.Optional(
      Type.Object(
        { from: Type.Integer({ minimum: 0, maximum: 23 }), to: Type.Integer({ minimum: 1, maximum: 24 }) },
        { description: 'From the hour `from` up to (not including) `to`, in the account’s time zone' },
      ),
    ),
    dates: Type.Optional(Type.Object({ from: Type.Optional(Day), to: Type.Optional(Day) })),
    segments: Type.Optional(Words('the segment the request names (calculator body `segment`)')),
  },
  { description: 'All given conditions must hold; none given: every offer' },
);
export type RuleConditions = Static<typeof RuleConditions>;

export const ACTION_TYPES = [
  'hide',
  'markup',
  'discount',
  'fixedPrice',
  'freeFrom',
  'round',
  'addDays',
  'rename',
  'pin',
  'sort',
  'keepCheapest',
  'keepFastest',
  'requireInsurance',
] as const;

/**
 * One action, its fields by its type (one object rather than a union of objects: the house's
 * validation coerces a union by the first object branch; the rule checks of shipping-rules.ts
 * name a field a type needs and lacks).
 */
export const RuleAction = Type.Object(
  {
    type: Type.Enum([...ACTION_TYPES], { description: 'What the action does (its fields below say for which types)' }),
    percent: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1000, description: 'markup, discount' }))),
    amount: Type.Optional(
      Nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'roubles: markup, discount, fixedPrice' })),
    ),
    floor: Type.Optional(
      Nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'roubles: markup, discount' })),
    ),
    ceiling: Type.Optional(
      Nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'roubles: markup, discount' })),
    ),
    cartValue: Type.Optional(Roubles),
    step: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'roubles: round' })),
    mode: Type.Optional(Type.Enum(['up', 'down', 'nearest'], { description: 'round' })),
    days: Type.Optional(Type.Integer({ minimum: 0, maximum: 60, description: 'addDays: working days' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "rename: the offer's tariff name" })),
    description: Type.Optional(
      Type.String({ maxLength: 1000, description: "rename: added to the offer's specificity" }),
    ),
    position: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'pin: pinned offers come first, lowest first' }),
    ),
    by: Type.Optional(Type.Enum(['price', 'days'], { description: 'sort' })),
  },
  {
    description:
      "hide; markup or discount (percent and/or amount, floor, ceiling); fixedPrice (amount); freeFrom (cartValue); round (step, mode); addDays (days); rename (name, description); pin (position); sort (by); keepCheapest or keepFastest (of the offers the rule matched, one per delivery type stays); requireInsurance (the price includes insuring the cart's value at the company's rate)",
  },
);
export type RuleAction = Static<typeof RuleAction>;

export const ShippingRule = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  conditions: Type.Optional(RuleConditions),
  actions: Type.Array(RuleAction, { minItems: 1, maxItems: 20 }),
  stop: Type.Optional(
    Type.Boolean({ default: false, description: 'No rule after this one applies to an offer it matched' }),
  ),
});
export type ShippingRule = Static<typeof ShippingRule>;

export const ShippingRulesInput = Type.Object({
  rules: Type.Array(ShippingRule, { maxItems: 500 }),
  comment: Type.Optional(Type.String({ maxLength: 500, description: 'Why this change (kept with the version)' })),
});
export type ShippingRulesInput = Static<typeof ShippingRulesInput>;

const Author = Type.Object({
  kind: Type.Enum(['account', 'employee', 'shop'], {
    description: "account: the account's token; employee: a signed-in employee (employeeId); shop: a shop's key",
  }),
  employeeId: Nullable(Type.Integer()),
});

export const ShippingRuleVersion = Type.Object({
  version: Type.Integer({ description: '0: never written (no rules)' }),
  createdAt: Nullable(Type.String()),
  createdBy: Nullable(Author),
  comment: Nullable(Type.String()),
  revertedFrom: Nullable(Type.Integer({ description: 'The version this one restored' })),
  ruleCount: Type.Integer(),
});
export type ShippingRuleVersion = Static<typeof ShippingRuleVersion>;

export const ShippingRuleSet = Type.Object(
  { ...ShippingRuleVersion.properties, rules: Type.Array(ShippingRule) },
  { description: "A shop's shipping rules (extension): applied after the widget settings when applyWidgetSettings" },
);
export type ShippingRuleSet = Static<typeof ShippingRuleSet>;

export const ShippingRuleVersions = Type.Object({ items: Type.Array(ShippingRuleVersion) });

export const RevertInput = Type.Object({ version: CodeId('The version to restore (a new version is made)') });

export const ExplainInput = Type.Object({
  ...CalculatorBody.properties,
  rules: Type.Optional(
    Type.Array(ShippingRule, { maxItems: 500, description: 'Rules to try instead of the saved ones (as you edit)' }),
  ),
});
export type ExplainInput = Static<typeof ExplainInput>;

const PriceStep = Type.Object({
  rule: Type.Integer({
    description: 'Index in the list: widget settings first (negative), then the shop’s rules (0…)',
  }),
  ruleName: Type.String(),
  action: Type.String(),
  before: Type.Number({ description: 'roubles' }),
  after: Type.Number({ description: 'roubles' }),
});

export const ExplainedOffer = Type.Object({
  deliveryType: Type.Integer(),
  companyId: Type.Union([Type.Integer(), Type.String()]),
  companyName: Type.String(),
  tariffName: Nullable(Type.String()),
  pointKind: Nullable(Type.Integer({ description: 'Pickup: the kind of point this price is of' })),
  isFar: Type.Boolean(),
  basePrice: Type.Number({ description: 'Before widget settings and rules, roubles' }),
  price: Type.Number({ description: 'What the buyer is charged, roubles' }),
  hidden: Type.Boolean(),
  hiddenBy: Nullable(Type.String({ description: 'The rule that hid it (hide, keepCheapest, keepFastest)' })),
  deliveryDays: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  matched: Type.Array(Type.Object({ rule: Type.Integer(), ruleName: Type.String() })),
  steps: Type.Array(PriceStep),
});
export type ExplainedOffer = Static<typeof ExplainedOffer>;

export const ExplainAnswer = Type.Object({
  version: Type.Integer({
    description: 'The saved version explained; 0 when the body sent rules to try (or none were saved)',
  }),
  offers: Type.Array(ExplainedOffer),
});
export type ExplainAnswer = Static<typeof ExplainAnswer>;
