/**
 * Suggestions and cleaning over the register: the text read into tokens (normalize.ts), the
 * locality found among its words, then the street among that locality's streets, the house and
 * the flat by indexed prefix. The same walk serves both: cleaning reads every word as complete,
 * suggestions read the last one as still being typed.
 */
import { houseSearchKey } from './search-key.js';
import type { AddressDirectory, LocalityEntry, LocalityIndex, StreetEntry, StreetList } from './directory.js';
import { LEVEL } from './directory.js';
import type { AddressBound, AddressSuggestion, CleanedAddress, CleanQuality, SuggestQuery } from './model.js';
import { parseAddressText, type ParsedText, type Token } from './normalize.js';
import { houseParts, notFoundAddress, present, type FoundAddress } from './present.js';
import type { AddressStore, FlatRow, HouseRow, ObjectRow } from './store.js';

const BOUND_RANK: Record<AddressBound, number> = {
  country: 0,
  region: 1,
  area: 2,
  city: 3,
  settlement: 4,
  street: 5,
  house: 6,
  flat: 7,
};

function boundOfLevel(level: number): AddressBound {
  if (level === LEVEL.region) return 'region';
  if (level <= LEVEL.municipalSettlement) return 'area';
  if (level === LEVEL.city) return 'city';
  if (level === LEVEL.settlement) return 'settlement';
  return 'street';
}

/** A locality found among the words: which words it took, and how well they matched. */
interface LocalityHit {
  entry: LocalityEntry;
  /** Indexes into the word tokens. */
  start: number;
  end: number;
  score: number;
  /** Matched through a nickname, a typo: said in the changes. */
  how: 'exact' | 'nickname' | 'typo' | 'start';
}

interface StreetHit {
  street: StreetEntry;
  score: number;
  /** Every word of the street's name was matched. */
  whole: boolean;
  usedTokens: Set<number>;
  typos: string[];
}

interface Restriction {
  localityId: number | null;
  regionCode: number | null;
}

/** The words that name places (type words such as "ул" only hint at them). */
const nameWords = (parsed: ParsedText): Token[] =>
  parsed.tokens.filter((token) => token.kind === 'number' || (token.kind === 'word' && token.typeHint === null));

export class AddressSearch {
  constructor(
    private readonly directory: AddressDirectory,
    private readonly store: AddressStore,
  ) {}

  // ---------- suggestions ----------

  async suggest(query: SuggestQuery): Promise<AddressSuggestion[]> {
    const count = query.count ?? 10;
    const from = BOUND_RANK[query.fromLevel ?? 'country'];
    const to = BOUND_RANK[query.toLevel ?? 'flat'];
    const index = await this.directory.localityIndex();
    const restriction = this.restrictionOf(index, query);
    if (restriction === null) return [];
    const parsed = parseAddressText(query.query);
    const words = nameWords(parsed);
    const restricted = restriction.localityId !== null ? (index.byId.get(restriction.localityId) ?? null) : null;

    // the locality: the one the caller named, else one named by complete words of the query
    let place: LocalityHit | null = null;
    if (restricted) place = { entry: restricted, start: 0, end: 0, score: 3, how: 'exact' };
    else place = this.findLocality(index, parsed, words, restriction, true);

    const used = new Set<number>();
    if (place && !restricted) {
      for (let i = place.start; i < place.end; i++) used.add(i);
      this.markAncestorWords(index, index.chain(place.entry), words, used);
    }
    const rest = words.filter((_token, i) => !used.has(i));
    const restNames = rest.filter((token) => token.kind === 'word' || !parsed.house);
    if (!place) {
      if (to < BOUND_RANK.region) return [];
      return this.suggestLocalities(index, words, restriction, count, from, to);
    }
    const found: FoundAddress = {
      chain: index.chain(place.entry),
      street: null,
      house: null,
      typedHouse: null,
      flat: null,
    };
    if (restNames.length === 0 && !parsed.house) {
      // only a locality typed so far: it, its settlements, then its best streets
      const results: FoundAddress[] = [];
      if (BOUND_RANK[boundOfLevel(place.entry.level)] >= from && !restricted) results.push(found);
      if (to >= BOUND_RANK.street && from <= BOUND_RANK.street) {
        const streets = await this.directory.streetsOf(place.entry.objectId);
        const best = [...streets.streets].sort((a, b) => b.popularity - a.popularity).slice(0, count);
        for (const street of best) results.push({ ...found, street });
      }
      return this.write(index, results.slice(0, count));
    }
    if (to < BOUND_RANK.street) {
      // a locality under a locality: "москва коммунарка"
      const inner = this.findLocality(index, parsed, rest, { ...restriction, localityId: place.entry.objectId }, false);
      return inner ? this.write(index, [{ ...found, chain: index.chain(inner.entry) }]) : [];
    }
    const streets = await this.streetsAround(index, place.entry);
    const hits = this.matchStreets(streets, rest, parsed, true);
    if (hits.length === 0) {
      // a settlement inside the locality may be what is typed
      const inner = this.findLocality(index, parsed, rest, { ...restriction, localityId: place.entry.objectId }, true);
      if (inner) return this.write(index, [{ ...found, chain: index.chain(inner.entry) }]);
      return [];
    }
    const best = hits[0];
    const houseTyped = parsed.house ?? this.unmarkedHouse(rest, best.usedTokens);
    const streetComplete = [...best.usedTokens].every((i) => rest[i]?.complete !== false);
    if (houseTyped && best.whole && streetComplete && to >= BOUND_RANK.house) {
      const chain = this.chainOfStreet(index, best.street, found.chain);
      const key = houseSearchKey(houseTyped.number, houseTyped.block, houseTyped.building);
      const houses = await this.store.housesByPrefix(best.street.objectId, key, Math.max(count * 3, 30));
      const ordered = rankHouses(houses, key);
      const exact = ordered.find((house) => house.search_key === key);
      if (exact && parsed.flat && to >= BOUND_RANK.flat) {
        const flats = await this.store.flatsByPrefix(exact.object_id, parsed.flat.number, count);
        const results: FoundAddress[] = flats.map((row) => ({
          chain,
          street: best.street,
          house: exact,
          typedHouse: null,
          flat: { row, number: row.number, type: parsed.flat?.type ?? 'кв' },
        }));
        if (!flats.some((row) => row.number === parsed.flat?.number))
          results.unshift({
            chain,
            street: best.street,
            house: exact,
            typedHouse: null,
            flat: { row: null, number: parsed.flat.number, type: parsed.flat.type },
          });
        return this.write(index, results.slice(0, count));
      }
      return this.write(
        index,
        ordered.slice(0, count).map((house) => ({ chain, street: best.street, house, typedHouse: null, flat: null })),
      );
    }
    return this.write(
      index,
      hits
        .slice(0, count)
        .map((hit) => ({ ...found, chain: this.chainOfStreet(index, hit.street, found.chain), street: hit.street })),
    );
  }

  /** Localities named by the words (the last as a start), the largest first. */
  private suggestLocalities(
    index: LocalityIndex,
    words: Token[],
    restriction: Restriction,
    count: number,
    from: number,
    to: number,
  ): AddressSuggestion[] | Promise<AddressSuggestion[]> {
    const names = words.filter((token) => token.kind === 'word').map((token) => token.text);
    if (names.length === 0) return [];
    const key = names.join(' ');
    const typing = words[words.length - 1]?.complete === false;
    let found = typing ? index.startingWith(key) : index.exact(key);
    if (typing) found = [...index.exact(key), ...found];
    if (found.length === 0) found = index.oneEditFrom(key, typing);
    const seen = new Set<number>();
    const ranked = found
      .filter((entry) => {
        if (seen.has(entry.objectId)) return false;
        seen.add(entry.objectId);
        const rank = BOUND_RANK[boundOfLevel(entry.level)];
        return rank >= from && rank <= to && this.allowed(index, entry, restriction);
      })
      .sort((a, b) => localityRank(b) - localityRank(a));
    return this.write(
      index,
      ranked.slice(0, count).map((entry) => ({
        chain: index.chain(entry),
        street: null,
        house: null,
        typedHouse: null,
        flat: null,
      })),
    );
  }

  private restrictionOf(index: LocalityIndex, query: SuggestQuery): Restriction | null {
    let localityId: number | null = null;
    let regionCode: number | null = null;
    if (query.locality) {
      const entry = index.byGuid.get(query.locality.toLowerCase());
      if (!entry) return null;
      localityId = entry.objectId;
    }
    if (query.region) {
      if (/^\d+$/.test(query.region)) regionCode = Number(query.region);
      else {
        const entry = index.byGuid.get(query.region.toLowerCase());
        if (!entry) return null;
        regionCode = entry.regionCode;
      }
    }
    return { localityId, regionCode };
  }

  private allowed(index: LocalityIndex, entry: LocalityEntry, restriction: Restriction): boolean {
    if (restriction.regionCode !== null && entry.regionCode !== restriction.regionCode) return false;
    if (restriction.localityId !== null && !index.isUnder(entry, restriction.localityId)) return false;
    return true;
  }

  // ---------- cleaning ----------

  async clean(source: string): Promise<CleanedAddress> {
    const index = await this.directory.localityIndex();
    const parsed = parseAddressText(source);
    const changes: string[] = [];
    if (parsed.latinLayout) changes.push('typed in the Latin keyboard layout');
    changes.push(...parsed.notes);
    const words = nameWords(parsed);
    const place = this.findLocality(index, parsed, words, { localityId: null, regionCode: null }, false);
    if (!place)
      return this.cleaned(
        source,
        null,
        'unrecognised',
        changes,
        words.map((token) => token.text),
      );
    if (place.how === 'nickname')
      changes.push(
        `"${words
          .slice(place.start, place.end)
          .map((w) => w.text)
          .join(' ')}" read as ${place.entry.typeShort} ${place.entry.name}`,
      );
    if (place.how === 'typo')
      changes.push(
        `locality name corrected: ${words
          .slice(place.start, place.end)
          .map((w) => w.text)
          .join(' ')} → ${place.entry.name}`,
      );
    // words that named the locality's ancestors ("Московская обл", "Россия") are used up too
    const chain = index.chain(place.entry);
    const used = new Set<number>();
    for (let i = place.start; i < place.end; i++) used.add(i);
    this.markAncestorWords(index, chain, words, used);
    const rest = words.filter((_token, i) => !used.has(i));
    const found: FoundAddress = { chain, street: null, house: null, typedHouse: null, flat: null };
    let quality: CleanQuality = 'certain';
    const unparsed: string[] = [];

    const streets = await this.streetsAround(index, place.entry);
    const hits = rest.some((token) => token.kind === 'word') ? this.matchStreets(streets, rest, parsed, false) : [];
    let houseParent: number | null = null;
    let restUsed = new Set<number>();
    if (hits.length > 0) {
      const best = hits[0];
      const typedType = this.typedStreetType(parsed);
      found.street = best.street;
      found.chain = this.chainOfStreet(index, best.street, chain);
      houseParent = best.street.objectId;
      restUsed = best.usedTokens;
      for (const typo of best.typos) changes.push(`street name corrected: ${typo}`);
      if (!best.whole) {
        quality = 'check';
        changes.push(`street name completed: ${best.street.typeShort} ${best.street.name}`);
      }
      if (hits.length > 1 && hits[1].score === best.score && hits[1].whole === best.whole) {
        quality = 'check';
        changes.push(`street is ambiguous: also ${hits[1].street.typeShort} ${hits[1].street.name}`);
      }
      if (typedType === null) changes.push(`street type added: ${best.street.typeShort}`);
      else if (typedType !== best.street.typeShort)
        changes.push(`street type corrected: ${typedType} → ${best.street.typeShort}`);
    } else if (rest.some((token) => token.kind === 'word')) {
      // a settlement inside the locality ("Москва, Коммунарка") is named by the words left
      const inner = this.findLocality(
        index,
        parsed,
        rest,
        { localityId: place.entry.objectId, regionCode: null },
        false,
      );
      if (inner) {
        found.chain = index.chain(inner.entry);
        for (let i = inner.start; i < inner.end; i++) restUsed.add(i);
        const innerStreets = await this.streetsAround(index, inner.entry);
        const innerRest = rest.filter((_token, i) => !restUsed.has(i));
        const innerHits = innerRest.some((token) => token.kind === 'word')
          ? this.matchStreets(innerStreets, innerRest, parsed, false)
          : [];
        if (innerHits.length > 0) {
          found.street = innerHits[0].street;
          houseParent = innerHits[0].street.objectId;
          const innerUsed = innerHits[0].usedTokens;
          const kept = rest.map((_token, i) => i).filter((i) => !restUsed.has(i));
          kept.forEach((restIndex, innerIndex) => {
            if (innerUsed.has(innerIndex)) restUsed.add(restIndex);
          });
          if (this.typedStreetType(parsed) === null) changes.push(`street type added: ${found.street.typeShort}`);
        } else houseParent = inner.entry.objectId;
      }
    }
    if (houseParent === null && !found.street) houseParent = found.chain[0].objectId;

    const houseTyped = parsed.house ?? this.unmarkedHouse(rest, restUsed);
    if (houseTyped && !parsed.house) {
      for (let i = 0; i < rest.length; i++)
        if (rest[i].kind === 'number' && rest[i].text === houseTyped.number && !restUsed.has(i)) {
          restUsed.add(i);
          break;
        }
    }
    // a second bare number after the house is the flat ("Ленина 5 3" is rare, "Ленина 5, 3" is not)
    let flat = parsed.flat;
    if (!flat && houseTyped) {
      const index2 = rest.findIndex((token, i) => token.kind === 'number' && !restUsed.has(i));
      if (index2 >= 0) {
        flat = { number: rest[index2].text, type: 'кв', complete: true };
        restUsed.add(index2);
        changes.push(`"${rest[index2].text}" after the house read as the flat`);
      }
    }
    for (let i = 0; i < rest.length; i++) if (!restUsed.has(i)) unparsed.push(rest[i].text);

    if (houseTyped && houseParent !== null) {
      const key = houseSearchKey(houseTyped.number, houseTyped.block, houseTyped.building);
      const houses = await this.store.housesByPrefix(houseParent, houseTyped.number, 60);
      const exact = houses.find((house) => house.search_key === key);
      if (exact) found.house = exact;
      else {
        const sameNumber = houses.filter((house) => (house.house_num ?? '').toLowerCase() === houseTyped.number);
        const bare = sameNumber.find((house) => !house.add_num1 && !house.add_num2);
        if (houseTyped.block || houseTyped.building) {
          found.typedHouse = houseTyped;
          quality = 'check';
          changes.push(
            bare
              ? `house ${houseTyped.number} found, its корпус/строение not in the register (kept as typed)`
              : `house ${describeHouse(houseTyped)} not in the register (kept as typed)`,
          );
        } else if (sameNumber.length > 0 && !bare) {
          found.typedHouse = houseTyped;
          quality = 'check';
          changes.push(
            `house ${houseTyped.number} has several buildings: ${sameNumber.map((house) => describeRow(house)).join(', ')}`,
          );
        } else {
          found.typedHouse = houseTyped;
          quality = 'check';
          changes.push(`house ${describeHouse(houseTyped)} not in the register (kept as typed)`);
        }
      }
      if (found.house && /\//.test(houseTyped.number)) changes.push(`house fraction kept: ${houseTyped.number}`);
    } else if (!houseTyped) {
      quality = 'check';
      changes.push(found.street ? 'no house number' : 'no street or house');
    }
    if (flat) {
      let row: FlatRow | null = null;
      if (found.house) {
        const flats = await this.store.flatsByPrefix(found.house.object_id, flat.number, 5);
        row = flats.find((each) => each.number === flat.number) ?? null;
      }
      found.flat = { row, number: flat.number, type: flat.type };
    }
    if (unparsed.length > 0 && quality === 'certain') {
      // an extra word may be a second name the street lost ("Большая", "Малая"): a person decides
      const meaningful = unparsed.filter((word) => /\p{L}{3,}/u.test(word));
      if (meaningful.length > 0) {
        quality = 'check';
        changes.push(`words not recognised: ${meaningful.join(' ')}`);
      }
    }
    if (parsed.extras.length > 0) {
      unparsed.push(...parsed.extras);
      changes.push(`courier details kept as typed: ${parsed.extras.join(', ')}`);
    }
    const result = await this.cleanedOf(index, source, found, quality, changes, unparsed, parsed);
    return result;
  }

  private async cleanedOf(
    index: LocalityIndex,
    source: string,
    found: FoundAddress,
    quality: CleanQuality,
    changes: string[],
    unparsed: string[],
    parsed: ParsedText,
  ): Promise<CleanedAddress> {
    const [suggestion] = await this.write(index, [found]);
    const data = suggestion.data;
    if (parsed.postcode && data.postalCode && parsed.postcode !== data.postalCode)
      changes.push(`postcode corrected: ${parsed.postcode} → ${data.postalCode}`);
    else if (!parsed.postcode && data.postalCode && found.house) changes.push(`postcode added: ${data.postalCode}`);
    return {
      ...data,
      source,
      // DaData's `result`: the region named always, the postcode apart (`postalCode`)
      result: suggestion.unrestrictedValue.replace(/^\d{6}, /, ''),
      quality,
      changes,
      unparsed: unparsed.length > 0 ? unparsed.join(' ') : null,
    };
  }

  private cleaned(
    source: string,
    _found: null,
    quality: CleanQuality,
    changes: string[],
    unparsed: string[],
  ): CleanedAddress {
    return {
      ...notFoundAddress(),
      source,
      result: null,
      quality,
      changes: [...changes, 'no locality recognised'],
      unparsed: unparsed.length > 0 ? unparsed.join(' ') : null,
    };
  }

  // ---------- the walk's pieces ----------

  /**
   * The locality the words name: runs of up to three words looked up exactly (and through
   * nicknames), else a single word of 4 letters or more with one typo. Words after a street's
   * type word ("ул Казанская") are a street's, not a locality's. Among several, the one under
   * another named locality ("Москва, Коммунарка": Коммунарка), then the one with a locality
   * type word before it, then cities before settlements, then the larger.
   */
  private findLocality(
    index: LocalityIndex,
    parsed: ParsedText,
    words: Token[],
    restriction: Restriction,
    onlyComplete: boolean,
  ): LocalityHit | null {
    const hits: LocalityHit[] = [];
    const contextOf = this.typeContext(parsed, words);
    for (let start = 0; start < words.length; start++) {
      if (words[start].kind !== 'word') continue;
      if (contextOf[start]?.kind === 'street') continue;
      for (let length = Math.min(3, words.length - start); length >= 1; length--) {
        const span = words.slice(start, start + length);
        if (span.some((token) => token.kind !== 'word' || token.segment !== words[start].segment)) continue;
        if (onlyComplete && span.some((token) => !token.complete)) continue;
        const key = span.map((token) => token.text).join(' ');
        let entries = index.exact(key);
        let how: LocalityHit['how'] =
          index.exact(key).length > 0 && entries[0]?.searchKey !== key ? 'nickname' : 'exact';
        let score = 3 * length;
        if (entries.length === 0 && length === 1) {
          entries = index.oneEditFrom(key, false);
          how = 'typo';
          score = 1;
        }
        const typeHint = contextOf[start];
        for (const entry of entries) {
          if (!this.allowed(index, entry, restriction)) continue;
          if (restriction.localityId === entry.objectId) continue;
          let bonus = 0;
          if (typeHint && (typeHint.kind === 'locality' || typeHint.kind === 'region' || typeHint.kind === 'area')) {
            bonus += typeHint.short === entry.typeShort ? 2 : 0.5;
          }
          hits.push({ entry, start, end: start + length, score: score + bonus, how });
        }
        if (entries.length > 0) break;
      }
    }
    if (hits.length === 0) return null;
    const named = new Set(hits.map((hit) => hit.entry.objectId));
    let best: LocalityHit | null = null;
    let bestRank = Number.NEGATIVE_INFINITY;
    for (const hit of hits) {
      const ancestors = index.chain(hit.entry).slice(1);
      const confirmed = ancestors.filter((ancestor) => named.has(ancestor.objectId)).length;
      // a region and an area are context: the place is what is under them
      const placeLike = hit.entry.level >= LEVEL.city || hit.entry.typeShort === 'г' ? 1 : 0;
      const rank =
        hit.score * 10 +
        confirmed * 8 +
        placeLike * 6 +
        (hit.entry.level === LEVEL.city ? 1 : 0) +
        Math.min(hit.entry.popularity, 1e7) / 1e8;
      if (rank > bestRank) {
        best = hit;
        bestRank = rank;
      }
    }
    return best;
  }

  /** For each word, the type word right before it in its segment (or right after it, ending the segment), if any. */
  private typeContext(
    parsed: ParsedText,
    words: Token[],
  ): (NonNullable<Extract<Token, { kind: 'word' }>['typeHint']> | null)[] {
    const all = parsed.tokens;
    return words.map((word) => {
      const at = all.indexOf(word);
      const before = all[at - 1];
      if (before && before.kind === 'word' && before.typeHint && before.segment === word.segment)
        return before.typeHint;
      // a type written after the name ("Ленина ул") counts only where it ends the segment
      const after = all[at + 1];
      const afterAfter = all[at + 2];
      if (
        after &&
        after.kind === 'word' &&
        after.typeHint &&
        after.segment === word.segment &&
        (!afterAfter || afterAfter.segment !== word.segment)
      )
        return after.typeHint;
      return null;
    });
  }

  /** The street type word the text holds, if any ("ул", "пр-кт"). */
  private typedStreetType(parsed: ParsedText): string | null {
    for (const token of parsed.tokens)
      if (token.kind === 'word' && token.typeHint?.kind === 'street') return token.typeHint.short;
    return null;
  }

  /** Marks the words that named ancestors of the found locality (a region, an area) as used. */
  private markAncestorWords(index: LocalityIndex, chain: LocalityEntry[], words: Token[], used: Set<number>): void {
    const ancestors = new Set(chain.slice(1).map((entry) => entry.searchKey));
    for (let start = 0; start < words.length; start++)
      for (let length = 3; length >= 1; length--) {
        const key = words
          .slice(start, start + length)
          .map((token) => token.text)
          .join(' ');
        const exact = index.exact(key);
        if (ancestors.has(key) || exact.some((entry) => ancestors.has(entry.searchKey))) {
          for (let i = start; i < start + length; i++) used.add(i);
          break;
        }
      }
  }

  /** The streets of a locality, and of the planning structures (мкр, СНТ) directly under it. */
  private async streetsAround(_index: LocalityIndex, locality: LocalityEntry): Promise<StreetList> {
    return this.directory.streetsOf(locality.objectId);
  }

  private chainOfStreet(_index: LocalityIndex, _street: StreetEntry, chain: LocalityEntry[]): LocalityEntry[] {
    return chain;
  }

  /**
   * Streets whose every word the typed words match (a street "Маршала Жукова" may be typed
   * "Жукова": matched, not whole). Ranked by how well, whether the typed street type agrees,
   * then popularity.
   */
  private matchStreets(list: StreetList, words: Token[], parsed: ParsedText, typing: boolean): StreetHit[] {
    const typedType = this.typedStreetType(parsed);
    const candidates = new Map<
      StreetEntry,
      { matched: Map<string, { score: number; token: number; typed: string }> }
    >();
    words.forEach((token, tokenIndex) => {
      const lastTyping = typing && token.complete === false;
      if (token.kind === 'number' && parsed.house === null && !lastTyping) {
        // a number may be part of a name ("8 Марта", "1-я линия") or the house: both are tried
      }
      const matches = list.wordsMatching(token.text, lastTyping);
      for (const [word, score] of matches) {
        for (const street of list.byWord.get(word) ?? []) {
          let candidate = candidates.get(street);
          if (!candidate) {
            candidate = { matched: new Map() };
            candidates.set(street, candidate);
          }
          const previous = candidate.matched.get(word);
          if (!previous || previous.score < score)
            candidate.matched.set(word, { score, token: tokenIndex, typed: token.text });
        }
      }
    });
    const hits: StreetHit[] = [];
    const hasWord = words.some((token) => token.kind === 'word');
    for (const [street, candidate] of candidates) {
      const nameWords = street.words;
      const usedTokens = new Set<number>();
      let score = 0;
      const typos: string[] = [];
      let letterWordMatched = false;
      for (const word of nameWords) {
        const match = candidate.matched.get(word);
        if (!match) continue;
        if (usedTokens.has(match.token)) continue;
        usedTokens.add(match.token);
        score += match.score;
        if (/\p{L}/u.test(word)) letterWordMatched = true;
        if (match.score === 1) typos.push(`${match.typed} → ${word}`);
      }
      if (!letterWordMatched && hasWord) continue;
      const whole = usedTokens.size === nameWords.length;
      if (!whole) {
        // a street named by part of its name: its main word (the last: Маршала Жукова, Новый Арбат) must be
        // there, and a number typed is the house, not a name's ("Тверская 1" is not 1-я Тверская-Ямская)
        // (while typing, the rest of the name may still come: "липовый" for Липовый Парк)
        const letterWords = nameWords.filter((word) => /\p{L}/u.test(word));
        if (!typing && !candidate.matched.has(letterWords[letterWords.length - 1])) continue;
        for (const word of nameWords) {
          const match = candidate.matched.get(word);
          if (match && !/\p{L}/u.test(word)) {
            usedTokens.delete(match.token);
            score -= match.score;
          }
        }
      }
      if (typedType) score += typedType === street.typeShort ? 2 : -1;
      score += whole ? 1 : 0;
      hits.push({ street, score, whole, usedTokens, typos });
    }
    hits.sort(
      (a, b) =>
        Number(b.whole) - Number(a.whole) ||
        b.score - a.score ||
        (a.street.level === LEVEL.street ? 0 : 1) - (b.street.level === LEVEL.street ? 0 : 1) ||
        b.street.popularity - a.street.popularity ||
        a.street.name.length - b.street.name.length,
    );
    return hits;
  }

  /** The first bare number the street did not take: the house ("Ленина 5"). */
  private unmarkedHouse(
    words: Token[],
    usedByStreet: Set<number>,
  ): { number: string; block: string | null; building: string | null; complete: boolean } | null {
    for (let i = 0; i < words.length; i++) {
      const token = words[i];
      if (token.kind === 'number' && !usedByStreet.has(i))
        return { number: token.text, block: null, building: null, complete: token.complete };
    }
    return null;
  }

  /** Writes the found addresses out, reading the full rows of their objects in one query. */
  private async write(index: LocalityIndex, found: FoundAddress[]): Promise<AddressSuggestion[]> {
    const ids = new Set<number>();
    for (const each of found) {
      for (const entry of each.chain) ids.add(entry.objectId);
      if (each.street) ids.add(each.street.objectId);
    }
    const rows = new Map<number, ObjectRow>();
    for (const row of await this.store.objectsByIds([...ids])) rows.set(Number(row.object_id), row);
    return found.map((each) => present(each, rows, index.regionCentres));
  }

  /** The object, house or flat with this FIAS id, written out. */
  async findById(fiasId: string): Promise<AddressSuggestion | null> {
    const index = await this.directory.localityIndex();
    const guid = fiasId.toLowerCase();
    const locality = index.byGuid.get(guid);
    if (locality)
      return (
        await this.write(index, [
          { chain: index.chain(locality), street: null, house: null, typedHouse: null, flat: null },
        ])
      )[0];
    const object = await this.store.objectByGuid(guid);
    if (object) return this.writeUnderObject(index, object, null, null);
    const house = await this.store.houseByGuid(guid);
    if (house) return this.writeUnderHouse(index, house, null);
    const flat = await this.store.flatByGuid(guid);
    if (flat) {
      const flatHouse = await this.store.houseById(Number(flat.house_id));
      if (flatHouse) return this.writeUnderHouse(index, flatHouse, flat);
    }
    return null;
  }

  private async writeUnderHouse(
    index: LocalityIndex,
    house: HouseRow,
    flat: FlatRow | null,
  ): Promise<AddressSuggestion | null> {
    const [parent] = await this.store.objectsByIds([Number(house.parent_id)]);
    if (!parent) return null;
    return this.writeUnderObject(index, parent, house, flat);
  }

  private async writeUnderObject(
    index: LocalityIndex,
    object: ObjectRow,
    house: HouseRow | null,
    flat: FlatRow | null,
  ): Promise<AddressSuggestion | null> {
    const objectId = Number(object.object_id);
    const locality = index.byId.get(objectId);
    const flatPart = flat ? { row: flat, number: flat.number, type: 'кв' } : null;
    if (locality)
      return (
        await this.write(index, [
          { chain: index.chain(locality), street: null, house, typedHouse: null, flat: flatPart },
        ])
      )[0];
    const parent = object.parent_id === null ? undefined : index.byId.get(Number(object.parent_id));
    if (!parent) return null;
    const street: StreetEntry = {
      objectId,
      name: object.name,
      typeShort: object.type_short,
      level: object.level,
      parentId: Number(object.parent_id),
      regionCode: object.region_code,
      popularity: object.popularity,
      searchKey: object.search_key,
      words: object.search_key.split(' '),
    };
    return (
      await this.write(index, [{ chain: index.chain(parent), street, house, typedHouse: null, flat: flatPart }])
    )[0];
  }

  /** Houses nearest the point, within the radius. */
  async geolocate(lat: number, lon: number, radiusMeters: number, count: number): Promise<AddressSuggestion[]> {
    const index = await this.directory.localityIndex();
    const latDelta = radiusMeters / 111_320;
    const lonDelta = radiusMeters / (111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
    const houses = await this.store.housesInBox(lat - latDelta, lat + latDelta, lon - lonDelta, lon + lonDelta, 2000);
    const near = houses
      .map((house) => ({ house, distance: metresBetween(lat, lon, house.lat ?? 0, house.lon ?? 0) }))
      .filter((each) => each.distance <= radiusMeters)
      .sort((a, b) => a.distance - b.distance)
      .slice(0, count);
    const results: AddressSuggestion[] = [];
    for (const { house } of near) {
      const written = await this.writeUnderHouse(index, house, null);
      if (written) results.push(written);
    }
    return results;
  }
}

function metresBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const radians = Math.PI / 180;
  const dLat = (lat2 - lat1) * radians;
  const dLon = (lon2 - lon1) * radians;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * radians) * Math.cos(lat2 * radians) * Math.sin(dLon / 2) ** 2;
  return 6_371_000 * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

/** Cities first, then settlements, the larger first. */
function localityRank(entry: LocalityEntry): number {
  const levelRank =
    entry.level === LEVEL.city || (entry.level === LEVEL.region && entry.typeShort === 'г')
      ? 3
      : entry.level === LEVEL.region
        ? 2
        : entry.level === LEVEL.settlement
          ? 1
          : 0;
  return levelRank * 1e9 + Math.min(entry.popularity, 1e9 - 1);
}

/** The exact house first, then its корпуса, then by number ("1", "2", "10": numeric, not text order). */
function rankHouses(houses: HouseRow[], key: string): HouseRow[] {
  const numberOf = (house: HouseRow) => Number.parseInt(house.house_num ?? '', 10) || 0;
  return [...houses].sort(
    (a, b) =>
      (a.search_key === key ? 0 : 1) - (b.search_key === key ? 0 : 1) ||
      numberOf(a) - numberOf(b) ||
      (a.search_key < b.search_key ? -1 : a.search_key > b.search_key ? 1 : 0),
  );
}

function describeHouse(house: { number: string; block: string | null; building: string | null }): string {
  return `${house.number}${house.block ? ` к ${house.block}` : ''}${house.building ? ` стр ${house.building}` : ''}`;
}

function describeRow(house: HouseRow): string {
  const parts = houseParts(house);
  return `${parts.number}${parts.blockType ? ` ${parts.blockType} ${parts.block}` : ''}`;
}
