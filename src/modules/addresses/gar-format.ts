/**
 * The register's published XML (ФНС, ГАР: the `gar_xml` and `gar_delta_xml` archives, one folder
 * per region code and the type lists at the root) as far as the import reads it: which file is
 * which by its name, its root and row elements, and the attributes a row must have. Names as the
 * register's XSD (gar_schemas) spells them. Files the import does not read (steads, rooms, car
 * places, normative documents, change history) are left alone.
 */

export type GarFileKind =
  | 'objects'
  | 'objectParams'
  | 'houses'
  | 'houseParams'
  | 'flats'
  | 'flatParams'
  | 'admHierarchy'
  | 'munHierarchy'
  | 'objectTypes'
  | 'houseTypes'
  | 'addHouseTypes'
  | 'apartmentTypes'
  | 'objectLevels'
  | 'paramTypes';

export interface GarFileFormat {
  /** The file's name up to its date: AS_HOUSES_20240101_<guid>.XML. */
  prefix: string;
  root: string;
  row: string;
  /** Attributes a row must carry: a file without them is not the register's. */
  required: readonly string[];
  /** Attributes that must be whole numbers (ids): anything else is not the register's. */
  numeric?: readonly string[];
  /** Type lists lie at the archive's root, the rest in a region's folder. */
  perRegion: boolean;
}

export const GAR_FILES: Readonly<Record<GarFileKind, GarFileFormat>> = {
  objects: {
    prefix: 'AS_ADDR_OBJ',
    root: 'ADDRESSOBJECTS',
    row: 'OBJECT',
    required: ['OBJECTID', 'OBJECTGUID', 'CHANGEID', 'NAME', 'TYPENAME', 'LEVEL', 'ISACTUAL', 'ISACTIVE'],
    numeric: ['OBJECTID', 'CHANGEID', 'LEVEL'],
    perRegion: true,
  },
  objectParams: { prefix: 'AS_ADDR_OBJ_PARAMS', ...params() },
  houses: {
    prefix: 'AS_HOUSES',
    root: 'HOUSES',
    row: 'HOUSE',
    required: ['OBJECTID', 'OBJECTGUID', 'CHANGEID', 'ISACTUAL', 'ISACTIVE'],
    numeric: ['OBJECTID', 'CHANGEID'],
    perRegion: true,
  },
  houseParams: { prefix: 'AS_HOUSES_PARAMS', ...params() },
  flats: {
    prefix: 'AS_APARTMENTS',
    root: 'APARTMENTS',
    row: 'APARTMENT',
    required: ['OBJECTID', 'OBJECTGUID', 'CHANGEID', 'NUMBER', 'APARTTYPE', 'ISACTUAL', 'ISACTIVE'],
    numeric: ['OBJECTID', 'CHANGEID'],
    perRegion: true,
  },
  flatParams: { prefix: 'AS_APARTMENTS_PARAMS', ...params() },
  admHierarchy: {
    prefix: 'AS_ADM_HIERARCHY',
    root: 'ITEMS',
    row: 'ITEM',
    required: ['OBJECTID', 'CHANGEID', 'ISACTIVE'],
    numeric: ['OBJECTID', 'CHANGEID'],
    perRegion: true,
  },
  munHierarchy: {
    prefix: 'AS_MUN_HIERARCHY',
    root: 'ITEMS',
    row: 'ITEM',
    required: ['OBJECTID', 'CHANGEID', 'ISACTIVE'],
    numeric: ['OBJECTID', 'CHANGEID'],
    perRegion: true,
  },
  objectTypes: {
    prefix: 'AS_ADDR_OBJ_TYPES',
    root: 'ADDRESSOBJECTTYPES',
    row: 'ADDRESSOBJECTTYPE',
    required: ['ID', 'LEVEL', 'SHORTNAME', 'NAME', 'ISACTIVE'],
    perRegion: false,
  },
  // the additions' types have the houses' root and row elements (the register's XSD)
  houseTypes: { prefix: 'AS_HOUSE_TYPES', ...houseTypes() },
  addHouseTypes: { prefix: 'AS_ADDHOUSE_TYPES', ...houseTypes() },
  apartmentTypes: {
    prefix: 'AS_APARTMENT_TYPES',
    root: 'APARTMENTTYPES',
    row: 'APARTMENTTYPE',
    required: ['ID', 'NAME', 'ISACTIVE'],
    perRegion: false,
  },
  objectLevels: {
    prefix: 'AS_OBJECT_LEVELS',
    root: 'OBJECTLEVELS',
    row: 'OBJECTLEVEL',
    required: ['LEVEL', 'NAME', 'ISACTIVE'],
    perRegion: false,
  },
  paramTypes: {
    prefix: 'AS_PARAM_TYPES',
    root: 'PARAMTYPES',
    row: 'PARAMTYPE',
    required: ['ID', 'NAME', 'CODE', 'ISACTIVE'],
    perRegion: false,
  },
};

function params(): Omit<GarFileFormat, 'prefix'> {
  return {
    root: 'PARAMS',
    row: 'PARAM',
    required: ['OBJECTID', 'CHANGEID', 'TYPEID', 'VALUE', 'ENDDATE'],
    numeric: ['OBJECTID', 'CHANGEID', 'TYPEID'],
    perRegion: true,
  };
}

function houseTypes(): Omit<GarFileFormat, 'prefix'> {
  return { root: 'HOUSETYPES', row: 'HOUSETYPE', required: ['ID', 'NAME', 'ISACTIVE'], perRegion: false };
}

/** AS_PARAM_TYPES ids of the parameters the import keeps (the register's list: 5 postcode, 6 OKATO, 7 OKTMO, 10 KLADR code). */
export const PARAM_TYPE = { postcode: 5, okato: 6, oktmo: 7, kladr: 10 } as const;
export const KEPT_PARAM_TYPES: ReadonlySet<number> = new Set(Object.values(PARAM_TYPE));

const KIND_BY_PREFIX = new Map(Object.entries(GAR_FILES).map(([kind, format]) => [format.prefix, kind as GarFileKind]));

/**
 * The kind of a file by its name: the prefix, then the register's date (AS_ADDR_OBJ_20240101_…),
 * which keeps AS_ADDR_OBJ_PARAMS_… from passing for AS_ADDR_OBJ_…. Null for files the import skips.
 */
export function garFileKind(fileName: string): GarFileKind | null {
  const match = /^(AS_[A-Z_]+?)_\d{8}_.*\.xml$/i.exec(fileName);
  return match ? (KIND_BY_PREFIX.get(match[1].toUpperCase()) ?? null) : null;
}

/** A flag of the register: integers (1/0) in the data, booleans (true/false) in the type lists. */
export function garFlag(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

/** The order a region's files are read in: what later files join to (objects and hierarchy) first. */
export const REGION_FILE_ORDER: readonly GarFileKind[] = [
  'objects',
  'admHierarchy',
  'munHierarchy',
  'objectParams',
  'houses',
  'houseParams',
  'flats',
  'flatParams',
];

export const TYPE_FILE_ORDER: readonly GarFileKind[] = [
  'objectTypes',
  'houseTypes',
  'addHouseTypes',
  'apartmentTypes',
  'objectLevels',
  'paramTypes',
];
