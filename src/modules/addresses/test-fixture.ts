/**
 * A small piece of the register written straight into its tables, for the search's tests until the
 * importer's sample (the register's own XML) lands: a few regions and cities (Moscow and Saint
 * Petersburg as regions that are cities, Kazan and Yekaterinburg as region centres, Khimki, a
 * village under an area, a settlement inside Moscow), their streets, houses with корпус, строение,
 * letters and fractions, and flats. Ids of the big cities are their real FIAS ids; the rest are made up.
 */
import type { Kysely } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { houseSearchKey, searchKey } from './search-key.js';

export const FIXTURE_IDS = {
  moscow: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
  saintPetersburg: 'c2deb16a-0330-4f05-821f-1d09c93331e6',
  moscowRegion: '29251dcf-00a1-4e34-98d4-5c47484a36d4',
  tatarstan: '0c089b04-099e-4e0e-955a-6bf1ce525f1a',
  kazan: '93b3df57-4c89-44df-ac42-96f05e9cd3b9',
  sverdlovsk: '92b30014-4d52-4e2e-892d-928142b924bf',
  yekaterinburg: '2763c110-cb8b-416a-9dac-ad28a55b4402',
} as const;

/** A made-up but valid FIAS id, the same on every run: objects, then houses, then flats. */
export function fixtureGuid(kind: 'o' | 'h' | 'f', id: number): string {
  const prefix = { o: '0a000000', h: '0b000000', f: '0f000000' }[kind];
  return `${prefix}-0000-4000-8000-${id.toString(16).padStart(12, '0')}`;
}

interface PlaceSpec {
  id: number;
  guid?: string;
  name: string;
  type: string;
  level: number;
  parent: number | null;
  region: number;
  popularity: number;
  lat: number;
  lon: number;
  postcode: string;
}

const PLACES: PlaceSpec[] = [
  {
    id: 1,
    guid: FIXTURE_IDS.moscow,
    name: 'Москва',
    type: 'г',
    level: 1,
    parent: null,
    region: 77,
    popularity: 13_000_000,
    lat: 55.7558,
    lon: 37.6173,
    postcode: '101000',
  },
  {
    id: 2,
    guid: FIXTURE_IDS.saintPetersburg,
    name: 'Санкт-Петербург',
    type: 'г',
    level: 1,
    parent: null,
    region: 78,
    popularity: 5_600_000,
    lat: 59.9386,
    lon: 30.3141,
    postcode: '190000',
  },
  {
    id: 3,
    guid: FIXTURE_IDS.moscowRegion,
    name: 'Московская',
    type: 'обл',
    level: 1,
    parent: null,
    region: 50,
    popularity: 8_500_000,
    lat: 55.5,
    lon: 37.5,
    postcode: '140000',
  },
  {
    id: 4,
    guid: FIXTURE_IDS.tatarstan,
    name: 'Татарстан',
    type: 'респ',
    level: 1,
    parent: null,
    region: 16,
    popularity: 4_000_000,
    lat: 55.8,
    lon: 49.1,
    postcode: '420000',
  },
  {
    id: 5,
    guid: FIXTURE_IDS.sverdlovsk,
    name: 'Свердловская',
    type: 'обл',
    level: 1,
    parent: null,
    region: 66,
    popularity: 4_200_000,
    lat: 56.8,
    lon: 60.6,
    postcode: '620000',
  },
  {
    id: 10,
    guid: FIXTURE_IDS.kazan,
    name: 'Казань',
    type: 'г',
    level: 5,
    parent: 4,
    region: 16,
    popularity: 1_300_000,
    lat: 55.7963,
    lon: 49.1088,
    postcode: '420000',
  },
  {
    id: 11,
    guid: FIXTURE_IDS.yekaterinburg,
    name: 'Екатеринбург',
    type: 'г',
    level: 5,
    parent: 5,
    region: 66,
    popularity: 1_500_000,
    lat: 56.8389,
    lon: 60.6057,
    postcode: '620000',
  },
  {
    id: 12,
    name: 'Балашиха',
    type: 'г',
    level: 5,
    parent: 3,
    region: 50,
    popularity: 520_000,
    lat: 55.7963,
    lon: 37.9382,
    postcode: '143900',
  },
  {
    id: 13,
    name: 'Химки',
    type: 'г',
    level: 5,
    parent: 3,
    region: 50,
    popularity: 260_000,
    lat: 55.8887,
    lon: 37.4304,
    postcode: '141400',
  },
  {
    id: 14,
    name: 'Одинцовский',
    type: 'р-н',
    level: 3,
    parent: 3,
    region: 50,
    popularity: 0,
    lat: 55.67,
    lon: 37.27,
    postcode: '143000',
  },
  {
    id: 15,
    name: 'Раздоры',
    type: 'д',
    level: 6,
    parent: 14,
    region: 50,
    popularity: 2_000,
    lat: 55.7461,
    lon: 37.3086,
    postcode: '143082',
  },
  {
    id: 16,
    name: 'Коммунарка',
    type: 'п',
    level: 6,
    parent: 1,
    region: 77,
    popularity: 30_000,
    lat: 55.5697,
    lon: 37.4897,
    postcode: '108801',
  },
  {
    id: 17,
    name: 'Ленина',
    type: 'п',
    level: 6,
    parent: 5,
    region: 66,
    popularity: 900,
    lat: 57.1,
    lon: 61.2,
    postcode: '623000',
  },
  {
    id: 18,
    name: 'Троицкое',
    type: 'с',
    level: 6,
    parent: 3,
    region: 50,
    popularity: 3_000,
    lat: 55.2,
    lon: 38.1,
    postcode: '140100',
  },
  {
    id: 19,
    name: 'Казанское',
    type: 'с',
    level: 6,
    parent: 5,
    region: 66,
    popularity: 500,
    lat: 57.3,
    lon: 61.0,
    postcode: '623100',
  },
];

/** [parent, type, name, popularity]; ids from 100 on, in this order. */
const STREETS: [number, string, string, number][] = [
  [1, 'ул', 'Ленина', 300],
  [1, 'ул', 'Тверская', 900],
  [1, 'ул', 'Арбат', 800],
  [1, 'ул', 'Новый Арбат', 700],
  [1, 'пр-кт', 'Мира', 850],
  [1, 'пр-кт', 'Ленинский', 880],
  [1, 'пр-кт', 'Маршала Жукова', 400],
  [1, 'ул', '8 Марта', 200],
  [1, 'пер', 'Большой Козихинский', 150],
  [1, 'б-р', 'Тверской', 500],
  [1, 'наб', 'Пречистенская', 300],
  [1, 'ш', 'Энтузиастов', 600],
  [1, 'пл', 'Красная', 950],
  [1, 'ул', '1-я Тверская-Ямская', 350],
  [1, 'ул', 'Казанская', 100],
  [2, 'пр-кт', 'Невский', 1000],
  [2, 'ул', 'Садовая', 700],
  [2, 'ул', 'Ленина', 200],
  [2, 'наб', 'Реки Мойки', 400],
  [10, 'ул', 'Баумана', 900],
  [10, 'ул', 'Пушкина', 600],
  [10, 'пр-кт', 'Победы', 500],
  [11, 'пр-кт', 'Ленина', 900],
  [11, 'ул', 'Малышева', 800],
  [11, 'ул', '8 Марта', 700],
  [13, 'ул', 'Ленинградская', 500],
  [13, 'ул', 'Ленина', 300],
  [13, 'мкр', 'Северный', 200],
  [16, 'ул', 'Липовый Парк', 300],
  [16, 'ул', 'Александры Монаховой', 200],
  [18, 'ул', 'Центральная', 100],
  [12, 'ул', 'Советская', 300],
  [13, 'ул', 'Зелёная', 100],
];

/** Houses every street has: numbers 1 to 25, and these besides (корпус, строение, letters, fractions). */
const EXTRA_HOUSES: { num: string; korpus?: string; stroenie?: string; drop?: boolean }[] = [
  { num: '5', korpus: '1' },
  { num: '5', korpus: '2' },
  { num: '5', korpus: '2', stroenie: '1' },
  { num: '7', stroenie: '1' },
  { num: '12/2' },
  { num: '10А' },
  { num: '14', korpus: '1' },
  { num: '14', korpus: '2' },
];

/**
 * Writes the fixture in place of whatever register the test's database holds (the sample a first
 * start loads: its cities share the fixture's real FIAS ids); returns how many houses and flats it wrote.
 */
export async function writeAddressFixture(db: Kysely<Tables>): Promise<{ houses: number; flats: number }> {
  await db.deleteFrom('address_flats').execute();
  await db.deleteFrom('address_houses').execute();
  await db.deleteFrom('address_objects').execute();
  const objects = PLACES.map((place) => ({
    object_id: place.id,
    guid: place.guid ?? fixtureGuid('o', place.id),
    name: place.name,
    type_short: place.type,
    level: place.level,
    parent_id: place.parent,
    mun_parent_id: null,
    region_code: place.region,
    postcode: place.postcode,
    okato: `${place.region}000000000`,
    oktmo: `${place.region}000000`,
    kladr: `${String(place.region).padStart(2, '0')}000000000${String(place.id).padStart(2, '0')}`.slice(0, 13),
    lat: place.lat,
    lon: place.lon,
    geo_precision: place.level === 1 ? 'region' : 'locality',
    popularity: place.popularity,
    search_key: searchKey(place.name),
    change_id: 1,
  }));
  const placeById = new Map(PLACES.map((place) => [place.id, place]));
  STREETS.forEach(([parent, type, name, popularity], index) => {
    const id = 100 + index;
    const place = placeById.get(parent) as PlaceSpec;
    objects.push({
      object_id: id,
      guid: fixtureGuid('o', id),
      name,
      type_short: type,
      level: type === 'мкр' ? 7 : 8,
      parent_id: parent,
      mun_parent_id: null,
      region_code: place.region,
      postcode: `${place.postcode.slice(0, 3)}${String(index).padStart(3, '0')}`,
      okato: `${place.region}000000000`,
      oktmo: `${place.region}000000`,
      kladr: `${String(place.region).padStart(2, '0')}0000000${String(id).padStart(6, '0')}`.slice(0, 17),
      lat: place.lat + index * 0.001,
      lon: place.lon + index * 0.001,
      geo_precision: 'street',
      popularity,
      search_key: searchKey(name),
      change_id: 1,
    });
  });
  await inChunks(objects, (chunk) => db.insertInto('address_objects').values(chunk).execute());

  const houses: Tables['address_houses'][] = [];
  const flats: Tables['address_flats'][] = [];
  let houseId = 10_000;
  let flatId = 100_000;
  const parents = [
    ...STREETS.map((_street, index) => 100 + index),
    15, // Раздоры: houses with no street
  ];
  for (const parentId of parents) {
    const street = objects.find((object) => object.object_id === parentId) as (typeof objects)[number];
    const specs = [...Array.from({ length: 25 }, (_x, i) => ({ num: String(i + 1) })), ...EXTRA_HOUSES].filter(
      (spec) => !(spec.num === '14' && !('korpus' in spec)),
    );
    specs.forEach((spec, index) => {
      houseId += 1;
      const korpus: string | null = 'korpus' in spec && typeof spec.korpus === 'string' ? spec.korpus : null;
      const stroenie: string | null = 'stroenie' in spec && typeof spec.stroenie === 'string' ? spec.stroenie : null;
      houses.push({
        object_id: houseId,
        guid: fixtureGuid('h', houseId),
        parent_id: parentId,
        house_num: spec.num,
        add_num1: korpus ?? stroenie,
        add_num2: korpus ? stroenie : null,
        house_type: 2,
        add_type1: korpus ? 1 : stroenie ? 2 : null,
        add_type2: korpus && stroenie ? 2 : null,
        region_code: street.region_code,
        postcode: street.postcode,
        okato: street.okato,
        oktmo: street.oktmo,
        lat: (street.lat ?? 0) + index * 0.0003,
        lon: (street.lon ?? 0) + index * 0.0002,
        geo_precision: 'house',
        search_key: houseSearchKey(spec.num, korpus, stroenie),
        change_id: 1,
      });
      const withFlats = parentId === 100 && (spec.num === '1' || (spec.num === '5' && korpus === '2' && !stroenie));
      if (withFlats)
        for (let flat = 1; flat <= 40; flat++) {
          flatId += 1;
          flats.push({
            object_id: flatId,
            guid: fixtureGuid('f', flatId),
            house_id: houseId,
            number: String(flat),
            apart_type: 2,
            region_code: street.region_code,
            postcode: street.postcode,
            change_id: 1,
          });
        }
    });
  }
  await inChunks(houses, (chunk) => db.insertInto('address_houses').values(chunk).execute());
  await inChunks(flats, (chunk) => db.insertInto('address_flats').values(chunk).execute());
  return { houses: houses.length, flats: flats.length };
}

/** In chunks of 200 rows: SQLite's limit on a statement's variables stays far away. */
async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await write(rows.slice(i, i + 200));
}
