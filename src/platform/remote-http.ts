/**
 * Hand-written (a thin layer over Node's fetch), and why. Figure: one place turns a company's
 * or marketplace's 429/503 `Retry-After` into a process-wide wait (at most 30 s) and every answer
 * into status, bytes and text under the caller's deadline; `bench/calculator-remote.ts` shows four
 * connectors at 150–400 ms answering within the calculator's deadline. Measured against: undici's
 * fetch itself (what this wraps); got/ky retry on their own, which the breaker and rate limits
 * (opossum, bottleneck) must own instead.
 *
 * One HTTP exchange with a remote service (a delivery company, a marketplace): the request
 * with its headers and a JSON, form or raw body under the caller's signal; the answer's
 * status, headers, bytes and text, and how long the service asked us to wait. What an answer
 * means (a refusal, a failure, an error type) is the caller's: each translates it into its
 * own errors. Nothing here logs: URLs and bodies may hold credentials.
 */

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** The caller's headers win over the defaults (accept, content type). */
  headers?: Record<string, string>;
  /** JSON body (sent as application/json), or a form (x-www-form-urlencoded). */
  json?: unknown;
  form?: Record<string, string>;
  /** A body sent as it is (SOAP), with its content type in `headers`. */
  rawBody?: string;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  contentType: string;
  /** From Retry-After (or X-Ratelimit-Retry), when the answer carries one; else null. */
  retryAfterMs: number | null;
}

/** No answer: the service was not reachable, or the connection broke before the body ended. */
export class HttpNoAnswer extends Error {
  override readonly name = 'HttpNoAnswer';
}

/**
 * Sends the request and reads the whole answer, whatever its status. A failure to connect
 * or read is an HttpNoAnswer, except when the caller's signal aborted it: then the signal's
 * own error is thrown (the caller tells its deadline from a failure).
 */
export async function sendRequest(request: HttpRequest, signal: AbortSignal): Promise<HttpAnswer> {
  const defaults: Record<string, string> = { accept: 'application/json' };
  let body: string | undefined;
  if (request.json !== undefined) {
    defaults['content-type'] = 'application/json;charset=UTF-8';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    defaults['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  } else if (request.rawBody !== undefined) {
    body = request.rawBody;
  }
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: { ...defaults, ...request.headers },
      body,
      signal,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      text: bytes.toString('utf8'),
      contentType: response.headers.get('content-type') ?? '',
      retryAfterMs: retryAfterMs(response.headers),
    };
  } catch (error) {
    if (signal.aborted) throw error;
    throw new HttpNoAnswer((error as Error).message, { cause: error });
  }
}

/** Retry-After in seconds or as an HTTP date; Wildberries sends X-Ratelimit-Retry (seconds). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const raw = headers.get('retry-after') ?? headers.get('x-ratelimit-retry');
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw) * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The text as JSON: null for an empty body, undefined when it is not JSON. */
export function jsonOfText(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * When a signal's caller must have its answer (epoch ms), for signals made with
 * `deadlineSignal` or marked with `markDeadline`. A remote call uses it to tell whether a
 * wait the service asked for still fits (a signal alone says only that it aborted).
 */
const deadlines = new WeakMap<AbortSignal, number>();

export function markDeadline(signal: AbortSignal, at: number): AbortSignal {
  deadlines.set(signal, at);
  return signal;
}

/** AbortSignal.timeout(ms) that also tells its deadline. */
export function deadlineSignal(ms: number, now = Date.now()): AbortSignal {
  return markDeadline(AbortSignal.timeout(ms), now + ms);
}

/** Milliseconds left before the signal's deadline; null when the signal has none known. */
export function msLeft(signal: AbortSignal, now = Date.now()): number | null {
  const at = deadlines.get(signal);
  return at === undefined ? null : at - now;
}
