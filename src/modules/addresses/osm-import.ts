/**
 * Houses' coordinates from an OpenStreetMap extract (OSM XML): addressed nodes and buildings
 * (`addr:street`, `addr:housenumber`, `addr:city` or `addr:place`) matched to the register's
 * houses by locality, street and house key. Streamed twice: first the addressed nodes and ways
 * (with the ids of the ways' nodes), then only those nodes' positions for the ways' centres, so
 * memory holds the addressed buildings of the extract and never all of its nodes.
 */
import fs from 'node:fs';
import { SaxesParser } from 'saxes';
import type { AddressImportStore } from './import-store.js';
import { GarFileError } from './gar-reader.js';
import { searchKey, typedHouseKey } from './search-key.js';

export interface OsmImportResult {
  addressed: number;
  matched: number;
  seconds: number;
}

interface Addressed {
  city: string;
  street: string;
  house: string;
  lat: number;
  lon: number;
}

interface AddressedWay {
  city: string;
  street: string;
  house: string;
  refs: number[];
}

/** Street type words as OSM spells them out ("улица Ленина", "Ленинский проспект"); the register keeps the type apart. */
const STREET_TYPE_WORDS =
  /(^|\s)(улица|ул|проспект|пр-кт|просп|переулок|пер|бульвар|б-р|шоссе|ш|площадь|пл|набережная|наб|проезд|пр-д|тупик|аллея|линия|микрорайон|мкр|тракт|квартал|кв-л)\.?(?=\s|$)/gu;

export function osmStreetKey(street: string): string {
  return searchKey(street.toLowerCase().replace(STREET_TYPE_WORDS, ' '));
}

export async function importOsmHouses(
  store: AddressImportStore,
  file: string,
  onProgress?: (line: string) => void,
): Promise<OsmImportResult> {
  const started = performance.now();
  const nodes: Addressed[] = [];
  const ways: AddressedWay[] = [];
  const wanted = new Set<number>();

  // first pass: addressed nodes (with their position) and addressed ways (with their nodes' ids)
  let current: { kind: 'node' | 'way'; lat: number; lon: number; tags: Map<string, string>; refs: number[] } | null =
    null;
  await parseOsm(file, {
    open(name, attributes) {
      if (name === 'node' || name === 'way')
        current = { kind: name, lat: Number(attributes.lat), lon: Number(attributes.lon), tags: new Map(), refs: [] };
      else if (name === 'tag' && current && attributes.k?.startsWith('addr:'))
        current.tags.set(attributes.k, attributes.v ?? '');
      else if (name === 'nd' && current?.kind === 'way') current.refs.push(Number(attributes.ref));
    },
    close(name) {
      if ((name !== 'node' && name !== 'way') || !current) return;
      const item = current;
      current = null;
      const street = item.tags.get('addr:street');
      const house = item.tags.get('addr:housenumber');
      const city = item.tags.get('addr:city') ?? item.tags.get('addr:place');
      if (!street || !house || !city) return;
      if (item.kind === 'node' && Number.isFinite(item.lat) && Number.isFinite(item.lon))
        nodes.push({ city, street, house, lat: item.lat, lon: item.lon });
      else if (item.kind === 'way' && item.refs.length > 0) {
        ways.push({ city, street, house, refs: item.refs });
        for (const ref of item.refs) wanted.add(ref);
      }
    },
  });

  // second pass, only when buildings need them: the positions of their nodes
  const positions = new Map<number, [number, number]>();
  if (wanted.size > 0)
    await parseOsm(file, {
      open(name, attributes) {
        if (name !== 'node') return;
        const id = Number(attributes.id);
        if (wanted.has(id)) positions.set(id, [Number(attributes.lat), Number(attributes.lon)]);
      },
      close() {},
    });
  wanted.clear();
  for (const way of ways) {
    let lat = 0;
    let lon = 0;
    let count = 0;
    // a closed way repeats its first node: counted once
    const refs = way.refs.length > 1 && way.refs[0] === way.refs[way.refs.length - 1] ? way.refs.slice(1) : way.refs;
    for (const ref of refs) {
      const position = positions.get(ref);
      if (!position) continue;
      lat += position[0];
      lon += position[1];
      count++;
    }
    if (count > 0)
      nodes.push({ city: way.city, street: way.street, house: way.house, lat: lat / count, lon: lon / count });
  }
  positions.clear();
  onProgress?.(`OpenStreetMap: ${nodes.length} addressed nodes and buildings`);

  const localityOf = new Map<string, number | null>();
  const streetOf = new Map<string, number | null>();
  let matched = 0;
  for (let i = 0; i < nodes.length; i += 1000) {
    const slice = nodes.slice(i, i + 1000);
    await store.db.transaction().execute(async (trx) => {
      for (const item of slice) {
        const cityKey = searchKey(item.city);
        let locality = localityOf.get(cityKey);
        if (locality === undefined) {
          const row = await trx
            .selectFrom('address_objects')
            .select('object_id')
            .where('search_key', '=', cityKey)
            .where('level', 'in', [1, 4, 5, 6])
            .orderBy('popularity', 'desc')
            .limit(1)
            .executeTakeFirst();
          locality = row ? Number(row.object_id) : null;
          localityOf.set(cityKey, locality);
        }
        if (locality === null) continue;
        const streetKey = `${locality} ${osmStreetKey(item.street)}`;
        let street = streetOf.get(streetKey);
        if (street === undefined) {
          const parent = locality;
          const row = await trx
            .selectFrom('address_objects')
            .select('object_id')
            .where('search_key', '=', osmStreetKey(item.street))
            .where('level', 'in', [7, 8])
            .where((eb) =>
              eb.or([
                eb('parent_id', '=', parent),
                eb(
                  'parent_id',
                  'in',
                  eb.selectFrom('address_objects').select('object_id').where('parent_id', '=', parent),
                ),
              ]),
            )
            .orderBy('popularity', 'desc')
            .limit(1)
            .executeTakeFirst();
          street = row ? Number(row.object_id) : null;
          streetOf.set(streetKey, street);
        }
        if (street === null) continue;
        const result = await trx
          .updateTable('address_houses')
          .set({ lat: round(item.lat), lon: round(item.lon), geo_precision: 'house' })
          .where('parent_id', '=', street)
          .where('search_key', '=', typedHouseKey(item.house))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) matched++;
      }
    });
  }
  return { addressed: nodes.length, matched, seconds: (performance.now() - started) / 1000 };
}

function round(degrees: number): number {
  return Math.round(degrees * 1e6) / 1e6;
}

interface OsmHandlers {
  open(name: string, attributes: Record<string, string>): void;
  close(name: string): void;
}

/** A refused extract changes nothing: the coordinates are written only after both readings. */
const NOTHING_CHANGED = { ru: 'координаты не изменены', en: 'no coordinates were changed' };

async function parseOsm(file: string, handlers: OsmHandlers): Promise<void> {
  const parser = new SaxesParser({ position: true });
  let problem: GarFileError | null = null;
  let depth = 0;
  parser.on('error', (error) => {
    problem ??= new GarFileError(
      file,
      parser.line,
      `повреждённый XML (${error.message})`,
      `broken XML (${error.message})`,
      NOTHING_CHANGED,
    );
  });
  parser.on('opentag', (tag) => {
    depth++;
    if (depth === 1 && tag.name !== 'osm')
      problem ??= new GarFileError(
        file,
        parser.line,
        `корневой элемент ${tag.name}, а не osm: это не выгрузка OpenStreetMap`,
        `the root element is ${tag.name}, not osm: not an OpenStreetMap extract`,
        NOTHING_CHANGED,
      );
    if (!problem) handlers.open(tag.name, tag.attributes as Record<string, string>);
  });
  parser.on('closetag', (tag) => {
    depth--;
    if (!problem) handlers.close(tag.name);
  });
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 })) {
    parser.write(decoder.decode(chunk as Buffer, { stream: true }));
    if (problem) throw problem;
  }
  parser.write(decoder.decode());
  parser.close();
  if (problem) throw problem;
}
