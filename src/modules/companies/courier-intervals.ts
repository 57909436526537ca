/** The courier time intervals a company offers in a locality (pure): the schedule list and orders share it. */
import { covers } from '../../carriers/points.js';
import type { Company } from '../../carriers/registry.js';
import type { Locality } from '../localities/source.js';

/** Narrow intervals only where the company has couriers enough: big cities; elsewhere the whole day. */
const NARROW_INTERVALS_FROM_POPULATION = 250_000;

export interface CourierIntervalOption {
  id: number;
  timeFrom: string;
  timeTo: string;
  isDefault: boolean;
}

/** Ids are `companyId * 100 + n`; the card's default interval is `isDefault`. Empty when the company's couriers do not go there. */
export function courierIntervalsIn(company: Company, locality: Locality): CourierIntervalOption[] {
  if (!company.deliveryTypes.includes(2) || !covers(company, locality)) return [];
  const all = company.courierIntervals ?? [['09:00', '18:00']];
  const intervals = locality.population >= NARROW_INTERVALS_FROM_POPULATION ? all : all.slice(0, 1);
  const defaultIndex = (company.defaultInterval ?? 0) < intervals.length ? (company.defaultInterval ?? 0) : 0;
  return intervals.map(([timeFrom, timeTo], index) => ({
    id: company.id * 100 + index + 1,
    timeFrom,
    timeTo,
    isDefault: index === defaultIndex,
  }));
}
