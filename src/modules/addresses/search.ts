/**
 * Suggestions and cleaning over the register: the text read into tokens (normalize.ts), the
 * locality found among its words, then the street among that locality's streets, the house and
 * the flat by indexed prefix. The same walk serves both: cleaning reads every word as complete,
 * suggestions read the last one as still being typed.
 */
import { houseSearchKey } from './search-key.js';
import type { AddressDirectory, LocalityEntry, LocalityIndex, StreetEntry } from './directory.js';
import { LEVEL } from './directory.js';
import type { AddressSuggestion, SuggestQuery } from './model.js';
import { parseAddressText, type Token } from './normalize.js';
import type { FoundAddress } from './present.js';
import type { AddressStore, FlatRow, HouseRow, ObjectRow } from './store.js';
import { AddressWalk, BOUND_RANK, boundOfLevel, nameWords, type LocalityHit, type Restriction } from './walk.js';

/** Suggestions as the buyer types, an address by its FIAS id, the houses near a point. */
export class AddressSearch {
  readonly walk: AddressWalk;

  constructor(
    private readonly directory: AddressDirectory,
    private readonly store: AddressStore,
  ) {
    this.walk = new AddressWalk(directory, store);
  }

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
    else place = this.walk.findLocality(index, parsed, words, restriction, true);

    const used = new Set<number>();
    if (place && !restricted) {
      for (let i = place.start; i < place.end; i++) used.add(i);
      this.walk.markAncestorWords(index, index.chain(place.entry), words, used);
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
      return this.walk.write(index, results.slice(0, count));
    }
    if (to < BOUND_RANK.street) {
      // a locality under a locality: "москва коммунарка"
      const inner = this.walk.findLocality(
        index,
        parsed,
        rest,
        { ...restriction, localityId: place.entry.objectId },
        false,
      );
      return inner ? this.walk.write(index, [{ ...found, chain: index.chain(inner.entry) }]) : [];
    }
    const streets = await this.walk.streetsOf(place.entry);
    const hits = this.walk.matchStreets(streets, rest, parsed, true);
    if (hits.length === 0) {
      // a settlement inside the locality may be what is typed
      const inner = this.walk.findLocality(
        index,
        parsed,
        rest,
        { ...restriction, localityId: place.entry.objectId },
        true,
      );
      if (inner) return this.walk.write(index, [{ ...found, chain: index.chain(inner.entry) }]);
      return [];
    }
    const best = hits[0];
    const houseTyped = parsed.house ?? this.walk.unmarkedHouse(rest, best.usedTokens);
    const streetComplete = [...best.usedTokens].every((i) => rest[i]?.complete !== false);
    if (houseTyped && best.whole && streetComplete && to >= BOUND_RANK.house) {
      const chain = found.chain;
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
        return this.walk.write(index, results.slice(0, count));
      }
      return this.walk.write(
        index,
        ordered.slice(0, count).map((house) => ({ chain, street: best.street, house, typedHouse: null, flat: null })),
      );
    }
    if (from > BOUND_RANK.street) {
      // houses only (DaData's from_bound "house"): a street typed without a number lists its first houses
      if (to < BOUND_RANK.house || !best.whole) return [];
      const houses = await this.store.housesByPrefix(best.street.objectId, '', Math.max(count * 3, 30));
      return this.walk.write(
        index,
        rankHouses(houses, '')
          .slice(0, count)
          .map((house) => ({ chain: found.chain, street: best.street, house, typedHouse: null, flat: null })),
      );
    }
    return this.walk.write(
      index,
      hits.slice(0, count).map((hit) => ({
        ...found,
        chain: found.chain,
        street: hit.street,
      })),
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
        return rank >= from && rank <= to && this.walk.allowed(index, entry, restriction);
      })
      .sort((a, b) => localityRank(b) - localityRank(a));
    return this.walk.write(
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

  async findById(fiasId: string): Promise<AddressSuggestion | null> {
    const index = await this.directory.localityIndex();
    const guid = fiasId.toLowerCase();
    const locality = index.byGuid.get(guid);
    if (locality)
      return (
        await this.walk.write(index, [
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
        await this.walk.write(index, [
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
      await this.walk.write(index, [{ chain: index.chain(parent), street, house, typedHouse: null, flat: flatPart }])
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
