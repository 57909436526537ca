/** The hand-written LRU that lru-cache replaced (src/platform/cache.ts before), kept as the bench's baseline. */
/** A map that forgets its least recently used entries beyond a number of entries and, optionally, a total weight (bytes). */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  /** The value, which becomes the most recently used: what is read often is forgotten last. */
  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
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

  /**
   * A value that grew or shrank after it was kept (bytes made or dropped on use): its new
   * weight, if `key` still holds that value; the least recently used go if it is now too much.
   */
  reweigh(key: K, value: V, weight: number): void {
    const entry = this.map.get(key);
    if (entry === undefined || entry.value !== value || entry.weight === weight) return;
    this.weight += weight - entry.weight;
    entry.weight = weight;
    for (const oldest of this.map.keys()) {
      if (this.weight <= this.maxWeight) break;
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
