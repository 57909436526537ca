/**
 * The shipping rules editor's pure logic: which rules its forms can show (the others are edited
 * as JSON), a condition set or cleared, a rule moved, and the service's field errors
 * (`rules[2].actions[0].amount`) given to the rule they name.
 */
import { DeliveryApiError, type Schemas } from '../../../api';

export type ShippingRule = Schemas['ShippingRuleSet']['rules'][number];
export type RuleConditions = NonNullable<ShippingRule['conditions']>;
export type RuleAction = ShippingRule['actions'][number];
export type ActionType = RuleAction['type'];
export type RuleVersion = Omit<Schemas['ShippingRuleSet'], 'rules'>;
export type ExplainedOffer = Schemas['ShippingRulesExplained']['offers'][number];

/** The conditions the forms edit; a rule with another one is edited as JSON. */
export const FORM_CONDITIONS = [
  'cartValue',
  'weight',
  'deliveryTypes',
  'companyIds',
  'regionCodes',
  'localities',
  'weekdays',
] as const satisfies ReadonlyArray<keyof RuleConditions>;

/** The actions the forms edit, with the fields each one shows. */
export const FORM_ACTION_FIELDS = {
  hide: [],
  markup: ['percent', 'amount'],
  discount: ['percent', 'amount'],
  fixedPrice: ['amount'],
  freeFrom: ['cartValue'],
  addDays: ['days'],
  keepCheapest: [],
} as const satisfies Partial<Record<ActionType, ReadonlyArray<keyof RuleAction>>>;
export type FormActionType = keyof typeof FORM_ACTION_FIELDS;
export type ActionField = (typeof FORM_ACTION_FIELDS)[FormActionType][number];
export const FORM_ACTION_TYPES = Object.keys(FORM_ACTION_FIELDS) as FormActionType[];

const isFormAction = (type: ActionType): type is FormActionType => type in FORM_ACTION_FIELDS;
const given = (value: unknown) => value !== undefined && value !== null;

/** Whether the forms show every part of the rule (else its JSON is edited, so nothing is lost unseen). */
export function formsCanEdit(rule: ShippingRule): boolean {
  const conditionsShown = Object.entries(rule.conditions ?? {}).every(
    ([key, value]) => !given(value) || (FORM_CONDITIONS as readonly string[]).includes(key),
  );
  const actionsShown = rule.actions.every((action) => {
    if (!isFormAction(action.type)) return false;
    const shown: readonly string[] = FORM_ACTION_FIELDS[action.type];
    return Object.entries(action).every(([key, value]) => key === 'type' || !given(value) || shown.includes(key));
  });
  return conditionsShown && actionsShown;
}

/** An empty range, list or value: the condition is left out. */
function isEmptyCondition(value: unknown): boolean {
  if (!given(value)) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value as object).every((part) => !given(part));
  return false;
}

/** The conditions with one set, or left out when it is empty. */
export function withCondition<Key extends keyof RuleConditions>(
  conditions: RuleConditions | undefined,
  key: Key,
  value: RuleConditions[Key],
): RuleConditions {
  const next: RuleConditions = { ...conditions };
  if (isEmptyCondition(value)) delete next[key];
  else next[key] = value;
  return next;
}

/** A range's bound changed: an empty field leaves the bound out. */
export function withBound(
  range: { min?: number; max?: number } | undefined,
  bound: 'min' | 'max',
  value: string | number,
): { min?: number; max?: number } {
  const next = { ...range };
  if (value === '') delete next[bound];
  else next[bound] = Number(value);
  return next;
}

/** The list with the item at `from` moved to `to` (a move out of the list changes nothing). */
export function moved<Item>(list: readonly Item[], from: number, to: number): Item[] {
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as Item);
  return next;
}

/** A new action of a type, with the fields it needs started. */
export function newAction(type: FormActionType): RuleAction {
  if (type === 'markup' || type === 'discount') return { type, percent: 10 };
  if (type === 'fixedPrice') return { type, amount: 0 };
  if (type === 'freeFrom') return { type, cartValue: 3000 };
  if (type === 'addDays') return { type, days: 1 };
  return { type };
}

export function newRule(name: string): ShippingRule {
  return { name, enabled: true, stop: false, conditions: {}, actions: [newAction('markup')] };
}

export interface FieldProblem {
  /** The field inside the rule (`actions[0].amount`), or the whole field when it names no rule. */
  field: string;
  message: string;
}

/** A refusal's field errors: those of each rule by its index, and the others (the comment, the body). */
export function problemsByRule(error: unknown): { byRule: Map<number, FieldProblem[]>; others: FieldProblem[] } {
  const byRule = new Map<number, FieldProblem[]>();
  const others: FieldProblem[] = [];
  if (!(error instanceof DeliveryApiError)) return { byRule, others };
  for (const item of error.errors ?? []) {
    const field = 'field' in item && typeof item.field === 'string' ? item.field : '';
    const match = /^rules\[(\d+)\]\.?(.*)$/.exec(field);
    if (!match) {
      others.push({ field, message: item.message });
      continue;
    }
    const index = Number(match[1]);
    byRule.set(index, [...(byRule.get(index) ?? []), { field: match[2] || field, message: item.message }]);
  }
  return { byRule, others };
}
