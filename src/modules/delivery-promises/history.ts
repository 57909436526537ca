/**
 * A history of delivered parcels made by the delay model (for a test account, the demo and the
 * back-test), and the back-test itself: learn on the earlier parcels, judge the promise on the
 * later ones beside the companies' declared days. Pure.
 */
import { addDays } from '../../platform/clock.js';
import type { BusinessCalendar } from './calendar.js';
import { simulatedTransitDays, seededRolls } from './delay-model.js';
import { keysOf, promiseOf, TransitHistogram, type Route } from './distribution.js';

/** A route a history is made on, with the company's declared working days. */
export interface HistoryRoute {
  route: Route;
  declared: { min: number; max: number };
  /** How many parcels it gets beside the others (a big city's route more). */
  weight: number;
}

export interface HistoryParcel {
  route: Route;
  declared: { min: number; max: number };
  handOverDate: string;
  arrivalDate: string;
  days: number;
}

/** `parcels` parcels handed over on business days from `firstDay` to `lastDay`, routes by weight; sorted by hand-over. */
export function generateHistory(
  routes: HistoryRoute[],
  options: { parcels: number; firstDay: string; lastDay: string; seed: number },
  calendar: BusinessCalendar,
): HistoryParcel[] {
  if (routes.length === 0) return [];
  const rolls = seededRolls(options.seed);
  const cumulative: number[] = [];
  let total = 0;
  for (const item of routes) {
    total += Math.max(0, item.weight);
    cumulative.push(total);
  }
  const spanDays = Math.max(1, Math.round((Date.parse(options.lastDay) - Date.parse(options.firstDay)) / 86_400_000));
  const parcels: HistoryParcel[] = [];
  for (let index = 0; index < options.parcels; index++) {
    const pick = rolls() * total;
    let at = cumulative.findIndex((sum) => sum > pick);
    if (at < 0) at = routes.length - 1;
    const { route, declared } = routes[at];
    const handOverDate = calendar.nextBusinessDay(addDays(options.firstDay, Math.floor(rolls() * spanDays)));
    const days = simulatedTransitDays(route, declared, handOverDate, rolls);
    parcels.push({ route, declared, handOverDate, arrivalDate: calendar.addBusinessDays(handOverDate, days), days });
  }
  return parcels.sort((a, b) => (a.handOverDate < b.handOverDate ? -1 : a.handOverDate > b.handOverDate ? 1 : 0));
}

/** Histograms by key, as the service keeps them. */
export class HistogramSet {
  readonly byKey = new Map<string, TransitHistogram>();

  add(route: Route, days: number, parcels = 1): void {
    for (const key of keysOf(route)) this.addToKey(key, days, parcels);
  }

  /** Parcels of one key (a distribution as stored). */
  addToKey(key: string, days: number, parcels: number): void {
    let histogram = this.byKey.get(key);
    if (!histogram) {
      histogram = new TransitHistogram();
      this.byKey.set(key, histogram);
    }
    histogram.add(days, parcels);
  }

  get(key: string): TransitHistogram | undefined {
    return this.byKey.get(key);
  }
}

export interface BacktestFigures {
  learnedOn: number;
  judgedOn: number;
  promise: { onTimeShare: number; meanDaysEarly: number; meanAbsoluteDays: number };
  declared: { onTimeShare: number; meanDaysEarly: number; meanAbsoluteDays: number };
  /** Judged parcels by the basis of their promise. */
  bases: Record<string, number>;
}

/** Learns on the earlier `learnShare` of the parcels (by hand-over date) and judges the rest. */
export function backtest(parcels: HistoryParcel[], calendar: BusinessCalendar, learnShare = 0.8): BacktestFigures {
  const cut = Math.floor(parcels.length * learnShare);
  const learned = new HistogramSet();
  for (const parcel of parcels.slice(0, cut)) learned.add(parcel.route, parcel.days);
  const judged = parcels.slice(cut);
  const promise = { onTime: 0, early: 0, absolute: 0 };
  const declared = { onTime: 0, early: 0, absolute: 0 };
  const bases: Record<string, number> = {};
  for (const parcel of judged) {
    const made = promiseOf((key) => learned.get(key), parcel.route, parcel.declared, parcel.handOverDate, calendar);
    bases[made.basis] = (bases[made.basis] ?? 0) + 1;
    const promisedGap = made.p90Days - parcel.days;
    if (promisedGap >= 0) promise.onTime++;
    promise.early += promisedGap;
    promise.absolute += Math.abs(promisedGap);
    const declaredGap = parcel.declared.max - parcel.days;
    if (declaredGap >= 0) declared.onTime++;
    declared.early += declaredGap;
    declared.absolute += Math.abs(declaredGap);
  }
  const n = Math.max(1, judged.length);
  const figures = (sums: { onTime: number; early: number; absolute: number }) => ({
    onTimeShare: sums.onTime / n,
    meanDaysEarly: sums.early / n,
    meanAbsoluteDays: sums.absolute / n,
  });
  return { learnedOn: cut, judgedOn: judged.length, promise: figures(promise), declared: figures(declared), bases };
}
