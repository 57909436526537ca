/**
 * Hand-written (the account read cache; its LRU is lru-cache's), and why. Figure: a page of
 * shops or orders read again costs a map lookup instead of a query (GET /v2/shops at the
 * hello-world ceiling's order, bench/foundation.ts), and every process forgets within
 * milliseconds a write of another (LISTEN/NOTIFY). Reproduce: `npx tsx bench/foundation.ts`,
 * `npx tsx bench/orders.ts`. Measured against: no cache (every read a query); a TTL cache
 * (lru-cache's ttl) would serve answers stale for its TTL, which the version per topic avoids.
 *
 * In-process caches for hot reads.
 *
 * `AccountReadCache` keeps answers of account-scoped reads (a page of shops) until the
 * account's data of that topic changes: every write bumps the topic's version and older
 * answers are never served again. In the embedded SQLite mode one process owns the
 * database, so it is exact. With PostgreSQL many processes write: each invalidation is
 * published to the others (LISTEN/NOTIFY, `platform/db/database.ts`), which drop their
 * answers when the message arrives, a few milliseconds after the commit; while messages may
 * be missed (connection lost) nothing is served from memory, and no answer lives longer
 * than `maxAgeMs`.
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { DatabaseMessages } from './db/database.js';

/**
 * A map that forgets its least recently used entries beyond a number of entries and, optionally,
 * a total weight (bytes): `lru-cache` underneath (it replaced a hand-written one:
 * bench/bounded-map.ts), this class keeps the house's small API (weights given per `set`, `reweigh` after use).
 */
export class BoundedMap<K extends {}, V extends {}> {
  private readonly cache: LRUCache<K, V>;
  private readonly weighed: boolean;

  /** `idleMs`: an entry not read or written for this long is forgotten (at the latest by the next `forgetIdle`). */
  constructor(maxEntries: number, maxWeight = Number.POSITIVE_INFINITY, idleMs?: number) {
    this.weighed = Number.isFinite(maxWeight);
    this.cache = new LRUCache<K, V>({
      max: maxEntries,
      ...(this.weighed ? { maxSize: maxWeight } : {}),
      ...(idleMs ? { ttl: idleMs, updateAgeOnGet: true } : {}),
    });
  }

  /** Forgets the entries idle for longer than `idleMs`: their memory goes back when the load stops. */
  forgetIdle(): void {
    this.cache.purgeStale();
  }

  /** The value, which becomes the most recently used: what is read often is forgotten last. */
  get(key: K): V | undefined {
    return this.cache.get(key);
  }

  /** Too heavy a value is not kept (and the key's old value is forgotten). */
  set(key: K, value: V, weight = 0): void {
    // lru-cache counts sizes from 1: a weightless entry weighs one byte
    if (this.weighed) this.cache.set(key, value, { size: Math.max(1, Math.ceil(weight)) });
    else this.cache.set(key, value);
  }

  /**
   * A value that grew or shrank after it was kept (bytes made or dropped on use): its new
   * weight, if `key` still holds that value; the least recently used go if it is now too much.
   */
  reweigh(key: K, value: V, weight: number): void {
    if (this.cache.peek(key) !== value) return;
    // lru-cache weighs a value only when it is set anew (the same value set again keeps its size)
    this.cache.delete(key);
    this.set(key, value, weight);
  }

  delete(key: K): void {
    this.cache.delete(key);
  }

  clear(): void {
    this.cache.clear();
  }
}

/**
 * The topics of the read cache: what a write invalidates. Each area declares its own in its
 * `module.ts` (a declaration merge: `interface CacheTopics { shops: '…' }`, the value saying
 * what is cached), so a misspelt topic is a type error, not an answer served stale.
 */
export interface CacheTopics {
  'revoked-tokens': 'tokens and shop keys remembered by the authentication (platform/auth.ts)';
}

export type CacheTopic = keyof CacheTopics;

/** Other processes on the same database, told of this process's writes (PostgreSQL: NOTIFY). */
export interface CachePeers {
  publish(accountId: number, topic: CacheTopic, detail?: string): void;
}

/**
 * Told of each write of a topic: `detail` is what the writer said of it (a topic's own words,
 * such as the ids written), absent when nothing was said or it did not reach this process whole.
 */
export type TopicListener = (accountId: number, detail?: string) => void;

/** The longest detail sent to other processes (a PostgreSQL notification holds < 8000 bytes); a longer one is not sent. */
const MAX_SHARED_DETAIL = 6000;

export interface ReadCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
  /**
   * With peers: an answer is served at most this long, whatever the messages say: a process
   * that died between its commit and its message cannot leave others stale for longer.
   */
  maxAgeMs?: number;
  /** An answer not asked for this long is forgotten (default 60 s): memory comes back when the load stops. */
  idleMs?: number;
}

interface CachedAnswer {
  version: number;
  epoch: number;
  at: number;
  value: unknown;
}

export class AccountReadCache {
  private readonly versions = new Map<string, number>();
  private readonly entries: BoundedMap<string, CachedAnswer>;
  private readonly maxAgeMs: number;
  private peers: CachePeers | null = null;
  private readonly watchers = new Map<string, TopicListener[]>();
  private readonly resetWatchers: Array<() => void> = [];
  /** Bumped whenever messages from peers may have been missed: nothing older is served or kept. */
  private epoch = 0;
  private suspended = false;

  constructor(
    private readonly on: boolean,
    options: ReadCacheOptions = {},
  ) {
    const idleMs = options.idleMs ?? 60_000;
    this.entries = new BoundedMap(options.maxEntries ?? 10_000, options.maxBytes ?? 32 * 1024 * 1024, idleMs);
    this.maxAgeMs = options.maxAgeMs ?? Number.POSITIVE_INFINITY;
    // unref: a process (or a test) with nothing else to do is not kept alive by the sweep
    if (on) setInterval(() => this.entries.forgetIdle(), Math.max(1000, idleMs / 4)).unref();
  }

  get enabled(): boolean {
    return this.on && !this.suspended;
  }

  /**
   * Other processes write the same database: each invalidation is published to them, and
   * until `resume` (their messages reach us) nothing is served from memory.
   */
  sharedWith(peers: CachePeers): void {
    this.peers = peers;
    this.suspend();
  }

  /** Messages from peers may be missed from now on (connection lost): read through until `resume`. */
  suspend(): void {
    this.suspended = true;
    this.epoch++;
    this.entries.clear();
    for (const listener of this.resetWatchers) listener();
  }

  /** Messages from peers arrive again; what was cached before is gone. */
  resume(): void {
    this.epoch++;
    this.entries.clear();
    this.suspended = false;
    for (const listener of this.resetWatchers) listener();
  }

  private version(accountId: number, topic: CacheTopic): number {
    return this.versions.get(`${accountId}:${topic}`) ?? 0;
  }

  /**
   * Call after any write that changes what reads of `topic` would answer; peers are told too.
   * `detail` (no `|` in it) tells the topic's watchers what was written, here and in peers.
   */
  invalidate(accountId: number, topic: CacheTopic, detail?: string): void {
    this.forget(accountId, topic, detail);
    this.peers?.publish(
      accountId,
      topic,
      detail !== undefined && detail.length <= MAX_SHARED_DETAIL ? detail : undefined,
    );
  }

  /** A write of another process (a message from a peer: the same release, so one of our topics). */
  forget(accountId: number, topic: CacheTopic | string, detail?: string): void {
    const name = `${accountId}:${topic}`;
    this.versions.set(name, (this.versions.get(name) ?? 0) + 1);
    for (const listener of this.watchers.get(topic) ?? []) listener(accountId, detail);
  }

  /**
   * Memory kept elsewhere that a topic's writes make stale (tokens remembered by the
   * authentication, the orders' list directories): `listener` hears of each, from this
   * process or a peer.
   */
  watch(topic: CacheTopic, listener: TopicListener): void {
    this.watchers.set(topic, [...(this.watchers.get(topic) ?? []), listener]);
  }

  /** Memory kept elsewhere that must go whenever this cache's may have missed writes (peers' messages lost). */
  watchResets(listener: () => void): void {
    this.resetWatchers.push(listener);
  }

  /**
   * The cached answer for `key`, or the answer `load` gives (then cached). `bytes` tells how
   * much a large answer (a page of bytes) weighs, so that the cache stays within its size.
   * An answer may weigh more or less once used (a page unzipped for a client that does not
   * take gzip, or recompressed smaller): it is weighed again after the request used it.
   */
  async read<T>(
    accountId: number,
    topic: CacheTopic,
    key: string,
    load: () => Promise<T>,
    bytes?: (value: T) => number,
  ): Promise<T> {
    if (!this.enabled) return load();
    const version = this.version(accountId, topic);
    const epoch = this.epoch;
    const name = `${accountId}:${topic}:${key}`;
    const hit = this.entries.get(name);
    if (hit && hit.version === version && hit.epoch === epoch && Date.now() - hit.at < this.maxAgeMs) {
      if (bytes) this.weighAfterUse(name, hit, bytes);
      return hit.value as T;
    }
    const at = Date.now();
    const value = await load();
    // A write (here or in a peer) during the load bumped the version: do not keep the possibly stale answer.
    if (this.enabled && this.version(accountId, topic) === version && this.epoch === epoch) {
      const answer: CachedAnswer = { version, epoch, at, value };
      this.entries.set(name, answer, bytes ? bytes(value) : 0);
      if (bytes) this.weighAfterUse(name, answer, bytes);
    }
    return value;
  }

  /** Once the request's own code has run (it may unzip the answer), weighs it again. */
  private weighAfterUse<T>(name: string, answer: CachedAnswer, bytes: (value: T) => number): void {
    setImmediate(() => this.entries.reweigh(name, answer, bytes(answer.value as T)));
  }
}

const CACHE_CHANNEL = 'read_cache';

/**
 * Shares `cache` with the other processes on the database: this process's invalidations are
 * sent to them and theirs are applied here. Until listening works, nothing is served from memory.
 */
export async function shareAcrossProcesses(
  cache: AccountReadCache,
  messages: DatabaseMessages,
  onError: (error: unknown) => void,
): Promise<void> {
  // our own messages come back to us too: known by this id and skipped
  const self = randomUUID();
  cache.sharedWith({
    publish(accountId, topic, detail) {
      const message = `${self}|${accountId}|${topic}${detail === undefined ? '' : `|${detail}`}`;
      messages.publish(CACHE_CHANNEL, message).catch(onError);
    },
  });
  await messages.subscribe(CACHE_CHANNEL, {
    message(payload) {
      const [sender, account, topic, detail] = payload.split('|');
      if (sender !== self && topic !== undefined && /^\d+$/.test(account)) cache.forget(Number(account), topic, detail);
    },
    up: () => cache.resume(),
    down: () => cache.suspend(),
  });
}
