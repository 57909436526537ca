/**
 * An account's own delivery methods as the calculator and orders use them: the string id of
 * convention 12, where a method delivers, and what it charges. Pure: no I/O.
 */
import { distanceKm } from '../../carriers/geo.js';

/** A price bracket: the first whose weight and order-sum bounds hold the parcel gives the price. */
export interface PriceRule {
  /** Up to this chargeable weight (inclusive), grams; null: any weight. */
  weightToGrams: number | null;
  /** From this order sum (inclusive), kopecks; null: any sum. */
  orderSumFromKopecks: number | null;
  priceKopecks: number;
}

export interface OwnPoint {
  id: number;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  schedule: Array<{ from: string; to: string } | null> | null;
  description: string | null;
  zipCode: string | null;
}

export interface OwnMethod {
  /** The method's number within the service (`{accountId}_{id}` outside). */
  id: number;
  accountId: number;
  name: string;
  type: 1 | 2 | 3;
  localities: string[];
  radiusKm: number | null;
  priceRules: PriceRule[];
  freeFromKopecks: number | null;
  days: { min: number; max: number };
  cashPaymentAvailable: boolean;
  cardPaymentAvailable: boolean;
  points: OwnPoint[];
  version: number;
}

/** The driver name own methods answer in `deliveryDriver`. */
export const OWN_DRIVER = 'own';
/** A pickup point of an own method is offered when it is this close to the recipient's locality. */
export const OWN_POINTS_WITHIN_KM = 50;

/**
 * The pattern of a string id of convention 12 in schemas and headers: each number at most 15
 * digits (safe in JavaScript and in a bigint column), so what passes a schema also parses.
 * No comma in it: comma lists of ids stay splittable.
 */
export const OWN_METHOD_ID_PATTERN = '^([1-9][0-9]{0,14})_([1-9][0-9]{0,14})$';
const OWN_ID = new RegExp(OWN_METHOD_ID_PATTERN);
/** Two 15-digit numbers and the underscore. */
export const OWN_METHOD_ID_MAX_LENGTH = 31;

/** Convention 12: the id of an own delivery method outside the service. */
export function ownMethodId(accountId: number, methodId: number): string {
  return `${accountId}_${methodId}`;
}

/** `'{accountId}_{methodId}'` -> its parts; null for anything else (a company's number included). */
export function parseOwnMethodId(value: unknown): { accountId: number; methodId: number } | null {
  if (typeof value !== 'string') return null;
  const match = OWN_ID.exec(value.trim());
  if (!match) return null;
  const accountId = Number(match[1]);
  const methodId = Number(match[2]);
  return Number.isSafeInteger(accountId) && Number.isSafeInteger(methodId) ? { accountId, methodId } : null;
}

/** The account's own method a company id names, or null (a number, another account's id, garbage). */
export function ownMethodOf(accountId: number, companyId: number | string): number | null {
  const parsed = parseOwnMethodId(companyId);
  return parsed && parsed.accountId === accountId ? parsed.methodId : null;
}

export interface Place {
  /** GeoNames id of the locality. */
  id: number;
  fias: string | null;
  latitude: number;
  longitude: number;
}

/** Where the register placed the sender's and the recipient's houses (or streets), when it did. */
export interface ExactPlaces {
  sender: { latitude: number; longitude: number } | null;
  recipient: { latitude: number; longitude: number } | null;
}

/**
 * Whether the method serves the recipient: its locality listed by FIAS (or `gn:` id), or within
 * the radius of the sender, measured between the localities' centres or, where the register
 * placed both houses (a courier order's address and its warehouse's), between them. Either
 * suffices: a house within the radius in a town beside the city is served, and what centres
 * served before still is (in one city centre to centre is 0 km, so a radius smaller than the city
 * serves all of it; the order says when its house is beyond: composer.ts, `beyondRadius`).
 */
export function serves(
  method: Pick<OwnMethod, 'localities' | 'radiusKm'>,
  recipient: Place,
  sender: Place,
  exact: ExactPlaces | null = null,
): boolean {
  if (lists(method, recipient)) return true;
  if (method.radiusKm === null) return false;
  if (distanceKm(sender.latitude, sender.longitude, recipient.latitude, recipient.longitude) <= method.radiusKm)
    return true;
  return exact?.sender && exact.recipient
    ? distanceKm(exact.sender.latitude, exact.sender.longitude, exact.recipient.latitude, exact.recipient.longitude) <=
        method.radiusKm
    : false;
}

/**
 * The finding of a courier order an own method serves by its locality's centre though its house,
 * as the register places it and the warehouse's, is beyond the radius (orders' composer). The
 * dashboard reads the two distances back from it (app/src/pages/orders/address-finding.ts).
 */
export function beyondRadiusFinding(methodName: string, radiusKm: number, houseKm: number): string {
  return (
    `${methodName} delivers within ${radiusKm} km of the warehouse; the recipient's house is ${houseKm.toFixed(1)} km from it ` +
    `(both as the federal address register places them): check that its courier goes there, or choose another delivery method.`
  );
}

/** Whether the method names the locality itself (by FIAS or `gn:` id): served whatever the distance. */
export function lists(method: Pick<OwnMethod, 'localities'>, locality: Pick<Place, 'id' | 'fias'>): boolean {
  return method.localities.some((entry) => entry === locality.fias || entry === `gn:${locality.id}`);
}

/** The method's points near the recipient's locality (type 1). */
export function pointsNear(method: Pick<OwnMethod, 'points'>, recipient: Place): OwnPoint[] {
  return method.points.filter(
    (point) =>
      distanceKm(point.latitude, point.longitude, recipient.latitude, recipient.longitude) <= OWN_POINTS_WITHIN_KM,
  );
}

/**
 * What the method charges: free from its order sum, else the first bracket holding the
 * parcel; null when no bracket does (the method does not take it).
 */
export function priceKopecksOf(
  method: Pick<OwnMethod, 'priceRules' | 'freeFromKopecks'>,
  weightGrams: number,
  orderKopecks: number,
): number | null {
  const rule = method.priceRules.find(
    (item) =>
      (item.weightToGrams === null || weightGrams <= item.weightToGrams) &&
      (item.orderSumFromKopecks === null || orderKopecks >= item.orderSumFromKopecks),
  );
  if (!rule) return null;
  if (method.freeFromKopecks !== null && orderKopecks >= method.freeFromKopecks) return 0;
  return rule.priceKopecks;
}
