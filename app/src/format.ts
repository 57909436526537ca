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

/**
 * How a date field shows its day in the language (its placeholder says the same): as a person in
 * Russia writes it in Russian; in English the ISO form, which reads the same in every country.
 */
export function dateInputFormat(locale: Locale): { valueFormat: string; placeholder: string } {
  return locale === 'ru'
    ? { valueFormat: 'DD.MM.YYYY', placeholder: 'ДД.ММ.ГГГГ' }
    : { valueFormat: 'YYYY-MM-DD', placeholder: 'YYYY-MM-DD' };
}

const DAY_FIRST = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const YEAR_FIRST = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

/**
 * A typed date as YYYY-MM-DD: dd.mm.yyyy and d.m.yyyy (day first, as written in Russia), or
 * yyyy-mm-dd; null for anything else, or a day the calendar has not (31.02). Never month first:
 * a date picker left to itself reads 07.01.2027 as the 1st of July (it falls back to `new Date(text)`).
 */
export function parseTypedDate(text: string): string | null {
  const typed = text.trim();
  const dayFirst = DAY_FIRST.exec(typed);
  const yearFirst = dayFirst ? null : YEAR_FIRST.exec(typed);
  const parts = dayFirst
    ? { year: dayFirst[3], month: dayFirst[2], day: dayFirst[1] }
    : yearFirst
      ? { year: yearFirst[1], month: yearFirst[2], day: yearFirst[3] }
      : null;
  if (!parts) return null;
  const [year, month, day] = [Number(parts.year), Number(parts.month), Number(parts.day)];
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return `${parts.year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
