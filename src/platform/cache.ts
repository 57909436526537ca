/**
 * In-process caches for hot reads.
 *
 * `AccountReadCache` keeps answers of account-scoped reads (a page of shops) until the
 * account's data of that topic changes: every write bumps the topic's version and older
 * answers are never served again. It is exact only when one process owns the database,
 * which is the embedded SQLite mode; with PostgreSQL (many processes) it is off.
 */

export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    if (this.map.size >= this.maxEntries && !this.map.has(key)) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    this.map.set(key, value);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}

export class AccountReadCache {
  private readonly versions = new Map<string, number>();
  private readonly entries: BoundedMap<string, { version: number; value: unknown }>;

  constructor(
    readonly enabled: boolean,
    maxEntries = 10_000,
  ) {
    this.entries = new BoundedMap(maxEntries);
  }

  private version(accountId: number, topic: string): number {
    return this.versions.get(`${accountId}:${topic}`) ?? 0;
  }

  /** Call after any write that changes what reads of `topic` would answer. */
  invalidate(accountId: number, topic: string): void {
    const name = `${accountId}:${topic}`;
    this.versions.set(name, (this.versions.get(name) ?? 0) + 1);
  }

  /** The cached answer for `key`, or the answer `load` gives (then cached). */
  async read<T>(accountId: number, topic: string, key: string, load: () => Promise<T>): Promise<T> {
    if (!this.enabled) return load();
    const version = this.version(accountId, topic);
    const name = `${accountId}:${topic}:${key}`;
    const hit = this.entries.get(name);
    if (hit && hit.version === version) return hit.value as T;
    const value = await load();
    // A write during the load bumped the version: do not keep the possibly stale answer.
    if (this.version(accountId, topic) === version) this.entries.set(name, { version, value });
    return value;
  }
}
