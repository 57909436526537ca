/**
 * How a calculation is presented: the options of one company and type (the model between
 * quoting and the answer), and the contract's shapes of a point and of an own method's point.
 * Pure. The answer as JSON text is json-answer.ts; what the calculator quotes is service.ts.
 */
import type { DeliveryPoint } from '../../carriers/points.js';
import type { Cargo, PriceMode, QuotePlace } from '../../carriers/types.js';
import { toKopecks, toRoubles } from '../../platform/money.js';
import type { Locality } from '../localities/source.js';
import { OWN_DRIVER, type OwnMethod, type OwnPoint } from '../delivery-methods/rules.js';
import type { OrderMoney, PriceRules } from './rules.js';
import type { BoundRules, OfferOutcome } from './shipping-rules.js';
import type { CalculatorPoint, DeliveryCompanyResult, WidgetSettingsFull } from './schemas.js';

/** Services a point must offer for a required service: 4 inspection, 6 partial buyout, 7 fitting. */
const POINT_SERVICE_FLAGS: Record<
  number,
  keyof Pick<DeliveryPoint, 'checkupAvailable' | 'partialBuyoutAvailable' | 'fittingAvailable'>
> = {
  4: 'checkupAvailable',
  6: 'partialBuyoutAvailable',
  7: 'fittingAvailable',
};

export interface Context {
  sender: Locality;
  recipient: Locality;
  holidays: Set<string>;
  today: string;
  pickupType: number;
  /** Companies whose drop-off point the shop's warehouse chose (Warehouse dropOffPoints), wherever it is. */
  dropOffChosen: Set<number>;
  cargo: Cargo;
  priceMode: PriceMode;
  money: OrderMoney;
  orderKopecks: number;
  shown: Set<number>;
  required: Set<number>;
  widget: WidgetSettingsFull | null;
  hidePointFullInfo: boolean;
  /**
   * The widget settings and the shop's shipping rules as one list, when the call applies widget
   * settings and the shop has rules (or explain asks); null: the widget's `applyPriceRules` as before.
   */
  rules: BoundRules | null;
  /** Explain: every offer the rules saw, hidden ones too. */
  trace: TracedOffer[] | null;
}

/** One offer as explain shows it: what it cost before the rules and what they made of it. */
export interface TracedOffer {
  type: number;
  companyId: number | string;
  companyName: string;
  tariffName: string | null;
  pointKind: number | null;
  isFar: boolean;
  baseKopecks: number;
  deliveryDays: { min: number; max: number };
  outcome: OfferOutcome;
  /** Set when a keepCheapest / keepFastest rule left it out. */
  keptOutBy: string | null;
}

/** What the shipping rules ask of an option beside its price: its place in the list, and whether it competes to stay. */
export interface OptionMarks {
  pin: number | null;
  sortBy: 'price' | 'days' | null;
  keep: OfferOutcome['keep'];
  traced: TracedOffer[];
}

/** Days an order waits at a shop's own pickup point (the shop keeps it; the contract's hold days). */
export const OWN_HOLD_DAYS = 7;

export interface PointDates {
  deliveryDate: { from: string; to: string };
  deliveryDays: { min: number; max: number };
}

/**
 * What a point of an option is offered at. The price is per company and tariff, scaled by
 * the point's kind, with the commission of how it takes payment, and later dates when it is
 * far: the points sharing those share one object (a big city's hundreds of points have a few),
 * so its JSON is written once per calculation (json-answer.ts).
 */
export interface PointPrice {
  isFar: boolean;
  /** The company's dates, or later ones for a far point. */
  dates: PointDates;
  deliveryKopecks: number;
  totalKopecks: number;
  codKopecks: number;
}

export interface PointOption {
  point: DeliveryPoint;
  price: PointPrice;
}

/** One company and type of a calculation, before it is shaped as a model or as JSON text. */
export interface CompanyOption {
  company: DeliveryCompanyResult;
  points: PointOption[] | null;
  holdDays: number;
  idsOnly: boolean;
  /** An own method's pickup points come priced in `company.points`; this is their price (onlyCheap). */
  ownTotalKopecks?: number;
  /** Set only when shipping rules were evaluated. */
  marks?: OptionMarks;
}

export function toModel(option: CompanyOption): DeliveryCompanyResult {
  if (!option.points) return option.company;
  const { company } = option;
  return {
    ...company,
    points: option.idsOnly
      ? option.points.map((item) => item.point.id)
      : option.points.map(({ point, price }) =>
          presentPoint(
            point,
            company.deliveryCompanyName,
            company.deliveryDriver,
            price.dates,
            option.holdDays,
            price.codKopecks,
            price.deliveryKopecks,
            price.totalKopecks,
            price.isFar,
          ),
        ),
  };
}

export function place(locality: Locality): QuotePlace {
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

export function placeOf(locality: Locality) {
  return { id: locality.id, fias: locality.fias, latitude: locality.latitude, longitude: locality.longitude };
}

/** A shop's own pickup point in the calculator's shape (company id a string, convention 12). */
export function presentOwnPoint(
  point: OwnPoint,
  method: OwnMethod,
  company: DeliveryCompanyResult,
  netKopecks: number,
  totalKopecks: number,
): CalculatorPoint {
  return {
    id: point.id,
    name: point.name,
    longitude: String(point.longitude),
    latitude: String(point.latitude),
    type: 1,
    description: point.description,
    address: point.address,
    schedule: point.schedule,
    metro: null,
    district: null,
    photos: null,
    fittingAvailable: false,
    checkupAvailable: false,
    partialBuyoutAvailable: false,
    cashPaymentAvailable: method.cashPaymentAvailable,
    cardPaymentAvailable: method.cardPaymentAvailable,
    union: `own-${point.id}`,
    deliveryCompanyId: company.deliveryCompanyId,
    deliveryCompanyName: company.deliveryCompanyName,
    deliveryDriver: OWN_DRIVER,
    deliveryDays: company.deliveryDays,
    deliveryDate: company.deliveryDate,
    deliveryHoldDays: OWN_HOLD_DAYS,
    priceCommissionCod: 0,
    priceDelivery: toRoubles(netKopecks),
    totalPrice: toRoubles(totalKopecks),
    isFar: false,
    zipCode: point.zipCode,
  };
}

export function priceRulesOf(widget: WidgetSettingsFull): PriceRules {
  return {
    rules: widget.priceRules,
    freeDeliveryFromKopecks: widget.freeDeliveryFrom === null ? null : toKopecks(widget.freeDeliveryFrom),
    rounding: widget.rounding ? { stepKopecks: toKopecks(widget.rounding.step), mode: widget.rounding.mode } : null,
  };
}

/** Whether a point takes the parcel: its size, weight and COD limits, payment, and the required services it must offer. */
export function pointTakes(point: DeliveryPoint, context: Pick<Context, 'cargo' | 'money' | 'required'>): boolean {
  const { limits } = point;
  const { cargo } = context;
  const weightKg = cargo.weightGrams / 1000;
  if (limits.maxWeight !== null && weightKg > limits.maxWeight) return false;
  if (limits.minWeight !== null && weightKg < limits.minWeight) return false;
  if (limits.maxVolume !== null && cargo.volumeCm3 / 1e6 > limits.maxVolume) return false;
  for (const parcel of cargo.places) {
    if (!parcel.sidesCm) continue;
    const [a, b, c] = parcel.sidesCm;
    if (limits.maxSizeA !== null && a > limits.maxSizeA) return false;
    if (limits.maxSizeB !== null && b > limits.maxSizeB) return false;
    if (limits.maxSizeC !== null && c > limits.maxSizeC) return false;
    if (limits.maxSizeSum !== null && a + b + c > limits.maxSizeSum) return false;
  }
  const onDelivery = context.money.codKopecks + context.money.clientPriceKopecks;
  if (onDelivery > 0) {
    if (!point.cashPaymentAvailable && !point.cardPaymentAvailable) return false;
    if (limits.maxCod !== null && onDelivery > limits.maxCod * 100) return false;
  }
  for (const id of context.required) {
    const flag = POINT_SERVICE_FLAGS[id];
    if (flag && !point[flag]) return false;
  }
  return true;
}

export function presentPoint(
  point: DeliveryPoint,
  companyName: string,
  driver: string,
  dates: { deliveryDate: { from: string; to: string }; deliveryDays: { min: number; max: number } },
  holdDays: number,
  codKopecks: number,
  deliveryKopecks: number,
  totalKopecks: number,
  isFar: boolean,
): CalculatorPoint {
  return {
    id: point.id,
    name: point.name,
    longitude: String(point.longitude),
    latitude: String(point.latitude),
    type: point.type,
    description: point.description,
    address: point.address,
    schedule: point.schedule,
    metro: point.metro,
    district: point.district,
    photos: point.photos,
    fittingAvailable: point.fittingAvailable,
    checkupAvailable: point.checkupAvailable,
    partialBuyoutAvailable: point.partialBuyoutAvailable,
    cashPaymentAvailable: point.cashPaymentAvailable,
    cardPaymentAvailable: point.cardPaymentAvailable,
    union: point.union,
    deliveryCompanyId: point.companyId,
    deliveryCompanyName: companyName,
    deliveryDriver: driver,
    deliveryDays: dates.deliveryDays,
    deliveryDate: dates.deliveryDate,
    deliveryHoldDays: holdDays,
    priceCommissionCod: toRoubles(codKopecks),
    priceDelivery: toRoubles(deliveryKopecks),
    totalPrice: toRoubles(totalKopecks),
    isFar,
    zipCode: point.zipCode,
  };
}

/** Lowest price of an option: its total, or its cheapest point's. */
export function lowestPrice(option: CompanyOption): number {
  if (option.ownTotalKopecks !== undefined) return option.ownTotalKopecks / 100;
  if (!option.points) return option.company.totalPrice ?? Number.POSITIVE_INFINITY;
  let lowest = Number.POSITIVE_INFINITY;
  for (const item of option.points) lowest = Math.min(lowest, item.price.totalKopecks / 100);
  return lowest;
}

/** onlyCheap: the cheapest option(s) of a type; for pickup points, only the points at that price. */
export function cheapest(options: CompanyOption[]): CompanyOption[] {
  if (options.length === 0) return options;
  const low = Math.min(...options.map(lowestPrice));
  return options
    .filter((option) => lowestPrice(option) === low)
    .map((option) =>
      option.points
        ? { ...option, points: option.points.filter((item) => item.price.totalKopecks / 100 === low) }
        : option,
    );
}
