/**
 * The order document: the order exactly as GET answers it (without its id), built from a
 * validated request, the shop's warehouse and products copied at that moment, and the
 * priced delivery. Pure: no I/O.
 */
import { toKopecks, toRoubles } from '../../platform/money.js';
import { addDays } from '../../platform/clock.js';
import type { Company } from '../../carriers/registry.js';
import type { DeliveryPoint } from '../../carriers/points.js';
import { deliveryCostKopecks, type CodPayment } from '../calculator/rules.js';
import type { CalculatorPoint } from '../calculator/schemas.js';
import type { OrderQuote } from '../calculator/service.js';
import type { Order, OrderInput, OrderPointModel, StatusHistoryItem } from './schemas.js';
import type { RecipientRegisterEntry } from './recipient-address.js';
import { paymentTypeOf, RESERVATION, STATUS } from './state.js';

export type OrderDoc = Omit<Order, 'id'> & {
  /** Extension: the brand the customer sees (the shop's, copied). */
  brand: string;
  /** Extension: the goods are kept at a fulfilment warehouse of the service. */
  fulfilment: boolean;
  /** Extension: a return parcel (modules/returns) carries its return and the order the goods come back from; absent for other orders. */
  returnOf?: { returnId: number; orderId: number } | null;
};

/** A product line as the order keeps it (catalogue values already filled in). */
export interface ProductLine {
  id: number | null;
  name: string | null;
  nameEn: string | null;
  vendorCode: string | null;
  vat: number | null;
  priceDeclaredKopecks: number;
  priceCodKopecks: number;
  prePayKopecks: number;
  discountKopecks: number;
  tnved: string | null;
  count: number;
  weightGrams: number | null;
  brand: string | null;
  producingCountry: string | null;
  barcode: string | null;
  dimensions: { width: number | null; height: number | null; length: number | null };
}

export interface SenderSnapshot {
  shopId: number | null;
  warehouseId: number | null;
  brand: string;
  fulfilment: boolean;
  /** The warehouse's default pickup type, when there is a shop. */
  defaultPickupType: number | null;
  senderAddress: Order['senderAddress'];
  sender: Order['sender'];
}

export interface Pricing {
  quote: OrderQuote | null;
  error: string | null;
}

export interface ComposeInput {
  input: OrderInput;
  products: ProductLine[];
  sender: SenderSnapshot;
  company: Company | undefined;
  /** The name of the account's own delivery method the order travels by (convention 12), else null. */
  ownMethodName?: string | null;
  /** The chosen point as the reference data knows it, when the delivery is not priced. */
  knownPoint: DeliveryPoint | undefined;
  serviceNames: Map<number, string>;
  pricing: Pricing;
  /** A courier order's address as the federal address register knows it (recipient-address.ts); absent for other types. */
  register?: RecipientRegisterEntry;
  now: string;
  history: StatusHistoryItem[];
  /** Through the account's contract in the company's test environment. */
  testMode?: boolean;
}

/** `delivery.company.abbr` of an order carried by an own delivery method. */
export const OWN_METHOD_ABBR = 'OWN';

export function serviceIdsOf(input: OrderInput): number[] {
  return [
    ...new Set((input.delivery.services ?? []).map((service) => (typeof service === 'number' ? service : service.id))),
  ];
}

const nn = <T>(value: T | null | undefined): T | null => (value === undefined || value === '' ? null : value);
/** An overall side of 0 is "not given" (OverallSideCm): stored as null, like an absent one. */
const givenSide = (value: number | null | undefined): number | null => (value ? value : null);

/**
 * The declared value of an order (insurance, stickers, the company's registration). The
 * contract: the order's `priceDeclared` applies only when no good carries a declared value.
 */
export function declaredValueKopecks(
  goods: ReadonlyArray<{ priceDeclared: number | null; count: number }>,
  orderPriceDeclared: number | null | undefined,
): number {
  const goodsKopecks = goods.reduce((sum, line) => sum + toKopecks(line.priceDeclared ?? 0) * line.count, 0);
  if (goodsKopecks > 0) return goodsKopecks;
  return orderPriceDeclared === null || orderPriceDeclared === undefined ? 0 : toKopecks(orderPriceDeclared);
}

export function goodsCodKopecks(products: ProductLine[]): number {
  return products.reduce((sum, line) => sum + Math.max(0, line.priceCodKopecks - line.discountKopecks) * line.count, 0);
}

/** What the recipient pays on delivery: goods (less the order discount) and the delivery price charged to them. */
export function codKopecksOf(input: OrderInput, products: ProductLine[]): number {
  const goods = Math.max(0, goodsCodKopecks(products) - toKopecks(input.discount ?? 0));
  const delivery = Math.max(0, toKopecks(input.clientPrice ?? 0) - toKopecks(input.clientPrePay ?? 0));
  return goods + delivery;
}

function weightKgOf(input: OrderInput, products: ProductLine[]): number | null {
  if (input.dimensions?.weight) return input.dimensions.weight;
  const places = (input.places ?? []).reduce((sum, place) => sum + Math.round((place.weight ?? 0) * 1000), 0);
  if (places > 0) return places / 1000;
  const goods = products.reduce((sum, line) => sum + (line.weightGrams ?? 0) * line.count, 0);
  return goods > 0 ? goods / 1000 : null;
}

function pointOf(point: CalculatorPoint, company: Company | undefined): OrderPointModel {
  return {
    id: point.id,
    name: point.name,
    longitude: Number(point.longitude),
    latitude: Number(point.latitude),
    type: point.type,
    description: point.description,
    address: point.address,
    photos: point.photos,
    schedule: point.schedule,
    zipCode: point.zipCode,
    isPost: company?.isPost === true || point.type === 3,
    holdDays: point.deliveryHoldDays,
    holdDate: null,
    storagingEnds: false,
  };
}

function knownPointOf(point: DeliveryPoint, company: Company | undefined): OrderPointModel {
  return {
    id: point.id,
    name: point.name,
    longitude: point.longitude,
    latitude: point.latitude,
    type: point.type,
    description: point.description,
    address: point.address,
    photos: point.photos,
    schedule: point.schedule,
    zipCode: point.zipCode,
    isPost: company?.isPost === true || point.type === 3,
    holdDays: company?.holdDays ?? 7,
    holdDate: null,
    storagingEnds: false,
  };
}

export function composeOrder(args: ComposeInput): OrderDoc {
  const { input, products, sender, company, pricing } = args;
  const quote = pricing.quote;
  const pricedPoint = quote?.points?.find((point): point is CalculatorPoint => typeof point !== 'number');
  const serviceIds = serviceIdsOf(input);
  const offered = new Set((company?.services ?? []).map((service) => service.id));
  const codKopecks = codKopecksOf(input, products);
  const prePayKopecks =
    products.reduce((sum, line) => sum + line.prePayKopecks * line.count, 0) + toKopecks(input.clientPrePay ?? 0);
  const pickupType = input.pickup?.type ?? null;
  const point =
    input.delivery.type === 1
      ? pricedPoint
        ? pointOf(pricedPoint, company)
        : args.knownPoint
          ? knownPointOf(args.knownPoint, company)
          : null
      : input.delivery.type === 3 && args.knownPoint
        ? knownPointOf(args.knownPoint, company)
        : null;
  const status = args.history[0]?.code ?? STATUS.draft;
  const legal = input.recipient.legalEntity;

  return {
    status,
    statusHistory: args.history,
    creationDate: args.now,
    trackingUrl: null,
    trackNumber: null,
    stickerFormed: false,
    wasInAct: false,
    isPacked: false,
    exceptionDeliveryCompany:
      pickupType !== null && sender.defaultPickupType !== null && pickupType !== sender.defaultPickupType,
    error: pricing.error,
    pay: {
      type: paymentTypeOf(codKopecks),
      prePay: toRoubles(prePayKopecks),
      status: { code: 'not_paid', date: args.now },
    },
    priceCod: toRoubles(codKopecks),
    cmsId: nn(input.cmsId),
    shopId: sender.shopId,
    warehouseId: sender.warehouseId,
    products: products.map((line) => ({
      id: line.id,
      name: line.name,
      nameEn: line.nameEn,
      vendorCode: line.vendorCode,
      vat: line.vat,
      priceDeclared: toRoubles(line.priceDeclaredKopecks),
      priceCod: toRoubles(line.priceCodKopecks),
      prePay: toRoubles(line.prePayKopecks),
      discount: toRoubles(line.discountKopecks),
      tnved: line.tnved,
      count: line.count,
      weight: line.weightGrams === null ? null : line.weightGrams / 1000,
      brand: line.brand,
      producingCountry: line.producingCountry,
      barcode: line.barcode,
      dimensions: line.dimensions,
    })),
    priceDeclared: nn(input.priceDeclared),
    discount: input.discount ?? 0,
    deliveryCostThresholds: quote?.deliveryCostThresholds ?? { deliveryCost: null, threshold: null },
    reservationStatus: { key: RESERVATION.none, date: null },
    places: (input.places ?? []).map((place) => ({
      weight: nn(place.weight),
      dimensions: {
        width: nn(place.dimensions?.width),
        height: nn(place.dimensions?.height),
        length: nn(place.dimensions?.length),
      },
    })),
    dimensions: {
      width: givenSide(input.dimensions?.width),
      height: givenSide(input.dimensions?.height),
      length: givenSide(input.dimensions?.length),
      weight: nn(input.dimensions?.weight),
      factWeight: quote ? weightKgOf(input, products) : null,
      places: input.dimensions?.places ?? (input.places?.length || 1),
    },
    deliveryAddress: {
      city: {
        countryCode: input.deliveryAddress.city.countryCode.toUpperCase(),
        name: input.deliveryAddress.city.name,
        fias: nn(input.deliveryAddress.city.fias),
        type: nn(input.deliveryAddress.city.type),
        region: nn(input.deliveryAddress.city.region),
        area: nn(input.deliveryAddress.city.area),
      },
      street: nn(input.deliveryAddress.street),
      house: nn(input.deliveryAddress.house),
      bulk: nn(input.deliveryAddress.bulk),
      flat: nn(input.deliveryAddress.flat),
      zipCode: nn(input.deliveryAddress.zipCode),
      // only a courier order has it: the document of any other stays as it was, byte for byte
      ...(args.register ? { register: args.register } : {}),
    },
    recipient: {
      fullName: input.recipient.fullName.trim(),
      phone: input.recipient.phone.trim(),
      additionalPhone: nn(input.recipient.additionalPhone),
      email: nn(input.recipient.email),
      legalEntity: { name: nn(legal?.name), TIN: nn(legal?.TIN) },
    },
    senderAddress: sender.senderAddress,
    sender: sender.sender,
    pickup: { type: pickupType, date: nn(input.pickup?.date), pointId: nn(input.pickup?.pointId) },
    priceMode: input.priceMode ?? 1,
    services: serviceIds,
    applyWidgetSettings: input.applyWidgetSettings === true,
    delivery: {
      company: {
        id: input.delivery.company.id,
        name: company?.name ?? args.ownMethodName ?? null,
        abbr: company ? company.code.toUpperCase() : args.ownMethodName ? OWN_METHOD_ABBR : null,
        logo: company?.logo ?? null,
        tariff: quote?.tariffName ?? nn(input.delivery.company.tariff),
      },
      type: input.delivery.type,
      cashPaymentAvailable: point
        ? (pricedPoint?.cashPaymentAvailable ?? args.knownPoint?.cashPaymentAvailable ?? false)
        : (quote?.cashPaymentAvailable ?? company?.cashPaymentAvailable ?? true),
      cardPaymentAvailable: point
        ? (pricedPoint?.cardPaymentAvailable ?? args.knownPoint?.cardPaymentAvailable ?? false)
        : (quote?.cardPaymentAvailable ?? company?.cardPaymentAvailable ?? true),
      fittingAvailable: point ? (pricedPoint?.fittingAvailable ?? false) : offered.has(7),
      checkupAvailable: point ? (pricedPoint?.checkupAvailable ?? false) : offered.has(4),
      partialBuyoutAvailable: point ? (pricedPoint?.partialBuyoutAvailable ?? false) : offered.has(6),
      date: { from: quote?.deliveryDate.from ?? null, to: quote?.deliveryDate.to ?? null },
      days: { min: quote?.deliveryDays.min ?? null, max: quote?.deliveryDays.max ?? null },
      price: pricedPoint ? pricedPoint.priceDelivery : (quote?.priceDelivery ?? null),
      totalPrice: pricedPoint ? pricedPoint.totalPrice : (quote?.totalPrice ?? null),
      factPrice: null,
      services: serviceIds.map((id) => ({
        id,
        name: quote?.services[String(id)]?.name ?? args.serviceNames.get(id) ?? `Service ${id}`,
        price: quote?.services[String(id)]?.price ?? 0,
      })),
      point,
      ...(args.testMode ? { testMode: true } : {}),
      priceCommissionDeclared: quote?.priceCommissionDeclared ?? 0,
      percentCommissionDeclared: quote?.percentCommissionDeclared ?? 0,
      priceCommissionCod: pricedPoint ? pricedPoint.priceCommissionCod : (quote?.priceCommissionCod ?? 0),
      percentCommissionCod: quote?.percentCommissionCod ?? 0,
      priceCommissionCodCard: quote?.priceCommissionCodCard ?? 0,
      percentCommissionCodCard: quote?.percentCommissionCodCard ?? 0,
      priceCommissionAcquiring: quote?.priceCommissionAcquiring ?? 0,
      percentCommissionAcquiring: quote?.percentCommissionAcquiring ?? 0,
      ...(quote?.promise ? { promise: { ...quote.promise, declaredDays: quote.deliveryPlanDays } } : {}),
    },
    clientPrice: input.clientPrice ?? 0,
    clientPrePay: nn(input.clientPrePay),
    clientDeliveryDate: nn(input.clientDeliveryDate),
    clientCourierTime: nn(input.clientCourierTime),
    comment: nn(input.comment),
    commentForAssembly: nn(input.commentForAssembly),
    documentsForWarehouse: nn(input.documentsForWarehouse),
    tasks: [],
    brand: sender.brand,
    fulfilment: sender.fulfilment,
    ...(input.segment ? { segment: input.segment } : {}),
    ...(input.paymentOnDelivery ? { paymentOnDelivery: input.paymentOnDelivery } : {}),
  };
}

/** The request that would create this order again (duplicate), from what the order keeps. */
export function inputOf(doc: OrderDoc): OrderInput {
  const strip = <T extends Record<string, unknown>>(value: T) =>
    Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null)) as T;
  return {
    cmsId: doc.cmsId,
    shopId: doc.shopId,
    products: doc.products.map((line) => ({
      id: null,
      name: line.name,
      nameEn: line.nameEn,
      vendorCode: line.vendorCode,
      vat: line.vat as 0 | 10 | 20 | null,
      priceDeclared: line.priceDeclared,
      priceCod: line.priceCod,
      prePay: line.prePay,
      discount: line.discount,
      tnved: line.tnved,
      count: line.count,
      weight: line.weight,
      brand: line.brand,
      producingCountry: line.producingCountry,
      barcode: line.barcode,
      dimensions: line.dimensions,
    })),
    priceDeclared: doc.priceDeclared,
    discount: doc.discount,
    places: doc.places.map((place) => ({ weight: place.weight, dimensions: place.dimensions })),
    dimensions: {
      width: doc.dimensions.width,
      height: doc.dimensions.height,
      length: doc.dimensions.length,
      weight: doc.dimensions.weight,
      places: doc.dimensions.places,
    },
    deliveryAddress: {
      ...withoutRegister(doc.deliveryAddress),
      city: {
        ...doc.deliveryAddress.city,
        countryCode: doc.deliveryAddress.city.countryCode ?? 'RU',
        name: doc.deliveryAddress.city.name ?? '',
      },
    },
    recipient: { ...doc.recipient, legalEntity: doc.recipient.legalEntity },
    senderAddress: doc.shopId === null ? doc.senderAddress : null,
    sender: doc.shopId === null ? doc.sender : null,
    pickup: strip({ type: doc.pickup.type as 1 | 4 | null, date: doc.pickup.date, pointId: doc.pickup.pointId }),
    priceMode: doc.priceMode as 1 | 2 | 3,
    applyWidgetSettings: doc.applyWidgetSettings,
    ...(doc.segment ? { segment: doc.segment } : {}),
    ...(doc.paymentOnDelivery ? { paymentOnDelivery: doc.paymentOnDelivery } : {}),
    delivery: {
      company: { id: doc.delivery.company.id, tariff: doc.delivery.company.tariff },
      type: doc.delivery.type as 1 | 2 | 3,
      services: doc.services,
      point: doc.delivery.point ? { id: doc.delivery.point.id } : null,
    },
    clientPrice: doc.clientPrice,
    clientPrePay: doc.clientPrePay,
    clientDeliveryDate: doc.clientDeliveryDate,
    clientCourierTime: doc.clientCourierTime,
    comment: doc.comment,
    commentForAssembly: doc.commentForAssembly,
    documentsForWarehouse: doc.documentsForWarehouse,
  };
}

/** The address as typed: a copy's address is checked again when it is composed (its register entry is not input). */
function withoutRegister(address: OrderDoc['deliveryAddress']): Omit<OrderDoc['deliveryAddress'], 'register'> {
  const { register: _register, ...typed } = address;
  return typed;
}

/** The opposite direction: the recipient sends to the old sender (duplicate-back). */
export function reversedInputOf(doc: OrderDoc): OrderInput {
  const input = inputOf(doc);
  const from = doc.senderAddress;
  return {
    ...input,
    shopId: null,
    deliveryAddress: {
      city: {
        countryCode: from.city.countryCode ?? 'RU',
        name: from.city.name ?? '',
        fias: from.city.fias,
        type: from.city.type,
        region: from.city.region,
        area: from.city.area,
      },
      street: from.street,
      house: from.house,
      bulk: from.bulk,
      flat: from.flat,
      zipCode: null,
    },
    recipient: {
      fullName: doc.sender.fullName ?? doc.brand,
      phone: doc.sender.phone ?? '',
      additionalPhone: null,
      email: null,
      legalEntity: null,
    },
    senderAddress: {
      city: { ...doc.deliveryAddress.city },
      street: doc.deliveryAddress.street,
      house: doc.deliveryAddress.house,
      bulk: doc.deliveryAddress.bulk,
      flat: doc.deliveryAddress.flat,
    },
    sender: { fullName: doc.recipient.fullName, phone: doc.recipient.phone },
    pickup: { type: (doc.pickup.type as 1 | 4 | null) ?? 1, date: null, pointId: null },
    // a point chosen near the recipient means nothing at the other end
    delivery: { ...input.delivery, point: null },
    clientPrice: 0,
    clientPrePay: null,
  };
}

/**
 * How the recipient paid on delivery: as the company reported it; unreported, as the price
 * assumed it (cash where the company or point takes cash, else card); `none` without COD.
 */
export function codPaymentOf(doc: OrderDoc, reported: 'cash' | 'card' | undefined): CodPayment {
  if (doc.priceCod <= 0) return 'none';
  return reported ?? (doc.delivery.cashPaymentAvailable ? 'cash' : 'card');
}

/** `delivery.factPrice`: the delivery's cost to the shop as it turned out (roubles), or null when it was never priced. */
export function factPriceOf(delivery: OrderDoc['delivery'], paid: CodPayment): number | null {
  if (delivery.price === null) return null;
  return toRoubles(
    deliveryCostKopecks(
      {
        priceDelivery: delivery.price,
        requiredServices: delivery.services,
        priceCommissionDeclared: delivery.priceCommissionDeclared,
        priceCommissionCod: delivery.priceCommissionCod,
        priceCommissionCodCard: delivery.priceCommissionCodCard,
        priceCommissionAcquiring: delivery.priceCommissionAcquiring,
      },
      paid,
    ),
  );
}

/** `days` more storage at the point, from the current hold date (or today); storagingEnds when one day is left. */
export function extendPointHold(doc: OrderDoc, days: number, today: string): void {
  const point = doc.delivery.point;
  if (!point) return;
  point.holdDate = addDays(point.holdDate ?? today, days);
  point.holdDays += days;
  point.storagingEnds = point.holdDate <= addDays(today, 1);
}

export function parseDoc(stored: Buffer): OrderDoc {
  return JSON.parse(stored.toString('utf8')) as OrderDoc;
}

/** The stored document with its id, as answered, without parsing it. */
export function withId(id: number, doc: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`{"id":${id},`), doc.subarray(1)]);
}
