/**
 * The reference data of this instance, in memory (the calculator reads it on every call)
 * and in the database (lists, other processes). Built deterministically from data/ and the
 * GeoNames package; written to the database only when its version changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { CarrierRegistry, type AccountCompanies } from '../../carriers/registry.js';
import { distanceKm } from '../../carriers/geo.js';
import { generatePoints, NO_POINT_LIMITS, type DeliveryPoint } from '../../carriers/points.js';
import type { CompaniesFile, CompanyFile } from '../../carriers/tariff/rate-card.js';
import type { ImportedPoint, TrackingLinkMaker } from '../../carriers/types.js';
import { dataFilePath, readDataFile } from '../../platform/reference-data.js';
import { LocalityDirectory } from '../localities/directory.js';
import { buildLocalities, geoNamesVersion, type Locality } from '../localities/source.js';
import type { ReferenceStore } from './store.js';

/** Bump when the generator's output changes for the same input files. */
const GENERATOR_VERSION = '3';
const DATA_FILES = [
  'carriers/companies.json',
  'localities/big-cities.json',
  'localities/ru-regions.json',
  'localities/ru-postal-prefixes.json',
];

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
  /** Generated points of the built-in networks, and the imported ones of real companies by company. */
  private generatedPoints: DeliveryPoint[] = [];
  private readonly importedPoints = new Map<number, DeliveryPoint[]>();

  constructor(
    private readonly store: ReferenceStore,
    private readonly options: {
      publicUrl: string;
      dataDir: string;
      trackingLink: TrackingLinkMaker;
      accountCompanies?: () => AccountCompanies | null;
    },
  ) {
    this.file = readDataFile<CompaniesFile>('carriers/companies.json');
    this.registry = new CarrierRegistry(
      options.publicUrl,
      this.file.zoneLimitsKm,
      options.trackingLink,
      options.accountCompanies,
    );
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
    const version = this.version();
    const written = force || (await this.store.loadedVersion('carriers')) !== version;
    // The stored localities are the built ones of this version (test: reference-data.test.ts);
    // reading them spares each start the gazetteer's parse (a worker's 300 ms).
    const localities = written ? await buildLocalities() : await this.store.localities();
    const points = generatePoints(this.file.companies, localities);
    this.loadedLocalities = new LocalityDirectory(localities);
    for (const company of [...this.file.companies, ...this.extraCompanies()]) this.registry.add(company);
    this.generatedPoints = points;
    if (written) await this.store.replaceAll('carriers', version, localities, points);
    await this.reloadImportedPoints();
    return { written, localities: localities.length, points: points.length };
  }

  /** Reads the real companies' imported points again (another process may have imported). */
  async reloadImportedPoints(): Promise<void> {
    this.importedPoints.clear();
    for (const point of await this.store.importedPoints()) push(this.importedPoints, point.companyId, point);
    this.publishPoints();
  }

  /**
   * A point as an order named it: a visible one from memory, else the stored one, hidden
   * since (imported points are hidden when gone from their directory, never deleted).
   */
  async pointIncludingHidden(id: number): Promise<DeliveryPoint | undefined> {
    return this.registry.point(id) ?? (await this.store.pointById(id));
  }

  private publishPoints(): void {
    this.registry.setPoints([...this.generatedPoints, ...[...this.importedPoints.values()].flat()]);
  }

  /**
   * Makes a real company's points what its directory now holds (stored, then served by the
   * calculator and lists). Each point goes to the locality of its city (the nearest one when
   * the name is unknown or far off); limits carry the directory's maximum weight.
   */
  async replaceImportedPoints(
    companyId: number,
    company: Pick<CompanyFile, 'pointLimits'>,
    imported: ImportedPoint[],
  ): Promise<{ visible: number; added: number; hidden: number }> {
    const points: Array<Omit<DeliveryPoint, 'id'> & { code: string }> = [];
    for (const item of imported) {
      if (item.countryCode.toUpperCase() !== 'RU') continue;
      const locality = this.localityOf(item);
      if (!locality) continue;
      const limits = company.pointLimits?.[String(item.type)] ?? NO_POINT_LIMITS;
      points.push({
        code: item.code,
        companyId,
        localityId: locality.id,
        type: item.type,
        name: item.name,
        latitude: item.latitude,
        longitude: item.longitude,
        description: item.description,
        address: item.address,
        zipCode: item.postalCode ?? locality.zip ?? '',
        schedule: item.schedule,
        district: null,
        metro: null,
        photos: null,
        fittingAvailable: item.fittingAvailable,
        checkupAvailable: false,
        partialBuyoutAvailable: false,
        cashPaymentAvailable: item.cashPaymentAvailable,
        cardPaymentAvailable: item.cardPaymentAvailable,
        limits: { ...limits, maxWeight: item.maxWeightGrams !== null ? item.maxWeightGrams / 1000 : limits.maxWeight },
        union: `${companyId}:${item.code}`,
      });
    }
    const result = await this.store.replaceImported(companyId, points);
    this.importedPoints.set(companyId, result.points);
    this.publishPoints();
    return { visible: result.points.length, added: result.added, hidden: result.hidden };
  }

  private localityOf(point: ImportedPoint): Locality | undefined {
    const named = this.localities.find({ name: point.city, zipCode: point.postalCode ?? undefined });
    if (named && distanceKm(named.latitude, named.longitude, point.latitude, point.longitude) <= NAMED_LOCALITY_KM)
      return named;
    let nearest: Locality | undefined;
    let nearestKm = Infinity;
    for (const locality of this.localities.all) {
      if (Math.abs(locality.latitude - point.latitude) > 1) continue;
      const km = distanceKm(locality.latitude, locality.longitude, point.latitude, point.longitude);
      if (km < nearestKm) {
        nearest = locality;
        nearestKm = km;
      }
    }
    return nearest;
  }
}

/** A point named after a city this far from the city's centre is not in it (another place of that name). */
const NAMED_LOCALITY_KM = 80;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
