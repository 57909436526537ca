/**
 * The register held for search, and why this way (docs/decisions/addresses.md, "Suggestions";
 * figures: `npx tsx bench/address-suggest.ts`):
 *
 * - localities (regions, areas, cities, settlements: levels 1–6, about 180,000 objects for the
 *   whole country) in one compact in-memory index loaded on first use and reloaded when an import
 *   finishes: a buyer names a city first, with typos and nicknames, and a one-edit scan over a
 *   prefix-sorted array answers in microseconds where SQL could only match exact prefixes;
 * - the streets of one locality (≤ ~5,000 even for Moscow) loaded by parent into a bounded LRU
 *   (lru-cache through BoundedMap), weighed in bytes against the addresses' share of CACHE_MB:
 *   the second word a buyer types is matched with typos against that list;
 * - houses and flats (tens of millions) never held: an indexed prefix range on
 *   (parent_id, search_key), a few rows a query.
 */
import { BoundedMap } from '../../platform/cache.js';
import { CITY_NICKNAMES, NAME_ABBREVIATIONS, wordMatch, withinOneEdit, TYPO_MIN_LENGTH } from './normalize.js';
import { toEntry, type AddressStore, type ObjectEntry, type ObjectRow } from './store.js';

/** Levels of the register's administrative hierarchy, as tables.ts lists them. */
export const LEVEL = {
  region: 1,
  autonomousArea: 2,
  municipalArea: 3,
  municipalSettlement: 4,
  city: 5,
  settlement: 6,
  planning: 7,
  street: 8,
} as const;

/** Settlements whose typos are forgiven while their name is being typed: the largest (see LocalityIndex). */
const MAJOR_SETTLEMENTS = 20_000;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** How often the loaded localities ask whether an import has finished since. */
const VERSION_CHECK_MS = 60_000;

export interface LocalityEntry extends ObjectEntry {
  guid: string;
}

export class LocalityIndex {
  readonly byId = new Map<number, LocalityEntry>();
  readonly byGuid = new Map<string, LocalityEntry>();
  private readonly byKey = new Map<string, LocalityEntry[]>();
  /**
   * A typo's candidates. Whole names: one edit in a name of 3 letters or more leaves its first or
   * its last letter as it was, and its length within one, so the candidates are the names of that
   * first (or last) letter and length: ~1/300 of the country each (a whole scan of 180,000 names
   * took 17 ms). Names being typed: their length is unknown, so only the major localities (regions,
   * areas, cities and the 20,000 largest settlements) are scanned, by their first and second letter.
   */
  private readonly byFirstAndLength = new Map<string, LocalityEntry[]>();
  private readonly byLastAndLength = new Map<string, LocalityEntry[]>();
  private readonly majorByFirst = new Map<string, LocalityEntry[]>();
  private readonly majorBySecond = new Map<string, LocalityEntry[]>();
  /** Sorted by key: the localities a typed start names are one binary search away. */
  private readonly sorted: LocalityEntry[];
  /** The most popular city of each region: its centre (DaData's capital marker, the region left out of `value`). */
  readonly regionCentres = new Set<number>();

  constructor(entries: LocalityEntry[]) {
    for (const entry of entries) {
      this.byId.set(entry.objectId, entry);
      this.byGuid.set(entry.guid.toLowerCase(), entry);
      const key = entry.searchKey;
      push(this.byFirstAndLength, `${key[0]}${key.length}`, entry);
      push(this.byLastAndLength, `${key[key.length - 1]}${key.length}`, entry);
      const same = this.byKey.get(entry.searchKey);
      if (same) same.push(entry);
      else this.byKey.set(entry.searchKey, [entry]);
    }
    this.sorted = [...entries].sort((a, b) => (a.searchKey < b.searchKey ? -1 : a.searchKey > b.searchKey ? 1 : 0));
    const best = new Map<number, LocalityEntry>();
    for (const entry of entries) {
      if (entry.level !== LEVEL.city) continue;
      const current = best.get(entry.regionCode);
      if (!current || current.popularity < entry.popularity) best.set(entry.regionCode, entry);
    }
    for (const entry of best.values()) this.regionCentres.add(entry.objectId);
    const settlements = entries.filter((entry) => entry.level === LEVEL.settlement);
    const largeSettlements = new Set(
      settlements.length <= MAJOR_SETTLEMENTS
        ? settlements
        : [...settlements].sort((a, b) => b.popularity - a.popularity).slice(0, MAJOR_SETTLEMENTS),
    );
    for (const entry of entries) {
      if (entry.level === LEVEL.settlement && !largeSettlements.has(entry)) continue;
      push(this.majorByFirst, entry.searchKey[0], entry);
      if (entry.searchKey.length > 1) push(this.majorBySecond, entry.searchKey[1], entry);
    }
  }

  get size(): number {
    return this.sorted.length;
  }

  exact(key: string): LocalityEntry[] {
    const nickname = CITY_NICKNAMES.get(key);
    return this.byKey.get(nickname ?? key) ?? [];
  }

  /** Localities whose key starts with `prefix`. */
  startingWith(prefix: string, limit = 200): LocalityEntry[] {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.sorted[middle].searchKey < prefix) low = middle + 1;
      else high = middle;
    }
    const found: LocalityEntry[] = [];
    for (let i = low; i < this.sorted.length && found.length < limit; i++) {
      if (!this.sorted[i].searchKey.startsWith(prefix)) break;
      found.push(this.sorted[i]);
    }
    return found;
  }

  /**
   * Localities one edit away from `key` (whole, or as a start when `typing`), used only when nothing
   * matched as typed. Whole: the names sharing its first or its last letter, one letter longer or
   * shorter at most. Typing: an edit in a name's start leaves its first letter, or moves the second
   * to the front (a deletion, a swap) or the first to the second place (an insertion): the names
   * whose first or second letter is the typed first or second.
   */
  oneEditFrom(key: string, typing: boolean, limit = 50): LocalityEntry[] {
    if (key.length < TYPO_MIN_LENGTH) return [];
    const found: LocalityEntry[] = [];
    const seen = new Set<LocalityEntry>();
    const last = key[key.length - 1];
    const buckets = typing
      ? [
          this.majorByFirst.get(key[0]),
          this.majorByFirst.get(key[1]),
          this.majorBySecond.get(key[0]),
          this.majorBySecond.get(key[1]),
        ]
      : [key.length - 1, key.length, key.length + 1].flatMap((length) => [
          this.byFirstAndLength.get(`${key[0]}${length}`),
          this.byLastAndLength.get(`${last}${length}`),
        ]);
    for (const bucket of buckets)
      for (const entry of bucket ?? []) {
        if (seen.has(entry)) continue;
        if (typing ? wordMatch(key, entry.searchKey, true) === 1 : withinOneEdit(key, entry.searchKey)) {
          seen.add(entry);
          found.push(entry);
          if (found.length >= limit) return found;
        }
      }
    return found;
  }

  /** The object and its ancestors, the object first. */
  chain(entry: LocalityEntry): LocalityEntry[] {
    const chain: LocalityEntry[] = [entry];
    let parentId = entry.parentId;
    for (let depth = 0; parentId !== null && depth < 10; depth++) {
      const parent = this.byId.get(parentId);
      if (!parent) break;
      chain.push(parent);
      parentId = parent.parentId;
    }
    return chain;
  }

  isUnder(entry: LocalityEntry, ancestorId: number): boolean {
    return this.chain(entry).some((each) => each.objectId === ancestorId);
  }

  /** A rough size in bytes (strings at two bytes a character, an object's fixed part): the figure the bench prints. */
  estimateBytes(): number {
    // measured (180,000 generated names, their typo buckets and maps): 84 MB of heap, about 1.7 times this estimate
    let bytes = 0;
    for (const entry of this.sorted) bytes += 220 + 2 * (entry.name.length + entry.searchKey.length) + 36;
    return bytes;
  }
}

export interface StreetEntry extends ObjectEntry {
  words: string[];
  /** The whole row (ids, codes, coordinates), when the street came from a locality's list. */
  row?: ObjectRow;
}

/** The streets of one locality, with an index of their words for exact matches. */
export class StreetList {
  readonly byWord = new Map<string, StreetEntry[]>();
  /** Every distinct word, sorted: starts and typos are matched against these, not every street. */
  readonly words: string[];

  constructor(readonly streets: StreetEntry[]) {
    for (const street of streets)
      for (const word of street.words) {
        const list = this.byWord.get(word);
        if (list) list.push(street);
        else this.byWord.set(word, [street]);
      }
    this.words = [...this.byWord.keys()].sort();
  }

  /** Words of the list that a typed word matches, with how well (3 exact, 2 start, 1 typo). */
  wordsMatching(typed: string, typing: boolean): Map<string, number> {
    const found = new Map<string, number>();
    if (this.byWord.has(typed)) found.set(typed, 3);
    if (typing) {
      let low = 0;
      let high = this.words.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (this.words[middle] < typed) low = middle + 1;
        else high = middle;
      }
      for (let i = low; i < this.words.length && this.words[i].startsWith(typed); i++)
        if (!found.has(this.words[i])) found.set(this.words[i], 2);
    }
    for (const start of NAME_ABBREVIATIONS.get(typed) ?? [])
      for (const word of this.words) if (word.startsWith(start) && !found.has(word)) found.set(word, 2);
    if (found.size === 0 && typed.length >= TYPO_MIN_LENGTH && !/^\d/.test(typed)) {
      for (const word of this.words) {
        if (Math.abs(word.length - typed.length) > 1 && !typing) continue;
        if (wordMatch(typed, word, typing) === 1) found.set(word, 1);
      }
    }
    return found;
  }

  weight(): number {
    let bytes = 200 + this.words.length * 64;
    // the entry, its row (a GUID, codes, coordinates) and the name twice in each
    for (const street of this.streets) bytes += 520 + 4 * (street.name.length + street.searchKey.length);
    return bytes;
  }
}

const wordsOf = (key: string) => key.split(' ').filter((word) => word !== '');

export interface DirectoryOptions {
  /** Bytes the streets of localities may take (the addresses' share of CACHE_MB). */
  cacheBytes: number;
}

/** The in-memory side of the register: localities, and the streets of the localities asked for lately. */
export class AddressDirectory {
  private localities: LocalityIndex | null = null;
  private loading: Promise<LocalityIndex> | null = null;
  private loadedVersion = -1;
  private checkedAt = 0;
  /** Counts the register's changes seen (a reload after an import, a forget): what was made of an older generation is stale. */
  private changes = 0;
  private readonly streets: BoundedMap<number, StreetList>;
  private readonly streetLoads = new Map<number, Promise<StreetList>>();
  /** Whole rows of the localities shown lately (a suggestion writes its city's ids and codes): a query saved per answer. */
  private readonly localityRows = new BoundedMap<number, ObjectRow>(20_000);

  constructor(
    private readonly store: AddressStore,
    options: DirectoryOptions,
  ) {
    this.streets = new BoundedMap<number, StreetList>(100_000, options.cacheBytes, 10 * 60_000);
  }

  /** The localities, loaded on first use; reloaded (and the streets forgotten) once an import has finished since. */
  async localityIndex(): Promise<LocalityIndex> {
    const now = Date.now();
    if (this.localities && now - this.checkedAt < VERSION_CHECK_MS) return this.localities;
    if (this.loading) return this.loading;
    this.loading = (async () => {
      try {
        const version = await this.store.registerVersion();
        this.checkedAt = Date.now();
        if (this.localities && version === this.loadedVersion) return this.localities;
        const rows = await this.store.localities();
        this.localities = new LocalityIndex(rows.map((row) => ({ ...row, words: wordsOf(row.searchKey) })));
        this.loadedVersion = version;
        this.changes++;
        this.streets.clear();
        this.localityRows.clear();
        return this.localities;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  /**
   * The register's generation, checked as `localityIndex` checks it (the import's version at most
   * once a minute): equal generations, equal answers.
   */
  async generation(): Promise<number> {
    await this.localityIndex();
    return this.changes;
  }

  /** The whole rows of these objects: remembered ones from memory, the others in one query. */
  async rowsOf(ids: number[]): Promise<Map<number, ObjectRow>> {
    const rows = new Map<number, ObjectRow>();
    const missing: number[] = [];
    for (const id of ids) {
      const known = this.localityRows.get(id);
      if (known) rows.set(id, known);
      else missing.push(id);
    }
    if (missing.length > 0)
      for (const row of await this.store.objectsByIds(missing)) {
        const id = Number(row.object_id);
        rows.set(id, row);
        if (row.level <= 6) this.localityRows.set(id, row);
      }
    return rows;
  }

  /** Forgets what was loaded: the next call reads the register again (tests and the importer, after they write). */
  forget(): void {
    this.changes++;
    this.localities = null;
    this.checkedAt = 0;
    this.streets.clear();
    this.localityRows.clear();
  }

  async streetsOf(parentId: number): Promise<StreetList> {
    const known = this.streets.get(parentId);
    if (known) return known;
    const pending = this.streetLoads.get(parentId);
    if (pending) return pending;
    const load = (async () => {
      try {
        const rows = await this.store.streetsUnder(parentId);
        const list = new StreetList(
          rows.map((row) => {
            const entry = toEntry(row);
            return { ...entry, words: wordsOf(entry.searchKey), row };
          }),
        );
        this.streets.set(parentId, list, list.weight());
        return list;
      } finally {
        this.streetLoads.delete(parentId);
      }
    })();
    this.streetLoads.set(parentId, load);
    return load;
  }
}
