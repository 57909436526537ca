import type { Id } from '../../platform/db/column-types.js';

/**
 * The federal address register (ГАР, formerly ФИАС) as the service keeps it: reference data shared by
 * every account (no account_id), read by suggestions, cleaning and order creation. Ids are the
 * register's own: OBJECTID (stable across the register's versions) and OBJECTGUID (the "FIAS id"
 * shops and DaData know).
 */
export interface AddressTables {
  /** Address objects: regions, areas, cities, settlements, planning structures, streets (AS_ADDR_OBJ). */
  address_objects: {
    object_id: number;
    guid: string;
    /** NAME as the register writes it: "Ленина", "Москва". */
    name: string;
    /** TYPENAME, the short type: "ул", "г", "пр-кт", "обл". */
    type_short: string;
    /** The register's LEVEL: 1 region, 2 autonomous area, 3 municipal district, 4 settlement (municipal), 5 city, 6 locality, 7 planning structure, 8 street … */
    level: number;
    /** The administrative hierarchy's parent (AS_ADM_HIERARCHY PARENTOBJID); null for a region. */
    parent_id: number | null;
    /** The municipal hierarchy's parent (AS_MUN_HIERARCHY), where it differs. */
    mun_parent_id: number | null;
    region_code: number;
    postcode: string | null;
    okato: string | null;
    oktmo: string | null;
    kladr: string | null;
    lat: number | null;
    lon: number | null;
    /** Where the coordinates come from: 'house' | 'street' | 'locality' | 'region' (DaData's qc_geo 0..4 maps to these). */
    geo_precision: string | null;
    /** How often it is chosen or how big it is (houses under a street, population of a locality): ranks suggestions. */
    popularity: number;
    /** The name normalised for search (lower case, ё → е, no punctuation): see search-key.ts. */
    search_key: string;
    /** The change (CHANGEID) this row comes from: a delta replaces a row only with a later change. */
    change_id: number;
  };
  /** Houses (AS_HOUSES): a parent street or locality, the number and up to two additions (корпус, строение). */
  address_houses: {
    object_id: number;
    guid: string;
    parent_id: number;
    house_num: string | null;
    add_num1: string | null;
    add_num2: string | null;
    /** AS_HOUSE_TYPES id (2 дом, 5 здание …) and AS_ADDHOUSE_TYPES ids (1 корпус, 2 строение …). */
    house_type: number | null;
    add_type1: number | null;
    add_type2: number | null;
    region_code: number;
    postcode: string | null;
    okato: string | null;
    oktmo: string | null;
    lat: number | null;
    lon: number | null;
    geo_precision: string | null;
    /** "12к2с1": number and additions, normalised, for prefix search within a street. */
    search_key: string;
    change_id: number;
  };
  /** Flats and premises (AS_APARTMENTS) where the register has them. */
  address_flats: {
    object_id: number;
    guid: string;
    house_id: number;
    number: string;
    /** AS_APARTMENT_TYPES id (2 квартира, 1 помещение, 3 офис …). */
    apart_type: number | null;
    region_code: number;
    postcode: string | null;
    change_id: number;
  };
  /** The register's type lists: kind 'object' (AS_ADDR_OBJ_TYPES), 'house', 'addhouse', 'apartment'. */
  address_types: {
    kind: string;
    code: string;
    level: number | null;
    short_name: string;
    full_name: string;
  };
  /** Imports run: a region is visible only once whole, and a stopped run resumes from the first region not done. */
  address_imports: {
    id: Id;
    source: string;
    /** 'full' | 'delta' | 'osm' */
    kind: string;
    /** The register's version date (from the archive's name or version.txt), yyyy-mm-dd. */
    version: string | null;
    /** 'running' | 'done' | 'failed' */
    state: string;
    /** JSON: the regions (or files) done so far, with their counts. */
    progress: string;
    message: string | null;
    started_at: string;
    finished_at: string | null;
  };
  /** The import's staging (migration 0097): a region's rows as read, before they move into the tables above. */
  address_stage_objects: {
    object_id: number;
    guid: string;
    name: string;
    type_short: string;
    level: number;
    search_key: string;
    change_id: number;
    /** 1 when ISACTUAL and ISACTIVE; a delta's 0 removes the row. */
    alive: number;
  };
  address_stage_houses: {
    object_id: number;
    guid: string;
    house_num: string | null;
    add_num1: string | null;
    add_num2: string | null;
    house_type: number | null;
    add_type1: number | null;
    add_type2: number | null;
    search_key: string;
    change_id: number;
    alive: number;
  };
  address_stage_flats: {
    object_id: number;
    guid: string;
    number: string;
    apart_type: number | null;
    change_id: number;
    alive: number;
  };
  /** Items of the administrative ('adm') and municipal ('mun') hierarchies. */
  address_stage_hierarchy: {
    kind: string;
    object_id: number;
    parent_id: number | null;
    change_id: number;
    alive: number;
  };
  /** The parameters kept (postcode, OKATO, OKTMO, KLADR code), current ones only. */
  address_stage_params: {
    object_id: number;
    type_id: number;
    value: string;
    change_id: number;
  };
}
