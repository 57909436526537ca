/**
 * The walk shared by suggestions (search.ts) and cleaning (clean.ts): the locality found among the
 * words, the street among that locality's streets, the house number left over, and the found
 * address written out with its objects' full rows read in one query.
 */
import type { AddressDirectory, LocalityEntry, LocalityIndex, StreetEntry, StreetList } from './directory.js';
import { LEVEL } from './directory.js';
import type { AddressBound, AddressSuggestion } from './model.js';
import type { ParsedText, Token } from './normalize.js';
import { present, type FoundAddress } from './present.js';
import type { AddressStore, ObjectRow } from './store.js';

/** At most this many words of a text are looked up with a typo (an address names its place in fewer). */
const TYPO_SCANS = 8;

/** At most this many words after the locality are matched against its streets (a street, a house, a flat and their words). */
const STREET_TOKENS = 24;

export const BOUND_RANK: Record<AddressBound, number> = {
  country: 0,
  region: 1,
  area: 2,
  city: 3,
  settlement: 4,
  street: 5,
  house: 6,
  flat: 7,
};

export function boundOfLevel(level: number): AddressBound {
  if (level === LEVEL.region) return 'region';
  if (level <= LEVEL.municipalSettlement) return 'area';
  if (level === LEVEL.city) return 'city';
  if (level === LEVEL.settlement) return 'settlement';
  return 'street';
}

/** A locality found among the words: which words it took, and how well they matched. */
export interface LocalityHit {
  entry: LocalityEntry;
  /** Indexes into the word tokens. */
  start: number;
  end: number;
  score: number;
  /** Matched through a nickname, a typo: said in the changes. */
  how: 'exact' | 'nickname' | 'typo' | 'start';
}

export interface StreetHit {
  street: StreetEntry;
  score: number;
  /** Every word of the street's name was matched. */
  whole: boolean;
  usedTokens: Set<number>;
  typos: string[];
}

export interface Restriction {
  localityId: number | null;
  regionCode: number | null;
}

/** The words that name places (type words such as "ул" only hint at them). */
export const nameWords = (parsed: ParsedText): Token[] =>
  parsed.tokens.filter((token) => token.kind === 'number' || (token.kind === 'word' && token.typeHint === null));

export class AddressWalk {
  constructor(
    private readonly directory: AddressDirectory,
    private readonly store: AddressStore,
  ) {}

  allowed(index: LocalityIndex, entry: LocalityEntry, restriction: Restriction): boolean {
    if (restriction.regionCode !== null && entry.regionCode !== restriction.regionCode) return false;
    if (restriction.localityId !== null && !index.isUnder(entry, restriction.localityId)) return false;
    return true;
  }

  /**
   * The locality the words name: runs of up to three words looked up exactly (and through
   * nicknames), else a single word of 4 letters or more with one typo. Words after a street's
   * type word ("ул Казанская") are a street's, not a locality's. Among several, the one under
   * another named locality ("Москва, Коммунарка": Коммунарка), then the one with a locality
   * type word before it, then cities before settlements, then the larger.
   */
  findLocality(
    index: LocalityIndex,
    parsed: ParsedText,
    words: Token[],
    restriction: Restriction,
    onlyComplete: boolean,
  ): LocalityHit | null {
    const hits: LocalityHit[] = [];
    const contextOf = this.typeContext(parsed, words);
    const add = (entries: LocalityEntry[], start: number, length: number, score: number, how: LocalityHit['how']) => {
      const typeHint = contextOf[start];
      for (const entry of entries) {
        if (!this.allowed(index, entry, restriction)) continue;
        if (restriction.localityId === entry.objectId) continue;
        let bonus = 0;
        if (typeHint && (typeHint.kind === 'locality' || typeHint.kind === 'region' || typeHint.kind === 'area'))
          bonus += typeHint.short === entry.typeShort ? 2 : 0.5;
        hits.push({ entry, start, end: start + length, score: score + bonus, how });
      }
    };
    const candidate = (start: number, length: number): string | null => {
      if (words[start].kind !== 'word' || contextOf[start]?.kind === 'street') return null;
      const span = words.slice(start, start + length);
      if (span.some((token) => token.kind !== 'word' || token.segment !== words[start].segment)) return null;
      if (onlyComplete && span.some((token) => !token.complete)) return null;
      return span.map((token) => token.text).join(' ');
    };
    // names as typed (and nicknames), the longest run of words first
    for (let start = 0; start < words.length; start++)
      for (let length = Math.min(3, words.length - start); length >= 1; length--) {
        const key = candidate(start, length);
        if (key === null) continue;
        const entries = index.exact(key);
        if (entries.length === 0) continue;
        add(entries, start, length, 3 * length, entries[0].searchKey !== key ? 'nickname' : 'exact');
        break;
      }
    // one typo in a single word, only when nothing matched as typed: a scan, kept off the common path,
    // and for the first TYPO_SCANS words only (a text of 500 characters is ~80 words: each a scan of
    // thousands of names over the whole country, 50 such texts a request)
    if (hits.length === 0)
      for (let start = 0, scans = 0; start < words.length && scans < TYPO_SCANS; start++) {
        const key = candidate(start, 1);
        if (key === null) continue;
        scans++;
        add(index.oneEditFrom(key, false), start, 1, 1, 'typo');
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
  typedStreetType(parsed: ParsedText): string | null {
    for (const token of parsed.tokens)
      if (token.kind === 'word' && token.typeHint?.kind === 'street') return token.typeHint.short;
    return null;
  }

  /** Marks the words that named ancestors of the found locality (a region, an area) as used. */
  markAncestorWords(index: LocalityIndex, chain: LocalityEntry[], words: Token[], used: Set<number>): void {
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

  /** The streets and planning structures (мкр, СНТ) directly under a locality. */
  streetsOf(locality: LocalityEntry): Promise<StreetList> {
    return this.directory.streetsOf(locality.objectId);
  }

  /**
   * Streets whose every word the typed words match (a street "Маршала Жукова" may be typed
   * "Жукова": matched, not whole). Ranked by how well, whether the typed street type agrees,
   * then popularity.
   */
  matchStreets(list: StreetList, words: Token[], parsed: ParsedText, typing: boolean): StreetHit[] {
    const typedType = this.typedStreetType(parsed);
    const candidates = new Map<
      StreetEntry,
      { matched: Map<string, { score: number; token: number; typed: string }> }
    >();
    // a number may be part of a name ("8 Марта", "1-я линия") or the house: both are tried. The first
    // STREET_TOKENS words only: a word that matches nothing is a scan of the locality's street words
    words.slice(0, STREET_TOKENS).forEach((token, tokenIndex) => {
      const lastTyping = typing && token.complete === false;
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
  unmarkedHouse(
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
  async write(index: LocalityIndex, found: FoundAddress[]): Promise<AddressSuggestion[]> {
    const ids = new Set<number>();
    const known = new Map<number, ObjectRow>();
    for (const each of found) {
      for (const entry of each.chain) ids.add(entry.objectId);
      if (each.street?.row) known.set(each.street.objectId, each.street.row);
      else if (each.street) ids.add(each.street.objectId);
    }
    const rows = await this.directory.rowsOf([...ids]);
    for (const [id, row] of known) rows.set(id, row);
    return found.map((each) => present(each, rows, index.regionCentres));
  }

  /** The object, house or flat with this FIAS id, written out. */
}
