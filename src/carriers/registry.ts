/** The delivery companies of this instance: their data, their drivers, their pickup points. */
import { distanceKm } from './geo.js';
import { HttpDriver } from './http/driver.js';
import type { DeliveryPoint } from './points.js';
import type { CompanyFile } from './tariff/rate-card.js';
import { toRateCard } from './tariff/rate-card.js';
import { TariffDriver } from './tariff/driver.js';
import type { CarrierDriver, TrackingLinkMaker } from './types.js';

/** Nearest points kept per company and place, and how many places are remembered. */
const NEARBY_CANDIDATES = 40;
const NEARBY_CACHE_SIZE = 20000;

export interface Company extends CompanyFile {
  logo: string;
}

export interface RegisteredCompany {
  company: Company;
  driver: CarrierDriver;
}

/** The companies an account ships with: the built-in ones and its own contracted real ones (modules/carrier-integrations). */
export interface AccountCompanies {
  companiesOf(accountId: number): Promise<RegisteredCompany[]>;
  companyOf(accountId: number, companyId: number): Promise<RegisteredCompany | undefined>;
  /** Whether the account's contract with a real company is the company's test environment's. */
  isTestMode(accountId: number, companyId: number): Promise<boolean>;
}

export class CarrierRegistry {
  private readonly entries = new Map<number, RegisteredCompany>();
  private readonly pointsById = new Map<number, DeliveryPoint>();
  private readonly pointsByCompanyLocality = new Map<string, DeliveryPoint[]>();
  private readonly pointsByCompany = new Map<number, DeliveryPoint[]>();
  private readonly pointsByLocality = new Map<number, DeliveryPoint[]>();
  private readonly nearby = new Map<string, DeliveryPoint[]>();
  /** Changes whenever companies or points change: answers computed before are stale. */
  generation = 0;

  constructor(
    private readonly publicUrl: string,
    private readonly zoneLimitsKm: number[],
    /** The public tracking page link of the built-in companies' parcels. */
    private readonly trackingLink: TrackingLinkMaker,
    /**
     * The accounts' own contracts, which add real companies to what each account ships with.
     * They need this registry to be built: a declared dependency read once requests run
     * (null: the instance's companies only).
     */
    private readonly contracts: () => AccountCompanies | null = () => null,
  ) {}

  private get accountCompanies(): AccountCompanies | null {
    return this.contracts();
  }

  /** Adds (or replaces) a company with the driver its `driver` field names. */
  add(file: CompanyFile): RegisteredCompany {
    const company: Company = { ...file, logo: `${this.publicUrl}/logos/${file.code}.svg` };
    let driver: CarrierDriver;
    if (file.driver === 'http') {
      if (!file.baseUrl) throw new Error(`Company ${file.id} uses the http driver but has no baseUrl`);
      driver = new HttpDriver(file.id, file.baseUrl);
    } else {
      driver = new TariffDriver(file, toRateCard(file, this.zoneLimitsKm), this.trackingLink);
    }
    const entry = { company, driver };
    this.entries.set(file.id, entry);
    this.generation += 1;
    return entry;
  }

  /** Every company the account ships with (the instance's, plus its contracted real ones). */
  companiesOf(accountId: number): Promise<RegisteredCompany[]> {
    return this.accountCompanies ? this.accountCompanies.companiesOf(accountId) : Promise.resolve(this.all());
  }

  /** A company as the account ships with it: a real one only under the account's own contract. */
  companyOf(accountId: number, companyId: number): Promise<RegisteredCompany | undefined> {
    return this.accountCompanies
      ? this.accountCompanies.companyOf(accountId, companyId)
      : Promise.resolve(this.get(companyId));
  }

  /** Whether the account ships with a company through a contract in the company's test environment (never for built-in ones). */
  isTestMode(accountId: number, companyId: number): Promise<boolean> {
    return this.accountCompanies ? this.accountCompanies.isTestMode(accountId, companyId) : Promise.resolve(false);
  }

  remove(companyId: number): void {
    this.entries.delete(companyId);
    this.generation += 1;
  }

  get(companyId: number): RegisteredCompany | undefined {
    return this.entries.get(companyId);
  }

  all(): RegisteredCompany[] {
    return [...this.entries.values()].sort((a, b) => a.company.id - b.company.id);
  }

  setPoints(points: DeliveryPoint[]): void {
    this.pointsById.clear();
    this.pointsByCompanyLocality.clear();
    this.pointsByCompany.clear();
    this.pointsByLocality.clear();
    this.nearby.clear();
    this.generation += 1;
    for (const point of points) {
      this.pointsById.set(point.id, point);
      push(this.pointsByCompanyLocality, `${point.companyId}:${point.localityId}`, point);
      push(this.pointsByCompany, point.companyId, point);
      push(this.pointsByLocality, point.localityId, point);
    }
  }

  point(id: number): DeliveryPoint | undefined {
    return this.pointsById.get(id);
  }

  pointsIn(companyId: number, localityId: number): DeliveryPoint[] {
    return this.pointsByCompanyLocality.get(`${companyId}:${localityId}`) ?? [];
  }

  pointsOfLocality(localityId: number): DeliveryPoint[] {
    return this.pointsByLocality.get(localityId) ?? [];
  }

  /** The company's points nearest to a place (within `withinKm`) that `accept` takes, closest first. */
  nearestPoints(
    companyId: number,
    latitude: number,
    longitude: number,
    count: number,
    withinKm: number,
    accept: (point: DeliveryPoint) => boolean,
  ): DeliveryPoint[] {
    const found: DeliveryPoint[] = [];
    for (const point of this.nearbyCandidates(companyId, latitude, longitude, withinKm)) {
      if (!accept(point)) continue;
      found.push(point);
      if (found.length === count) break;
    }
    return found;
  }

  /** Up to NEARBY_CANDIDATES closest points of a company around a place, remembered (the same towns are asked again and again). */
  private nearbyCandidates(companyId: number, latitude: number, longitude: number, withinKm: number): DeliveryPoint[] {
    const key = `${companyId}:${latitude}:${longitude}:${withinKm}`;
    const known = this.nearby.get(key);
    if (known) return known;
    const latitudeSpan = withinKm / 111;
    const found: Array<{ point: DeliveryPoint; km: number }> = [];
    for (const point of this.pointsByCompany.get(companyId) ?? []) {
      if (Math.abs(point.latitude - latitude) > latitudeSpan) continue;
      const km = distanceKm(latitude, longitude, point.latitude, point.longitude);
      if (km <= withinKm) found.push({ point, km });
    }
    const candidates = found
      .sort((a, b) => a.km - b.km)
      .slice(0, NEARBY_CANDIDATES)
      .map((entry) => entry.point);
    if (this.nearby.size >= NEARBY_CACHE_SIZE) this.nearby.clear();
    this.nearby.set(key, candidates);
    return candidates;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
