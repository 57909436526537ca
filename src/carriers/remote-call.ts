/**
 * The resilience layer every real company's driver calls through: one `RemoteCompany` per
 * company and process, shared by every account's contract with it (the company's API is
 * down for everyone at once; its rate limit is counted per process).
 *
 * - a per-company timeout, combined with the caller's signal (the calculator's deadline);
 * - retries with exponential back-off and jitter, only for operations safe to repeat
 *   (`safe`: quote, track, points, status reads); `once` operations (register, cancel,
 *   pickups) are tried once here: their drivers look up before they create again;
 * - a circuit breaker (opossum) that opens after repeated failures, answers at once while
 *   open, and half-opens after `resetMs` to let one call try;
 * - a rate limit (bottleneck: at most `perSecond` calls started per second, `concurrent` at once);
 * - the company's own "wait" (Retry-After on a 429, or on a 503): every call of the process
 *   holds off until then (at most `breaker.resetMs`), and a call whose deadline comes first
 *   fails at once instead of waiting for nothing. A 429 that says how long to wait does not
 *   count toward the breaker (the company is up, only busy); one that does not say is a
 *   failure like a 5xx, the breaker being the only brake left;
 * - one log line and one metric per remote call: company, operation, duration, outcome
 *   (never a credential, URL query or body).
 */
import Bottleneck from 'bottleneck';
import CircuitBreaker from 'opossum';
import {
  HttpNoAnswer,
  jsonOfText,
  msLeft,
  sendRequest,
  type HttpAnswer,
  type HttpRequest,
} from '../platform/remote-http.js';
import { CarrierError } from './types.js';

/**
 * How one remote call ended: ok; refused (the company said no: 4xx); auth (credentials
 * refused); failed (5xx, a 429 without Retry-After, unreachable); throttled (a 429 with
 * Retry-After, or not asked because the company's wait outlasts the caller's deadline);
 * timeout; open (breaker open, not asked).
 */
export type RemoteOutcome = 'ok' | 'refused' | 'auth' | 'failed' | 'throttled' | 'timeout' | 'open';

export interface RemoteCallRecord {
  company: string;
  operation: string;
  durationMs: number;
  outcome: RemoteOutcome;
  attempts: number;
}

/** Where remote calls are reported (metrics, logs). */
export interface RemoteCallObserver {
  remoteCall(record: RemoteCallRecord): void;
}

export interface RemoteLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface RemotePolicy {
  /** Longest wait for one attempt. */
  timeoutMs: number;
  /** Extra attempts of a safe operation after a transient failure. */
  retries: number;
  /** First back-off; doubled each retry, with up to 50% jitter. */
  backoffMs: number;
  /** Calls started per second, and at once. */
  perSecond: number;
  concurrent: number;
  breaker: {
    /** Failures in the rolling window (of at least `volume` calls) that open it, percent. */
    errorPercent: number;
    volume: number;
    /** Failed attempts in a row that open it whatever the window holds (a company that just went down after a busy good minute). */
    consecutive: number;
    /** How long it stays open before one call may try again. */
    resetMs: number;
    windowMs: number;
  };
}

export const DEFAULT_REMOTE_POLICY: RemotePolicy = {
  timeoutMs: 10_000,
  retries: 2,
  backoffMs: 200,
  perSecond: 20,
  concurrent: 10,
  breaker: { errorPercent: 50, volume: 5, consecutive: 5, resetMs: 30_000, windowMs: 10_000 },
};

/**
 * Credentials refused by the company (401/403): not transient, and not the company's failure.
 * `companyMessage`: the company's own words for it, where its answer said any.
 */
export class CarrierAuthError extends CarrierError {
  constructor(
    companyId: number,
    message: string,
    readonly companyMessage: string | null = null,
  ) {
    super(companyId, message, false);
    this.name = 'CarrierAuthError';
  }
}

/** No answer at all: the company's address refused the connection, or it broke (transient). */
export class CarrierUnreachableError extends CarrierError {
  constructor(companyId: number, message: string) {
    super(companyId, message, true);
    this.name = 'CarrierUnreachableError';
  }
}

/** The company gave no answer within its timeout (transient). */
export class CarrierTimeoutError extends CarrierError {
  constructor(companyId: number, message: string) {
    super(companyId, message, true);
    this.name = 'CarrierTimeoutError';
  }
}

/** The company answered, but not in the shape its API documents (not JSON, no token in a 200). */
export class CarrierUnexpectedAnswerError extends CarrierError {
  constructor(companyId: number, message: string) {
    super(companyId, message, false);
    this.name = 'CarrierUnexpectedAnswerError';
  }
}

/**
 * A person-readable sentence out of a company's error body, where it holds one: the fields the
 * four companies' documented refusals use (CDEK's OAuth `error_description` and `errors[].message`,
 * Boxberry's `err`, Russian Post's `desc`, Yandex's `message`). Cut to 300 characters; null for
 * a body that is not JSON or says nothing readable.
 */
export function companyMessageOf(text: string): string | null {
  const body = jsonOfText(text) as Record<string, unknown> | null | undefined;
  if (!body || typeof body !== 'object') return null;
  const nested = (list: unknown): unknown =>
    Array.isArray(list) && list[0] && typeof list[0] === 'object' ? (list[0] as Record<string, unknown>) : null;
  const firstError = nested(body.errors) as Record<string, unknown> | null;
  const firstRequest = nested(body.requests) as Record<string, unknown> | null;
  const requestError = firstRequest ? (nested(firstRequest.errors) as Record<string, unknown> | null) : null;
  const found = [
    body.error_description,
    body.message,
    body.desc,
    body.err,
    firstError?.message,
    requestError?.message,
    body.detail,
    body.error,
  ].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  // a company's text is shown in a page: control characters become spaces
  return found
    ? [...found]
        .map((char) => (char.charCodeAt(0) < 32 || char === '\x7f' ? ' ' : char))
        .join('')
        .trim()
        .slice(0, 300)
    : null;
}

/**
 * The company asked us to wait (429, or a 503 with Retry-After): transient, with the wait
 * when the company gave one. `rateLimited`: a 429 (the company is up, we are too fast).
 */
export class CarrierRetryAfterError extends CarrierError {
  constructor(
    companyId: number,
    message: string,
    readonly retryAfterMs: number | null,
    readonly rateLimited: boolean,
  ) {
    super(companyId, message, true);
    this.name = 'CarrierRetryAfterError';
  }

  /** A 429 that says how long to wait: obeyed, and not the company failing. */
  get throttled(): boolean {
    return this.rateLimited && this.retryAfterMs !== null;
  }
}

/** The company's own timeout (not the caller's deadline). */
class CompanyTimeout extends Error {}

export type RemoteKind = 'safe' | 'once';

/**
 * How long one download of a company's whole point directory may take: tens of megabytes
 * (Russian Post's passport unloading, Boxberry's and CDEK's lists), not a quick call; the
 * import job's own deadline (5 minutes) still bounds it.
 */
export const DIRECTORY_TIMEOUT_MS = 120_000;

export class RemoteCompany {
  private readonly breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;
  private readonly limiter: Bottleneck;
  private failuresInRow = 0;
  /** Until when (epoch ms) the company asked every call to wait. */
  private quietUntil = 0;

  constructor(
    readonly companyId: number,
    readonly code: string,
    readonly policy: RemotePolicy,
    private readonly observer: RemoteCallObserver | null,
    private readonly logger: RemoteLogger | null,
  ) {
    this.breaker = new CircuitBreaker((task: () => Promise<unknown>) => task(), {
      timeout: false, // our own timeout, which also aborts the request
      errorThresholdPercentage: policy.breaker.errorPercent,
      volumeThreshold: policy.breaker.volume,
      resetTimeout: policy.breaker.resetMs,
      rollingCountTimeout: policy.breaker.windowMs,
      // a refusal (the company answered, and said no) is not the company failing
      // nor is a 429 that says when to come back (it holds every call until then instead)
      errorFilter: (error: unknown) =>
        (error instanceof CarrierError && !error.transient) ||
        (error instanceof CarrierRetryAfterError && error.throttled),
    });
    this.breaker.on('open', () =>
      this.logger?.warn({ company: code }, 'delivery company circuit opened: calls stop until it half-opens'),
    );
    this.breaker.on('close', () => this.logger?.info({ company: code }, 'delivery company circuit closed'));
    this.limiter = new Bottleneck({ maxConcurrent: policy.concurrent, minTime: Math.ceil(1000 / policy.perSecond) });
  }

  /** open, halfOpen or closed. */
  get circuit(): 'open' | 'halfOpen' | 'closed' {
    return this.breaker.opened ? 'open' : this.breaker.halfOpen ? 'halfOpen' : 'closed';
  }

  /**
   * Runs `attempt` under the policy. `attempt` gets a signal that aborts at the company's
   * timeout (`attemptTimeoutMs`, the policy's unless the operation needs longer) or the
   * caller's; it throws CarrierError for the company's answers (transient for 5xx/429/unreachable).
   */
  async run<T>(
    operation: string,
    kind: RemoteKind,
    signal: AbortSignal,
    attempt: (signal: AbortSignal) => Promise<T>,
    attemptTimeoutMs = this.policy.timeoutMs,
  ): Promise<T> {
    const started = performance.now();
    let attempts = 0;
    const finish = (outcome: RemoteOutcome) => {
      const record: RemoteCallRecord = {
        company: this.code,
        operation,
        durationMs: Math.round(performance.now() - started),
        outcome,
        attempts,
      };
      this.observer?.remoteCall(record);
      if (outcome === 'ok') this.logger?.info(record, 'delivery company call');
      else this.logger?.warn(record, 'delivery company call failed');
    };
    const maxAttempts = kind === 'safe' ? 1 + this.policy.retries : 1;
    for (;;) {
      const held = this.quietUntil - Date.now();
      if (held > 0) {
        // the company asked every call to wait: wait with it, or fail now if the caller cannot
        if (!this.fits(held, signal)) {
          finish('throttled');
          throw this.waitRefusal(held);
        }
        await pause(held, signal).catch(() => undefined);
        if (signal.aborted) {
          finish('timeout');
          throw this.waitRefusal(held);
        }
      }
      attempts += 1;
      try {
        const value = (await this.breaker.fire(() => this.limited(attempt, signal, attemptTimeoutMs))) as T;
        this.failuresInRow = 0;
        finish('ok');
        return value;
      } catch (error) {
        const failure = this.explain(error, signal);
        const wait = error instanceof CarrierRetryAfterError ? error.retryAfterMs : null;
        if (wait !== null)
          this.quietUntil = Math.max(this.quietUntil, Date.now() + Math.min(wait, this.policy.breaker.resetMs));
        const counted = failure.transient && failure.outcome !== 'open' && failure.outcome !== 'throttled';
        if (counted && ++this.failuresInRow >= this.policy.breaker.consecutive && !this.breaker.opened)
          this.breaker.open();
        const retry = failure.transient && attempts < maxAttempts && !signal.aborted && !this.breaker.opened;
        const delay = Math.max(this.policy.backoffMs * 2 ** (attempts - 1) * (1 + Math.random() * 0.5), wait ?? 0);
        // no retry the caller's deadline would cut short: its answer now, not at the deadline
        if (!retry || !this.fits(delay, signal)) {
          finish(failure.outcome);
          throw failure.error;
        }
        await pause(delay, signal).catch(() => undefined);
        if (signal.aborted) {
          finish('timeout');
          throw failure.error;
        }
      }
    }
  }

  /**
   * Whether waiting `ms` still leaves the caller time: before its deadline when the signal
   * tells one, else (jobs, checks) no longer than one attempt may take; a longer wait is
   * the caller's to schedule (the job queue's next try).
   */
  private fits(ms: number, signal: AbortSignal): boolean {
    const left = msLeft(signal);
    return ms < (left ?? this.policy.timeoutMs);
  }

  private waitRefusal(ms: number): CarrierRetryAfterError {
    return new CarrierRetryAfterError(
      this.companyId,
      `The delivery company asked to wait ${Math.ceil(ms / 1000)} s before the next call.`,
      ms,
      true,
    );
  }

  private limited<T>(attempt: (signal: AbortSignal) => Promise<T>, outer: AbortSignal, timeoutMs: number): Promise<T> {
    return this.limiter.schedule(async () => {
      const own = AbortSignal.timeout(timeoutMs);
      try {
        return await attempt(AbortSignal.any([outer, own]));
      } catch (error) {
        if (own.aborted && !outer.aborted) throw new CompanyTimeout(`no answer within ${timeoutMs} ms`);
        throw error;
      }
    });
  }

  private explain(error: unknown, signal: AbortSignal): { outcome: RemoteOutcome; transient: boolean; error: Error } {
    if (error instanceof Error && (error as { code?: string }).code === 'EOPENBREAKER') {
      return {
        outcome: 'open',
        transient: true,
        error: new CarrierError(
          this.companyId,
          'The delivery company keeps failing; it is not asked for a while.',
          true,
        ),
      };
    }
    if (error instanceof CompanyTimeout)
      return {
        outcome: 'timeout',
        transient: true,
        error: new CarrierTimeoutError(this.companyId, `The delivery company gave ${error.message}.`),
      };
    if (signal.aborted)
      return { outcome: 'timeout', transient: true, error: error instanceof Error ? error : new Error(String(error)) };
    if (error instanceof CarrierAuthError) return { outcome: 'auth', transient: false, error };
    if (error instanceof CarrierRetryAfterError && error.throttled)
      return { outcome: 'throttled', transient: true, error };
    if (error instanceof CarrierError)
      return { outcome: error.transient ? 'failed' : 'refused', transient: error.transient, error };
    return {
      outcome: 'failed',
      transient: true,
      error: new CarrierUnreachableError(
        this.companyId,
        `The delivery company is not reachable: ${(error as Error).message}`,
      ),
    };
  }

  /** Stops the breaker's timers (tests, shutdown). */
  shutdown(): void {
    this.breaker.shutdown();
    void this.limiter.disconnect();
  }
}

/** Waits `ms`, or rejects when the signal aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** What an HTTP exchange with a company gave: the status and the body as text (or bytes). */
export type RemoteAnswer = HttpAnswer;
export interface RemoteRequest extends HttpRequest {
  /**
   * 401/403 statuses handed back for the mapper to read instead of thrown as refused
   * credentials (Yandex Delivery answers 403 `customer_order_not_found` for an order number
   * it does not hold for this client).
   */
  passStatuses?: readonly number[];
}

/**
 * One HTTP exchange. Unreachable, 5xx and 429 throw a transient CarrierError (a
 * CarrierRetryAfterError for a 429, and for a 503 that says how long to wait); 401/403 a
 * CarrierAuthError; other answers (including 4xx) are returned for the mapper to read.
 */
export async function exchange(companyId: number, request: RemoteRequest, signal: AbortSignal): Promise<RemoteAnswer> {
  let answer: HttpAnswer;
  try {
    answer = await sendRequest(request, signal);
  } catch (error) {
    if (error instanceof HttpNoAnswer)
      throw new CarrierUnreachableError(companyId, `The delivery company is not reachable: ${error.message}`);
    throw error;
  }
  if (answer.status === 429)
    throw new CarrierRetryAfterError(
      companyId,
      'The delivery company asks to slow down (429).',
      answer.retryAfterMs,
      true,
    );
  if (answer.status === 503 && answer.retryAfterMs !== null)
    throw new CarrierRetryAfterError(companyId, 'The delivery company answered 503.', answer.retryAfterMs, false);
  if (answer.status >= 500) throw new CarrierError(companyId, `The delivery company answered ${answer.status}.`, true);
  if ((answer.status === 401 || answer.status === 403) && !request.passStatuses?.includes(answer.status))
    throw new CarrierAuthError(
      companyId,
      `The delivery company refused the credentials (${answer.status}).`,
      companyMessageOf(answer.text),
    );
  return answer;
}

/** The answer's JSON, or a CarrierError naming the company's answer as not JSON. */
export function jsonOf(companyId: number, answer: RemoteAnswer): unknown {
  const body = jsonOfText(answer.text);
  if (body === undefined)
    throw new CarrierUnexpectedAnswerError(
      companyId,
      `The delivery company answered something that is not JSON (${answer.status}).`,
    );
  return body;
}
