import { describe, expect, it } from 'vitest';
import { readDataFile } from '../../platform/reference-data.js';
import type { Cargo } from '../types.js';
import {
  chargeableGrams,
  commissionKopecks,
  daysOf,
  limitProblem,
  volumetricGrams,
  weightPriceKopecks,
  zoneOf,
} from './pricing.js';
import { quoteByCard } from './driver.js';
import { toRateCard, type CompaniesFile } from './rate-card.js';
import { distanceKm } from '../geo.js';

const file = readDataFile<CompaniesFile>('carriers/companies.json');
const card = (id: number) => toRateCard(file.companies.find((company) => company.id === id)!, file.zoneLimitsKm);
const cargo = (weightGrams: number, sides: [number, number, number] | null = null): Cargo => ({
  weightGrams,
  volumeCm3: sides ? sides[0] * sides[1] * sides[2] : 0,
  places: [{ sidesCm: sides, weightGrams }],
});

describe('tariff pricing (pure)', () => {
  it('measures great-circle distances', () => {
    expect(distanceKm(55.75222, 37.61556, 59.93863, 30.31413)).toBeCloseTo(634, 0);
    expect(distanceKm(10, 10, 10, 10)).toBe(0);
  });

  it('finds the zone of a distance: first limit not below it, one past the last', () => {
    const limits = [25, 300, 1000];
    expect(zoneOf(0, limits)).toBe(0);
    expect(zoneOf(25, limits)).toBe(0);
    expect(zoneOf(25.1, limits)).toBe(1);
    expect(zoneOf(999, limits)).toBe(2);
    expect(zoneOf(5000, limits)).toBe(3);
  });

  it('computes volumetric weight with the divisor and the chargeable weight by price mode', () => {
    expect(volumetricGrams(50 * 40 * 30, 5000)).toBe(12000);
    expect(volumetricGrams(60000, 0)).toBe(0);
    const bulky = cargo(2000, [50, 40, 30]);
    expect(chargeableGrams(bulky, 5000, 1)).toBe(12000);
    expect(chargeableGrams(bulky, 5000, 2)).toBe(2000);
    expect(chargeableGrams(bulky, 5000, 3)).toBe(12000);
    const dense = cargo(20000, [10, 10, 10]);
    expect(chargeableGrams(dense, 5000, 1)).toBe(20000);
    expect(chargeableGrams(dense, 5000, 3)).toBe(200);
    expect(chargeableGrams(cargo(700), 5000, 3)).toBe(700);
  });

  it('prices by weight breaks, then per started kg over the last break', () => {
    const rates = {
      breaks: [
        { upToGrams: 1000, pricesKopecks: [10000, 20000] },
        { upToGrams: 5000, pricesKopecks: [15000, 30000] },
      ],
      perKgOverKopecks: [1000, 2000],
    };
    expect(weightPriceKopecks(rates, 0, 1)).toBe(10000);
    expect(weightPriceKopecks(rates, 0, 1000)).toBe(10000);
    expect(weightPriceKopecks(rates, 0, 1001)).toBe(15000);
    expect(weightPriceKopecks(rates, 1, 5000)).toBe(30000);
    expect(weightPriceKopecks(rates, 0, 5001)).toBe(16000);
    expect(weightPriceKopecks(rates, 1, 7500)).toBe(30000 + 3 * 2000);
    expect(weightPriceKopecks(rates, 9, 500)).toBe(20000);
  });

  it('refuses weights and sizes outside the card', () => {
    const limits = { minWeightGrams: 10, maxWeightGrams: 30000, maxSideCm: 120, maxSumOfSidesCm: 200 };
    expect(limitProblem(cargo(5), limits)).toMatch(/less than/);
    expect(limitProblem(cargo(30001), limits)).toMatch(/more than 30 kg/);
    expect(limitProblem(cargo(1000, [121, 10, 10]), limits)).toMatch(/side over 120/);
    expect(limitProblem(cargo(1000, [100, 60, 41]), limits)).toMatch(/summing over 200/);
    expect(limitProblem(cargo(1000, [100, 60, 40]), limits)).toBeNull();
  });

  it('takes commissions as a percentage with a minimum, none on nothing', () => {
    expect(commissionKopecks(100000, { percent: 2.5, minimumKopecks: 1500 })).toBe(2500);
    expect(commissionKopecks(10000, { percent: 2.5, minimumKopecks: 1500 })).toBe(1500);
    expect(commissionKopecks(0, { percent: 2.5, minimumKopecks: 1500 })).toBe(0);
    expect(commissionKopecks(10000, { percent: 0, minimumKopecks: 1500 })).toBe(0);
  });

  it('adds transit days of the type to the zone days', () => {
    expect(
      daysOf(
        {
          days: [
            [1, 2],
            [3, 5],
          ],
        },
        1,
        1,
      ),
    ).toEqual({ min: 4, max: 6 });
    expect(daysOf({ days: [[1, 2]] }, 4)).toEqual({ min: 1, max: 2 });
  });

  it('quotes a card: types, type factor, coverage, limits', () => {
    const punktir = file.companies.find((company) => company.id === 1)!;
    const place = (population: number, regionCode = '48') => ({
      latitude: 55.75,
      longitude: 37.62,
      regionCode,
      localityId: 1,
      population,
    });
    const request = {
      types: [1, 2, 3] as Array<1 | 2 | 3>,
      sender: place(1e7),
      recipient: place(1e6),
      distanceKm: 10,
      cargo: cargo(800),
      priceMode: 1 as const,
    };
    const quotes = quoteByCard(card(1), punktir, request);
    expect(quotes.map((quote) => quote.type)).toEqual([1, 2]);
    expect(quotes[0].priceDeliveryKopecks).toBe(14900);
    expect(quotes[1].priceDeliveryKopecks).toBe(Math.round(14900 * 1.45));
    expect(quotes[1].days).toEqual({ min: 2, max: 3 });
    expect(quoteByCard(card(1), punktir, { ...request, recipient: place(5000) }).map((quote) => quote.type)).toEqual([
      1,
    ]);
    expect(quoteByCard(card(1), punktir, { ...request, cargo: cargo(31000) })).toEqual([]);
    const regional = file.companies.find((company) => company.id === 8)!;
    expect(quoteByCard(card(8), regional, { ...request, types: [2] })).toEqual([]);
    expect(quoteByCard(card(8), regional, { ...request, types: [2], recipient: place(1e6, '71') })).not.toEqual([]);
  });
});
