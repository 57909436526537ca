/** Finds a locality the way shops name it: by FIAS id, else by name (+ region), else by postal code. */
import { LRUCache } from 'lru-cache';
import { cleanName, nameKey, regionKey } from './names.js';
import type { Locality } from './source.js';

export interface LocalityQuery {
  countryCode?: string | null;
  fias?: string | null;
  name?: string | null;
  region?: string | null;
  zipCode?: string | null;
}

export class LocalityDirectory {
  private readonly byId = new Map<number, Locality>();
  private readonly byFias = new Map<string, Locality>();
  private readonly byKey = new Map<string, Locality[]>();
  private readonly byZipPrefix = new Map<string, Locality[]>();
  /**
   * The key of each name asked lately (false when nothing is left of it once cleaned): ~2.7 µs to make, asked several times an order
   * and a quote (sender's and recipient's city), ~2.5 % of the event loop's time an order. Bounded: names come from buyers.
   */
  private readonly keyOfName = new LRUCache<string, string | false>({ max: 10_000 });

  constructor(readonly all: Locality[]) {
    for (const locality of all) {
      this.byId.set(locality.id, locality);
      if (locality.fias) this.byFias.set(locality.fias.toLowerCase(), locality);
      for (const key of new Set([nameKey(locality.name), nameKey(locality.nameEn)])) push(this.byKey, key, locality);
      if (locality.zip) push(this.byZipPrefix, locality.zip.slice(0, 3), locality);
    }
    for (const list of this.byKey.values()) list.sort((a, b) => b.population - a.population);
  }

  get(id: number): Locality | undefined {
    return this.byId.get(id);
  }

  /** FIAS id of a big city, or `gn:<GeoNames id>` which we hand out for the others. */
  byFiasOrOwnId(fias: string): Locality | undefined {
    const value = fias.trim().toLowerCase();
    const own = /^gn:(\d+)$/.exec(value);
    return own ? this.byId.get(Number(own[1])) : this.byFias.get(value);
  }

  find(query: LocalityQuery): Locality | undefined {
    if (query.countryCode && query.countryCode.toUpperCase() !== 'RU') return undefined;
    if (query.fias) {
      const found = this.byFiasOrOwnId(query.fias);
      if (found) return found;
    }
    const key = query.name ? this.keyOf(query.name) : false;
    if (key !== false) {
      const candidates = this.byKey.get(key);
      if (candidates?.length) {
        if (query.region) {
          const wanted = regionKey(query.region);
          const inRegion = candidates.find(
            (candidate) => regionKey(candidate.region) === wanted || regionKey(candidate.name) === wanted,
          );
          if (inRegion) return inRegion;
        }
        return candidates[0];
      }
    }
    if (query.zipCode && /^\d{6}$/.test(query.zipCode.trim())) {
      return this.byZipPrefix.get(query.zipCode.trim().slice(0, 3))?.[0];
    }
    return undefined;
  }

  private keyOf(name: string): string | false {
    let key = this.keyOfName.get(name);
    if (key === undefined) {
      key = cleanName(name) !== '' && nameKey(name);
      this.keyOfName.set(name, key);
    }
    return key;
  }

  /** The id shops may send back as cityFias: the real FIAS id when we know it. */
  static fiasOf(locality: Locality): string {
    return locality.fias ?? `gn:${locality.id}`;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
