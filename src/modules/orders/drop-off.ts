/**
 * Where a parcel is dropped off when its company takes parcels only at a drop-off point chosen
 * in advance (`pickupPointRequired`, GET /v2/orders/shipment). No shop plugin we know sends
 * `pickup.pointId`: the buyer chose a company at checkout and the order must not be lost for
 * it. So the service chooses, in this order: the point the order names; the warehouse's own
 * choice for that company (Warehouse `dropOffPoints`, extension); the company's point in the
 * sender's locality nearest the sender's address (its house where the federal address register
 * placed the warehouse, else its street or its locality's centre). With none there, the order is
 * kept as a draft whose error names the fix (confirm refuses it until then).
 */
import type { DeliveryPoint } from '../../carriers/points.js';
import { distanceKm } from '../../carriers/geo.js';

export interface DropOffCompany {
  id: number;
  name: string;
  pickup?: { pickupPointRequired: boolean };
}

export interface DropOffSender {
  /** The name of the sender's locality, as the order gives it. */
  placeName: string | null;
  /** The centre of the sender's locality, when the reference data knows it. */
  centre: { latitude: number; longitude: number } | null;
  street: string | null;
  /**
   * Where the register places the sender's house (or its street): the warehouse's
   * `address.register` at geoPrecision 0 or 1. Null: not checked, or placed no closer than its locality.
   */
  position: { latitude: number; longitude: number } | null;
}

export type DropOffChoice =
  /** `chosenBy` tells why this point: the order named it, the warehouse's setting, or nearest to the sender. */
  | { pointId: number; chosenBy: 'order' | 'warehouse' | 'nearest'; problem: null }
  /** No point is needed (another pickup type, or a company that takes parcels at any of its points). */
  | { pointId: null; chosenBy: null; problem: null }
  /** A point is needed and none can be chosen: the order's error. */
  | { pointId: null; chosenBy: null; problem: string };

export interface DropOffQuestion {
  company: DropOffCompany;
  /** The pickup type the order leaves with (its own, else its warehouse's default). */
  pickupType: number | null;
  /** `pickup.pointId` of the order, when given (checked to be the company's beforehand). */
  givenPointId: number | null;
  /** The warehouse's drop-off point for this company, when it has one that is still the company's. */
  warehouseDefault: number | null;
  /** The company's points in the sender's locality. */
  candidates: readonly DeliveryPoint[];
  sender: DropOffSender;
}

export function needsDropOffPoint(company: DropOffCompany, pickupType: number | null): boolean {
  return pickupType === 1 && company.pickup?.pickupPointRequired === true;
}

export function chooseDropOffPoint(question: DropOffQuestion): DropOffChoice {
  const { company, givenPointId } = question;
  if (givenPointId !== null) return { pointId: givenPointId, chosenBy: 'order', problem: null };
  if (!needsDropOffPoint(company, question.pickupType)) return { pointId: null, chosenBy: null, problem: null };
  if (question.warehouseDefault !== null)
    return { pointId: question.warehouseDefault, chosenBy: 'warehouse', problem: null };
  const nearest = nearestToSender(question.candidates, question.sender);
  if (nearest) return { pointId: nearest.id, chosenBy: 'nearest', problem: null };
  const where = question.sender.placeName ? ` in ${question.sender.placeName}` : " in the sender's locality";
  return {
    pointId: null,
    chosenBy: null,
    problem:
      `${company.name} takes parcels only at a drop-off point chosen in advance and has none${where}: ` +
      `choose a point of another locality for it on the warehouse (dropOffPoints) or in the order (pickup.pointId, GET /v2/orders/shipment lists them), ` +
      `or change the order by PUT to another company or pickup type.`,
  };
}

/**
 * The point nearest the sender's address. Where the register placed the sender's house, the
 * point nearest that house. Else the address is not geocoded, so "nearest" is a point on the
 * sender's own street when there is one, else the point nearest the locality's centre (where a
 * warehouse address without coordinates is most likely). Ties go to the lower id, so the same
 * order always gets the same point.
 */
export function nearestToSender(
  candidates: readonly DeliveryPoint[],
  sender: DropOffSender,
): DeliveryPoint | undefined {
  if (candidates.length === 0) return undefined;
  if (sender.position) return nearestTo(candidates, sender.position);
  const street = streetKey(sender.street);
  const onStreet = street ? candidates.filter((point) => streetKey(point.address.split(',')[0]) === street) : [];
  const pool = onStreet.length ? onStreet : candidates;
  return sender.centre ? nearestTo(pool, sender.centre) : [...pool].sort((a, b) => a.id - b.id)[0];
}

function nearestTo(
  points: readonly DeliveryPoint[],
  from: { latitude: number; longitude: number },
): DeliveryPoint | undefined {
  const distance = (point: DeliveryPoint) => distanceKm(from.latitude, from.longitude, point.latitude, point.longitude);
  return [...points].sort((a, b) => distance(a) - distance(b) || a.id - b.id)[0];
}

const STREET_WORDS =
  /(^|\s)(ул|улица|пр-т|просп|проспект|пр|бул|бульвар|пер|переулок|ш|шоссе|наб|набережная|пл|площадь|street|st|avenue|ave)\.?(?=\s|$)/g;

/** A street name without its kind and punctuation, lower case, ё as е: "ул. Ленина" and "Ленина улица" are one street. */
export function streetKey(street: string | null | undefined): string {
  if (!street) return '';
  return street
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[.,]/g, ' ')
    .replace(STREET_WORDS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
