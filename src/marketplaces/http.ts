/**
 * The I/O every marketplace proxy shares: a JSON call with a deadline (the exchange itself is
 * platform/remote-http.ts, shared with the delivery companies), the marketplace's refusal of
 * the credentials told apart from its being unavailable. Credentials travel in
 * headers only, never in a URL or an error message (both may reach the logs).
 */
import { jsonOfText, sendRequest, type HttpAnswer } from '../platform/remote-http.js';
import { MarketplaceAuthError, MarketplaceNotFoundError, MarketplaceUnavailableError } from './types.js';

const CALL_TIMEOUT_MS = 15_000;
const REASON_MAX = 300;

export interface JsonCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** The marketplace's own words about a refusal, from the usual error shapes, shortened. */
export function reasonOf(body: unknown, fallback: string): string {
  const seen: string[] = [];
  const visit = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    for (const key of ['message', 'detail', 'title', 'errorText'])
      if (typeof record[key] === 'string' && record[key]) seen.push(record[key] as string);
    if (Array.isArray(record.errors)) for (const item of record.errors) visit(item);
    if (record.error && typeof record.error === 'object') visit(record.error);
  };
  visit(body);
  const text = [...new Set(seen)].join('; ') || fallback;
  return text.length > REASON_MAX ? `${text.slice(0, REASON_MAX)}…` : text;
}

export async function callJson(marketplace: string, call: JsonCall, signal: AbortSignal): Promise<unknown> {
  const pathOnly = new URL(call.url).pathname;
  let answer: HttpAnswer;
  try {
    answer = await sendRequest(
      { method: call.method, url: call.url, headers: call.headers, json: call.body },
      AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
    );
  } catch (error) {
    throw new MarketplaceUnavailableError(
      `${marketplace} did not answer ${call.method} ${pathOnly}: ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}`,
    );
  }
  const body = jsonOfText(answer.text) ?? null;
  if (answer.status === 401 || answer.status === 403) {
    throw new MarketplaceAuthError(reasonOf(body, `${marketplace} refused the credentials (HTTP ${answer.status})`));
  }
  if (answer.status === 429) {
    throw new MarketplaceUnavailableError(
      `${marketplace} asks to slow down (HTTP 429) on ${pathOnly}`,
      answer.retryAfterMs,
    );
  }
  if (answer.status === 404)
    throw new MarketplaceNotFoundError(`${marketplace} knows no ${pathOnly}: ${reasonOf(body, 'not found')}`);
  if (answer.status < 200 || answer.status >= 300) {
    throw new MarketplaceUnavailableError(
      `${marketplace} answered HTTP ${answer.status} on ${pathOnly}: ${reasonOf(body, 'no reason given')}`,
    );
  }
  if (body === null || typeof body !== 'object')
    throw new MarketplaceUnavailableError(`${marketplace} answered ${pathOnly} with something other than JSON`);
  return body;
}
