/**
 * Transit times as distributions, and the promise made of them. A delivered parcel counts in
 * four distributions, from the narrowest to the coarsest: its route (company, type, tariff,
 * from locality, to locality), its regions (company, type, from region, to region), its
 * distance band and its company (with the type). A promise reads the narrowest with enough
 * parcels; with none, it is the company's declaration. Pure.
 */
import { distanceKm } from '../../carriers/geo.js';
import type { BusinessCalendar } from './calendar.js';

/** Days beyond this count as this many: a parcel lost for a month teaches nothing about the next one. */
export const MAX_DAYS = 40;

/** Distance bands, km: the same city, a region, a neighbouring region, across the country, the far east. */
const BANDS_KM = [30, 300, 1000, 2500];

export type PromiseBasis = 'route' | 'regions' | 'distance' | 'company' | 'declared';

/** The levels read in turn, with the parcels each needs before it is trusted. */
export const LEVELS: ReadonlyArray<{ basis: Exclude<PromiseBasis, 'declared'>; minParcels: number }> = [
  { basis: 'route', minParcels: 20 },
  { basis: 'regions', minParcels: 30 },
  { basis: 'distance', minParcels: 40 },
  { basis: 'company', minParcels: 50 },
];

export interface Place {
  id: number;
  regionCode: string;
  latitude: number;
  longitude: number;
}

/** What a parcel's journey is keyed by. */
export interface Route {
  companyId: number;
  deliveryType: number;
  tariff: string | null;
  from: Place;
  to: Place;
}

export function distanceBandOf(route: Pick<Route, 'from' | 'to'>): number {
  const km = distanceKm(route.from.latitude, route.from.longitude, route.to.latitude, route.to.longitude);
  const band = BANDS_KM.findIndex((limit) => km < limit);
  return band < 0 ? BANDS_KM.length : band;
}

/** The key of a route at each level, in LEVELS' order. */
export function keysOf(route: Route): string[] {
  const head = `${route.companyId}|${route.deliveryType}`;
  return [
    `r|${head}|${route.tariff ?? ''}|${route.from.id}|${route.to.id}`,
    `g|${head}|${route.from.regionCode}|${route.to.regionCode}`,
    `d|${head}|${distanceBandOf(route)}`,
    `c|${head}`,
  ];
}

/** Parcels by business days in transit (0..MAX_DAYS), with its percentiles remembered until the next parcel. */
export class TransitHistogram {
  readonly counts: number[] = new Array(MAX_DAYS + 1).fill(0);
  parcels = 0;
  private remembered: { median: number; p90: number } | null = null;

  add(days: number, parcels = 1): void {
    this.counts[Math.max(0, Math.min(MAX_DAYS, Math.round(days)))] += parcels;
    this.parcels += parcels;
    this.remembered = null;
  }

  /** The fewest days within which `share` of the parcels arrived. */
  percentile(share: number): number {
    const needed = Math.max(1, Math.ceil(share * this.parcels));
    let seen = 0;
    for (let days = 0; days <= MAX_DAYS; days++) {
      seen += this.counts[days];
      if (seen >= needed) return days;
    }
    return MAX_DAYS;
  }

  summary(): { median: number; p90: number } {
    if (!this.remembered) this.remembered = { median: this.percentile(0.5), p90: this.percentile(0.9) };
    return this.remembered;
  }
}

/** The promise of an offer (an extension of the calculator's, the widget's and the order's shapes). */
export interface DeliveryPromise {
  /** Business days from hand-over within which half the parcels arrived. */
  medianDays: number;
  /** Business days within which 9 in 10 arrived: the promise. */
  p90Days: number;
  /** The day the parcel is expected to be handed to the company. */
  handOverDate: string;
  medianDate: string;
  /** "Arrives by": the hand-over date plus p90Days business days. */
  byDate: string;
  basis: PromiseBasis;
  /** Parcels the basis was measured on (0 for the declaration). */
  parcels: number;
}

/**
 * The promise of a route handed over on `handOverDate`: the narrowest level with enough
 * parcels, else the declared working days (median the middle of the range, the promise its end).
 */
export function promiseOf(
  histogramOf: (key: string) => TransitHistogram | undefined,
  route: Route,
  declared: { min: number; max: number },
  handOverDate: string,
  calendar: BusinessCalendar,
): DeliveryPromise {
  const keys = keysOf(route);
  for (let level = 0; level < LEVELS.length; level++) {
    const histogram = histogramOf(keys[level]);
    if (!histogram || histogram.parcels < LEVELS[level].minParcels) continue;
    const { median, p90 } = histogram.summary();
    return dated(median, p90, handOverDate, LEVELS[level].basis, histogram.parcels, calendar);
  }
  const median = Math.round((declared.min + declared.max) / 2);
  return dated(median, Math.max(declared.max, median), handOverDate, 'declared', 0, calendar);
}

function dated(
  medianDays: number,
  p90Days: number,
  handOverDate: string,
  basis: PromiseBasis,
  parcels: number,
  calendar: BusinessCalendar,
): DeliveryPromise {
  const handOver = calendar.nextBusinessDay(handOverDate);
  return {
    medianDays,
    p90Days,
    handOverDate: handOver,
    medianDate: calendar.addBusinessDays(handOver, medianDays),
    byDate: calendar.addBusinessDays(handOver, p90Days),
    basis,
    parcels,
  };
}
