/** Dates and money as the operator reads them: in the account's time zone and the chosen language. */
import type { Locale } from './i18n';

/** An instant (RFC 3339) as a date and time in the account's zone. */
export function formatInstant(iso: string | null | undefined, locale: Locale, timeZone: string): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', {
    timeZone,
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(at);
}

/** A calendar day (YYYY-MM-DD) as written in the language; no zone: a day is a day. */
export function formatDay(day: string | null | undefined, locale: Locale): string {
  if (!day) return '—';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!match) return day;
  return new Intl.DateTimeFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', { timeZone: 'UTC', dateStyle: 'medium' }).format(
    new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))),
  );
}

/** Today in the account's zone, YYYY-MM-DD (the courier's and the pickup's days are the account's days). */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function formatMoney(value: number | null | undefined, locale: Locale): string {
  if (value === null || value === undefined) return '—';
  return new Intl.NumberFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', {
    style: 'currency',
    currency: 'RUB',
    maximumFractionDigits: 2,
  }).format(value);
}
