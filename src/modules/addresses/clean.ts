/**
 * Cleaning: free text to the structured address, with a quality (certain, check, unrecognised)
 * and the list of what was changed or added. Every word is read as complete (suggestions read the
 * last as still being typed); the walk is walk.ts's.
 */
import { houseSearchKey } from './search-key.js';
import type { AddressDirectory, LocalityIndex } from './directory.js';
import type { CleanedAddress, CleanQuality } from './model.js';
import { parseAddressText, type ParsedText } from './normalize.js';
import { houseParts, notFoundAddress, type FoundAddress } from './present.js';
import type { AddressStore, FlatRow, HouseRow } from './store.js';
import { nameWords, type AddressWalk } from './walk.js';

export class AddressCleaner {
  constructor(
    private readonly directory: AddressDirectory,
    private readonly store: AddressStore,
    private readonly walk: AddressWalk,
  ) {}

  async clean(source: string): Promise<CleanedAddress> {
    const index = await this.directory.localityIndex();
    const parsed = parseAddressText(source);
    const changes: string[] = [];
    if (parsed.latinLayout) changes.push('typed in the Latin keyboard layout');
    changes.push(...parsed.notes);
    const words = nameWords(parsed);
    const place = this.walk.findLocality(index, parsed, words, { localityId: null, regionCode: null }, false);
    if (!place)
      return this.unrecognised(
        source,
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
    this.walk.markAncestorWords(index, chain, words, used);
    const rest = words.filter((_token, i) => !used.has(i));
    const found: FoundAddress = { chain, street: null, house: null, typedHouse: null, flat: null };
    let quality: CleanQuality = 'certain';
    const unparsed: string[] = [];

    const streets = await this.walk.streetsOf(place.entry);
    const hits = rest.some((token) => token.kind === 'word')
      ? this.walk.matchStreets(streets, rest, parsed, false)
      : [];
    let houseParent: number | null = null;
    let restUsed = new Set<number>();
    if (hits.length > 0) {
      const best = hits[0];
      const typedType = this.walk.typedStreetType(parsed);
      found.street = best.street;
      found.chain = chain;
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
      const inner = this.walk.findLocality(
        index,
        parsed,
        rest,
        { localityId: place.entry.objectId, regionCode: null },
        false,
      );
      if (inner) {
        found.chain = index.chain(inner.entry);
        for (let i = inner.start; i < inner.end; i++) restUsed.add(i);
        const innerStreets = await this.walk.streetsOf(inner.entry);
        const innerRest = rest.filter((_token, i) => !restUsed.has(i));
        const innerHits = innerRest.some((token) => token.kind === 'word')
          ? this.walk.matchStreets(innerStreets, innerRest, parsed, false)
          : [];
        if (innerHits.length > 0) {
          found.street = innerHits[0].street;
          houseParent = innerHits[0].street.objectId;
          const innerUsed = innerHits[0].usedTokens;
          const kept = rest.map((_token, i) => i).filter((i) => !restUsed.has(i));
          kept.forEach((restIndex, innerIndex) => {
            if (innerUsed.has(innerIndex)) restUsed.add(restIndex);
          });
          if (this.walk.typedStreetType(parsed) === null) changes.push(`street type added: ${found.street.typeShort}`);
        } else houseParent = inner.entry.objectId;
      }
    }
    if (houseParent === null && !found.street) houseParent = found.chain[0].objectId;

    const houseTyped = parsed.house ?? this.walk.unmarkedHouse(rest, restUsed);
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
    const [suggestion] = await this.walk.write(index, [found]);
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

  /** No locality found: nothing else can be (a street is looked for among a locality's), the words kept. */
  private unrecognised(source: string, changes: string[], unparsed: string[]): CleanedAddress {
    return {
      ...notFoundAddress(),
      source,
      result: null,
      quality: 'unrecognised',
      changes: [...changes, 'no locality recognised'],
      unparsed: unparsed.length > 0 ? unparsed.join(' ') : null,
    };
  }
}

function describeHouse(house: { number: string; block: string | null; building: string | null }): string {
  return `${house.number}${house.block ? ` к ${house.block}` : ''}${house.building ? ` стр ${house.building}` : ''}`;
}

function describeRow(house: HouseRow): string {
  const parts = houseParts(house);
  return `${parts.number}${parts.blockType ? ` ${parts.blockType} ${parts.block}` : ''}`;
}
