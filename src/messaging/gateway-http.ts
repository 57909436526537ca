/**
 * What the SMS gateways' clients share: one form POST and its answer as JSON, with the refusals
 * every gateway can give alike (no answer, a 5xx, something that is not JSON) turned into
 * MessagingErrors. Both gateways answer their own refusals inside a 200 with a code of their
 * own; each client reads those. Credentials travel in the form body, never in the URL (a URL
 * ends up in fetch's errors and in proxies' logs), and no message here repeats them.
 */
import { type HttpAnswer, HttpNoAnswer, jsonOfText, sendRequest } from '../platform/remote-http.js';
import { MessagingError } from './types.js';

export interface GatewayCall {
  /** The gateway's name for messages: 'SMS.RU', 'SMSC'. */
  gateway: string;
  url: string;
  form: Record<string, string>;
  /** Values that must never appear in an error message (the key, the password). */
  secrets: readonly string[];
}

/** A JSON object from the gateway, or a MessagingError saying why there is none. */
export async function postForm(call: GatewayCall, signal: AbortSignal): Promise<Record<string, unknown>> {
  let answer: HttpAnswer;
  try {
    answer = await sendRequest({ method: 'POST', url: call.url, form: call.form }, signal);
  } catch (error) {
    // the caller's own deadline stays the caller's: sendRequest rethrows the signal's error
    if (!(error instanceof HttpNoAnswer)) throw error;
    throw new MessagingError(
      `${call.gateway} did not answer: ${withoutSecrets(error.message, call.secrets)}`,
      false,
      'no_answer',
    );
  }
  if (answer.status === 429 || answer.status >= 500)
    throw new MessagingError(`${call.gateway} answered HTTP ${answer.status}; trying again later`, false, 'server');
  if (answer.status !== 200)
    // a wrong base URL or a proxy's refusal: the same request will meet the same answer
    throw new MessagingError(`${call.gateway} answered HTTP ${answer.status}`, true, `http_${answer.status}`);
  const body = jsonOfText(answer.text);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    // a maintenance page in place of the API: passes like a 5xx
    throw new MessagingError(`${call.gateway} answered something other than JSON`, false, 'bad_answer');
  return body as Record<string, unknown>;
}

/** The gateway's own words for a refusal, short, with any credential blotted out. */
export function gatewayText(value: unknown, secrets: readonly string[]): string {
  const text = typeof value === 'string' ? value.trim().slice(0, 200) : '';
  return withoutSecrets(text, secrets);
}

export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret !== '') clean = clean.split(secret).join('***');
  return clean;
}

/** A number the gateway sent as a number or as a decimal string ("1871.62"); null otherwise. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** A count the gateway gave (a positive whole number), else null. */
export function countOf(value: unknown): number | null {
  const count = numberOf(value);
  return count !== null && Number.isInteger(count) && count > 0 ? count : null;
}
