/**
 * DaData's shapes (its public documentation: suggestions API 4_1 `suggest/address`,
 * `findById/address`, `geolocate/address`; cleaning API v1 `clean/address`) to and from ours. Pure.
 * Field names are DaData's snake_case of model.ts's camelCase, one for one; fields DaData has and
 * the register does not (metro, flat prices, tax offices) are null, as DaData gives them when unknown.
 */
import type { AddressSuggestion, CleanedAddress, CleanQuality, StructuredAddress } from './model.js';

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** DaData's fields the register never fills: present, null. */
const ALWAYS_NULL = [
  'city_area',
  'city_district_kladr_id',
  'stead_fias_id',
  'stead_cadnum',
  'stead_type',
  'stead_type_full',
  'stead',
  'house_cadnum',
  'entrance',
  'floor',
  'flat_cadnum',
  'flat_area',
  'square_meter_price',
  'flat_price',
  'room_fias_id',
  'room_type',
  'room_type_full',
  'room',
  'postal_box',
  'fias_code',
  'geoname_id',
  'tax_office',
  'tax_office_legal',
  'timezone',
  'beltway_hit',
  'beltway_distance',
  'metro',
  'divisions',
  'history_values',
  'unparsed_parts',
] as const;

export type DadataData = Record<string, string | number | null | string[] | object>;

/**
 * Our structure as DaData's `data`. DaData writes numbers of its codes as strings
 * (`fias_level: "8"`, `qc_geo: "0"`, `geo_lat: "55.75"`), and so do we: clients parse them so.
 */
export function toDadataData(address: StructuredAddress): DadataData {
  const data: DadataData = {};
  for (const [key, value] of Object.entries(address)) data[snake(key)] = value as string | null;
  for (const key of ALWAYS_NULL) data[key] = null;
  data.fias_level = String(address.fiasLevel);
  data.fias_actuality_state = address.fiasId ? '0' : null;
  data.qc_geo = String(address.qcGeo);
  data.geo_lat = address.geoLat === null ? null : String(address.geoLat);
  data.geo_lon = address.geoLon === null ? null : String(address.geoLon);
  data.qc_complete = null;
  data.qc_house = null;
  data.qc = null;
  data.source = null;
  data.history_values = null;
  return data;
}

export function toDadataSuggestion(suggestion: AddressSuggestion): {
  value: string;
  unrestricted_value: string;
  data: DadataData;
} {
  return {
    value: suggestion.value,
    unrestricted_value: suggestion.unrestrictedValue,
    data: toDadataData(suggestion.data),
  };
}

/**
 * DaData's `qc`: 0 recognised for certain, 1 with assumptions or not recognised (a person
 * checks), 2 empty or garbage, 3 alternatives exist (a person checks).
 */
const QC: Record<CleanQuality, number> = { certain: 0, check: 1, unrecognised: 2 };

/**
 * DaData's `qc_complete`: 0 fit for mail, 1 no region, 2 no city, 3 no street, 4 no house, 5 fit
 * for a house (no flat), 8 a post box, 10 fit but the house is not in the register.
 */
function qcComplete(address: CleanedAddress): number {
  if (!address.region) return 1;
  if (!address.city && !address.settlement) return 2;
  if (!address.street && !address.house) return 3;
  if (!address.house) return 4;
  if (!address.houseFiasId) return 10;
  return address.flat ? 0 : 5;
}

/** DaData's `qc_house`: 2 the house found exactly, 10 not found. */
function qcHouse(address: CleanedAddress): number {
  return address.houseFiasId ? 2 : 10;
}

/** One answer of DaData's cleaning: the fields at the top level, `source`, `result` and the quality codes. */
export function toDadataClean(address: CleanedAddress): DadataData {
  const { source, result, quality, changes: _changes, unparsed, ...structure } = address;
  const data = toDadataData(structure);
  data.source = source;
  data.result = result;
  data.unparsed_parts = unparsed;
  data.qc = QC[quality];
  data.qc_complete = qcComplete(address);
  data.qc_house = qcHouse(address);
  data.qc_geo = address.qcGeo;
  return data;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;
const number = (value: unknown): number | null => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : null;
};

/** DaData's `data` (or a cleaning answer) as our structure: fields it lacks stay null. */
export function fromDadataData(data: Record<string, unknown>, template: StructuredAddress): StructuredAddress {
  const address = { ...template } as unknown as Record<string, unknown>;
  for (const key of Object.keys(template)) {
    const value = data[snake(key)];
    if (value === undefined) continue;
    address[key] = text(value);
  }
  const structured = address as unknown as StructuredAddress;
  structured.country = text(data.country) ?? 'Россия';
  structured.countryIsoCode = text(data.country_iso_code) ?? 'RU';
  const level = number(data.fias_level);
  structured.fiasLevel = ([-1, 0, 1, 3, 4, 5, 6, 65, 7, 8, 9] as const).find((each) => each === level) ?? -1;
  structured.geoLat = number(data.geo_lat);
  structured.geoLon = number(data.geo_lon);
  const qcGeo = number(data.qc_geo);
  structured.qcGeo = qcGeo !== null && qcGeo >= 0 && qcGeo <= 5 ? (qcGeo as StructuredAddress['qcGeo']) : 5;
  const capital = text(data.capital_marker);
  structured.capitalMarker = capital && ['0', '1', '2', '3', '4'].includes(capital) ? (capital as '0') : '0';
  return structured;
}
