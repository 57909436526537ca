/**
 * Billing periods: calendar months (default), ISO weeks (Monday first) or days, in the
 * account's time zone (BILLING_PERIOD). A period is [start, end) of dates; its instants are
 * the midnights of those dates in the account's zone.
 */
import type { BillingPeriodKind } from '../../config.js';
import { addDays, startOfDay, todayIn, weekdayOf } from '../../platform/clock.js';

export interface BillingPeriod {
  /** First day, `YYYY-MM-DD`. */
  start: string;
  /** The day after the last one (exclusive). */
  end: string;
}

export function periodContaining(date: string, kind: BillingPeriodKind): BillingPeriod {
  if (kind === 'day') return { start: date, end: addDays(date, 1) };
  if (kind === 'week') {
    const start = addDays(date, -weekdayOf(date));
    return { start, end: addDays(start, 7) };
  }
  const [year, month] = date.split('-').map(Number);
  const next = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  return { start: `${date.slice(0, 7)}-01`, end: next };
}

/** The last period that has ended at `now` in the zone: the one before today's. */
export function lastEndedPeriod(now: Date, timeZone: string, kind: BillingPeriodKind): BillingPeriod {
  const current = periodContaining(todayIn(timeZone, now), kind);
  return periodContaining(addDays(current.start, -1), kind);
}

/** The period's instants: midnight of its first day and of the day after it, in the zone. */
export function instantsOf(period: BillingPeriod, timeZone: string): { from: string; to: string } {
  return { from: startOfDay(period.start, timeZone), to: startOfDay(period.end, timeZone) };
}

/** The period's last day (printed as its date: a bill is dated the last day it covers). */
export function lastDayOf(period: BillingPeriod): string {
  return addDays(period.end, -1);
}

/** The end of each day of the period (the next midnight in the zone): storage counts the units on hand then. */
export function dayEndsOf(period: { start: string; end: string; timeZone: string }): string[] {
  const ends: string[] = [];
  for (let day = period.start; day < period.end; day = addDays(day, 1))
    ends.push(startOfDay(addDays(day, 1), period.timeZone));
  return ends;
}
