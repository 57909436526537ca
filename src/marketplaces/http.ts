/**
 * The I/O every marketplace proxy shares: a JSON call with a deadline, the marketplace's
 * refusal of the credentials told apart from its being unavailable. Credentials travel in
 * headers only, never in a URL or an error message (both may reach the logs).
 */
import { MarketplaceAuthError, MarketplaceNotFoundError, MarketplaceUnavailableError } from './types.js';

const CALL_TIMEOUT_MS = 15_000;
const REASON_MAX = 300;

export interface JsonCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** Retry-After in seconds or as a date; WB also sends X-Ratelimit-Retry (seconds). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const raw = headers.get('retry-after') ?? headers.get('x-ratelimit-retry');
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw) * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The marketplace's own words about a refusal, from the usual error shapes, shortened. */
export function reasonOf(body: unknown, fallback: string): string {
  const seen: string[] = [];
  const visit = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    for (const key of ['message', 'detail', 'title', 'errorText']) if (typeof record[key] === 'string' && record[key]) seen.push(record[key] as string);
    if (Array.isArray(record.errors)) for (const item of record.errors) visit(item);
    if (record.error && typeof record.error === 'object') visit(record.error);
  };
  visit(body);
  const text = [...new Set(seen)].join('; ') || fallback;
  return text.length > REASON_MAX ? `${text.slice(0, REASON_MAX)}…` : text;
}

export async function callJson(marketplace: string, call: JsonCall, signal: AbortSignal): Promise<unknown> {
  let response: Response;
  const pathOnly = new URL(call.url).pathname;
  try {
    response = await fetch(call.url, {
      method: call.method,
      headers: { accept: 'application/json', ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
    });
  } catch (error) {
    throw new MarketplaceUnavailableError(`${marketplace} did not answer ${call.method} ${pathOnly}: ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}`);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.status === 401 || response.status === 403) {
    throw new MarketplaceAuthError(reasonOf(body, `${marketplace} refused the credentials (HTTP ${response.status})`));
  }
  if (response.status === 429) {
    throw new MarketplaceUnavailableError(`${marketplace} asks to slow down (HTTP 429) on ${pathOnly}`, retryAfterMs(response.headers));
  }
  if (response.status === 404) throw new MarketplaceNotFoundError(`${marketplace} knows no ${pathOnly}: ${reasonOf(body, 'not found')}`);
  if (!response.ok) {
    throw new MarketplaceUnavailableError(`${marketplace} answered HTTP ${response.status} on ${pathOnly}: ${reasonOf(body, 'no reason given')}`);
  }
  if (body === null || typeof body !== 'object') throw new MarketplaceUnavailableError(`${marketplace} answered ${pathOnly} with something other than JSON`);
  return body;
}
