/**
 * The reference data of this instance, in memory (the calculator reads it on every call)
 * and in the database (lists, other processes). Built deterministically from data/ and the
 * GeoNames package; written to the database only when its version changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { CarrierRegistry } from '../../carriers/registry.js';
import { generatePoints } from '../../carriers/points.js';
import type { CompaniesFile, CompanyFile } from '../../carriers/tariff/rate-card.js';
import type { TrackingLinkMaker } from '../../carriers/types.js';
import { dataFilePath, readDataFile } from '../../platform/reference-data.js';
import { LocalityDirectory } from '../localities/directory.js';
import { buildLocalities, geoNamesVersion } from '../localities/source.js';
import type { ReferenceStore } from './store.js';

/** Bump when the generator's output changes for the same input files. */
const GENERATOR_VERSION = '2';
const DATA_FILES = ['carriers/companies.json', 'localities/big-cities.json', 'localities/ru-regions.json', 'localities/ru-postal-prefixes.json'];

export interface ServiceInfo {
  id: number;
  name: string;
  nameEn: string;
  group: 'delivery' | 'packing';
  fulfilment?: boolean;
}

export interface ReturnCompany {
  id: number;
  name: string;
  code: string;
}

export class ReferenceData {
  private loadedLocalities: LocalityDirectory | null = null;
  readonly registry: CarrierRegistry;
  readonly services: ServiceInfo[];
  readonly returnCompanies: ReturnCompany[];
  private readonly file: CompaniesFile;

  constructor(
    private readonly store: ReferenceStore,
    private readonly options: { publicUrl: string; dataDir: string; trackingLink: TrackingLinkMaker },
  ) {
    this.file = readDataFile<CompaniesFile>('carriers/companies.json');
    this.registry = new CarrierRegistry(options.publicUrl, this.file.zoneLimitsKm, options.trackingLink);
    this.services = readDataFile<{ services: ServiceInfo[] }>('carriers/services.json').services;
    this.returnCompanies = readDataFile<ReturnCompany[]>('carriers/return-companies.json');
  }

  get localities(): LocalityDirectory {
    if (!this.loadedLocalities) throw new Error('Reference data is not loaded: call importReferenceData() at start');
    return this.loadedLocalities;
  }

  /** Companies of the operator (DATA_DIR/carriers.json, e.g. http companies), beside the built-in ones. */
  private extraCompanies(): CompanyFile[] {
    const file = path.join(this.options.dataDir, 'carriers.json');
    if (!fs.existsSync(file)) return [];
    return JSON.parse(fs.readFileSync(file, 'utf8')) as CompanyFile[];
  }

  version(): string {
    const hash = createHash('sha256').update(`${GENERATOR_VERSION}|geonames ${geoNamesVersion()}`);
    for (const name of DATA_FILES) hash.update(fs.readFileSync(dataFilePath(name)));
    return hash.digest('hex').slice(0, 32);
  }

  /** Loads everything in memory; writes the database only when the data version changed (or `force`). */
  async load(force = false): Promise<{ written: boolean; localities: number; points: number }> {
    const localities = buildLocalities();
    const points = generatePoints(this.file.companies, localities);
    this.loadedLocalities = new LocalityDirectory(localities);
    for (const company of [...this.file.companies, ...this.extraCompanies()]) this.registry.add(company);
    this.registry.setPoints(points);
    const version = this.version();
    const written = force || (await this.store.loadedVersion('carriers')) !== version;
    if (written) await this.store.replaceAll('carriers', version, localities, points);
    return { written, localities: localities.length, points: points.length };
  }
}
