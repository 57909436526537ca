/**
 * Models of the address routes: our own (`/v2/addresses/…`, camelCase, model.ts's shapes) and the
 * DaData-compatible ones (`/dadata/…`, DaData's snake_case request and answer shapes, taken from its
 * public documentation: suggestions API 4_1 and the cleaning API v1).
 */
import Type, { type Static, type TSchema } from 'typebox';
import { Nullable } from '../../platform/schemas.js';

/** A FIAS id (the register's OBJECTGUID): a UUID. */
export const FiasId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  maxLength: 36,
  'x-message': 'must be a FIAS id (a UUID such as 0c5b2444-70a0-4932-980c-b4dc0d3f02b5)',
  examples: ['0c5b2444-70a0-4932-980c-b4dc0d3f02b5'],
});

export const AddressBound = Type.Union(
  [
    Type.Literal('country'),
    Type.Literal('region'),
    Type.Literal('area'),
    Type.Literal('city'),
    Type.Literal('settlement'),
    Type.Literal('street'),
    Type.Literal('house'),
    Type.Literal('flat'),
  ],
  { description: 'A level: country, region, area, city, settlement, street, house, flat' },
);

const Text = (maxLength: number, description?: string) =>
  Nullable(Type.String({ maxLength, ...(description ? { description } : {}) }));

/**
 * A `register` entry (register-check.ts): what the register made of an address typed elsewhere
 * (an order's recipient, a warehouse). One model, so an order's and a warehouse's read alike;
 * each area says what its finding means and where the entry appears.
 */
export function RegisterEntryModel(words: { description: string; finding: string }) {
  const NullableString = Nullable(Type.String());
  return Type.Object(
    {
      fiasId: Nullable(Type.String({ description: 'FIAS id of the most exact object found (flat, house, street …)' })),
      fiasLevel: Type.Integer({
        description: '8 house, 9 flat; less: 7 street, 65 planning structure, 6 settlement, 4 city, 1 region; -1 none',
      }),
      houseFiasId: NullableString,
      postalCode: NullableString,
      latitude: Nullable(Type.Number()),
      longitude: Nullable(Type.Number()),
      geoPrecision: Type.Integer({
        description: 'How exact the coordinates are: 0 house, 1 street, 2 settlement, 3 city, 4 region, 5 none',
      }),
      quality: Type.String({ description: 'certain, check (a person should look) or unrecognised' }),
      result: Nullable(Type.String({ description: "The address written the register's way" })),
      finding: Nullable(Type.String({ description: words.finding })),
    },
    { description: words.description },
  );
}

/** model.ts's StructuredAddress. */
export const StructuredAddress = Type.Object(
  {
    postalCode: Text(6),
    country: Type.String({ maxLength: 100 }),
    countryIsoCode: Type.String({ maxLength: 2 }),
    federalDistrict: Text(100),
    regionFiasId: Text(36),
    regionKladrId: Text(19),
    regionIsoCode: Text(6),
    regionWithType: Text(200),
    regionType: Text(20),
    regionTypeFull: Text(50),
    region: Text(200),
    areaFiasId: Text(36),
    areaKladrId: Text(19),
    areaWithType: Text(200),
    areaType: Text(20),
    areaTypeFull: Text(50),
    area: Text(200),
    cityFiasId: Text(36),
    cityKladrId: Text(19),
    cityWithType: Text(200),
    cityType: Text(20),
    cityTypeFull: Text(50),
    city: Text(200),
    cityDistrictFiasId: Text(36),
    cityDistrictWithType: Text(200),
    cityDistrictType: Text(20),
    cityDistrictTypeFull: Text(50),
    cityDistrict: Text(200),
    settlementFiasId: Text(36),
    settlementKladrId: Text(19),
    settlementWithType: Text(200),
    settlementType: Text(20),
    settlementTypeFull: Text(50),
    settlement: Text(200),
    streetFiasId: Text(36),
    streetKladrId: Text(19),
    streetWithType: Text(200),
    streetType: Text(20),
    streetTypeFull: Text(50),
    street: Text(200),
    houseFiasId: Text(36),
    houseKladrId: Text(19),
    houseType: Text(20, 'д, влд, зд …'),
    houseTypeFull: Text(50),
    house: Text(50, 'The number as the register writes it, fractions kept: 12/2, 5А'),
    blockType: Text(20, 'к (корпус) or стр (строение)'),
    blockTypeFull: Text(50),
    block: Text(50, '2, or "2 стр 1" for a корпус with a строение (DaData’s convention)'),
    flatFiasId: Text(36),
    flatType: Text(20),
    flatTypeFull: Text(50),
    flat: Text(50),
    fiasId: Text(36, 'The most exact level found'),
    fiasLevel: Type.Integer({
      minimum: -1,
      maximum: 65,
      description:
        '1 region, 3 area, 4 city, 5 city district, 6 settlement, 65 planning structure, 7 street, 8 house, 9 flat; -1 not found',
    }),
    kladrId: Text(19),
    okato: Text(11),
    oktmo: Text(11),
    capitalMarker: Type.Union(
      [Type.Literal('0'), Type.Literal('1'), Type.Literal('2'), Type.Literal('3'), Type.Literal('4')],
      {
        description:
          "DaData's capital marker: '0' none, '1' an area's centre, '2' the region's centre, '3' both, '4' the country's capital",
      },
    ),
    geoLat: Nullable(Type.Number({ minimum: -90, maximum: 90 })),
    geoLon: Nullable(Type.Number({ minimum: -180, maximum: 180 })),
    qcGeo: Type.Integer({
      minimum: 0,
      maximum: 5,
      description: 'How exact the coordinates are: 0 house, 1 street, 2 settlement, 3 city, 4 region, 5 none',
    }),
  },
  { description: 'StructuredAddress' },
);

export const AddressSuggestion = Type.Object(
  {
    value: Type.String({ description: 'The address on one line, without the region where the city names it' }),
    unrestrictedValue: Type.String({ description: 'The address on one line with the postcode and the region' }),
    data: StructuredAddress,
  },
  { description: 'AddressSuggestion' },
);
export type AddressSuggestionOut = Static<typeof AddressSuggestion>;

export const AddressSuggestions = Type.Object({ suggestions: Type.Array(AddressSuggestion) });

export const SuggestQuery = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 300, description: 'What the buyer typed so far' }),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
  locality: Type.Optional({ ...FiasId, description: 'Only under this city or settlement (its FIAS id)' }),
  region: Type.Optional(
    Type.String({
      pattern: '^([0-9]{1,2}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
      maxLength: 36,
      'x-message': 'must be a region code (77) or a region FIAS id',
      description: 'Only in this region: its code (77) or FIAS id',
    }),
  ),
  fromLevel: Type.Optional(AddressBound),
  toLevel: Type.Optional(AddressBound),
});
export type SuggestQuery = Static<typeof SuggestQuery>;

export const FiasIdParams = Type.Object({ fiasId: FiasId });

export const GeolocateQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lon: Type.Number({ minimum: -180, maximum: 180 }),
  radius: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'metres' })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
});
export type GeolocateQuery = Static<typeof GeolocateQuery>;

const CleanText = Type.String({ minLength: 1, maxLength: 500 });

export const CleanInput = Type.Object({
  address: Type.Optional({ ...CleanText, description: 'One address as typed' }),
  addresses: Type.Optional(Type.Array(CleanText, { minItems: 1, maxItems: 50, description: 'Up to 50 addresses' })),
});
export type CleanInput = Static<typeof CleanInput>;

export const CleanedAddress = Type.Object(
  {
    ...StructuredAddress.properties,
    source: Type.String(),
    result: Nullable(Type.String()),
    quality: Type.Union([Type.Literal('certain'), Type.Literal('check'), Type.Literal('unrecognised')], {
      description: 'certain: found as typed or with safe changes; check: a person should look; unrecognised',
    }),
    changes: Type.Array(Type.String(), { description: 'What cleaning changed or added' }),
    unparsed: Nullable(Type.String({ description: 'Parts of the text nothing matched' })),
  },
  { description: 'CleanedAddress' },
);
export const CleanedAddresses = Type.Object({ addresses: Type.Array(CleanedAddress) });

/** The shop's own DaData key: a setting of the account. */
export const AddressSettingsInput = Type.Object({
  dadataApiKey: Nullable(
    Type.String({ minLength: 20, maxLength: 100, description: 'DaData API key; null removes it. Never shown again' }),
  ),
  dadataSecretKey: Type.Optional(
    Nullable(
      Type.String({ minLength: 20, maxLength: 100, description: 'DaData secret key (cleaning); null removes it' }),
    ),
  ),
});
export type AddressSettingsInput = Static<typeof AddressSettingsInput>;

export const AddressSettings = Type.Object(
  {
    dadataApiKey: Nullable(Type.String({ description: 'Masked: ****1234; null when none is set' })),
    dadataSecretKey: Nullable(Type.String({ description: 'Masked; null when none is set' })),
  },
  { description: 'AddressSettings' },
);

// ---- DaData-compatible shapes ----

/** DaData's `locations` item: any of these restricts suggestions (all within one item must hold). */
const DadataLocationFilter = Type.Object(
  {
    country_iso_code: Type.Optional(Type.String({ maxLength: 2 })),
    country: Type.Optional(Type.String({ maxLength: 100 })),
    region_fias_id: Type.Optional(Type.String({ maxLength: 36 })),
    region_type_full: Type.Optional(Type.String({ maxLength: 50 })),
    region: Type.Optional(Type.String({ maxLength: 200 })),
    kladr_id: Type.Optional(Type.String({ maxLength: 19 })),
    area_fias_id: Type.Optional(Type.String({ maxLength: 36 })),
    area: Type.Optional(Type.String({ maxLength: 200 })),
    city_fias_id: Type.Optional(Type.String({ maxLength: 36 })),
    city: Type.Optional(Type.String({ maxLength: 200 })),
    settlement_fias_id: Type.Optional(Type.String({ maxLength: 36 })),
    settlement: Type.Optional(Type.String({ maxLength: 200 })),
    street_fias_id: Type.Optional(Type.String({ maxLength: 36 })),
    street: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);

const DadataBound = Type.Object({ value: Type.String({ maxLength: 20 }) });

export const DadataSuggestInput = Type.Object({
  query: Type.String({ maxLength: 300 }),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
  language: Type.Optional(Type.String({ maxLength: 2 })),
  division: Type.Optional(Type.String({ maxLength: 20 })),
  locations: Type.Optional(Type.Array(DadataLocationFilter, { maxItems: 50 })),
  locations_geo: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 50 })),
  locations_boost: Type.Optional(
    Type.Array(Type.Object({ kladr_id: Type.Optional(Type.String({ maxLength: 19 })) }), { maxItems: 50 }),
  ),
  restrict_value: Type.Optional(Type.Boolean()),
  from_bound: Type.Optional(DadataBound),
  to_bound: Type.Optional(DadataBound),
});
export type DadataSuggestInput = Static<typeof DadataSuggestInput>;

export const DadataFindByIdInput = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 100 }),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
  language: Type.Optional(Type.String({ maxLength: 2 })),
});

export const DadataGeolocateInput = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lon: Type.Number({ minimum: -180, maximum: 180 }),
  radius_meters: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
  language: Type.Optional(Type.String({ maxLength: 2 })),
});

/** DaData's `data` of an address: every field it documents, null where unknown. */
export const DadataAddressData = Type.Object(
  Object.fromEntries(
    [
      'postal_code',
      'country',
      'country_iso_code',
      'federal_district',
      'region_fias_id',
      'region_kladr_id',
      'region_iso_code',
      'region_with_type',
      'region_type',
      'region_type_full',
      'region',
      'area_fias_id',
      'area_kladr_id',
      'area_with_type',
      'area_type',
      'area_type_full',
      'area',
      'city_fias_id',
      'city_kladr_id',
      'city_with_type',
      'city_type',
      'city_type_full',
      'city',
      'city_area',
      'city_district_fias_id',
      'city_district_kladr_id',
      'city_district_with_type',
      'city_district_type',
      'city_district_type_full',
      'city_district',
      'settlement_fias_id',
      'settlement_kladr_id',
      'settlement_with_type',
      'settlement_type',
      'settlement_type_full',
      'settlement',
      'street_fias_id',
      'street_kladr_id',
      'street_with_type',
      'street_type',
      'street_type_full',
      'street',
      'stead_fias_id',
      'stead_cadnum',
      'stead_type',
      'stead_type_full',
      'stead',
      'house_fias_id',
      'house_kladr_id',
      'house_cadnum',
      'house_type',
      'house_type_full',
      'house',
      'block_type',
      'block_type_full',
      'block',
      'entrance',
      'floor',
      'flat_fias_id',
      'flat_cadnum',
      'flat_type',
      'flat_type_full',
      'flat',
      'flat_area',
      'square_meter_price',
      'flat_price',
      'postal_box',
      'fias_id',
      'fias_code',
      'fias_level',
      'fias_actuality_state',
      'kladr_id',
      'geoname_id',
      'capital_marker',
      'okato',
      'oktmo',
      'tax_office',
      'tax_office_legal',
      'timezone',
      'geo_lat',
      'geo_lon',
      'beltway_hit',
      'beltway_distance',
      'metro',
      'divisions',
      'qc_geo',
      'qc_complete',
      'qc_house',
      'history_values',
      'unparsed_parts',
      'source',
      'result',
      'qc',
    ].map((name) => [name, Type.Optional(Type.Unknown())]),
  ) as Record<string, TSchema>,
);

export const DadataSuggestion = Type.Object({
  value: Type.String(),
  unrestricted_value: Type.String(),
  data: DadataAddressData,
});
export const DadataSuggestions = Type.Object(
  { suggestions: Type.Array(DadataSuggestion) },
  { description: 'DaData suggestions answer' },
);

export const DadataCleanInput = Type.Array(Type.String({ maxLength: 500 }), { minItems: 1, maxItems: 50 });

/** One answer of DaData's cleaning: the address fields at the top level, with source, result and the quality codes. */
export const DadataCleanAnswer = Type.Array(DadataAddressData);

/** DaData's status of a key's suggestions, as its components read it (`search: true` or they report an error). */
export const DadataStatus = Type.Object(
  {
    search: Type.Boolean(),
    enrich: Type.Boolean(),
    state: Type.String(),
    count: Type.Integer(),
    resources: Type.Array(Type.String()),
  },
  { description: 'DaData status answer' },
);

export const DadataLocation = Type.Object({ location: Type.Null() }, { description: 'DaData iplocate answer' });
