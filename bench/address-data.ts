/**
 * A generated register for the address benches, written straight into its tables (the importer's
 * generator in the register's own XML format replaces it once it lands): 85 regions, cities and
 * settlements, a few thousand streets in the largest city and tens to hundreds in the others,
 * houses with корпуса and строения, the same on every run (seeded-random.ts).
 */
import type { Kysely } from 'kysely';
import { houseSearchKey, searchKey } from '../src/modules/addresses/search-key.js';
import type { Tables } from '../src/platform/db/tables.js';
import { seededRandom } from '../src/platform/seeded-random.js';

const SYLLABLES = [
  'ка',
  'ро',
  'ли',
  'на',
  'ме',
  'то',
  'за',
  'ви',
  'до',
  'су',
  'ра',
  'ле',
  'ни',
  'го',
  'ба',
  'чи',
  'ва',
  'мо',
  'ту',
  'пе',
];
const STREET_WORDS = [
  'Ленина',
  'Гагарина',
  'Мира',
  'Советская',
  'Молодёжная',
  'Садовая',
  'Школьная',
  'Лесная',
  'Новая',
  'Набережная',
  'Пушкина',
  'Кирова',
  'Горького',
  'Чехова',
  'Победы',
  'Заводская',
  'Полевая',
  'Зелёная',
  'Центральная',
  'Комсомольская',
];
const STREET_TYPES = ['ул', 'ул', 'ул', 'ул', 'пер', 'пр-кт', 'б-р', 'ш', 'проезд', 'наб'];

export interface GeneratedRegister {
  houses: number;
  streets: number;
  localities: number;
  /** Cities and a few of their streets, for queries: [city name, street name, a house number]. */
  samples: [string, string, string][];
}

/** Writes about `targetHouses` houses (and their streets and localities) into the register's tables. */
export async function generateRegister(db: Kysely<Tables>, targetHouses: number): Promise<GeneratedRegister> {
  const random = seededRandom(49);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const word = (syllables: number) => {
    let text = '';
    for (let i = 0; i < syllables; i++) text += pick(SYLLABLES);
    return text[0].toUpperCase() + text.slice(1);
  };
  let nextId = 1;
  let guidCounter = 0;
  const guid = () => {
    guidCounter += 1;
    return `1a000000-0000-4000-8000-${guidCounter.toString(16).padStart(12, '0')}`;
  };
  const objects: Tables['address_objects'][] = [];
  const object = (
    values: Partial<Tables['address_objects']> &
      Pick<Tables['address_objects'], 'name' | 'type_short' | 'level' | 'region_code'>,
  ) => {
    const row: Tables['address_objects'] = {
      object_id: nextId++,
      guid: guid(),
      parent_id: null,
      mun_parent_id: null,
      postcode: null,
      okato: null,
      oktmo: null,
      kladr: null,
      lat: null,
      lon: null,
      geo_precision: null,
      popularity: 0,
      search_key: searchKey(values.name),
      change_id: 1,
      ...values,
    };
    objects.push(row);
    return row;
  };
  // the streets' sizes fall off as a city's rank: the first city ~5,000 streets, then fewer
  const cities: { row: Tables['address_objects']; streets: number }[] = [];
  const usedNames = new Set<string>();
  const uniqueName = (syllables: number) => {
    for (;;) {
      const name = word(syllables);
      if (!usedNames.has(name)) {
        usedNames.add(name);
        return name;
      }
    }
  };
  const streetsWanted = Math.round(targetHouses / 25);
  let streetsPlanned = 0;
  for (let region = 1; region <= 85; region++) {
    const regionRow = object({
      name: uniqueName(3),
      type_short: 'обл',
      level: 1,
      region_code: region,
      popularity: 1_000_000,
    });
    const cityCount = region === 1 ? 1 : 3 + Math.floor(random() * 5);
    for (let c = 0; c < cityCount; c++) {
      const lat = 45 + random() * 15;
      const lon = 30 + random() * 60;
      const population = Math.round(2_000_000 / (cities.length + 1));
      const row = object({
        name: uniqueName(3),
        type_short: 'г',
        level: 5,
        parent_id: regionRow.object_id,
        region_code: region,
        popularity: population,
        lat,
        lon,
        postcode: String(100000 + cities.length * 37).slice(0, 6),
        geo_precision: 'locality',
      });
      const streets = Math.max(20, Math.min(5000, Math.round(5000 / (cities.length + 1) ** 0.6)));
      cities.push({ row, streets });
      streetsPlanned += streets;
    }
    for (let s = 0; s < 20; s++)
      object({
        name: uniqueName(3),
        type_short: pick(['с', 'д', 'п']),
        level: 6,
        parent_id: regionRow.object_id,
        region_code: region,
        popularity: Math.floor(random() * 5000),
      });
  }
  const localities = objects.length;
  const streetScale = streetsWanted / streetsPlanned;
  const streetRows: { row: Tables['address_objects']; city: Tables['address_objects'] }[] = [];
  for (const city of cities) {
    const names = new Set<string>();
    const count = Math.max(10, Math.round(city.streets * streetScale));
    for (let s = 0; s < count; s++) {
      let name = s < STREET_WORDS.length ? STREET_WORDS[s] : `${word(2)}${pick(['ская', 'ова', 'ина', 'евская'])}`;
      if (names.has(name)) name = `${name} ${word(2)}`;
      if (names.has(name)) continue;
      names.add(name);
      const row = object({
        name,
        type_short: pick(STREET_TYPES),
        level: 8,
        parent_id: city.row.object_id,
        region_code: city.row.region_code,
        popularity: Math.floor(random() * 1000),
        postcode: city.row.postcode,
        lat: (city.row.lat ?? 0) + (random() - 0.5) * 0.2,
        lon: (city.row.lon ?? 0) + (random() - 0.5) * 0.2,
        geo_precision: 'street',
      });
      streetRows.push({ row, city: city.row });
    }
  }
  for (let i = 0; i < objects.length; i += 400)
    await db
      .insertInto('address_objects')
      .values(objects.slice(i, i + 400))
      .execute();

  let houseId = 10_000_000;
  let houses = 0;
  const samples: [string, string, string][] = [];
  let batch: Tables['address_houses'][] = [];
  const flush = async () => {
    if (batch.length > 0) await db.insertInto('address_houses').values(batch).execute();
    batch = [];
  };
  const perStreet = Math.max(1, Math.round(targetHouses / streetRows.length));
  for (const { row: street, city } of streetRows) {
    const count = Math.max(1, Math.round(perStreet * (0.5 + random())));
    for (let n = 1; n <= count; n++) {
      // every fifth number has a корпус, every ninth a строение as well
      const korpus = n % 5 === 0 ? String(1 + (n % 3)) : null;
      const stroenie = n % 9 === 0 ? '1' : null;
      houseId += 1;
      houses += 1;
      batch.push({
        object_id: houseId,
        guid: guid(),
        parent_id: street.object_id,
        house_num: String(Math.ceil(n / 1.2)),
        add_num1: korpus ?? stroenie,
        add_num2: korpus ? stroenie : null,
        house_type: 2,
        add_type1: korpus ? 1 : stroenie ? 2 : null,
        add_type2: korpus && stroenie ? 2 : null,
        region_code: street.region_code,
        postcode: street.postcode,
        okato: null,
        oktmo: null,
        lat: (street.lat ?? 0) + n * 0.0002,
        lon: (street.lon ?? 0) + n * 0.0001,
        geo_precision: 'house',
        search_key: houseSearchKey(String(Math.ceil(n / 1.2)), korpus, stroenie),
        change_id: 1,
      });
      if (batch.length >= 400) await flush();
    }
    if (samples.length < 5000 && random() < 0.2)
      samples.push([city.name, street.name, String(1 + Math.floor(random() * Math.max(1, count / 1.2)))]);
  }
  await flush();
  return { houses, streets: streetRows.length, localities, samples };
}
