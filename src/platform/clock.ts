/** Calendar arithmetic in an account's time zone. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const recentToday = new Map<string, { until: number; date: string }>();

/** Today's date (`YYYY-MM-DD`) in the time zone (remembered for a second: it is asked on every list). */
export function todayIn(timeZone: string, now?: Date): string {
  if (now) return formatterFor(timeZone).format(now);
  const at = Date.now();
  const known = recentToday.get(timeZone);
  if (known && known.until > at) return known.date;
  const date = formatterFor(timeZone).format(new Date(at));
  recentToday.set(timeZone, { until: at + 1000, date });
  return date;
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const value = new Date(`${date}T00:00:00Z`);
  value.setUTCDate(value.getUTCDate() + days);
  return value.toISOString().slice(0, 10);
}

/** The day of the week of a `YYYY-MM-DD`, Monday first (0) to Sunday (6): the index of a 7-value schedule. */
export function weekdayOf(date: string): number {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time of an instant in the time zone, `YYYY-MM-DDTHH:MM:SS` (reports print local times). */
export function wallClockIn(timeZone: string, instant: string | Date): string {
  let formatter = wallClocks.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    wallClocks.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(
    formatter
      .formatToParts(typeof instant === 'string' ? new Date(instant) : instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

const recentWallClock = new Map<string, { until: number; text: string }>();

/**
 * The wall-clock time now in the time zone, as `wallClockIn` writes it, remembered for a second:
 * the calculator's shipping rules read the hour and the day on every call, and a formatting
 * costs ~10 µs.
 */
export function wallClockNow(timeZone: string): string {
  const at = Date.now();
  const known = recentWallClock.get(timeZone);
  if (known && known.until > at) return known.text;
  const text = wallClockIn(timeZone, new Date(at));
  if (recentWallClock.size >= 1000) recentWallClock.clear();
  recentWallClock.set(timeZone, { until: at + 1000, text });
  return text;
}

/** Midnight of `date` in `timeZone`, as an ISO instant. */
export function startOfDay(date: string, timeZone: string): string {
  const noonUtc = new Date(`${date}T12:00:00Z`);
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(noonUtc)
      .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const offset = name === 'GMT' ? '+00:00' : name.replace('GMT', '');
  return new Date(`${date}T00:00:00${offset}`).toISOString();
}
