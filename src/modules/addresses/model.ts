/**
 * The address model other areas are written against (the widget's courier tab, the dashboard's
 * forms, order creation): a structured address shaped after DaData's `data` object, in camelCase,
 * so that a value from DaData's components and one from ours are the same thing, and the service
 * that suggests, finds, geolocates and cleans them. The DaData-compatible routes translate this
 * shape field by field into DaData's snake_case (dadata-shapes.ts).
 */

/**
 * The register's object levels as DaData counts them (`fias_level`): 1 region, 3 area, 4 city,
 * 5 city district, 6 settlement, 65 planning structure, 7 street, 8 house, 9 flat; -1 foreign or
 * not found. Suggestions are bounded with the word forms of `AddressBound`.
 */
export type FiasLevel = -1 | 0 | 1 | 3 | 4 | 5 | 6 | 65 | 7 | 8 | 9;

/** What a suggestion may start or stop at (DaData's `from_bound`/`to_bound` values). */
export type AddressBound = 'country' | 'region' | 'area' | 'city' | 'settlement' | 'street' | 'house' | 'flat';

/**
 * How exact the coordinates are (DaData's `qc_geo`): 0 the house, 1 the street, 2 the
 * settlement, 3 the city, 4 the region (or area), 5 none.
 */
export type GeoPrecision = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * One address, from the country down to the flat. Each level has its register id (FIAS GUID),
 * its name with the type ("г Москва", "ул Ленина": `…WithType`), the short type ("г", "ул"),
 * the full type ("город", "улица") and the bare name. A level the address does not have is null.
 */
export interface StructuredAddress {
  postalCode: string | null;
  country: string;
  countryIsoCode: string;
  federalDistrict: string | null;

  regionFiasId: string | null;
  regionKladrId: string | null;
  regionIsoCode: string | null;
  regionWithType: string | null;
  regionType: string | null;
  regionTypeFull: string | null;
  region: string | null;

  areaFiasId: string | null;
  areaKladrId: string | null;
  areaWithType: string | null;
  areaType: string | null;
  areaTypeFull: string | null;
  area: string | null;

  cityFiasId: string | null;
  cityKladrId: string | null;
  cityWithType: string | null;
  cityType: string | null;
  cityTypeFull: string | null;
  city: string | null;

  cityDistrictFiasId: string | null;
  cityDistrictWithType: string | null;
  cityDistrictType: string | null;
  cityDistrictTypeFull: string | null;
  cityDistrict: string | null;

  settlementFiasId: string | null;
  settlementKladrId: string | null;
  settlementWithType: string | null;
  settlementType: string | null;
  settlementTypeFull: string | null;
  settlement: string | null;

  streetFiasId: string | null;
  streetKladrId: string | null;
  streetWithType: string | null;
  streetType: string | null;
  streetTypeFull: string | null;
  street: string | null;

  houseFiasId: string | null;
  houseKladrId: string | null;
  /** "д", "влд", "зд" … */
  houseType: string | null;
  houseTypeFull: string | null;
  /** The number as the register writes it, fractions kept: "12/2", "5А". */
  house: string | null;
  /** "к" (корпус) or "стр" (строение), or both as DaData writes them: "к 2 стр 1" goes in `block` with type "к". */
  blockType: string | null;
  blockTypeFull: string | null;
  /** "2", or "2 стр 1" when a building has both a корпус and a строение (DaData's own convention). */
  block: string | null;

  flatFiasId: string | null;
  /** "кв", "офис", "пом" … */
  flatType: string | null;
  flatTypeFull: string | null;
  flat: string | null;

  /** The id of the most exact level found (the flat, else the house, else the street …). */
  fiasId: string | null;
  fiasLevel: FiasLevel;
  kladrId: string | null;
  okato: string | null;
  oktmo: string | null;
  /** The capital's mark as DaData gives it: '0' none, '1' region centre, '2' area centre, '3' both, '4' the country's capital. */
  capitalMarker: '0' | '1' | '2' | '3' | '4';
  geoLat: number | null;
  geoLon: number | null;
  qcGeo: GeoPrecision;
}

/** A suggestion as the buyer sees it: the address one line long, with and without the region, and its structure. */
export interface AddressSuggestion {
  /** Short: "г Москва, ул Ленина, д 5" (the region left out where the city names it). */
  value: string;
  /** Full: "г Москва, ул Ленина, д 5" with the postcode and region where they add something: "109012, г Москва, …". */
  unrestrictedValue: string;
  data: StructuredAddress;
}

/** How sure cleaning is: `certain` a house found as typed (or with safe changes); `check` a person should look; `unrecognised` nothing usable. */
export type CleanQuality = 'certain' | 'check' | 'unrecognised';

/** Free text turned into an address. */
export interface CleanedAddress extends StructuredAddress {
  /** The text as given. */
  source: string;
  /** The address written out as DaData's `result`, the region always named, no postcode: "г Москва, ул Ленина, д 5 к 2, кв 3". */
  result: string | null;
  quality: CleanQuality;
  /**
   * What cleaning changed or added, one sentence each in English (the API's language for
   * diagnostics), e.g. "city added from the street", "street name corrected: Ленена → Ленина",
   * "typed in the Latin keyboard layout", "flat not found in the register (kept as typed)".
   */
  changes: string[];
  /** Parts of the text nothing matched ("подъезд 2", "домофон 15"), kept for a person to read. */
  unparsed: string | null;
}

export interface SuggestQuery {
  query: string;
  /** 1 to 20 (default 10). */
  count?: number;
  /** Only under this locality (a city's or settlement's FIAS id). */
  locality?: string;
  /** Only in this region: its FIAS id, or its two-digit code ("77", "50"). */
  region?: string;
  /** The least exact level to suggest (default: region). */
  fromLevel?: AddressBound;
  /** The most exact level to suggest (default: flat). */
  toLevel?: AddressBound;
}

export interface GeolocateQuery {
  lat: number;
  lon: number;
  /** Up to 1000 m (default 100). */
  radiusMeters?: number;
  /** 1 to 20 (default 10). */
  count?: number;
}

/**
 * The address service: the register's data first; a shop's own DaData key (account settings)
 * is asked only where the register has no house for the query, and only when a caller passes
 * the account (`accountId`).
 */
export interface AddressLookup {
  suggest(query: SuggestQuery, accountId?: number): Promise<AddressSuggestion[]>;
  /** The object (region … flat) with this FIAS id; null when the register has none. */
  findById(fiasId: string, accountId?: number): Promise<AddressSuggestion | null>;
  /** Houses nearest the point within the radius, nearest first. */
  geolocate(query: GeolocateQuery): Promise<AddressSuggestion[]>;
  clean(text: string, accountId?: number): Promise<CleanedAddress>;
}
