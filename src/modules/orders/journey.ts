/**
 * The simulated journey of a parcel with a built-in (tariff) company: a realistic sequence
 * of statuses, the same for the same order. Most arrive (COD recipients pay cash or, where a
 * card is taken, often by card); some are refused or never collected and travel back; a
 * return the shop requests turns the parcel back from the point or after delivery. Pure.
 */
import { createHash } from 'node:crypto';
import type { OrderDoc } from './document.js';

export interface JourneyStep {
  code: number;
  description: string;
  /** On delivery of a COD order: how the recipient paid. */
  paymentMethod?: 'cash' | 'card';
}

export interface JourneyOptions {
  /** Something is collected on delivery (priceCod above zero). */
  cod?: boolean;
  /** What the company (or the point) takes on delivery; cash is assumed when not said. */
  cashPaymentAvailable?: boolean;
  cardPaymentAvailable?: boolean;
  /**
   * The shop requested a return while the order was at the point (42) or after delivery (44):
   * the parcel travels back from there instead of its own ending.
   */
  returnFrom?: 42 | 44 | null;
  /** A return parcel (modules/returns) travels to the shop, which never refuses its own goods. */
  returnParcel?: boolean;
}

/** Percent of COD recipients who pay by card where a card is taken (the rest pay cash). */
export const CARD_SHARE_PERCENT = 40;

const START: JourneyStep[] = [
  { code: 41, description: 'Accepted by the delivery company' },
  { code: 411, description: 'In transit' },
  { code: 412, description: "Arrived in the recipient's city" },
];
const BACK: JourneyStep[] = [
  { code: 71, description: 'Returning to the sender' },
  { code: 72, description: 'Returned to the sender' },
];
const OUT: JourneyStep = { code: 43, description: 'Out for delivery' };

function atPointStep(deliveryType: number): JourneyStep {
  return { code: 42, description: deliveryType === 3 ? 'At the post office' : 'At the pickup point' };
}

function rollsOf(accountId: number, orderId: number): { outcome: number; payment: number } {
  const digest = createHash('sha256').update(`journey:${accountId}:${orderId}`).digest();
  return { outcome: digest.readUInt16BE(0) % 100, payment: digest.readUInt16BE(2) % 100 };
}

function deliveredStep(paymentRoll: number, options: JourneyOptions): JourneyStep {
  if (!options.cod) return { code: 44, description: 'Delivered' };
  const cash = options.cashPaymentAvailable ?? true;
  const card = options.cardPaymentAvailable === true;
  const byCard = card && (!cash || paymentRoll < CARD_SHARE_PERCENT);
  return byCard
    ? { code: 44, description: 'Delivered, paid by card', paymentMethod: 'card' }
    : { code: 44, description: 'Delivered, paid in cash', paymentMethod: 'cash' };
}

/** The way to where a return was requested: the happy path up to the point (42) or the delivery (44). */
function forwardTo(deliveryType: number, returnFrom: 42 | 44, delivered: JourneyStep): JourneyStep[] {
  if (returnFrom === 42) return [...START, atPointStep(deliveryType)];
  return [...START, deliveryType === 2 ? OUT : atPointStep(deliveryType), delivered];
}

/** The index in `journeyOf(..., {returnFrom})` of the first step back: where an order's journey resumes after the request. */
export function returnLegStart(deliveryType: number, returnFrom: 42 | 44): number {
  return forwardTo(deliveryType, returnFrom, { code: 44, description: '' }).length;
}

export function journeyOf(
  accountId: number,
  orderId: number,
  deliveryType: number,
  options: JourneyOptions = {},
): JourneyStep[] {
  const rolls = rollsOf(accountId, orderId);
  const roll = rolls.outcome;
  const delivered = deliveredStep(rolls.payment, options);
  if (options.returnParcel)
    return [
      ...START,
      deliveryType === 2 ? OUT : atPointStep(deliveryType),
      { code: 44, description: 'Delivered to the shop' },
    ];
  if (options.returnFrom === 42)
    return [
      ...forwardTo(deliveryType, 42, delivered),
      { code: 51, description: "Handed over for return at the sender's request" },
      ...BACK,
    ];
  if (options.returnFrom === 44)
    return [
      ...forwardTo(deliveryType, 44, delivered),
      { code: 61, description: 'Accepted at sorting for return' },
      ...BACK,
    ];
  if (deliveryType === 2) {
    if (roll < 8) return [...START, OUT, { code: 462, description: 'The recipient refused the parcel' }, ...BACK];
    return [...START, OUT, delivered];
  }
  const atPoint = atPointStep(deliveryType);
  if (roll < 5) return [...START, atPoint, { code: 51, description: 'Not collected: handed over for return' }, ...BACK];
  if (roll < 8) return [...START, atPoint, { code: 462, description: 'The recipient refused the parcel' }, ...BACK];
  return [...START, atPoint, delivered];
}

/**
 * The journey's options for an order: what is collected on delivery and how it may be paid,
 * where a return the shop requested turns it back (the point, or after delivery), and whether it
 * is a return parcel (modules/returns).
 */
export function journeyOptionsOf(doc: OrderDoc): JourneyOptions {
  return {
    cod: doc.priceCod > 0,
    cashPaymentAvailable: doc.delivery.cashPaymentAvailable,
    cardPaymentAvailable: doc.delivery.cardPaymentAvailable,
    returnFrom: returnFromOf(doc),
    returnParcel: Boolean(doc.returnOf),
  };
}

/** Where a requested return turns the parcel back: after delivery if it was delivered, else at the point. */
function returnFromOf(doc: OrderDoc): 42 | 44 | null {
  if (!doc.tasks.some((task) => task.type === 'return' && task.status === 'requested')) return null;
  return doc.statusHistory.some((item) => item.code === 44) ? 44 : 42;
}
