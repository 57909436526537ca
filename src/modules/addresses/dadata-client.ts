/**
 * DaData asked with a shop's own keys, through the resilience layer the delivery companies use
 * (carriers/remote-call.ts: a deadline, a breaker, a rate limit, DaData's Retry-After obeyed) and a
 * cache of its answers: a buyer's suggestion asked again within minutes (they type, erase, type
 * again) costs the shop no request of its daily limit (10,000 free, then 403 until midnight).
 * DaData refuses a wrong key with 401 and an exhausted limit with 403 (both: no retry, not
 * DaData failing), too many requests a second with 429.
 */
import { BoundedMap } from '../../platform/cache.js';
import {
  exchange,
  jsonOf,
  RemoteCompany,
  DEFAULT_REMOTE_POLICY,
  type RemoteCallObserver,
} from '../../carriers/remote-call.js';

/** Not a delivery company: the resilience layer counts it under this id and code. */
const DADATA_ID = 0;
/** A buyer waits for a suggestion: DaData answers in tens of milliseconds, or it is left out. */
const SUGGEST_DEADLINE_MS = 1_500;
const CLEAN_DEADLINE_MS = 4_000;
const CACHE_ENTRIES = 20_000;
const CACHE_MS = 10 * 60_000;

export interface DadataKeys {
  apiKey: string;
  secretKey?: string;
}

export interface DadataUrls {
  suggestions: string;
  cleaner: string;
}

export class DadataClient {
  readonly remote: RemoteCompany;
  private readonly answers = new BoundedMap<string, { body: unknown; until: number }>(CACHE_ENTRIES);

  constructor(
    private readonly urls: DadataUrls,
    observer: RemoteCallObserver | null = null,
  ) {
    this.remote = new RemoteCompany(
      DADATA_ID,
      'dadata',
      { ...DEFAULT_REMOTE_POLICY, timeoutMs: SUGGEST_DEADLINE_MS, retries: 0, perSecond: 30, concurrent: 20 },
      observer,
      null,
    );
  }

  /** POST …/suggest/address with DaData's body; its `suggestions` as it answered them. */
  async suggest(keys: DadataKeys, body: object): Promise<unknown[]> {
    const answer = await this.call(
      'suggest',
      keys,
      `${this.urls.suggestions}/suggest/address`,
      body,
      SUGGEST_DEADLINE_MS,
    );
    const suggestions = (answer as { suggestions?: unknown } | null)?.suggestions;
    return Array.isArray(suggestions) ? suggestions : [];
  }

  /** POST …/clean/address with one text; DaData's answer for it. Needs the secret key. */
  async clean(keys: DadataKeys, text: string): Promise<Record<string, unknown> | null> {
    if (!keys.secretKey) return null;
    const answer = await this.call('clean', keys, `${this.urls.cleaner}/clean/address`, [text], CLEAN_DEADLINE_MS);
    const first = Array.isArray(answer) ? answer[0] : null;
    return first && typeof first === 'object' ? (first as Record<string, unknown>) : null;
  }

  private async call(
    operation: string,
    keys: DadataKeys,
    url: string,
    body: unknown,
    deadlineMs: number,
  ): Promise<unknown> {
    // the key is part of the cache key: one shop's answers are never another's
    const cacheKey = `${operation}\u0000${keys.apiKey}\u0000${JSON.stringify(body)}`;
    const now = Date.now();
    const hit = this.answers.get(cacheKey);
    if (hit && hit.until > now) return hit.body;
    const headers: Record<string, string> = { authorization: `Token ${keys.apiKey}` };
    if (operation === 'clean' && keys.secretKey) headers['x-secret'] = keys.secretKey;
    const answer = await this.remote.run(operation, 'safe', AbortSignal.timeout(deadlineMs), (signal) =>
      exchange(DADATA_ID, { method: 'POST', url, headers, json: body }, signal),
    );
    const parsed = answer.status === 200 ? jsonOf(DADATA_ID, answer) : null;
    if (answer.status === 200) this.answers.set(cacheKey, { body: parsed, until: now + CACHE_MS });
    return parsed;
  }

  shutdown(): void {
    this.remote.shutdown();
  }
}
