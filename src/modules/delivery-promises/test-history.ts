/**
 * A history of delivered parcels for a test account (the sandbox) and for the back-test: the
 * built-in companies' routes from the account's warehouses' cities to the country's biggest
 * localities, each parcel's days from the delay model. A test account's promise then has
 * something to learn from within a second.
 */
import { distanceKm } from '../../carriers/geo.js';
import type { DeliveryType, Locality } from '../../carriers/types.js';
import { addDays } from '../../platform/clock.js';
import type { ReferenceData } from '../companies/reference.js';
import type { WarehouseService } from '../warehouses/service.js';
import type { Scope } from '../../platform/auth.js';
import { promiseOf, type DeliveryPromise } from './distribution.js';
import { generateHistory, HistogramSet, type HistoryParcel, type HistoryRoute } from './history.js';
import { placeOf, type DeliveryPromiseService } from './service.js';
import type { Observation } from './store.js';

/** Recipients of a generated history: the biggest localities of the senders' country. */
const RECIPIENT_LOCALITIES = 60;
/** Cities a history is sent from at most (each is 60 recipients × every built-in company's quote). */
const SENDER_CITIES_AT_MOST = 5;
const TYPES: DeliveryType[] = [1, 2, 3];
const ONE_KILOGRAM = {
  weightGrams: 1000,
  volumeCm3: 6000,
  places: [{ sidesCm: [30, 20, 10] as [number, number, number], weightGrams: 1000 }],
};

export class DeliveryHistoryMaker {
  constructor(
    private readonly promises: DeliveryPromiseService,
    private readonly reference: ReferenceData,
  ) {}

  /** The built-in companies' routes from the senders to the biggest localities, with their declared days. */
  async routesFrom(all: Locality[]): Promise<HistoryRoute[]> {
    // a request's work bounded: an account of fifty warehouses gets the history of its first cities
    const senders = all.slice(0, SENDER_CITIES_AT_MOST);
    const countries = new Set(senders.map((sender) => sender.countryCode));
    const recipients = this.reference.localities.all
      .filter((locality) => countries.has(locality.countryCode))
      .sort((a, b) => b.population - a.population)
      .slice(0, RECIPIENT_LOCALITIES);
    const builtIn = this.reference.registry.all().filter((entry) => entry.driver.code === 'tariff');
    const routes: HistoryRoute[] = [];
    const signal = new AbortController().signal;
    for (const sender of senders) {
      for (const recipient of recipients) {
        for (const entry of builtIn) {
          const quotes = await entry.driver.quote(
            {
              types: TYPES,
              sender: quotePlaceOf(sender),
              recipient: quotePlaceOf(recipient),
              distanceKm: distanceKm(sender.latitude, sender.longitude, recipient.latitude, recipient.longitude),
              cargo: ONE_KILOGRAM,
              priceMode: 1,
            },
            signal,
          );
          for (const quote of quotes) {
            routes.push({
              route: {
                companyId: entry.company.id,
                deliveryType: quote.type,
                tariff: quote.tariffName,
                from: placeOf(sender),
                to: placeOf(recipient),
              },
              declared: quote.days,
              // parcels go where people are: a route's share by the recipients' population
              weight: Math.sqrt(recipient.population),
            });
          }
        }
      }
    }
    return routes;
  }

  /** Writes `parcels` delivered parcels of the last `days` days for the account; answers what was made. */
  async generate(
    accountId: number,
    senders: Locality[],
    options: { parcels: number; days: number; today: string },
  ): Promise<{ parcels: number; routes: number; firstDay: string; lastDay: string }> {
    const routes = await this.routesFrom(senders);
    const lastDay = addDays(options.today, -1);
    const firstDay = addDays(options.today, -options.days);
    const parcels = generateHistory(
      routes,
      { parcels: options.parcels, firstDay, lastDay, seed: accountId * 7919 + options.parcels },
      this.promises.calendar,
    ).filter((parcel) => parcel.arrivalDate <= lastDay);
    // each parcel promised what the parcels handed over before it had taught (a new shop's first ones: the declaration)
    const learnt = new HistogramSet();
    const observations = parcels.map((parcel) => {
      const promise = promiseOf(
        (key) => learnt.get(key),
        parcel.route,
        parcel.declared,
        parcel.handOverDate,
        this.promises.calendar,
      );
      learnt.add(parcel.route, parcel.days);
      return this.observationOf(accountId, parcel, promise);
    });
    await this.promises.recordMany(observations);
    await this.promises.refresh();
    return { parcels: observations.length, routes: routes.length, firstDay, lastDay };
  }

  private observationOf(accountId: number, parcel: HistoryParcel, promise: DeliveryPromise): Observation {
    return {
      accountId,
      orderId: null,
      route: parcel.route,
      fromName: this.reference.localities.get(parcel.route.from.id)?.name ?? String(parcel.route.from.id),
      toName: this.reference.localities.get(parcel.route.to.id)?.name ?? String(parcel.route.to.id),
      handedOver: parcel.handOverDate,
      arrived: parcel.arrivalDate,
      days: parcel.days,
      promisedDays: promise.p90Days,
      promisedBy: promise.byDate,
      promiseBasis: promise.basis,
      declaredDays: parcel.declared.max,
      generated: true,
    };
  }
}

function quotePlaceOf(locality: Locality) {
  return {
    latitude: locality.latitude,
    longitude: locality.longitude,
    regionCode: locality.regionCode,
    localityId: locality.id,
    population: locality.population,
    name: locality.name,
    postalCode: locality.zip,
    countryCode: locality.countryCode,
  };
}

/** The localities of an account's own warehouses (where its parcels leave from), found in the directory. */
export async function senderLocalitiesOf(
  warehouses: Pick<WarehouseService, 'list'>,
  reference: ReferenceData,
  scope: Scope,
): Promise<Locality[]> {
  const page = await warehouses.list(scope, {}, { page: 1, perPage: 50, offset: 0 }, null);
  const found = new Map<number, Locality>();
  for (const warehouse of page.items) {
    const { city } = warehouse.address;
    const locality = reference.localities.find({
      countryCode: city.countryCode,
      fias: city.fias,
      name: city.name,
      region: city.region,
    });
    if (locality) found.set(locality.id, locality);
  }
  return [...found.values()];
}
