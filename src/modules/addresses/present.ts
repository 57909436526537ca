/**
 * A found address written out: the structure of model.ts from the register's rows, and its one
 * line forms (`value`, `unrestrictedValue`) as DaData writes them ("г Москва, ул Ленина, д 5 к 2, кв 3").
 */
import type { LocalityEntry, StreetEntry } from './directory.js';
import { LEVEL } from './directory.js';
import type { AddressSuggestion, FiasLevel, GeoPrecision, StructuredAddress } from './model.js';
import type { FlatRow, HouseRow, ObjectRow } from './store.js';

/**
 * The register's house types (AS_HOUSE_TYPES, every id of its list): short and full names as DaData
 * writes them (no dot: "д", where the register's SHORTNAME is "д."), so not read from address_types.
 */
const HOUSE_TYPES: Record<number, [string, string]> = {
  1: ['влд', 'владение'],
  2: ['д', 'дом'],
  3: ['двлд', 'домовладение'],
  4: ['г-ж', 'гараж'],
  5: ['зд', 'здание'],
  6: ['шахта', 'шахта'],
  7: ['стр', 'строение'],
  8: ['соор', 'сооружение'],
  9: ['литера', 'литера'],
  10: ['к', 'корпус'],
  11: ['подв', 'подвал'],
  12: ['кот', 'котельная'],
  13: ['п-б', 'погреб'],
  14: ['онс', 'объект незавершенного строительства'],
};
/** AS_ADDHOUSE_TYPES. */
export const ADD_HOUSE_TYPES: Record<number, [string, string]> = {
  1: ['к', 'корпус'],
  2: ['стр', 'строение'],
  3: ['соор', 'сооружение'],
  4: ['литера', 'литера'],
};
/** AS_APARTMENT_TYPES, every id of the register's list. */
const FLAT_TYPES: Record<number, [string, string]> = {
  1: ['пом', 'помещение'],
  2: ['кв', 'квартира'],
  3: ['офис', 'офис'],
  4: ['ком', 'комната'],
  5: ['раб.уч', 'рабочий участок'],
  6: ['скл', 'склад'],
  7: ['торг.зал', 'торговый зал'],
  8: ['цех', 'цех'],
  9: ['пав', 'павильон'],
  10: ['подв', 'подвал'],
  11: ['кот', 'котельная'],
  12: ['п-б', 'погреб'],
  13: ['гараж', 'гараж'],
};
const FLAT_TYPE_BY_SHORT: Record<string, string> = { кв: 'квартира', офис: 'офис', пом: 'помещение', ком: 'комната' };

/** The register's short types of objects, and their full names. */
const OBJECT_TYPES: Record<string, string> = {
  г: 'город',
  обл: 'область',
  респ: 'республика',
  край: 'край',
  ао: 'автономный округ',
  аобл: 'автономная область',
  'р-н': 'район',
  'г.о.': 'городской округ',
  'м.р-н': 'муниципальный район',
  'вн.тер.г.': 'внутригородская территория',
  п: 'поселок',
  пгт: 'поселок городского типа',
  рп: 'рабочий поселок',
  с: 'село',
  д: 'деревня',
  х: 'хутор',
  'ст-ца': 'станица',
  аул: 'аул',
  снт: 'садовое некоммерческое товарищество',
  ул: 'улица',
  'пр-кт': 'проспект',
  пер: 'переулок',
  ш: 'шоссе',
  'б-р': 'бульвар',
  пл: 'площадь',
  наб: 'набережная',
  мкр: 'микрорайон',
  проезд: 'проезд',
  туп: 'тупик',
  аллея: 'аллея',
  линия: 'линия',
  тракт: 'тракт',
  'кв-л': 'квартал',
};

/**
 * DaData's `qc_geo` of coordinates whose source the import wrote (`geo_precision`: a house's own
 * point, or its street's, its locality's, its region's put on it); the object's own level when unsaid.
 */
const PRECISION_OF_SOURCE: Record<string, GeoPrecision> = {
  house: 0,
  street: 1,
  settlement: 2,
  locality: 3,
  city: 3,
  region: 4,
};
function precisionOf(source: string | null, byLevel: GeoPrecision): GeoPrecision {
  // a locality's own point is a settlement's (2) or a city's (3); put on a house or a street, a city's at best
  if (source === 'locality') return byLevel >= 2 ? byLevel : 3;
  const said = source === null ? undefined : PRECISION_OF_SOURCE[source];
  // a source coarser than the object's level is what the point is worth; a finer one cannot be
  return said === undefined ? byLevel : (Math.max(said, byLevel) as GeoPrecision);
}

export const fullObjectType = (short: string) => OBJECT_TYPES[short] ?? short;

/** "г Москва", but "Московская обл" and "Ленинский пр-кт"? The register writes the type before the name, except for regions' adjectives. */
export function withType(name: string, type: string, level: number): string {
  if (level === LEVEL.region && ['обл', 'край', 'ао', 'аобл'].includes(type)) return `${name} ${type}`;
  if (level === LEVEL.municipalArea || level === LEVEL.autonomousArea) return `${name} ${type}`;
  return `${type} ${name}`;
}

export interface FoundAddress {
  /** The locality and its ancestors, the most exact first (a settlement, its city, its area, its region). */
  chain: LocalityEntry[];
  street: StreetEntry | null;
  house: HouseRow | null;
  /** A house number the register does not hold, kept as typed. */
  typedHouse: { number: string; block: string | null; building: string | null } | null;
  flat: { row: FlatRow | null; number: string; type: string } | null;
}

function emptyAddress(): StructuredAddress {
  return {
    postalCode: null,
    country: 'Россия',
    countryIsoCode: 'RU',
    federalDistrict: null,
    regionFiasId: null,
    regionKladrId: null,
    regionIsoCode: null,
    regionWithType: null,
    regionType: null,
    regionTypeFull: null,
    region: null,
    areaFiasId: null,
    areaKladrId: null,
    areaWithType: null,
    areaType: null,
    areaTypeFull: null,
    area: null,
    cityFiasId: null,
    cityKladrId: null,
    cityWithType: null,
    cityType: null,
    cityTypeFull: null,
    city: null,
    cityDistrictFiasId: null,
    cityDistrictWithType: null,
    cityDistrictType: null,
    cityDistrictTypeFull: null,
    cityDistrict: null,
    settlementFiasId: null,
    settlementKladrId: null,
    settlementWithType: null,
    settlementType: null,
    settlementTypeFull: null,
    settlement: null,
    streetFiasId: null,
    streetKladrId: null,
    streetWithType: null,
    streetType: null,
    streetTypeFull: null,
    street: null,
    houseFiasId: null,
    houseKladrId: null,
    houseType: null,
    houseTypeFull: null,
    house: null,
    blockType: null,
    blockTypeFull: null,
    block: null,
    flatFiasId: null,
    flatType: null,
    flatTypeFull: null,
    flat: null,
    fiasId: null,
    fiasLevel: -1,
    kladrId: null,
    okato: null,
    oktmo: null,
    capitalMarker: '0',
    geoLat: null,
    geoLon: null,
    qcGeo: 5,
  };
}

/** The empty structure of an address nothing was found for. */
export const notFoundAddress = emptyAddress;

/** House number with its additions as the register writes them: "5", "к", "2 стр 1". */
export function houseParts(house: HouseRow): { number: string; blockType: string | null; block: string | null } {
  const additions: [string, string][] = [];
  if (house.add_num1) additions.push([ADD_HOUSE_TYPES[house.add_type1 ?? 1]?.[0] ?? 'к', house.add_num1]);
  if (house.add_num2) additions.push([ADD_HOUSE_TYPES[house.add_type2 ?? 2]?.[0] ?? 'стр', house.add_num2]);
  if (additions.length === 0) return { number: house.house_num ?? '', blockType: null, block: null };
  const [first, ...rest] = additions;
  return {
    number: house.house_num ?? '',
    blockType: first[0],
    block: [first[1], ...rest.map(([type, number]) => `${type} ${number}`)].join(' '),
  };
}

/**
 * The structure of a found address. `rows` holds the full rows of the chain's and the street's
 * objects (ids, codes, coordinates), read by the caller in one query.
 */
export function present(
  found: FoundAddress,
  rows: Map<number, ObjectRow>,
  regionCentres: Set<number>,
): AddressSuggestion {
  const data = emptyAddress();
  let fiasLevel: FiasLevel = -1;
  let fiasId: string | null = null;
  let kladrId: string | null = null;
  let okato: string | null = null;
  let oktmo: string | null = null;
  let postcode: string | null = null;
  let geo: { lat: number; lon: number; precision: GeoPrecision } | null = null;
  const take = (row: ObjectRow | undefined, level: FiasLevel, precision: GeoPrecision) => {
    if (!row) return;
    fiasLevel = level;
    fiasId = row.guid;
    kladrId = row.kladr ?? kladrId;
    okato = row.okato ?? okato;
    oktmo = row.oktmo ?? oktmo;
    postcode = row.postcode ?? postcode;
    if (row.lat !== null && row.lon !== null)
      geo = { lat: row.lat, lon: row.lon, precision: precisionOf(row.geo_precision, precision) };
  };
  const line: string[] = [];
  let regionLine: string | null = null;
  let hasCity = false;
  let cityIsCentre = false;
  // the chain from the region down
  for (const entry of [...found.chain].reverse()) {
    const row = rows.get(entry.objectId);
    const type = entry.typeShort;
    const named = withType(entry.name, type, entry.level);
    if (entry.level === LEVEL.region) {
      data.regionFiasId = row?.guid ?? entry.guid;
      data.regionKladrId = row?.kladr ?? null;
      data.regionWithType = named;
      data.regionType = type;
      data.regionTypeFull = fullObjectType(type);
      data.region = entry.name;
      regionLine = named;
      take(row, 1, 4);
      // Moscow, Saint Petersburg, Sevastopol: a region that is a city is its own city too
      if (type === 'г') {
        data.cityFiasId = data.regionFiasId;
        data.cityKladrId = data.regionKladrId;
        data.cityWithType = named;
        data.cityType = type;
        data.cityTypeFull = fullObjectType(type);
        data.city = entry.name;
        hasCity = true;
        cityIsCentre = true;
        data.capitalMarker = '0';
      }
    } else if (entry.level === LEVEL.autonomousArea || entry.level === LEVEL.municipalArea) {
      data.areaFiasId = row?.guid ?? entry.guid;
      data.areaKladrId = row?.kladr ?? null;
      data.areaWithType = named;
      data.areaType = type;
      data.areaTypeFull = fullObjectType(type);
      data.area = entry.name;
      take(row, 3, 4);
    } else if (entry.level === LEVEL.city) {
      data.cityFiasId = row?.guid ?? entry.guid;
      data.cityKladrId = row?.kladr ?? null;
      data.cityWithType = named;
      data.cityType = type;
      data.cityTypeFull = fullObjectType(type);
      data.city = entry.name;
      hasCity = true;
      cityIsCentre = regionCentres.has(entry.objectId);
      if (cityIsCentre) data.capitalMarker = '2';
      take(row, 4, 3);
    } else if (entry.level === LEVEL.settlement) {
      data.settlementFiasId = row?.guid ?? entry.guid;
      data.settlementKladrId = row?.kladr ?? null;
      data.settlementWithType = named;
      data.settlementType = type;
      data.settlementTypeFull = fullObjectType(type);
      data.settlement = entry.name;
      take(row, 6, 2);
    }
  }
  if (data.regionWithType && !(hasCity && cityIsCentre) && data.regionType !== 'г') line.push(data.regionWithType);
  if (data.areaWithType && !hasCity) line.push(data.areaWithType);
  if (data.cityWithType) line.push(data.cityWithType);
  if (data.settlementWithType) line.push(data.settlementWithType);
  if (found.street) {
    const row = rows.get(found.street.objectId);
    const type = found.street.typeShort;
    data.streetFiasId = row?.guid ?? null;
    data.streetKladrId = row?.kladr ?? null;
    data.streetWithType = withType(found.street.name, type, found.street.level);
    data.streetType = type;
    data.streetTypeFull = fullObjectType(type);
    data.street = found.street.name;
    line.push(data.streetWithType);
    take(row, found.street.level === LEVEL.planning ? 65 : 7, 1);
  }
  if (found.house) {
    const house = found.house;
    const parts = houseParts(house);
    const [short, full] = HOUSE_TYPES[house.house_type ?? 2] ?? HOUSE_TYPES[2];
    data.houseFiasId = house.guid;
    data.houseType = short;
    data.houseTypeFull = full;
    data.house = parts.number;
    data.blockType = parts.blockType;
    data.blockTypeFull = parts.blockType ? (ADD_HOUSE_TYPES[house.add_type1 ?? 1]?.[1] ?? null) : null;
    data.block = parts.block;
    fiasLevel = 8;
    fiasId = house.guid;
    okato = house.okato ?? okato;
    oktmo = house.oktmo ?? oktmo;
    postcode = house.postcode ?? postcode;
    if (house.lat !== null && house.lon !== null)
      geo = { lat: house.lat, lon: house.lon, precision: precisionOf(house.geo_precision, 0) };
    line.push(`${short} ${parts.number}${parts.blockType ? ` ${parts.blockType} ${parts.block}` : ''}`);
  } else if (found.typedHouse) {
    // a number the register does not hold: shown as typed, the address stays at the street
    const typed = found.typedHouse;
    data.houseType = 'д';
    data.houseTypeFull = 'дом';
    data.house = typed.number;
    if (typed.block) {
      data.blockType = 'к';
      data.blockTypeFull = 'корпус';
      data.block = typed.building ? `${typed.block} стр ${typed.building}` : typed.block;
    } else if (typed.building) {
      data.blockType = 'стр';
      data.blockTypeFull = 'строение';
      data.block = typed.building;
    }
    line.push(`д ${typed.number}${data.blockType ? ` ${data.blockType} ${data.block}` : ''}`);
  }
  if (found.flat) {
    const flat = found.flat;
    const [short, full] = flat.row
      ? (FLAT_TYPES[flat.row.apart_type ?? 2] ?? FLAT_TYPES[2])
      : [flat.type, FLAT_TYPE_BY_SHORT[flat.type] ?? flat.type];
    data.flatFiasId = flat.row?.guid ?? null;
    data.flatType = short;
    data.flatTypeFull = full;
    data.flat = flat.row?.number ?? flat.number;
    if (flat.row) {
      fiasLevel = 9;
      fiasId = flat.row.guid;
      postcode = flat.row.postcode ?? postcode;
    }
    line.push(`${short} ${data.flat}`);
  }
  data.fiasLevel = fiasLevel;
  data.fiasId = fiasId;
  data.kladrId = kladrId;
  data.okato = okato;
  data.oktmo = oktmo;
  data.postalCode = postcode;
  const point = geo as { lat: number; lon: number; precision: GeoPrecision } | null;
  if (point) {
    data.geoLat = point.lat;
    data.geoLon = point.lon;
    data.qcGeo = point.precision;
  }
  const value = line.join(', ');
  const full = [
    postcode,
    regionLine && !line.includes(regionLine) && data.regionType !== 'г' ? regionLine : null,
    value,
  ]
    .filter((part): part is string => !!part)
    .join(', ');
  return { value, unrestrictedValue: full, data };
}
