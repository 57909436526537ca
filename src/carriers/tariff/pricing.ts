/** Pure pricing rules of a rate card: zones, weights, limits, prices, commissions. */
import { percentOf } from '../../platform/money.js';
import type { Cargo, CommissionRule, PriceMode } from '../types.js';
import type { RateCard } from './rate-card.js';

/** Zone of a distance: the index of the first limit not below it; past the last, one more. */
export function zoneOf(distanceKm: number, zoneLimitsKm: number[]): number {
  const index = zoneLimitsKm.findIndex((limit) => distanceKm <= limit);
  return index === -1 ? zoneLimitsKm.length : index;
}

/** Volumetric weight in grams: cm3 / divisor kg (0 when the card has no divisor or the volume is unknown). */
export function volumetricGrams(volumeCm3: number, divisor: number): number {
  if (divisor <= 0 || volumeCm3 <= 0) return 0;
  return Math.round((volumeCm3 / divisor) * 1000);
}

/** The weight a card charges for, by price mode: 1 max(actual, volumetric), 2 actual, 3 volumetric. */
export function chargeableGrams(cargo: Cargo, divisor: number, mode: PriceMode): number {
  const volumetric = volumetricGrams(cargo.volumeCm3, divisor);
  if (mode === 2) return cargo.weightGrams;
  if (mode === 3) return volumetric > 0 ? volumetric : cargo.weightGrams;
  return Math.max(cargo.weightGrams, volumetric);
}

/** Why a cargo cannot go with a card, or null when it can. */
export function limitProblem(cargo: Cargo, limits: RateCard['limits']): string | null {
  if (cargo.weightGrams < limits.minWeightGrams) return `weighs less than ${limits.minWeightGrams / 1000} kg`;
  if (cargo.weightGrams > limits.maxWeightGrams) return `weighs more than ${limits.maxWeightGrams / 1000} kg`;
  for (const place of cargo.places) {
    if (!place.sidesCm) continue;
    if (place.sidesCm[0] > limits.maxSideCm) return `has a side over ${limits.maxSideCm} cm`;
    if (place.sidesCm[0] + place.sidesCm[1] + place.sidesCm[2] > limits.maxSumOfSidesCm)
      return `has sides summing over ${limits.maxSumOfSidesCm} cm`;
  }
  return null;
}

/** Price of a chargeable weight in a zone: the first weight break that holds it, then per started kg over the last break. */
export function weightPriceKopecks(
  card: Pick<RateCard, 'breaks' | 'perKgOverKopecks'>,
  zone: number,
  grams: number,
): number {
  const column = (prices: number[]) => prices[Math.min(zone, prices.length - 1)];
  for (const line of card.breaks) if (grams <= line.upToGrams) return column(line.pricesKopecks);
  const last = card.breaks[card.breaks.length - 1];
  const overKg = Math.ceil((grams - last.upToGrams) / 1000);
  return column(last.pricesKopecks) + overKg * (card.perKgOverKopecks.length ? column(card.perKgOverKopecks) : 0);
}

/** Transit working days of a zone. */
export function daysOf(card: Pick<RateCard, 'days'>, zone: number, extraDays = 0): { min: number; max: number } {
  const [min, max] = card.days[Math.min(zone, card.days.length - 1)];
  return { min: min + extraDays, max: max + extraDays };
}

/** A percentage commission with a minimum; nothing when there is nothing to take it on. */
export function commissionKopecks(baseKopecks: number, rule: CommissionRule): number {
  if (baseKopecks <= 0 || rule.percent <= 0) return 0;
  return Math.max(percentOf(baseKopecks, rule.percent), rule.minimumKopecks);
}

/** Multiplies a price by a factor, to the kopeck. */
export function scaled(kopecks: number, factor: number): number {
  return Math.round(kopecks * factor);
}
