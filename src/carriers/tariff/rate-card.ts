/** Rate cards of the built-in companies (data/carriers/companies.json), read into kopecks and grams. */
import { toKopecks } from '../../platform/money.js';
import type { DeliveryType } from '../types.js';

export interface PointLimits {
  maxSizeA: number | null;
  maxSizeB: number | null;
  maxSizeC: number | null;
  maxSizeSum: number | null;
  minWeight: number | null;
  maxWeight: number | null;
  maxCod: number | null;
  maxVolume: number | null;
}

export interface PointNetwork {
  perPopulation: number;
  max: number;
  lockerShare: number;
  postOffices?: boolean;
  fitting: number;
  checkup: number;
  partialBuyout: number;
  cash: number;
  card: number;
}

/** A company as written in data/ (roubles, kg). */
export interface CompanyFile {
  id: number;
  code: string;
  name: string;
  /** `contract`: a real company, driven per account by its own contract (carriers/contracts.ts). */
  driver: 'tariff' | 'http' | 'contract';
  baseUrl?: string;
  trackPrefix?: string;
  isPost?: boolean;
  deliveryTypes: DeliveryType[];
  coverage: { minPopulation: number; regions?: string[] };
  volumetricDivisor?: number;
  limits?: { minWeightKg: number; maxWeightKg: number; maxSideCm: number; maxSumOfSidesCm: number };
  breaks?: Array<{ upToKg: number; prices: number[] }>;
  perKgOver?: number[];
  days?: Array<[number, number]>;
  types?: Partial<Record<string, { tariffName: string; priceFactor: number; extraDays?: number }>>;
  pointPriceFactors?: Partial<Record<string, number>>;
  insurance?: { percent: number; minimum: number };
  cod?: { cashPercent: number; cardPercent: number; minimum: number };
  acquiring?: { percent: number; minimum: number };
  cashPaymentAvailable?: boolean;
  cardPaymentAvailable?: boolean;
  isExpress?: boolean;
  timeSelectAvailable?: boolean;
  holdDays?: number;
  services?: Array<{ id: number; price: number }>;
  points?: PointNetwork;
  pointLimits?: Partial<Record<string, PointLimits>>;
  courierIntervals?: Array<[string, string]>;
  defaultInterval?: number;
  /**
   * How the company takes parcels from senders: at its points (`dropOff`), by its own courier
   * (`direct`, for `pricePickup` roubles, free from `countFree` orders; 0: never free), and
   * whether its courier takes a comment.
   */
  pickup?: {
    dropOff: boolean;
    direct: boolean;
    pricePickup: number;
    pickupPointRequired: boolean;
    countFree?: number;
    commentAvailable?: boolean;
  };
}

export interface CompaniesFile {
  zoneLimitsKm: number[];
  companies: CompanyFile[];
}

/** The pricing part of a company, in kopecks and grams. */
export interface RateCard {
  companyId: number;
  zoneLimitsKm: number[];
  volumetricDivisor: number;
  limits: { minWeightGrams: number; maxWeightGrams: number; maxSideCm: number; maxSumOfSidesCm: number };
  breaks: Array<{ upToGrams: number; pricesKopecks: number[] }>;
  perKgOverKopecks: number[];
  days: Array<[number, number]>;
  types: Partial<Record<DeliveryType, { tariffName: string; priceFactor: number; extraDays: number }>>;
  pointPriceFactors: Partial<Record<number, number>>;
  insurance: { percent: number; minimumKopecks: number };
  cod: { cashPercent: number; cardPercent: number; minimumKopecks: number };
  acquiring: { percent: number; minimumKopecks: number };
  services: Array<{ id: number; priceKopecks: number }>;
}

export function toRateCard(company: CompanyFile, zoneLimitsKm: number[]): RateCard {
  if (!company.breaks?.length || !company.days?.length || !company.limits)
    throw new Error(`Company ${company.id} has no rate card`);
  const types: RateCard['types'] = {};
  for (const type of company.deliveryTypes) {
    const entry = company.types?.[String(type)];
    types[type] = {
      tariffName: entry?.tariffName ?? company.name,
      priceFactor: entry?.priceFactor ?? 1,
      extraDays: entry?.extraDays ?? 0,
    };
  }
  const pointPriceFactors: RateCard['pointPriceFactors'] = {};
  for (const [pointType, factor] of Object.entries(company.pointPriceFactors ?? {}))
    if (factor !== undefined) pointPriceFactors[Number(pointType)] = factor;
  return {
    companyId: company.id,
    zoneLimitsKm,
    volumetricDivisor: company.volumetricDivisor ?? 5000,
    limits: {
      minWeightGrams: Math.round(company.limits.minWeightKg * 1000),
      maxWeightGrams: Math.round(company.limits.maxWeightKg * 1000),
      maxSideCm: company.limits.maxSideCm,
      maxSumOfSidesCm: company.limits.maxSumOfSidesCm,
    },
    breaks: company.breaks.map((line) => ({
      upToGrams: Math.round(line.upToKg * 1000),
      pricesKopecks: line.prices.map(toKopecks),
    })),
    perKgOverKopecks: (company.perKgOver ?? []).map(toKopecks),
    days: company.days,
    types,
    pointPriceFactors,
    insurance: { percent: company.insurance?.percent ?? 0, minimumKopecks: toKopecks(company.insurance?.minimum ?? 0) },
    cod: {
      cashPercent: company.cod?.cashPercent ?? 0,
      cardPercent: company.cod?.cardPercent ?? 0,
      minimumKopecks: toKopecks(company.cod?.minimum ?? 0),
    },
    acquiring: { percent: company.acquiring?.percent ?? 0, minimumKopecks: toKopecks(company.acquiring?.minimum ?? 0) },
    services: (company.services ?? []).map((service) => ({ id: service.id, priceKopecks: toKopecks(service.price) })),
  };
}
