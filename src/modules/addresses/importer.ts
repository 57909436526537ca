/**
 * The register import: the type lists, then region after region, each read into the staging
 * tables and moved into the register's tables in one transaction with the run's progress, so a
 * region is visible only once whole and a stopped run (Ctrl-C, a crash, a corrupt file) resumes
 * from the first region not done when the same command runs again. Memory stays bounded: rows go
 * to the database in batches as they are read; parents and parameters are joined there.
 */
import path from 'node:path';
import type { LocalityDirectory } from '../localities/directory.js';
import { nameKey, regionKey } from '../localities/names.js';
import type { Locality } from '../localities/source.js';
import {
  GAR_FILES,
  KEPT_PARAM_TYPES,
  REGION_FILE_ORDER,
  TYPE_FILE_ORDER,
  garFlag,
  type GarFileKind,
} from './gar-format.js';
import { GarFileError, readGarRows, type GarRow } from './gar-reader.js';
import { openGarSource, type GarEntry, type GarSource } from './gar-source.js';
import type { AddressImportStore, LocalityCandidate, LocalityFix, RegionCounts, StageTable } from './import-store.js';
import { houseSearchKey, searchKey } from './search-key.js';

export interface RegisterImportOptions {
  /** One region's folder only (77), else every region of the source. */
  region?: number;
  /** A delta archive: its rows replace ours of an earlier change, its ISACTUAL/ISACTIVE 0 remove them. */
  delta?: boolean;
  /** A line of progress for the operator (rows a second). */
  onProgress?: (line: string) => void;
  /** Called once a region is committed (tests stop a run here). */
  afterRegion?: (region: number) => void | Promise<void>;
}

export interface RegisterImportResult {
  importId: number;
  resumed: boolean;
  version: string | null;
  regions: Record<string, RegionCounts>;
  /** Register rows read (every file of every region this run imported). */
  rowsRead: number;
  seconds: number;
}

interface Progress {
  types: boolean;
  region: number | null;
  regions: Record<string, RegionCounts>;
}

/** Rows staged per transaction: few commits (SQLite syncs at each), short enough not to hold the service's writes long. */
const ROWS_PER_COMMIT = 20_000;
const PROGRESS_EVERY_MS = 5000;

export class RegisterImporter {
  private localitiesByName: Map<string, Locality[]> | null = null;

  constructor(
    private readonly store: AddressImportStore,
    private readonly localities: () => LocalityDirectory | null,
  ) {}

  async importRegister(location: string, options: RegisterImportOptions = {}): Promise<RegisterImportResult> {
    const started = performance.now();
    const source = await openSource(location);
    try {
      return await this.run(source, path.resolve(location), options, started);
    } finally {
      await source.close();
    }
  }

  private async run(
    source: GarSource,
    location: string,
    options: RegisterImportOptions,
    started: number,
  ): Promise<RegisterImportResult> {
    const kind = options.delta ? 'delta' : 'full';
    const regions = [...new Set(source.entries.map((entry) => entry.region).filter((region) => region !== null))]
      .filter((region) => options.region === undefined || region === options.region)
      .sort((a, b) => a - b);
    if (options.region !== undefined && regions.length === 0)
      throw new GarFileError(
        location,
        0,
        `нет папки региона ${pad(options.region)}`,
        `there is no folder of region ${pad(options.region)}`,
      );
    const sourceKey = options.region === undefined ? location : `${location} --region ${pad(options.region)}`;
    const unfinished = await this.store.unfinishedImport(sourceKey, kind);
    let progress: Progress = { types: false, region: options.region ?? null, regions: {} };
    let importId: number;
    if (unfinished) {
      importId = unfinished.id;
      progress = JSON.parse(unfinished.progress) as Progress;
      await this.store.resumeImport(importId);
      options.onProgress?.(
        `Resuming import ${importId}: ${Object.keys(progress.regions).length} region(s) done / продолжаем импорт ${importId}`,
      );
    } else importId = await this.store.startImport(sourceKey, kind, source.version, JSON.stringify(progress));

    let rowsRead = 0;
    try {
      if (!progress.types) {
        rowsRead += await this.importTypes(source, options);
        progress.types = true;
        await this.store.saveProgress(this.store.db, importId, JSON.stringify(progress));
      }
      for (const region of regions) {
        if (progress.regions[pad(region)]) continue;
        const regionStarted = performance.now();
        await this.store.clearStaging();
        const entries = source.entries.filter((entry) => entry.region === region);
        for (const fileKind of REGION_FILE_ORDER)
          for (const entry of entries.filter((candidate) => candidate.kind === fileKind))
            rowsRead += await this.stageFile(source, entry, options);
        const counts = await this.store.db.transaction().execute(async (trx) => {
          const moved = await this.store.moveRegion(trx, region, options.delta === true);
          await this.store.fixLocalities(trx, this.matchLocalities(await this.store.localityCandidates(trx, region)));
          progress.regions[pad(region)] = moved;
          await this.store.saveProgress(trx, importId, JSON.stringify(progress));
          return moved;
        });
        await this.store.clearStaging();
        options.onProgress?.(
          `Region ${pad(region)} done: ${counts.objects} objects, ${counts.houses} houses, ${counts.flats} flats ` +
            `in ${((performance.now() - regionStarted) / 1000).toFixed(1)} s / регион ${pad(region)} загружен`,
        );
        await options.afterRegion?.(region);
      }
      await this.store.finishImport(importId, 'done', null);
    } catch (error) {
      await this.store.clearStaging().catch(() => undefined);
      await this.store
        .finishImport(importId, 'failed', error instanceof Error ? error.message : String(error))
        .catch(() => undefined);
      throw error;
    }
    return {
      importId,
      resumed: unfinished !== undefined,
      version: source.version,
      regions: progress.regions,
      rowsRead,
      seconds: (performance.now() - started) / 1000,
    };
  }

  /** The type lists at the root: each kind present replaces ours. */
  private async importTypes(source: GarSource, options: RegisterImportOptions): Promise<number> {
    const rows: Array<{ kind: string; code: string; level: number | null; short_name: string; full_name: string }> = [];
    const kinds = new Set<string>();
    for (const fileKind of TYPE_FILE_ORDER) {
      for (const entry of source.entries.filter(
        (candidate) => candidate.kind === fileKind && candidate.region === null,
      )) {
        const typeKind = TYPE_KIND[fileKind];
        if (!typeKind) continue;
        kinds.add(typeKind);
        for await (const batch of readGarRows(await source.open(entry), entry.path, GAR_FILES[fileKind])) {
          for (const row of batch) {
            if (!garFlag(row.ISACTIVE)) continue;
            rows.push(typeRow(typeKind, row));
          }
        }
      }
    }
    if (rows.length > 0) await this.store.replaceTypes(rows, [...kinds]);
    options.onProgress?.(`Type lists: ${rows.length} types / справочники типов: ${rows.length}`);
    return rows.length;
  }

  /** One file of a region into the staging tables, committed every ROWS_PER_COMMIT rows. */
  private async stageFile(source: GarSource, entry: GarEntry, options: RegisterImportOptions): Promise<number> {
    const convert = CONVERTERS[entry.kind];
    if (!convert) return 0;
    const keepGone = options.delta === true;
    const today = new Date().toISOString().slice(0, 10);
    const batches = readGarRows(await source.open(entry), entry.path, GAR_FILES[entry.kind])[Symbol.asyncIterator]();
    const fileStarted = performance.now();
    let lastReport = fileStarted;
    let read = 0;
    let finished = false;
    while (!finished) {
      await this.store.db.transaction().execute(async (trx) => {
        let inThisCommit = 0;
        while (inThisCommit < ROWS_PER_COMMIT) {
          const next = await batches.next();
          if (next.done) {
            finished = true;
            return;
          }
          read += next.value.length;
          inThisCommit += next.value.length;
          const values: Array<Array<string | number | null>> = [];
          for (const row of next.value) {
            const converted = convert.row(row, keepGone, today);
            if (converted) values.push(converted);
          }
          await this.store.stage(trx, convert.table, values);
        }
      });
      const now = performance.now();
      if (options.onProgress && (finished || now - lastReport > PROGRESS_EVERY_MS)) {
        lastReport = now;
        const rate = Math.round(read / ((now - fileStarted) / 1000 || 1));
        options.onProgress(`  ${entry.path}: ${read} rows, ${rate} rows/s`);
      }
    }
    return read;
  }

  /** The register's localities matched to ours: by FIAS id, else by name within the region. */
  private matchLocalities(candidates: LocalityCandidate[]): LocalityFix[] {
    const directory = this.localities();
    if (!directory) return [];
    const regionObject = candidates.find((candidate) => candidate.level === 1);
    const wantedRegion = regionObject ? regionKey(`${regionObject.name} ${regionObject.typeShort}`) : null;
    this.localitiesByName ??= groupByName(directory.all);
    const fixes: LocalityFix[] = [];
    for (const candidate of candidates) {
      let locality = directory.byFiasOrOwnId(candidate.guid);
      if (!locality && candidate.level !== 1 && wantedRegion !== null) {
        locality = this.localitiesByName
          .get(nameKey(candidate.name))
          ?.find((known) => regionKey(known.region) === wantedRegion || regionKey(known.name) === wantedRegion);
      }
      if (locality)
        fixes.push({
          objectId: candidate.objectId,
          lat: locality.latitude,
          lon: locality.longitude,
          population: locality.population,
        });
    }
    return fixes;
  }
}

async function openSource(location: string): Promise<GarSource> {
  try {
    return await openGarSource(location);
  } catch (error) {
    throw new GarFileError(
      location,
      0,
      `не папка и не архив ZIP реестра (${(error as Error).message})`,
      `neither a folder nor a ZIP archive of the register (${(error as Error).message})`,
    );
  }
}

function pad(region: number): string {
  return String(region).padStart(2, '0');
}

/** Most populous first, so a name met twice in a region takes the city rather than the village. */
function groupByName(localities: readonly Locality[]): Map<string, Locality[]> {
  const byName = new Map<string, Locality[]>();
  for (const locality of localities) {
    const key = nameKey(locality.name);
    const list = byName.get(key);
    if (list) list.push(locality);
    else byName.set(key, [locality]);
  }
  for (const list of byName.values()) list.sort((a, b) => b.population - a.population);
  return byName;
}

const TYPE_KIND: Partial<Record<GarFileKind, string>> = {
  objectTypes: 'object',
  houseTypes: 'house',
  addHouseTypes: 'addhouse',
  apartmentTypes: 'apartment',
  objectLevels: 'level',
  paramTypes: 'param',
};

function typeRow(
  kind: string,
  row: GarRow,
): { kind: string; code: string; level: number | null; short_name: string; full_name: string } {
  if (kind === 'level')
    return {
      kind,
      code: row.LEVEL,
      level: Number(row.LEVEL),
      short_name: row.SHORTNAME || row.NAME,
      full_name: row.NAME,
    };
  return {
    kind,
    code: row.ID,
    level: row.LEVEL !== undefined ? Number(row.LEVEL) : null,
    short_name: (kind === 'param' ? row.CODE : row.SHORTNAME) || row.NAME,
    full_name: row.NAME,
  };
}

type StagedRow = Array<string | number | null>;

interface Converter {
  table: StageTable;
  /** The staged row, or null for a row not kept (gone, in a full import; a parameter not kept or ended). */
  row(row: GarRow, keepGone: boolean, today: string): StagedRow | null;
}

const alive = (row: GarRow): number => (garFlag(row.ISACTUAL) && garFlag(row.ISACTIVE) ? 1 : 0);
const optionalInteger = (value: string | undefined): number | null =>
  value !== undefined && /^\d+$/.test(value) && value !== '0' ? Number(value) : null;
const optionalText = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value);

function hierarchy(kind: 'adm' | 'mun'): Converter {
  return {
    table: 'address_stage_hierarchy',
    row: (row, keepGone) => {
      const active = garFlag(row.ISACTIVE) ? 1 : 0;
      if (!active && !keepGone) return null;
      return [kind, Number(row.OBJECTID), optionalInteger(row.PARENTOBJID), Number(row.CHANGEID), active];
    },
  };
}

const params: Converter = {
  table: 'address_stage_params',
  row: (row, _keepGone, today) => {
    const type = Number(row.TYPEID);
    if (!KEPT_PARAM_TYPES.has(type) || row.ENDDATE.slice(0, 10) <= today) return null;
    return [Number(row.OBJECTID), type, row.VALUE, Number(row.CHANGEID)];
  },
};

const CONVERTERS: Partial<Record<GarFileKind, Converter>> = {
  objects: {
    table: 'address_stage_objects',
    row: (row, keepGone) => {
      const isAlive = alive(row);
      if (!isAlive && !keepGone) return null;
      return [
        Number(row.OBJECTID),
        row.OBJECTGUID.toLowerCase(),
        row.NAME,
        row.TYPENAME,
        Number(row.LEVEL),
        searchKey(row.NAME),
        Number(row.CHANGEID),
        isAlive,
      ];
    },
  },
  houses: {
    table: 'address_stage_houses',
    row: (row, keepGone) => {
      const isAlive = alive(row);
      if (!isAlive && !keepGone) return null;
      const num = optionalText(row.HOUSENUM);
      const add1 = optionalText(row.ADDNUM1);
      const add2 = optionalText(row.ADDNUM2);
      const addType1 = optionalInteger(row.ADDTYPE1);
      const addType2 = optionalInteger(row.ADDTYPE2);
      return [
        Number(row.OBJECTID),
        row.OBJECTGUID.toLowerCase(),
        num,
        add1,
        add2,
        optionalInteger(row.HOUSETYPE),
        addType1,
        addType2,
        houseSearchKey(num, add1, add2, addType1, addType2),
        Number(row.CHANGEID),
        isAlive,
      ];
    },
  },
  flats: {
    table: 'address_stage_flats',
    row: (row, keepGone) => {
      const isAlive = alive(row);
      if (!isAlive && !keepGone) return null;
      return [
        Number(row.OBJECTID),
        row.OBJECTGUID.toLowerCase(),
        row.NUMBER,
        optionalInteger(row.APARTTYPE),
        Number(row.CHANGEID),
        isAlive,
      ];
    },
  },
  admHierarchy: hierarchy('adm'),
  munHierarchy: hierarchy('mun'),
  objectParams: params,
  houseParams: params,
  flatParams: params,
};
