/**
 * The shipping rules engine, pure: a shop's ordered rules, each conditions (all must
 * hold) and actions, evaluated on every priced offer of a calculation, deterministic, with a
 * trace of each price step when asked (explain).
 *
 * The contract's widget settings are compiled into the first rules of the list (their price
 * rules, then free delivery, then rounding: `applyPriceRules`'s order and arithmetic, a
 * property test holds the two equal), so a shop with rules and `applyWidgetSettings` gets its
 * widget settings first and its rules after, one evaluation. A shop without rules never comes
 * here: the calculator keeps `applyPriceRules`, so the hot path is as it was.
 *
 * Cost: the conditions on the request (cart, destination, payment, time, segment) are decided
 * once per calculation (`bindRules`); per offer only the offer's own conditions are tested, so
 * 100 rules on a Moscow answer cost tens of microseconds (bench/shipping-rules.ts).
 */
import { percentOf, toKopecks, toRoubles } from '../../platform/money.js';
import type { RuleAction, RuleConditions, ShippingRule } from './shipping-rules-schemas.js';
import type { WidgetSettingsFull } from './schemas.js';

/** What the request says, decided once per calculation. */
export interface RequestFacts {
  cartKopecks: number;
  weightGrams: number;
  longestSideCm: number;
  itemCount: number;
  vendorCodes: ReadonlySet<string>;
  regionCode: string;
  localityFias: string | null;
  localityName: string;
  distanceKm: number;
  payment: 'prepaid' | 'cash' | 'card';
  /** 1 Monday … 7 Sunday, in the account's time zone. */
  weekday: number;
  hour: number;
  date: string;
  segment: string | null;
}

/** One priced offer: a company's type (for pickup, one kind of point). */
export interface OfferFacts {
  type: number;
  companyId: number | string;
  tariffName: string | null;
  /** Pickup: the kind of point this price is of (1 point, 2 locker, 3 post office); else null. */
  pointKind: number | null;
  /** The latest delivery day, calendar days from today. */
  daysMax: number;
  /** What insuring the cart's value adds to this offer's price (0 when the call insured it already). */
  insuranceKopecks: number;
}

export interface PriceStep {
  rule: number;
  ruleName: string;
  action: string;
  beforeKopecks: number;
  afterKopecks: number;
}

/** What the rules made of one offer. */
export interface OfferOutcome {
  priceKopecks: number;
  hiddenBy: string | null;
  /** Working days added to the offer's dates. */
  addDays: number;
  rename: string | null;
  descriptions: string[];
  pin: number | null;
  sortBy: 'price' | 'days' | null;
  /** keepCheapest / keepFastest rules this offer matched: among the offers each matched, one per type stays. */
  keep: Array<{ rule: number; ruleName: string; by: 'cheapest' | 'fastest' }>;
  insured: boolean;
  matched: Array<{ rule: number; ruleName: string }>;
  /** Each price step, when traced (explain). */
  steps: PriceStep[] | null;
}

type RequestTest = (request: RequestFacts) => boolean;
type OfferTest = (offer: OfferFacts, priceKopecks: number, addDays: number) => boolean;

type CompiledAction =
  | { type: 'hide' }
  | {
      type: 'markup' | 'discount';
      percent: number;
      amountKopecks: number;
      floorKopecks: number | null;
      ceilingKopecks: number | null;
    }
  | { type: 'fixedPrice'; amountKopecks: number }
  | { type: 'freeFrom'; cartKopecks: number }
  | { type: 'round'; stepKopecks: number; mode: 'up' | 'down' | 'nearest' }
  | { type: 'addDays'; days: number }
  | { type: 'rename'; name: string | null; description: string | null }
  | { type: 'pin'; position: number }
  | { type: 'sort'; by: 'price' | 'days' }
  | { type: 'keepCheapest' | 'keepFastest' }
  | { type: 'requireInsurance' };

export interface CompiledRule {
  /** Its index in the shop's list; -1 for a step of the widget settings. */
  index: number;
  name: string;
  stop: boolean;
  requestTests: RequestTest[];
  offerTests: OfferTest[];
  actions: CompiledAction[];
}

/** A shop's saved rules made ready to evaluate, once per version. */
export interface CompiledRules {
  version: number;
  rules: CompiledRule[];
  /** Whether a rule looks at the hour: answers remembered then depend on it. */
  usesHour: boolean;
}

/** The rules of one calculation: those whose request conditions hold, widget settings first. */
export interface BoundRules {
  rules: CompiledRule[];
  cartKopecks: number;
}

const WIDGET_RULE = -1;

function inRange(range: { min?: number; max?: number } | undefined, scale: number) {
  if (!range) return null;
  const min = range.min === undefined ? Number.NEGATIVE_INFINITY : range.min * scale;
  const max = range.max === undefined ? Number.POSITIVE_INFINITY : range.max * scale;
  return (value: number) => value >= min && value <= max;
}

/** Kopecks of a rule's roubles (a rule's `amount`); null stays null. */
const kopecksOf = (roubles: number | null | undefined) =>
  roubles === null || roubles === undefined ? null : toKopecks(roubles);

function compileConditions(conditions: RuleConditions | undefined): {
  requestTests: RequestTest[];
  offerTests: OfferTest[];
  usesHour: boolean;
} {
  const requestTests: RequestTest[] = [];
  const offerTests: OfferTest[] = [];
  if (!conditions) return { requestTests, offerTests, usesHour: false };
  const c = conditions;
  const range = (key: 'cartValue' | 'weight' | 'longestSide' | 'itemCount' | 'distanceKm', scale: number) =>
    inRange(c[key], scale);
  const cart = range('cartValue', 100);
  if (cart) requestTests.push((r) => cart(r.cartKopecks));
  const weight = range('weight', 1000);
  if (weight) requestTests.push((r) => weight(r.weightGrams));
  const side = range('longestSide', 1);
  if (side) requestTests.push((r) => side(r.longestSideCm));
  const items = range('itemCount', 1);
  if (items) requestTests.push((r) => items(r.itemCount));
  const distance = range('distanceKm', 1);
  if (distance) requestTests.push((r) => distance(r.distanceKm));
  if (c.vendorCodes?.any?.length) {
    const any = c.vendorCodes.any;
    requestTests.push((r) => any.some((code) => r.vendorCodes.has(code)));
  }
  if (c.vendorCodes?.none?.length) {
    const none = c.vendorCodes.none;
    requestTests.push((r) => !none.some((code) => r.vendorCodes.has(code)));
  }
  if (c.regionCodes) {
    const regions = new Set(c.regionCodes);
    requestTests.push((r) => regions.has(r.regionCode));
  }
  if (c.localities) {
    const places = new Set(c.localities.map((place) => place.toLowerCase()));
    requestTests.push(
      (r) => places.has(r.localityName.toLowerCase()) || (r.localityFias !== null && places.has(r.localityFias)),
    );
  }
  if (c.payment) {
    const payments = new Set<string>(c.payment);
    requestTests.push((r) => payments.has(r.payment));
  }
  if (c.weekdays) {
    const days = new Set(c.weekdays);
    requestTests.push((r) => days.has(r.weekday));
  }
  const hours = c.hours;
  if (hours) requestTests.push((r) => r.hour >= hours.from && r.hour < hours.to);
  const dates = c.dates;
  if (dates)
    requestTests.push(
      (r) => (dates.from === undefined || r.date >= dates.from) && (dates.to === undefined || r.date <= dates.to),
    );
  if (c.segments) {
    const segments = new Set(c.segments);
    requestTests.push((r) => r.segment !== null && segments.has(r.segment));
  }

  if (c.deliveryTypes) {
    const types = new Set<number>(c.deliveryTypes);
    offerTests.push((o) => types.has(o.type));
  }
  if (c.pointKinds) {
    const kinds = new Set<number>(c.pointKinds);
    offerTests.push((o) => o.pointKind !== null && kinds.has(o.pointKind));
  }
  if (c.companyIds) {
    const companies = new Set<number | string>(c.companyIds);
    offerTests.push((o) => companies.has(o.companyId));
  }
  if (c.tariffs) {
    const tariffs = new Set(c.tariffs);
    offerTests.push((o) => o.tariffName !== null && tariffs.has(o.tariffName));
  }
  const days = inRange(c.days, 1);
  if (days) offerTests.push((o, _price, added) => days(o.daysMax + added));
  const price = inRange(c.price, 100);
  if (price) offerTests.push((_o, kopecks) => price(kopecks));
  return { requestTests, offerTests, usesHour: hours !== undefined };
}

/** An action in the engine's units; the rule checks made sure its type's fields are there. */
function compileAction(action: RuleAction): CompiledAction {
  switch (action.type) {
    case 'markup':
    case 'discount':
      return {
        type: action.type,
        percent: action.percent ?? 0,
        amountKopecks: kopecksOf(action.amount) ?? 0,
        floorKopecks: kopecksOf(action.floor),
        ceilingKopecks: kopecksOf(action.ceiling),
      };
    case 'fixedPrice':
      return { type: 'fixedPrice', amountKopecks: kopecksOf(action.amount) ?? 0 };
    case 'freeFrom':
      return { type: 'freeFrom', cartKopecks: kopecksOf(action.cartValue) ?? 0 };
    case 'round':
      // a step of 0 never rounds (the check refuses it; a stored list is read as written)
      return { type: 'round', stepKopecks: kopecksOf(action.step) ?? 0, mode: action.mode ?? 'nearest' };
    case 'addDays':
      return { type: 'addDays', days: action.days ?? 0 };
    case 'rename':
      return { type: 'rename', name: action.name ?? null, description: action.description ?? null };
    case 'pin':
      return { type: 'pin', position: action.position ?? 1 };
    case 'sort':
      return { type: 'sort', by: action.by ?? 'price' };
    default:
      return { type: action.type };
  }
}

/** The fields each action type needs. */
const NEEDS: Partial<Record<RuleAction['type'], Array<keyof RuleAction>>> = {
  fixedPrice: ['amount'],
  freeFrom: ['cartValue'],
  round: ['step', 'mode'],
  addDays: ['days'],
  pin: ['position'],
  sort: ['by'],
};

/** A shop's saved rules, compiled once per version (disabled rules are left out here). */
export function compileRules(rules: ShippingRule[], version: number): CompiledRules {
  const compiled: CompiledRule[] = [];
  let usesHour = false;
  for (const [index, rule] of rules.entries()) {
    if (rule.enabled === false) continue;
    const conditions = compileConditions(rule.conditions);
    usesHour ||= conditions.usesHour;
    compiled.push({
      index,
      name: rule.name,
      stop: rule.stop === true,
      requestTests: conditions.requestTests,
      offerTests: conditions.offerTests,
      actions: rule.actions.map(compileAction),
    });
  }
  return { version, rules: compiled, usesHour };
}

/**
 * The widget settings' price steps as rules, in `applyPriceRules`'s order and arithmetic: its
 * amounts are `Math.round(amount * 100)` as there, its discount never below 0, its free
 * delivery from the order's sum, its rounding only of a price above 0.
 */
export function widgetRules(widget: WidgetSettingsFull): CompiledRule[] {
  const rules: CompiledRule[] = widget.priceRules.map((rule, position) => {
    const offerTests: OfferTest[] = [];
    if (rule.type !== null) offerTests.push((o) => o.type === rule.type);
    // an own method is company 0 to the widget's rules (own-options.ts)
    if (rule.companyId !== null)
      offerTests.push((o) => (typeof o.companyId === 'number' ? o.companyId : 0) === rule.companyId);
    const amountKopecks = Math.round((rule.amount ?? 0) * 100);
    const action: CompiledAction =
      rule.kind === 'fixed'
        ? { type: 'fixedPrice', amountKopecks }
        : {
            type: rule.kind,
            percent: rule.percent ?? 0,
            amountKopecks,
            floorKopecks: null,
            ceilingKopecks: null,
          };
    return {
      index: WIDGET_RULE,
      name: `widget settings: priceRules[${position}]`,
      stop: false,
      requestTests: [],
      offerTests,
      actions: [action],
    };
  });
  if (widget.freeDeliveryFrom !== null)
    rules.push({
      index: WIDGET_RULE,
      name: 'widget settings: freeDeliveryFrom',
      stop: false,
      requestTests: [],
      offerTests: [],
      actions: [{ type: 'freeFrom', cartKopecks: toKopecks(widget.freeDeliveryFrom) }],
    });
  if (widget.rounding)
    rules.push({
      index: WIDGET_RULE,
      name: 'widget settings: rounding',
      stop: false,
      requestTests: [],
      offerTests: [],
      actions: [{ type: 'round', stepKopecks: toKopecks(widget.rounding.step), mode: widget.rounding.mode }],
    });
  return rules;
}

/** The rules of one calculation: the widget's steps, then the shop's rules whose request conditions hold. */
export function bindRules(
  widget: WidgetSettingsFull | null,
  compiled: CompiledRules | null,
  request: RequestFacts,
): BoundRules {
  const rules = widget ? widgetRules(widget) : [];
  for (const rule of compiled?.rules ?? []) if (rule.requestTests.every((test) => test(request))) rules.push(rule);
  return { rules, cartKopecks: request.cartKopecks };
}

function describe(action: CompiledAction): string {
  switch (action.type) {
    case 'markup':
    case 'discount':
      return `${action.type} ${action.percent}% + ${toRoubles(action.amountKopecks)}`;
    case 'fixedPrice':
      return `fixedPrice ${toRoubles(action.amountKopecks)}`;
    case 'freeFrom':
      return `freeFrom ${toRoubles(action.cartKopecks)}`;
    case 'round':
      return `round ${action.mode} to ${toRoubles(action.stepKopecks)}`;
    default:
      return action.type;
  }
}

/** The price after one price action, or null when the action does not set the price. */
function priced(action: CompiledAction, price: number, offer: OfferFacts, cartKopecks: number): number | null {
  switch (action.type) {
    case 'markup':
    case 'discount': {
      let next =
        action.type === 'markup'
          ? price + percentOf(price, action.percent) + action.amountKopecks
          : Math.max(0, price - percentOf(price, action.percent) - action.amountKopecks);
      if (action.floorKopecks !== null && next < action.floorKopecks) next = action.floorKopecks;
      if (action.ceilingKopecks !== null && next > action.ceilingKopecks) next = action.ceilingKopecks;
      return next;
    }
    case 'fixedPrice':
      return action.amountKopecks;
    case 'freeFrom':
      return cartKopecks >= action.cartKopecks ? 0 : price;
    case 'round': {
      if (price <= 0 || action.stepKopecks <= 0) return price;
      const round = action.mode === 'up' ? Math.ceil : action.mode === 'down' ? Math.floor : Math.round;
      return round(price / action.stepKopecks) * action.stepKopecks;
    }
    case 'requireInsurance':
      return price + offer.insuranceKopecks;
    default:
      return null;
  }
}

/** An offer's outcome before any rule: its price, nothing hidden, added or matched (fresh lists each time). */
export function untouchedOutcome(priceKopecks: number, trace = false): OfferOutcome {
  return {
    priceKopecks,
    hiddenBy: null,
    addDays: 0,
    rename: null,
    descriptions: [],
    pin: null,
    sortBy: null,
    keep: [],
    insured: false,
    matched: [],
    steps: trace ? [] : null,
  };
}

/** Every rule in order on one offer: its price, whether it is hidden, and what else the rules asked. */
export function evaluateOffer(bound: BoundRules, offer: OfferFacts, baseKopecks: number, trace = false): OfferOutcome {
  const outcome = untouchedOutcome(baseKopecks, trace);
  for (const rule of bound.rules) {
    let holds = true;
    for (const test of rule.offerTests)
      if (!test(offer, outcome.priceKopecks, outcome.addDays)) {
        holds = false;
        break;
      }
    if (!holds) continue;
    if (trace) outcome.matched.push({ rule: rule.index, ruleName: rule.name });
    for (const action of rule.actions) {
      if (action.type === 'hide') {
        outcome.hiddenBy = rule.name;
        return outcome;
      }
      if (action.type === 'requireInsurance') {
        // insured once, however many rules ask
        if (outcome.insured) continue;
        outcome.insured = true;
      }
      const next = priced(action, outcome.priceKopecks, offer, bound.cartKopecks);
      if (next !== null) {
        outcome.steps?.push({
          rule: rule.index,
          ruleName: rule.name,
          action: describe(action),
          beforeKopecks: outcome.priceKopecks,
          afterKopecks: next,
        });
        outcome.priceKopecks = next;
        continue;
      }
      if (action.type === 'addDays') outcome.addDays += action.days;
      else if (action.type === 'rename') {
        if (action.name !== null) outcome.rename = action.name;
        if (action.description) outcome.descriptions.push(action.description);
      } else if (action.type === 'pin') outcome.pin = action.position;
      else if (action.type === 'sort') outcome.sortBy = action.by;
      else if (action.type === 'keepCheapest' || action.type === 'keepFastest')
        outcome.keep.push({
          rule: rule.index,
          ruleName: rule.name,
          by: action.type === 'keepCheapest' ? 'cheapest' : 'fastest',
        });
    }
    if (rule.stop) break;
  }
  return outcome;
}

/**
 * Rule checks beyond the schema, as field errors (`rules[3].conditions.hours.to`): ranges the
 * right way round, a step of a rule that could not hold or act. Empty when the list is good.
 */
export function ruleProblems(rules: ShippingRule[], path = 'rules'): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  for (const [index, rule] of rules.entries()) {
    const at = `${path}[${index}]`;
    const c = rule.conditions ?? {};
    for (const key of ['cartValue', 'weight', 'longestSide', 'itemCount', 'distanceKm', 'days', 'price'] as const) {
      const range = c[key];
      if (range?.min !== undefined && range.max !== undefined && range.min > range.max)
        problems.push({ field: `${at}.conditions.${key}.max`, message: 'must not be less than min' });
    }
    if (c.hours && c.hours.from >= c.hours.to)
      problems.push({ field: `${at}.conditions.hours.to`, message: 'must be later than from' });
    if (c.dates?.from && c.dates.to && c.dates.from > c.dates.to)
      problems.push({ field: `${at}.conditions.dates.to`, message: 'must not be before from' });
    for (const key of ['from', 'to'] as const) {
      const day = c.dates?.[key];
      // the schema checks the shape; a day that does not exist (02-31) is refused here
      if (day && !isRealDay(day))
        problems.push({ field: `${at}.conditions.dates.${key}`, message: 'must be a date YYYY-MM-DD' });
    }
    for (const [position, action] of rule.actions.entries()) {
      const field = `${at}.actions[${position}]`;
      for (const need of NEEDS[action.type] ?? [])
        if (action[need] === undefined || action[need] === null)
          problems.push({ field: `${field}.${need}`, message: 'is required' });
      if ((action.type === 'markup' || action.type === 'discount') && !action.percent && !action.amount)
        problems.push({ field: `${field}.percent`, message: 'give a percent or an amount' });
      if (
        (action.type === 'markup' || action.type === 'discount') &&
        action.floor !== null &&
        action.floor !== undefined &&
        action.ceiling !== null &&
        action.ceiling !== undefined &&
        action.floor > action.ceiling
      )
        problems.push({ field: `${field}.ceiling`, message: 'must not be less than floor' });
      if (action.type === 'rename' && action.name === undefined && !action.description)
        problems.push({ field: `${field}.name`, message: 'give a name or a description' });
    }
  }
  return problems;
}

function isRealDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}
