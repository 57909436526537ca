/**
 * Business days as the delivery companies count them: the Russian production calendar
 * (data/calendar/ru.json: each year's decree of days off and working weekend days; a year not
 * listed by the Labour Code's rule alone). Pure once built; days are `YYYY-MM-DD`.
 */
import { addDays, weekdayOf } from '../../platform/clock.js';
import { readDataFile } from '../../platform/reference-data.js';

interface CalendarFile {
  /** Fixed holidays, `MM-DD`. */
  holidays: string[];
  years: Record<string, { daysOff: string[]; workingDays: string[] }>;
}

/** The longest run of days off a calendar can have (the New Year's holidays and two weekends): a bound on every walk. */
const LONGEST_REST = 16;

export class BusinessCalendar {
  private readonly daysOff = new Set<string>();
  private readonly workingWeekendDays = new Set<string>();
  private readonly yearsKnown = new Set<number>();
  /** `addBusinessDays` answers, asked for a few hand-over dates and day counts on every quote. */
  private readonly added = new Map<string, string>();

  constructor(private readonly file: CalendarFile) {}

  static russian(): BusinessCalendar {
    return new BusinessCalendar(readDataFile<CalendarFile>('calendar/ru.json'));
  }

  isBusinessDay(date: string): boolean {
    this.knowYear(Number(date.slice(0, 4)));
    if (this.workingWeekendDays.has(date)) return true;
    return weekdayOf(date) < 5 && !this.daysOff.has(date);
  }

  /** The first business day on or after `date`. */
  nextBusinessDay(date: string): string {
    let day = date;
    for (let step = 0; step < LONGEST_REST && !this.isBusinessDay(day); step++) day = addDays(day, 1);
    return day;
  }

  /** The business day `days` business days after `start` (0: `start` itself, or the next business day). */
  addBusinessDays(start: string, days: number): string {
    const key = `${start}|${days}`;
    const known = this.added.get(key);
    if (known !== undefined) return known;
    let date = this.nextBusinessDay(start);
    for (let left = days; left > 0; ) {
      date = addDays(date, 1);
      if (this.isBusinessDay(date)) left -= 1;
    }
    if (this.added.size >= 10_000) this.added.clear();
    this.added.set(key, date);
    return date;
  }

  /**
   * Business days from a hand-over to an arrival: the business days after `from` up to and
   * including `to` (handed over on Friday and delivered on Monday is 1). Never negative.
   */
  businessDaysBetween(from: string, to: string): number {
    let count = 0;
    for (let date = from; date < to; ) {
      date = addDays(date, 1);
      if (this.isBusinessDay(date)) count += 1;
    }
    return count;
  }

  private knowYear(year: number): void {
    if (this.yearsKnown.has(year)) return;
    this.yearsKnown.add(year);
    const decreed = this.file.years[String(year)];
    if (decreed) {
      for (const day of decreed.daysOff) this.daysOff.add(day);
      for (const day of decreed.workingDays) this.workingWeekendDays.add(day);
      return;
    }
    // no decree known: the fixed holidays, and one on a weekend moved to the next weekday (not those of January)
    for (const monthDay of this.file.holidays) {
      const date = `${year}-${monthDay}`;
      if (weekdayOf(date) < 5) {
        this.daysOff.add(date);
        continue;
      }
      if (monthDay.startsWith('01-')) continue;
      let moved = addDays(date, 1);
      while (weekdayOf(moved) >= 5 || this.daysOff.has(moved)) moved = addDays(moved, 1);
      this.daysOff.add(moved);
    }
  }
}
