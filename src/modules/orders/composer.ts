/**
 * Making and pricing an order's document (create, replace, duplicate): the request checked
 * against the shop, its warehouse, the catalogue and the chosen company, the delivery
 * priced by the calculator. Reads only; service.ts writes what this makes.
 */
import type { Scope } from '../../platform/auth.js';
import { todayIn } from '../../platform/clock.js';
import { AppError, FieldErrorCollector } from '../../platform/errors.js';
import { gramsOf } from '../../platform/measures.js';
import { toKopecks } from '../../platform/money.js';
import { distanceKm } from '../../carriers/geo.js';
import type { DeliveryType } from '../../carriers/types.js';
import type { Company } from '../../carriers/registry.js';
import { courierIntervalsIn } from '../companies/courier-intervals.js';
import type { CalculatorService, DeliveryQuoteRequest } from '../calculator/service.js';
import type { ReferenceData } from '../companies/reference.js';
import type { ProductService } from '../products/service.js';
import type { Shop } from '../shops/schemas.js';
import type { ShopService } from '../shops/service.js';
import { WAREHOUSE_TYPE, type Warehouse } from '../warehouses/schemas.js';
import { closedReason } from '../warehouses/working-days.js';
import { beyondRadiusFinding, lists, ownMethodOf, type OwnMethod } from '../delivery-methods/rules.js';
import { chooseDropOffPoint, needsDropOffPoint, type DropOffChoice } from './drop-off.js';
import { checkRecipientAddress, type AddressChecker } from './recipient-address.js';
import { exactPosition, type Position } from '../addresses/register-check.js';
import {
  composeOrder,
  declaredValueKopecks,
  serviceIdsOf,
  type OrderDoc,
  type Pricing,
  type ProductLine,
  type SenderSnapshot,
} from './document.js';
import type { OrderInput, StatusHistoryItem } from './schemas.js';

/** How long pricing an order may wait for a company (ms). */
const PRICING_TIMEOUT_MS = 10_000;

/** The Shop-Id header as sent: the shop an order is for when its body names none. */
export type ShopHeader = string | string[] | undefined;

/** What orders need of the account's own delivery methods (delivery-methods area). */
export interface OwnMethodLookup {
  method(accountId: number, methodId: number): Promise<OwnMethod | undefined>;
}
export const NO_OWN_METHODS: OwnMethodLookup = { method: async () => undefined };

/**
 * The warehouse's city in the Order schema's key order: PostgreSQL's jsonb gives an object's
 * keys back in its own order (shortest first), and the stored order is sent as it is.
 */
function cityOf(city: Warehouse['address']['city']): OrderDoc['senderAddress']['city'] {
  return {
    countryCode: city.countryCode,
    name: city.name,
    fias: city.fias ?? null,
    type: city.type ?? null,
    region: city.region ?? null,
    area: city.area ?? null,
  };
}

/** Roubles given to the kopeck, else a field error. */
function kopecksOf(roubles: number | null | undefined, field: string, problems: FieldErrorCollector): number {
  if (roubles === null || roubles === undefined) return 0;
  if (Math.abs(roubles * 100 - Math.round(roubles * 100)) > 1e-6)
    problems.add(field, 'must be given to the kopeck (at most 2 decimals)');
  return toKopecks(roubles);
}

export class OrderComposer {
  constructor(
    private readonly shops: ShopService,
    private readonly products: ProductService,
    private readonly calculator: CalculatorService,
    private readonly reference: ReferenceData,
    private readonly ownMethods: OwnMethodLookup = NO_OWN_METHODS,
    /** The federal address register (addresses area); without it a courier order's address is kept as typed, unchecked. */
    private readonly addresses: AddressChecker | null = null,
  ) {}

  /** Validates a request and prices it: the document of a new (or replaced) order. */
  async compose(
    scope: Scope,
    input: OrderInput,
    shopHeader: ShopHeader,
    history: StatusHistoryItem[],
    copy = false,
  ): Promise<OrderDoc> {
    const shop = await this.shops.resolveShopHeader(scope, input.shopId ? String(input.shopId) : shopHeader, false);
    const problems = new FieldErrorCollector();
    const sender = this.senderOf(shop, input, problems);
    const products = await this.productLines(scope, input, problems);
    const companyId = input.delivery.company.id;
    const company =
      typeof companyId === 'number'
        ? (await this.reference.registry.companyOf(scope.accountId, companyId))?.company
        : undefined;
    const ownId = ownMethodOf(scope.accountId, companyId);
    const own = ownId === null ? undefined : await this.ownMethods.method(scope.accountId, ownId);
    if (typeof companyId === 'string') {
      if (!own)
        problems.add(
          'delivery.company.id',
          `${companyId} is not a delivery method of this account (GET /v2/delivery-methods)`,
        );
      else if (own.type !== input.delivery.type)
        problems.add('delivery.type', `${own.name} delivers with type ${own.type} only`);
    } else if (!company) problems.add('delivery.company.id', `${companyId} is not a delivery company of this service`);
    else if (!company.deliveryTypes.includes(input.delivery.type as DeliveryType))
      problems.add('delivery.type', `${company.name} does not deliver with type ${input.delivery.type}`);
    const pointMissing = input.delivery.type === 1 && !input.delivery.point?.id;
    if (pointMissing && !copy) problems.add('delivery.point.id', 'is required for delivery to a pickup point (type 1)');
    for (const [index, place] of (input.places ?? []).entries())
      if (place.weight) gramsOf(place.weight, `places[${index}].weight`, problems);
    if (input.dimensions?.weight) gramsOf(input.dimensions.weight, 'dimensions.weight', problems);
    for (const field of ['priceDeclared', 'discount', 'clientPrice', 'clientPrePay'] as const)
      kopecksOf(input[field], field, problems);
    const clientCourierTime = company ? this.courierTimeOf(input, company, problems) : null;
    if (company && !copy) this.checkDropOffPoint(input, company, problems);
    if (company && !copy) this.checkPickup(input, company, shop?.warehouse ?? null, scope.timeZone, problems);
    problems.throwIfAny();

    const dropOff = company ? this.dropOffPointOf(input, sender, company, shop?.warehouse ?? null) : null;
    // checked while the delivery is priced: the register's answer costs the order no time of its own
    const checking =
      input.delivery.type === 2 && this.addresses
        ? checkRecipientAddress(this.addresses, input.deliveryAddress, scope.accountId)
        : undefined;
    // an own courier's radius is measured to the recipient's house: its price waits for the register (a millisecond or two)
    const recipientPosition =
      checking && own?.radiusKm !== null && own?.radiusKm !== undefined ? exactPosition(await checking) : null;
    // a copy sent the other way has no point yet: a draft asking for one
    const priced = pointMissing
      ? { quote: null, error: 'Choose a pickup point near the recipient (delivery.point.id).' }
      : await this.price(scope, shop, input, products, own?.name, dropOff?.pointId ?? null, recipientPosition);
    const checked = await checking;
    // served because its locality's centre is within the radius, though the house is not: a finding, never a refusal
    const beyond = priced.quote !== null && own ? this.beyondRadius(own, input, shop, recipientPosition) : null;
    const register =
      checked && beyond ? { ...checked, finding: checked.finding ? `${checked.finding} ${beyond}` : beyond } : checked;
    // the calculator offers no such company there, so its pricing failed for the same reason: say the fix once
    const pricing = dropOff?.problem ? { ...priced, error: dropOff.problem } : priced;
    const pickup = dropOff?.pointId ? { ...input.pickup, pointId: dropOff.pointId } : input.pickup;
    const pointId = input.delivery.type === 1 || input.delivery.type === 3 ? (input.delivery.point?.id ?? null) : null;
    const known = pointId && company ? this.reference.registry.point(pointId) : undefined;
    // post (type 3) may name one of the company's post offices (its index is where the parcel waits); any other point is not kept
    const knownPoint = known && (input.delivery.type === 1 || known.type === 3) ? known : undefined;
    return composeOrder({
      input: { ...input, clientCourierTime, pickup },
      products,
      sender,
      company,
      ownMethodName: own?.name ?? null,
      knownPoint: knownPoint && knownPoint.companyId === companyId ? knownPoint : undefined,
      serviceNames: new Map(this.reference.services.map((service) => [service.id, service.name])),
      pricing,
      ...(register ? { register } : {}),
      now: history[history.length - 1]?.date ?? new Date().toISOString(),
      history,
      testMode:
        typeof companyId === 'number' &&
        company?.driver === 'contract' &&
        (await this.reference.registry.isTestMode(scope.accountId, companyId)),
    });
  }

  /**
   * A courier delivery gets one of the company's intervals in the recipient's locality: the
   * one asked for, else the company's default (contract 2.13). Other delivery types have no
   * courier visit: the field is not kept.
   */
  private courierTimeOf(input: OrderInput, company: Company, problems: FieldErrorCollector): number | null {
    if (input.delivery.type !== 2) return null;
    const city = input.deliveryAddress.city;
    const locality = this.reference.localities.find({
      countryCode: city.countryCode,
      fias: city.fias ?? undefined,
      name: city.name,
      region: city.region ?? undefined,
    });
    const intervals = locality ? courierIntervalsIn(company, locality) : [];
    const asked = input.clientCourierTime;
    if (asked === undefined || asked === null) return intervals.find((interval) => interval.isDefault)?.id ?? null;
    if (!intervals.some((interval) => interval.id === asked)) {
      const offered = intervals
        .map((interval) => `${interval.id} (${interval.timeFrom}-${interval.timeTo})`)
        .join(', ');
      problems.add(
        'clientCourierTime',
        offered
          ? `is not a courier interval of ${company.name} there; choose one of ${offered} (GET /v2/couriers/schedule)`
          : `${company.name} offers no courier interval there`,
      );
    }
    return asked;
  }

  /** A drop-off point the order names must be one of the delivery company's own points (GET /v2/orders/shipment). */
  private checkDropOffPoint(input: OrderInput, company: Company, problems: FieldErrorCollector): void {
    const pointId = input.pickup?.pointId;
    if (pointId !== undefined && pointId !== null && this.reference.registry.point(pointId)?.companyId !== company.id) {
      problems.add('pickup.pointId', `is not a drop-off point of ${company.name} (GET /v2/orders/shipment lists them)`);
    }
  }

  /**
   * Where the parcel is dropped off (orders/drop-off.ts): the order's point, else the one the
   * warehouse set for the company, else the company's point nearest the sender; a company
   * that needs one and has none there makes the order a draft with an error, never a refusal.
   */
  private dropOffPointOf(
    input: OrderInput,
    sender: SenderSnapshot,
    company: Company,
    warehouse: Warehouse | null,
  ): DropOffChoice {
    const pickupType = input.pickup?.type ?? sender.defaultPickupType;
    const city = sender.senderAddress.city;
    const locality = city.name
      ? this.reference.localities.find({
          countryCode: city.countryCode,
          fias: city.fias ?? undefined,
          name: city.name,
          region: city.region ?? undefined,
        })
      : undefined;
    const setting = warehouse?.dropOffPoints.find((entry) => entry.companyId === company.id)?.pointId ?? null;
    return chooseDropOffPoint({
      company,
      pickupType,
      givenPointId: input.pickup?.pointId ?? null,
      // a point the warehouse chose and the company has since closed is not used
      warehouseDefault:
        setting !== null && this.reference.registry.point(setting)?.companyId === company.id ? setting : null,
      candidates:
        locality && needsDropOffPoint(company, pickupType)
          ? this.reference.registry.pointsIn(company.id, locality.id)
          : [],
      sender: {
        placeName: city.name,
        centre: locality ? { latitude: locality.latitude, longitude: locality.longitude } : null,
        street: sender.senderAddress.street,
        // the shop's warehouse as the register placed it when it was saved (an order naming no shop has none)
        position: exactPosition(warehouse?.address.register),
      },
    });
  }

  /**
   * Whether an own method took a courier order whose house, as the register places it and the
   * warehouse's, is beyond its radius: served as before (the localities' centres are within it),
   * with the distance named, so a shop whose radius is smaller than its city sees which orders
   * fall outside it. Null when within, or when either house is not placed.
   */
  private beyondRadius(
    method: OwnMethod,
    input: OrderInput,
    shop: Shop | null,
    recipientPosition: Position | null,
  ): string | null {
    const senderPosition = exactPosition(shop?.warehouse.address.register);
    if (method.radiusKm === null || !recipientPosition || !senderPosition) return null;
    const city = input.deliveryAddress.city;
    const locality = this.reference.localities.find({
      countryCode: city.countryCode,
      fias: city.fias ?? undefined,
      name: city.name,
      region: city.region ?? undefined,
    });
    if (locality && lists(method, locality)) return null;
    const km = distanceKm(
      senderPosition.latitude,
      senderPosition.longitude,
      recipientPosition.latitude,
      recipientPosition.longitude,
    );
    if (km <= method.radiusKm) return null;
    return beyondRadiusFinding(method.name, method.radiusKm, km);
  }

  /**
   * The rest of what GET /v2/orders/shipment offers: the pickup type an order names must be one
   * the company takes (drop-off at its points, or its own courier), and the day the parcel
   * leaves must not be past. An order that will wait for a pickup (own warehouse, type 3 or 4)
   * needs a day the warehouse works: no pickup can be booked on another (POST /v2/pickups),
   * and the order would wait at 13 for ever.
   */
  private checkPickup(
    input: OrderInput,
    company: Company,
    warehouse: Warehouse | null,
    timeZone: string,
    problems: FieldErrorCollector,
  ): void {
    const type = input.pickup?.type;
    if (type === 1 && company.pickup && !company.pickup.dropOff)
      problems.add(
        'pickup.type',
        `${company.name} takes no drop-offs at its points; use 4 (its courier) or another company (GET /v2/orders/shipment)`,
      );
    if (type === 4 && !company.pickup?.direct)
      problems.add(
        'pickup.type',
        `${company.name} has no courier of its own to collect parcels; use 1 (drop-off) or another company (GET /v2/orders/shipment)`,
      );
    const date = input.pickup?.date;
    if (!date) return;
    const day = date.slice(0, 10);
    const waitsForPickup =
      warehouse !== null && warehouse.type === WAREHOUSE_TYPE.own && [3, 4].includes(type ?? warehouse.pickupType);
    const closed = waitsForPickup ? closedReason(warehouse, day) : null;
    if (day < todayIn(timeZone)) problems.add('pickup.date', 'must be today or later');
    else if (closed) problems.add('pickup.date', `${closed}: no pickup collects that day`);
  }

  private senderOf(shop: Shop | null, input: OrderInput, problems: FieldErrorCollector): SenderSnapshot {
    if (shop) {
      const warehouse = shop.warehouse;
      return {
        shopId: shop.id,
        warehouseId: warehouse.id,
        brand: shop.brand,
        fulfilment: warehouse.type === 2,
        defaultPickupType: warehouse.pickupType,
        senderAddress: {
          city: cityOf(warehouse.address.city),
          street: warehouse.address.street,
          house: warehouse.address.house,
          bulk: warehouse.address.bulk,
          flat: warehouse.address.flat,
        },
        sender: { fullName: warehouse.contact.name, phone: warehouse.contact.phone },
      };
    }
    const address = input.senderAddress ?? null;
    if (!address?.city?.name) problems.add('senderAddress.city.name', 'is required when the order names no shop');
    if (!input.sender?.fullName) problems.add('sender.fullName', 'is required when the order names no shop');
    if (!input.sender?.phone) problems.add('sender.phone', 'is required when the order names no shop');
    if (!input.pickup?.type) problems.add('pickup.type', 'is required when the order names no shop (1 or 4)');
    const city = address?.city;
    return {
      shopId: null,
      warehouseId: null,
      brand: input.sender?.fullName ?? '',
      fulfilment: false,
      defaultPickupType: null,
      senderAddress: {
        city: {
          countryCode: (city?.countryCode ?? 'RU').toUpperCase(),
          name: city?.name ?? null,
          fias: city?.fias ?? null,
          type: city?.type ?? null,
          region: city?.region ?? null,
          area: city?.area ?? null,
        },
        street: address?.street ?? null,
        house: address?.house ?? null,
        bulk: address?.bulk ?? null,
        flat: address?.flat ?? null,
      },
      sender: { fullName: input.sender?.fullName ?? null, phone: input.sender?.phone ?? null },
    };
  }

  /** Product lines with catalogue values filled in where a line names a product. */
  private async productLines(scope: Scope, input: OrderInput, problems: FieldErrorCollector): Promise<ProductLine[]> {
    const items = input.products ?? [];
    const ids = items.map((item) => item.id).filter((id): id is number => typeof id === 'number');
    const catalogue = ids.length ? await this.products.catalogueOf(scope, ids) : new Map();
    return items.map((item, index) => {
      const field = `products[${index}]`;
      const product = item.id ? catalogue.get(item.id) : undefined;
      if (item.id && !product) problems.add(`${field}.id`, `product ${item.id} does not exist in this account`);
      if (!item.id && !item.name) problems.add(`${field}.name`, 'is required unless the line names a product (id)');
      const pick = <T>(own: T | null | undefined, fallback: T | null | undefined): T | null =>
        own !== undefined && own !== null ? own : (fallback ?? null);
      const weight = pick(item.weight, product?.weight);
      return {
        id: product ? product.id : null,
        name: pick(item.name, product?.name),
        nameEn: pick(item.nameEn, product?.nameEn),
        vendorCode: pick(item.vendorCode, product?.vendorCode),
        vat: pick<number>(item.vat, product?.vat),
        priceDeclaredKopecks: kopecksOf(
          pick(item.priceDeclared, product?.priceDeclared),
          `${field}.priceDeclared`,
          problems,
        ),
        priceCodKopecks: kopecksOf(pick(item.priceCod, product?.priceCod), `${field}.priceCod`, problems),
        prePayKopecks: kopecksOf(item.prePay, `${field}.prePay`, problems),
        discountKopecks: kopecksOf(item.discount, `${field}.discount`, problems),
        tnved: pick(item.tnved, product?.tnved),
        count: item.count ?? 1,
        weightGrams: weight === null ? null : gramsOf(weight, `${field}.weight`, problems),
        brand: pick(item.brand, product?.brand),
        producingCountry: pick(item.producingCountry, product?.producingCountry),
        barcode: pick(item.barcode, product?.barcodes[0]),
        dimensions: {
          width: pick(item.dimensions?.width, product?.dimensions.width),
          height: pick(item.dimensions?.height, product?.dimensions.height),
          length: pick(item.dimensions?.length, product?.dimensions.length),
        },
      };
    });
  }

  /** Prices the chosen company, type and point; a refusal is the order's error, never a failed request. */
  private async price(
    scope: Scope,
    shop: Shop | null,
    input: OrderInput,
    products: ProductLine[],
    ownMethodName: string | undefined,
    dropOffPointId: number | null,
    recipientPosition: Position | null = null,
  ): Promise<Pricing> {
    const city = input.deliveryAddress.city;
    const from = input.senderAddress?.city;
    const sides = (value: { width?: number | null; height?: number | null; length?: number | null } | undefined) =>
      value && value.width && value.height && value.length
        ? { width: value.width, height: value.height, length: value.length }
        : undefined;
    const request: DeliveryQuoteRequest = {
      companyId: input.delivery.company.id,
      deliveryType: input.delivery.type as DeliveryType,
      pointId: input.delivery.point?.id ?? null,
      dropOffPointId,
      recipientPosition,
      reception: {
        countryCode: city.countryCode,
        cityName: city.name,
        ...(city.fias ? { cityFias: city.fias } : {}),
        ...(city.type ? { cityType: city.type } : {}),
        ...(city.region ? { region: city.region } : {}),
        ...(city.area ? { area: city.area } : {}),
        ...(input.deliveryAddress.zipCode ? { zipCode: input.deliveryAddress.zipCode } : {}),
      },
      ...(shop
        ? {}
        : {
            sender: {
              countryCode: from?.countryCode ?? 'RU',
              ...(from?.name ? { cityName: from.name } : {}),
              ...(from?.fias ? { cityFias: from.fias } : {}),
              ...(from?.region ? { region: from.region } : {}),
            },
          }),
      ...(input.pickup?.type ? { pickupType: input.pickup.type } : {}),
      products: products.map((line) => ({
        priceDeclared: line.priceDeclaredKopecks / 100,
        priceCod: line.priceCodKopecks / 100,
        discount: line.discountKopecks / 100,
        count: line.count,
        ...(line.weightGrams ? { weight: line.weightGrams / 1000 } : {}),
        ...(sides(line.dimensions) ? { dimensions: sides(line.dimensions) } : {}),
      })),
      priceDeclared:
        declaredValueKopecks(
          products.map((line) => ({ priceDeclared: line.priceDeclaredKopecks / 100, count: line.count })),
          input.priceDeclared,
        ) / 100,
      ...(input.clientPrice ? { priceClient: input.clientPrice } : {}),
      ...(input.clientPrePay ? { pricePrePayClient: input.clientPrePay } : {}),
      ...(input.discount ? { discount: input.discount } : {}),
      servicesRequired: serviceIdsOf(input),
      ...(input.places?.length
        ? {
            places: input.places.map((place) => ({
              ...(place.weight ? { weight: place.weight } : {}),
              ...(sides(place.dimensions) ? { dimensions: sides(place.dimensions) } : {}),
            })),
          }
        : {}),
      ...(input.dimensions?.weight ? { weight: input.dimensions.weight } : {}),
      ...(sides(input.dimensions) ? { dimensions: sides(input.dimensions) } : {}),
      ...(input.dimensions?.places ? { itemCount: input.dimensions.places } : {}),
      priceMode: input.priceMode ?? 1,
      // what the shop's shipping rules read of the buyer: the order is priced as the quote was
      ...(input.segment ? { segment: input.segment } : {}),
      ...(input.paymentOnDelivery ? { paymentOnDelivery: input.paymentOnDelivery } : {}),
      applyWidgetSettings: input.applyWidgetSettings === true,
      applyDefaultDimensions: input.applyDefaultDimensions === true,
      timeout: PRICING_TIMEOUT_MS,
    };
    try {
      let failure: string | null = null;
      const quote = await this.calculator.quoteOne(scope, shop, request, (_companyId, reason) => (failure = reason));
      if (quote) return { quote, error: null };
      const companyId = input.delivery.company.id;
      const company =
        ownMethodName ??
        (typeof companyId === 'number'
          ? (await this.reference.registry.companyOf(scope.accountId, companyId))?.company.name
          : undefined) ??
        `Company ${companyId}`;
      const where = input.delivery.type === 1 ? ` to point ${input.delivery.point?.id}` : '';
      // the company is not the cause when the destination itself cannot be placed
      const unknownCity = this.calculator.unknownRecipient(request);
      if (unknownCity) return { quote: null, error: unknownCity };
      return {
        quote: null,
        error: failure
          ? `${company} did not price the delivery: ${failure}`
          : `${company} cannot deliver this order${where} (delivery type ${input.delivery.type}).`,
      };
    } catch (error) {
      if (error instanceof AppError) return { quote: null, error: error.message };
      throw error;
    }
  }
}
