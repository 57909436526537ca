/**
 * "Check connection": what a company answered its driver's own authentication, said in words
 * a person reads (Russian and English). The outcome is read from the error the driver's remote
 * call gave (carriers/remote-call.ts), so the check goes through exactly what registration and
 * quotes go through: the company's base URL from the instance's settings (never one from the
 * request), its per-call timeout, breaker and rate limit.
 */
import {
  CarrierAuthError,
  CarrierRetryAfterError,
  CarrierTimeoutError,
  CarrierUnexpectedAnswerError,
  CarrierUnreachableError,
} from '../../carriers/remote-call.js';
import { CarrierError } from '../../carriers/types.js';
import type { ConnectionCheck, ConnectionOutcome } from './schemas.js';

/** The companies' names in English (their files name them in Russian). */
const ENGLISH_NAMES: Record<number, string> = {
  1001: 'CDEK',
  1002: 'Boxberry',
  1003: 'Russian Post',
  1004: 'Yandex Delivery',
};

/** Which outcome an error of a driver's call is. */
export function outcomeOf(error: unknown): ConnectionOutcome {
  if (error instanceof CarrierAuthError) return 'refused';
  if (error instanceof CarrierTimeoutError) return 'timeout';
  if (error instanceof CarrierUnreachableError) return 'unreachable';
  if (error instanceof CarrierUnexpectedAnswerError) return 'unexpected';
  if (error instanceof CarrierRetryAfterError) return 'unavailable';
  // a 5xx, or the breaker open after repeated failures: the company is there but not working
  if (error instanceof CarrierError && error.transient) return 'unavailable';
  if (error instanceof CarrierError) return 'unexpected';
  // the caller's own deadline (an AbortSignal's TimeoutError)
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timeout';
  return 'unexpected';
}

/** The check's answer: the outcome, the sentence in both languages, the company's own words. */
export function describeCheck(
  company: { id: number; name: string },
  error: unknown | null,
  durationMs: number,
  timeoutMs: number,
): ConnectionCheck {
  // «служба доставки» carries the grammar: the companies' names are of every gender and decline differently
  const ru = `«${company.name}»`;
  const en = ENGLISH_NAMES[company.id] ?? company.name;
  const outcome: ConnectionOutcome = error === null ? 'accepted' : outcomeOf(error);
  const companyMessage = error instanceof CarrierAuthError ? error.companyMessage : null;
  const detail = error instanceof Error ? error.message : '';
  const seconds = Math.round(timeoutMs / 100) / 10;
  const quoted = (open: string, close: string) => (companyMessage ? ` ${open}${companyMessage}${close}` : '');
  const messages: Record<ConnectionOutcome, { ru: string; en: string }> = {
    accepted: {
      ru: `Служба доставки ${ru} приняла эти данные: подключение работает.`,
      en: `${en} accepted these credentials: the connection works.`,
    },
    refused: {
      ru: `Служба доставки ${ru} отклонила эти данные:${quoted('«', '»') || ' без объяснения'}. Проверьте их в личном кабинете службы.`,
      en: `${en} refused these credentials:${quoted('“', '”') || ' no reason given'}. Check them in your ${en} account.`,
    },
    unreachable: {
      ru: `Не удалось связаться со службой доставки ${ru}: её адрес не отвечает. Попробуйте позже.`,
      en: `${en} could not be reached: its address does not answer. Try again later.`,
    },
    timeout: {
      ru: `Служба доставки ${ru} не ответила за ${String(seconds).replace('.', ',')} с. Попробуйте позже.`,
      en: `${en} did not answer within ${seconds} s. Try again later.`,
    },
    unavailable: {
      ru: `Служба доставки ${ru} сейчас не работает (ошибка на её стороне или просьба подождать). Попробуйте позже.`,
      en: `${en} is not working now (an error on its side, or it asked us to wait). Try again later.`,
    },
    unexpected: {
      ru: `Служба доставки ${ru} ответила не так, как описано в её API: ${detail}`,
      en: `${en} answered something its API does not describe: ${detail}`,
    },
  };
  return { companyId: company.id, outcome, message: messages[outcome], companyMessage, durationMs };
}
