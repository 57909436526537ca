/** Reference lists of delivery: services, companies, pickup points, courier intervals, shipment methods. */
import type { Scope } from '../../platform/auth.js';
import { addDays, todayIn } from '../../platform/clock.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { Page, Paging } from '../../platform/paging.js';
import { readDataFile } from '../../platform/reference-data.js';
import { covers, type DeliveryPoint } from '../../carriers/points.js';
import type { Company } from '../../carriers/registry.js';
import { LocalityDirectory } from '../localities/directory.js';
import { regionKey } from '../localities/names.js';
import type { Locality } from '../localities/source.js';
import type { ShopService } from '../shops/service.js';
import { WAREHOUSE_TYPE, type Warehouse } from '../warehouses/schemas.js';
import { closedReason } from '../warehouses/working-days.js';
import { addWorkingDays } from '../calculator/rules.js';
import { courierIntervalsIn } from './courier-intervals.js';
import type { ReferenceData } from './reference.js';
import type {
  CourierInterval,
  CourierScheduleQuery,
  MergedWarehouse,
  OrderShipmentQuery,
  PickupCompany,
  PickupCompanyOffer,
  PointItem,
  PointsQuery,
  ShipmentOption,
  WarehouseShipment,
  WarehouseShipmentQuery,
} from './schemas.js';
import type { ReferenceStore } from './store.js';

interface MergedWarehouseFile extends Omit<MergedWarehouse, 'schedule' | 'photos' | 'description'> {
  localityId: number;
  description: string[] | null;
}

/** The service's consolidated pickup (type 3): its price, free from `countForFree` orders, in cities this large; its own courier takes comments. */
const CONSOLIDATED_PICKUP = { minPriceRoubles: 500, countForFree: 10, minPopulation: 500000, commentAvailable: true };
const MERGED_SCHEDULE = [...Array(6).fill({ from: '09:00', to: '20:00' }), null];
/** Options of GET /v2/orders/shipment: the next working days a parcel can leave. */
const SHIPMENT_DAYS = 3;
const DROP_OFF_POINTS_SHOWN = 50;
/** Without a warehouse the days are Monday to Friday: nothing else is known. */
const NO_HOLIDAYS: ReadonlySet<string> = new Set();

export function toPointItem(point: DeliveryPoint): PointItem {
  return {
    id: point.id,
    name: point.name,
    deliveryCompanyId: point.companyId,
    longitude: String(point.longitude),
    latitude: String(point.latitude),
    type: point.type,
    description: point.description,
    address: point.address,
    zipCode: point.zipCode,
    schedule: point.schedule,
    district: point.district,
    metro: point.metro,
    photos: point.photos,
    fittingAvailable: point.fittingAvailable,
    checkupAvailable: point.checkupAvailable,
    partialBuyoutAvailable: point.partialBuyoutAvailable,
    cashPaymentAvailable: point.cashPaymentAvailable,
    cardPaymentAvailable: point.cardPaymentAvailable,
    limits: point.limits,
  };
}

export class DeliveryCompanyService {
  private readonly mergedWarehouses: MergedWarehouseFile[];

  constructor(
    private readonly reference: ReferenceData,
    private readonly store: ReferenceStore,
    private readonly shops: ShopService,
  ) {
    this.mergedWarehouses = readDataFile<MergedWarehouseFile[]>('carriers/merged-warehouses.json');
  }

  async services(
    scope: Scope,
    shopId: number | undefined,
  ): Promise<{ delivery: Array<{ id: number; name: string }>; packing: Array<{ id: number; name: string }> }> {
    let fulfilment = false;
    if (shopId !== undefined)
      fulfilment = (await this.shops.get(scope, shopId)).warehouse.type === WAREHOUSE_TYPE.fulfilment;
    const pick = (group: 'delivery' | 'packing') =>
      this.reference.services
        .filter((service) => service.group === group && (fulfilment || !service.fulfilment))
        .map(({ id, name }) => ({ id, name }));
    return { delivery: pick('delivery'), packing: pick('packing') };
  }

  deliveryCompanies(): Array<{ id: number; name: string; logo: string; deliveryTypes: number[] }> {
    return this.reference.registry.all().map(({ company }) => ({
      id: company.id,
      name: company.name,
      logo: company.logo,
      deliveryTypes: company.deliveryTypes,
    }));
  }

  returnCompanies(): Array<{ id: number; name: string; logo: string }> {
    return this.reference.returnCompanies.map((company) => ({
      id: company.id,
      name: company.name,
      logo: this.reference.registry.get(company.id)?.company.logo ?? '',
    }));
  }

  async points(query: PointsQuery, paging: Paging): Promise<Page<PointItem>> {
    let localityId: number | undefined;
    if (query.cityFias) {
      const locality = this.reference.localities.byFiasOrOwnId(query.cityFias);
      if (!locality) return { items: [], total: 0 };
      localityId = locality.id;
    }
    const page = await this.store.listPoints(
      {
        id: query.id,
        companyId: query.companyId,
        localityId,
        countryCode: query.country?.toUpperCase(),
        types: query.types as number[] | undefined,
      },
      paging,
    );
    return { items: page.items.map(toPointItem), total: page.total };
  }

  async courierSchedule(scope: Scope, query: CourierScheduleQuery): Promise<CourierInterval[]> {
    await this.shops.get(scope, query.shopId);
    const entry = this.reference.registry.get(query.companyId);
    if (!entry)
      throw new AppError(400, 'unknown_company', `Delivery company ${query.companyId} does not exist.`, [
        { field: 'companyId', message: 'is not a delivery company' },
      ]);
    if (query.date < todayIn(scope.timeZone))
      throw new AppError(400, 'validation_failed', 'date: must be today or later.', [
        { field: 'date', message: 'must be today or later' },
      ]);
    const locality = this.reference.localities.find({
      fias: query.cityFias,
      name: query.cityName,
      region: query.cityRegion,
    });
    if (!locality)
      throw new AppError(400, 'unknown_locality', `The locality ${query.cityName} was not found.`, [
        { field: 'cityName', message: 'is not a known locality' },
      ]);
    return courierIntervalsIn(entry.company, locality);
  }

  warehouseShipment(query: WarehouseShipmentQuery): WarehouseShipment {
    const country = query.countryCode.toUpperCase();
    if (country === 'RU' && !query.region)
      throw new AppError(400, 'validation_failed', 'region: is required when countryCode is RU.', [
        { field: 'region', message: 'is required when countryCode is RU' },
      ]);
    const empty: WarehouseShipment = {
      '1': { available: false, companies: [] },
      '2': { available: false, mergedWarehouses: [] },
      '3': { available: false, companies: [], minPrice: 0, countForFree: 0 },
      '4': { available: false, companies: [] },
      companiesForExceptions: [],
    };
    if (country !== 'RU') return empty;
    const places = this.placesOf(query.region ?? '', query.fias);
    if (places.length === 0) return empty;
    const companies = this.reference.registry.all().map(({ company }) => company);
    const serving = (company: Company) => places.some((locality) => covers(company, locality));
    const withDirect = (company: Company): PickupCompany => ({
      id: company.id,
      name: company.name,
      directPickupAvailable: company.pickup?.direct ?? false,
      directTransportAvailable: company.pickup?.dropOff ?? false,
      directTransportPoints: query.fias && places.length === 1 ? this.dropOffPoints(company.id, places[0].id) : [],
    });
    const dropOff = companies.filter((company) => company.pickup?.dropOff && serving(company)).map(withDirect);
    const direct = companies.filter((company) => company.pickup?.direct && serving(company)).map(withDirect);
    const merged = this.mergedWarehouses
      .filter((warehouse) => places.some((locality) => locality.id === warehouse.localityId))
      .map(({ localityId: _ignored, ...warehouse }) => ({ ...warehouse, photos: null, schedule: MERGED_SCHEDULE }));
    const consolidated = places.some((locality) => locality.population >= CONSOLIDATED_PICKUP.minPopulation);
    const consolidating = consolidated
      ? companies.filter((company) => serving(company)).map((company) => ({ id: company.id, name: company.name }))
      : [];
    return {
      '1': { available: dropOff.length > 0, companies: dropOff },
      '2': { available: merged.length > 0, mergedWarehouses: merged },
      '3': {
        available: consolidating.length > 0,
        companies: consolidating,
        minPrice: consolidated ? CONSOLIDATED_PICKUP.minPriceRoubles : 0,
        countForFree: consolidated ? CONSOLIDATED_PICKUP.countForFree : 0,
      },
      '4': { available: direct.length > 0, companies: direct },
      companiesForExceptions: companies
        .filter((company) => serving(company) && (company.pickup?.dropOff || company.pickup?.direct))
        .map(withDirect),
    };
  }

  /**
   * GET /v2/pickups/companies: who collects from a warehouse's locality by consolidated pickup
   * (3) or by its own courier (4). Read from warehouseShipment's answer and the same company
   * cards, so the two answers cannot say different things.
   */
  pickupCompanies(
    city: { countryCode: string; region: string | null; fias: string | null },
    type: 3 | 4,
  ): PickupCompanyOffer[] {
    if (!city.region && !city.fias) return [];
    const shipment = this.warehouseShipment({
      countryCode: city.countryCode,
      region: city.region ?? undefined,
      fias: city.fias ?? undefined,
    });
    if (type === 3) {
      const consolidated = shipment['3'];
      return consolidated.companies.map((company) => ({
        id: company.id,
        name: company.name,
        price: consolidated.minPrice,
        countFree: consolidated.countForFree,
        commentAvailable: CONSOLIDATED_PICKUP.commentAvailable,
      }));
    }
    return shipment['4'].companies.map((company) => {
      const card = this.reference.registry.get(company.id)?.company.pickup;
      return {
        id: company.id,
        name: company.name,
        price: card?.pricePickup ?? 0,
        countFree: card?.countFree ?? 0,
        commentAvailable: card?.commentAvailable ?? false,
      };
    });
  }

  /**
   * For the account's companies: the built-ins and its contracted ones (an order may name those,
   * so they have options too). With the shop's own warehouse known (Shop-Id), a direct shipment's
   * days skip its holidays and days off: an order waiting for a pickup on one is refused.
   */
  async orderShipment(
    scope: Scope,
    query: OrderShipmentQuery,
    warehouse: Pick<Warehouse, 'type' | 'holidays' | 'schedule'> | null = null,
  ): Promise<ShipmentOption[]> {
    const entry = await this.reference.registry.companyOf(scope.accountId, query.companyId);
    if (!entry) throw notFound('Delivery company', query.companyId);
    if ((query.countryCode ?? 'RU').toUpperCase() !== 'RU') return [];
    const places = this.placesOf(query.region, query.fias);
    const { company } = entry;
    const pickup = company.pickup;
    const mode = query.pickupType === 1 ? pickup?.dropOff : pickup?.direct;
    if (!mode || !places.some((locality) => covers(company, locality))) return [];
    const city =
      query.fias && places.length === 1
        ? places[0]
        : places.reduce(
            (largest, locality) => (locality.population > largest.population ? locality : largest),
            places[0],
          );
    const points =
      query.pickupType === 1
        ? this.reference.registry
            .pointsIn(company.id, city.id)
            .slice(0, DROP_OFF_POINTS_SHOWN)
            .map((point) => ({
              id: point.id,
              name: point.name,
              address: point.address,
              latitude: String(point.latitude),
              longitude: String(point.longitude),
              type: point.type,
            }))
        : [];
    const collectedFrom = query.pickupType === 4 && warehouse?.type === WAREHOUSE_TYPE.own ? warehouse : null;
    const options: ShipmentOption[] = [];
    let day = addDays(todayIn(scope.timeZone), 1);
    for (let tried = 0; options.length < SHIPMENT_DAYS && tried < 366; tried++) {
      day = addWorkingDays(day, 0, NO_HOLIDAYS);
      if (collectedFrom && closedReason(collectedFrom, day)) {
        day = addDays(day, 1);
        continue;
      }
      options.push({
        pickupDate: {
          from: `${day}T${query.pickupType === 1 ? '09:00' : '10:00'}:00`,
          to: `${day}T${query.pickupType === 1 ? '20:00' : '18:00'}:00`,
        },
        pricePickup: query.pickupType === 4 ? (pickup?.pricePickup ?? 0) : 0,
        pickupPointRequired: query.pickupType === 1 ? (pickup?.pickupPointRequired ?? false) : false,
        points,
      });
      day = addDays(day, 1);
    }
    return options;
  }

  /** The localities of a region, or the one city of `fias`. */
  private placesOf(region: string, fias: string | undefined): Locality[] {
    if (fias) {
      const city = this.reference.localities.byFiasOrOwnId(fias);
      return city ? [city] : [];
    }
    const wanted = regionKey(region);
    return this.reference.localities.all.filter((locality) => regionKey(locality.region) === wanted);
  }

  private dropOffPoints(companyId: number, localityId: number): Array<{ id: number; address: string }> {
    return this.reference.registry
      .pointsIn(companyId, localityId)
      .slice(0, DROP_OFF_POINTS_SHOWN)
      .map((point) => ({ id: point.id, address: point.address }));
  }

  static fiasOf(locality: Locality): string {
    return LocalityDirectory.fiasOf(locality);
  }
}
