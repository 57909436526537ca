/**
 * Delivery promises: every arrived parcel is counted in the distributions of its route and its
 * fall-backs; a quote, a widget offer and an order read a promise from them. The distributions
 * live in memory (the hot path reads a few map entries); a process reads them whole once and
 * then the parcels that arrived since, every 30 seconds, whichever process recorded them.
 */
import type { Locality } from '../../carriers/types.js';
import { BoundedMap } from '../../platform/cache.js';
import { BusinessCalendar } from './calendar.js';
import { simulatedTransitDays, unitOf } from './delay-model.js';
import { promiseOf, type DeliveryPromise, type Place, type Route } from './distribution.js';
import { HistogramSet } from './history.js';
import type { Db, DeliveryPromiseStore, Observation } from './store.js';

/** Seconds between reads of the parcels other processes recorded. */
const REFRESH_MS = 30_000;
/** Parcels read per refresh step. */
const REFRESH_BATCH = 5000;

export function placeOf(locality: Pick<Locality, 'id' | 'regionCode' | 'latitude' | 'longitude'>): Place {
  return {
    id: locality.id,
    regionCode: locality.regionCode,
    latitude: locality.latitude,
    longitude: locality.longitude,
  };
}

/** An arrival to count: the order's route, declared days and promise, and the two days. */
export interface Arrival {
  accountId: number;
  orderId: number | null;
  route: Route;
  fromName: string;
  toName: string;
  handedOver: string;
  arrived: string;
  /** Working days the company declared (the order's promise keeps them). */
  declared: { min: number; max: number } | null;
  promise: { p90Days: number; byDate: string; basis: string } | null;
  /**
   * A built-in company's simulated parcel, whose journey runs in minutes: its days are the delay
   * model's for this order, and the arrival day follows from them.
   */
  simulated: boolean;
}

export class DeliveryPromiseService {
  readonly calendar = BusinessCalendar.russian();
  private histograms = new HistogramSet();
  private lastId = 0;
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  /** Promises made since the distributions were last read (emptied by each read). */
  private made = new BoundedMap<string, DeliveryPromise>(50_000);

  constructor(
    private readonly store: DeliveryPromiseStore,
    private readonly options: { enabled: boolean },
  ) {}

  get enabled(): boolean {
    return this.options.enabled;
  }

  /**
   * The promise of a route handed over on `handOverDate`, from what is in memory now (a stale
   * read starts a refresh in the background); null when promises are off.
   */
  promiseFor(route: Route, declared: { min: number; max: number }, handOverDate: string): DeliveryPromise | null {
    if (!this.options.enabled) return null;
    if (Date.now() - this.loadedAt > REFRESH_MS && !this.loading) void this.refresh().catch(() => undefined);
    // a quote asks the same routes again and again between refreshes: four keys and a walk saved
    const key = `${route.companyId}|${route.deliveryType}|${route.tariff}|${route.from.id}|${route.to.id}|${declared.min}|${declared.max}|${handOverDate}`;
    let promise = this.made.get(key);
    if (!promise) {
      promise = promiseOf(
        (histogramKey) => this.histograms.get(histogramKey),
        route,
        declared,
        handOverDate,
        this.calendar,
      );
      this.made.set(key, promise);
    }
    return promise;
  }

  /** Reads the distributions (whole the first time, then the parcels recorded since). */
  refresh(): Promise<void> {
    if (!this.loading) {
      this.loading = this.readNew().finally(() => {
        this.loading = null;
      });
    }
    return this.loading;
  }

  private async readNew(): Promise<void> {
    if (this.loadedAt === 0) {
      const { rows, lastId } = await this.store.snapshot();
      const fresh = new HistogramSet();
      for (const row of rows) fresh.addToKey(row.key, row.days, row.parcels);
      this.histograms = fresh;
      this.lastId = lastId;
    } else {
      for (;;) {
        const batch = await this.store.since(this.lastId, REFRESH_BATCH);
        for (const parcel of batch) this.histograms.add(parcel.route, parcel.days);
        if (batch.length > 0) this.lastId = batch[batch.length - 1].id;
        if (batch.length < REFRESH_BATCH) break;
      }
    }
    this.loadedAt = Date.now();
    this.made = new BoundedMap<string, DeliveryPromise>(50_000);
  }

  /** Counts an arrival, in the transaction of the status that made it. */
  async record(arrival: Arrival, db?: Db): Promise<void> {
    await this.store.record([this.observationOf(arrival)], db);
  }

  /** Counts many arrivals at once (a generated history); read back by the next refresh. */
  async recordMany(observations: Observation[]): Promise<void> {
    await this.store.transaction((trx) => this.store.record(observations, trx));
  }

  observationOf(arrival: Arrival): Observation {
    let days = this.calendar.businessDaysBetween(arrival.handedOver, arrival.arrived);
    let arrived = arrival.arrived;
    if (arrival.simulated && arrival.declared) {
      let roll = 0;
      const seed = `${arrival.accountId}:${arrival.orderId}`;
      days = simulatedTransitDays(arrival.route, arrival.declared, arrival.handedOver, () =>
        unitOf(`delay:${seed}:${roll++}`),
      );
      arrived = this.calendar.addBusinessDays(arrival.handedOver, days);
    }
    return {
      accountId: arrival.accountId,
      orderId: arrival.orderId,
      route: arrival.route,
      fromName: arrival.fromName,
      toName: arrival.toName,
      handedOver: arrival.handedOver,
      arrived,
      days,
      promisedDays: arrival.promise?.p90Days ?? null,
      promisedBy: arrival.promise?.byDate ?? null,
      promiseBasis: arrival.promise?.basis ?? null,
      declaredDays: arrival.declared?.max ?? null,
      generated: false,
    };
  }
}
