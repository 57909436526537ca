/**
 * The shipping rules where the calculator meets them: one priced offer evaluated (and traced
 * for explain), the name and description a rule gave it, and what rules ask across offers (keep
 * only the cheapest or fastest, pin, sort). Prices are decided per offer only, from the offer's
 * own facts, never from the others: one company's quote (an order, the widget's confirmation)
 * is charged what the whole answer showed.
 */
import type { DeliveryCompanyResult } from './schemas.js';
import { evaluateOffer, type OfferFacts, type OfferOutcome } from './shipping-rules.js';
import { lowestPrice, type CompanyOption, type Context, type OptionMarks, type TracedOffer } from './present.js';

/** One offer through the rules; recorded for explain when the context traces. */
export function evaluateUnit(
  context: Context,
  offer: OfferFacts,
  baseKopecks: number,
  shown: { companyName: string; isFar: boolean; deliveryDays: { min: number; max: number } },
): { outcome: OfferOutcome; traced: TracedOffer | null } {
  const outcome = evaluateOffer(context.rules as NonNullable<Context['rules']>, offer, baseKopecks, !!context.trace);
  if (!context.trace) return { outcome, traced: null };
  const traced: TracedOffer = {
    type: offer.type,
    companyId: offer.companyId,
    companyName: shown.companyName,
    tariffName: offer.tariffName,
    pointKind: offer.pointKind,
    isFar: shown.isFar,
    baseKopecks,
    deliveryDays: shown.deliveryDays,
    outcome,
    keptOutBy: null,
  };
  context.trace.push(traced);
  return { outcome, traced };
}

/** A rule's new name (the offer's tariff name as shown) and its descriptions (the offer's specificity). */
export function renamed(company: DeliveryCompanyResult, outcome: OfferOutcome): void {
  if (outcome.rename !== null) company.tariffName = outcome.rename;
  if (outcome.descriptions.length) company.specificity = [...company.specificity, ...outcome.descriptions];
}

export function marksOf(outcome: OfferOutcome, traced: TracedOffer[]): OptionMarks {
  return { pin: outcome.pin, sortBy: outcome.sortBy, keep: outcome.keep, traced };
}

const latestDay = (option: CompanyOption) => option.company.deliveryDays.max;

/**
 * keepCheapest / keepFastest (of the options each such rule matched, one per delivery type
 * stays: the cheapest, or the fastest then cheapest; a tie keeps the first), then pinned
 * options first and, when a rule asked, the rest by price or days. Stable: equal options keep
 * the calculator's order.
 */
export function applyMarks(options: CompanyOption[]): CompanyOption[] {
  if (!options.some((option) => option.marks)) return options;
  const out = new Set<CompanyOption>();
  const rules = new Map<number, { name: string; by: 'cheapest' | 'fastest'; options: CompanyOption[] }>();
  for (const option of options)
    for (const keep of option.marks?.keep ?? []) {
      let group = rules.get(keep.rule);
      if (!group) rules.set(keep.rule, (group = { name: keep.ruleName, by: keep.by, options: [] }));
      group.options.push(option);
    }
  for (const group of rules.values()) {
    let best: CompanyOption | null = null;
    for (const option of group.options) {
      if (!best) best = option;
      else if (group.by === 'cheapest' ? lowestPrice(option) < lowestPrice(best) : faster(option, best)) best = option;
    }
    for (const option of group.options)
      if (option !== best && !out.has(option)) {
        out.add(option);
        for (const traced of option.marks?.traced ?? []) traced.keptOutBy = group.name;
      }
  }
  const kept = out.size ? options.filter((option) => !out.has(option)) : options;
  const sortBy = kept.find((option) => option.marks?.sortBy)?.marks?.sortBy ?? null;
  const pinned = kept.some((option) => option.marks?.pin !== null && option.marks?.pin !== undefined);
  if (!sortBy && !pinned) return kept;
  const position = (option: CompanyOption) => option.marks?.pin ?? Number.POSITIVE_INFINITY;
  return kept
    .map((option, index) => ({ option, index }))
    .sort(
      (a, b) =>
        position(a.option) - position(b.option) ||
        (sortBy === 'price' ? lowestPrice(a.option) - lowestPrice(b.option) : 0) ||
        (sortBy === 'days' ? latestDay(a.option) - latestDay(b.option) : 0) ||
        a.index - b.index,
    )
    .map(({ option }) => option);
}

function faster(option: CompanyOption, than: CompanyOption): boolean {
  const days = latestDay(option) - latestDay(than);
  return days < 0 || (days === 0 && lowestPrice(option) < lowestPrice(than));
}
