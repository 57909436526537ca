/**
 * In-process caches for hot reads.
 *
 * `AccountReadCache` keeps answers of account-scoped reads (a page of shops) until the
 * account's data of that topic changes: every write bumps the topic's version and older
 * answers are never served again. It is exact only when one process owns the database,
 * which is the embedded SQLite mode; with PostgreSQL (many processes) it is off.
 */

/** A map that forgets its oldest entries beyond a number of entries and, optionally, a total weight (bytes). */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  get(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: K, value: V, weight = 0): void {
    this.delete(key);
    if (weight > this.maxWeight) return;
    this.map.set(key, { value, weight });
    this.weight += weight;
    // oldest first: a Map keeps insertion order
    for (const oldest of this.map.keys()) {
      if (this.map.size <= this.maxEntries && this.weight <= this.maxWeight) break;
      this.delete(oldest);
    }
  }

  delete(key: K): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.weight -= entry.weight;
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.weight = 0;
  }
}

export class AccountReadCache {
  private readonly versions = new Map<string, number>();
  private readonly entries: BoundedMap<string, { version: number; value: unknown }>;

  constructor(
    readonly enabled: boolean,
    maxEntries = 10_000,
    maxBytes = 64 * 1024 * 1024,
  ) {
    this.entries = new BoundedMap(maxEntries, maxBytes);
  }

  private version(accountId: number, topic: string): number {
    return this.versions.get(`${accountId}:${topic}`) ?? 0;
  }

  /** Call after any write that changes what reads of `topic` would answer. */
  invalidate(accountId: number, topic: string): void {
    const name = `${accountId}:${topic}`;
    this.versions.set(name, (this.versions.get(name) ?? 0) + 1);
  }

  /**
   * The cached answer for `key`, or the answer `load` gives (then cached). `bytes` tells how
   * much a large answer (a page of bytes) weighs, so that the cache stays within its size.
   */
  async read<T>(accountId: number, topic: string, key: string, load: () => Promise<T>, bytes?: (value: T) => number): Promise<T> {
    if (!this.enabled) return load();
    const version = this.version(accountId, topic);
    const name = `${accountId}:${topic}:${key}`;
    const hit = this.entries.get(name);
    if (hit && hit.version === version) return hit.value as T;
    const value = await load();
    // A write during the load bumped the version: do not keep the possibly stale answer.
    if (this.version(accountId, topic) === version) this.entries.set(name, { version, value }, bytes ? bytes(value) : 0);
    return value;
  }
}
