/**
 * The simulated journey of a parcel with a built-in (tariff) company: a realistic sequence
 * of statuses, the same for the same order. Most arrive (COD recipients pay cash or, where a
 * card is taken, often by card); some are refused or never collected and travel back; a
 * return the shop requests turns the parcel back from the point or after delivery. Pure.
 */
import { createHash } from 'node:crypto';
import type { OrderDoc } from './document.js';
import { partialBuyoutRefusal } from './partial-buyout.js';

export interface JourneyStep {
  code: number;
  description: string;
  /** On delivery of a COD order: how the recipient paid. */
  paymentMethod?: 'cash' | 'card';
  /** On a partial buyout (47): units bought per line, by position. */
  buyout?: Array<{ index: number; count: number }>;
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
  /**
   * Units per line of the order, when its point allows a partial buyout and something is paid
   * on delivery (partial-buyout.ts partialBuyoutRefusal): some recipients then take part of it.
   */
  partialBuyoutLines?: number[] | null;
  /** The order was bought in part already (the sandbox, a company): its journey is the partial one, whatever the roll. */
  partlyBought?: boolean;
  /** A return parcel (modules/returns) travels to the shop, which never refuses its own goods. */
  returnParcel?: boolean;
}

/** Percent of the parcels that may be bought in part which are (the roll after the refusals). */
export const PARTIAL_BUYOUT_PERCENT = 8;

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

/** The recipient takes all but the last line (or all but one unit of a single line); null when the order cannot be bought in part. */
function partialStep(options: JourneyOptions, delivered: JourneyStep): JourneyStep | null {
  const lines = options.partialBuyoutLines;
  if (!options.cod || !lines || lines.reduce((sum, count) => sum + count, 0) < 2) return null;
  const last = lines.length - 1;
  const buyout = lines
    .map((count, index) => ({ index, count: index === last ? (lines.length === 1 ? count - 1 : 0) : count }))
    .filter((line) => line.count > 0);
  if (buyout.length === 0) return null;
  const paid = delivered.paymentMethod === 'card' ? 'by card' : 'in cash';
  return {
    code: 47,
    description: `Partly delivered: the recipient took part of the order and paid ${paid}, the rest was refused`,
    ...(delivered.paymentMethod ? { paymentMethod: delivered.paymentMethod } : {}),
    buyout,
  };
}

/** The way to where a return was requested: the happy path up to the point (42) or the delivery (44). */
function forwardTo(deliveryType: number, returnFrom: 42 | 44, delivered: JourneyStep): JourneyStep[] {
  if (returnFrom === 42) return [...START, atPointStep(deliveryType)];
  return [...START, deliveryType === 2 ? OUT : atPointStep(deliveryType), delivered];
}

/** The index in a partial buyout's journey of the first step back (71): after 41, 411, 412, 42, 47. */
export const PARTIAL_RETURN_LEG_START = START.length + 2;

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
  const partial = options.partlyBought
    ? { code: 47, description: 'Partly delivered' }
    : partialStep(options, delivered);
  if (partial && (options.partlyBought || (roll >= 8 && roll < 8 + PARTIAL_BUYOUT_PERCENT)))
    return [
      ...START,
      atPoint,
      partial,
      { code: 71, description: 'The refused lines are returning to the sender' },
      { code: 74, description: 'The refused lines returned to the sender' },
    ];
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
    // a return parcel goes to the shop whole
    partialBuyoutLines:
      !doc.returnOf && partialBuyoutRefusal(doc) === null ? doc.products.map((line) => line.count) : null,
    partlyBought: doc.partialBuyout !== undefined,
  };
}

/** Where a requested return turns the parcel back: after delivery if it was delivered, else at the point. */
function returnFromOf(doc: OrderDoc): 42 | 44 | null {
  if (!doc.tasks.some((task) => task.type === 'return' && task.status === 'requested')) return null;
  return doc.statusHistory.some((item) => item.code === 44) ? 44 : 42;
}
