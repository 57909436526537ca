/** Delivery on time over a period of arrival: per company and type, and per route (the busiest first). */
import type { Scope } from '../../platform/auth.js';
import { badRequest } from '../../platform/errors.js';
import type { ReferenceData } from '../companies/reference.js';
import type { OnTimeQuery, OnTimeReport } from './schemas.js';
import type { DeliveryPromiseStore } from './store.js';

/** Parcels a report reads at most: a year of a big shop; past it the figures are of the first ones. */
const MAX_PARCELS = 500_000;
const ROUTES_SHOWN = 100;
const LONGEST_PERIOD_DAYS = 366;

interface Row {
  days: number;
  promised_days: number | null;
  declared_days: number | null;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function pushTo<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const list = groups.get(key);
  if (list) list.push(item);
  else groups.set(key, [item]);
}

function share(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 1000) / 1000;
}

function figuresOf(rows: Row[]): OnTimeReport['total'] {
  const promised = rows.filter((row) => row.promised_days !== null);
  const declared = rows.filter((row) => row.declared_days !== null);
  const onTime = promised.filter((row) => row.days <= (row.promised_days as number)).length;
  const days = rows.map((row) => row.days);
  return {
    parcels: rows.length,
    promised: promised.length,
    onTime,
    onTimeShare: share(onTime, promised.length),
    declaredOnTimeShare: share(
      declared.filter((row) => row.days <= (row.declared_days as number)).length,
      declared.length,
    ),
    medianPromisedDays: promised.length ? median(promised.map((row) => row.promised_days as number)) : null,
    medianActualDays: rows.length ? median(days) : 0,
    meanActualDays: rows.length ? Math.round((days.reduce((sum, day) => sum + day, 0) / rows.length) * 100) / 100 : 0,
  };
}

export class OnTimeReports {
  constructor(
    private readonly store: DeliveryPromiseStore,
    private readonly reference: ReferenceData,
  ) {}

  async report(scope: Scope, query: OnTimeQuery): Promise<OnTimeReport> {
    if (query.dateTo < query.dateFrom)
      throw badRequest('dateTo is before dateFrom.', [{ field: 'dateTo', message: 'must be on or after dateFrom' }]);
    if ((Date.parse(query.dateTo) - Date.parse(query.dateFrom)) / 86_400_000 > LONGEST_PERIOD_DAYS)
      throw badRequest(`A report covers at most ${LONGEST_PERIOD_DAYS} days.`, [
        { field: 'dateTo', message: `at most ${LONGEST_PERIOD_DAYS} days after dateFrom` },
      ]);
    const rows = await this.store.arrivedIn(
      scope.accountId,
      { from: query.dateFrom, to: query.dateTo },
      query.companyId,
      MAX_PARCELS,
    );
    const byCompany = new Map<string, typeof rows>();
    const byRoute = new Map<string, typeof rows>();
    for (const row of rows) {
      const company = `${row.company_id}|${row.delivery_type}`;
      pushTo(byCompany, company, row);
      pushTo(byRoute, `${company}|${row.from_name}|${row.to_name}`, row);
    }
    const nameOf = (id: number) => this.reference.registry.get(id)?.company.name ?? `#${id}`;
    return {
      dateFrom: query.dateFrom,
      dateTo: query.dateTo,
      total: figuresOf(rows),
      companies: [...byCompany.values()]
        .map((list) => ({
          companyId: list[0].company_id,
          companyName: nameOf(list[0].company_id),
          deliveryType: list[0].delivery_type,
          ...figuresOf(list),
        }))
        .sort((a, b) => b.parcels - a.parcels),
      routes: [...byRoute.values()]
        .sort((a, b) => b.length - a.length)
        .slice(0, ROUTES_SHOWN)
        .map((list) => ({
          companyId: list[0].company_id,
          companyName: nameOf(list[0].company_id),
          deliveryType: list[0].delivery_type,
          from: list[0].from_name,
          to: list[0].to_name,
          ...figuresOf(list),
        })),
    };
  }
}
