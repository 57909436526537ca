/**
 * The order's life (DESIGN.md section 5) as pure functions: which operation a status
 * allows, and where it leads. No I/O; the service asks before it writes.
 */

export const STATUS = {
  unknown: 1,
  canceled: 10,
  draft: 11,
  confirmed: 12,
  prepared: 13,
  shipped: 14,
  processing: 15,
  sorting: 31,
  handedToCompany: 32,
  handedForReturnEarly: 33,
  accepted: 41,
  inTransit: 411,
  inCity: 412,
  atPoint: 42,
  outForDelivery: 43,
  delivered: 44,
  dateMoved: 46,
  refusedBefore: 461,
  refused: 462,
  partlyDelivered: 47,
  handedForReturn: 51,
  returnedToSorting: 52,
  returnSorting: 61,
  returnHanded: 62,
  returning: 71,
  returned: 72,
  partlyReturned: 74,
  error: 83,
} as const;

/** Reservation status codes (DESIGN.md): 0 none, 1 Preorder, 2 In reserve, 3 Reserve cancelled. */
export const RESERVATION = { none: 0, preorder: 1, reserved: 2, cancelled: 3 } as const;

/** Statuses only a delivery company reports (tracking), never a shop. */
export const CARRIER_STATUSES: readonly number[] = [
  14, 15, 31, 32, 33, 41, 411, 412, 42, 43, 44, 46, 461, 462, 47, 51, 52, 61, 62, 71, 72, 74,
];
/** After these nothing moves any more. */
export const FINAL_STATUSES: readonly number[] = [10, 72, 74];
const RETURN_STATUSES: readonly number[] = [33, 51, 52, 61, 62, 71, 72, 74];
/** Delivered: only a return may follow. */
const DELIVERED_STATUSES: readonly number[] = [44, 47];

/** Order lists of GET /v2/orders?list= (DESIGN.md). `problems` also takes orders with an error. */
export const LIST_STATUSES: Record<number, readonly number[] | null> = {
  0: null,
  1: [11],
  2: [12, 13],
  3: [14, 15, 31, 32, 41, 411, 412, 43, 46],
  4: [42],
  5: [44, 47],
  6: [83, 461, 462],
  7: RETURN_STATUSES,
  8: [10],
  9: null,
};
export const LIST_CODES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export const LIST_DELIVERED = 5;
export const LIST_PROBLEMS = 6;
export const LIST_RETURNS = 7;
export const LIST_CANCELED = 8;
export const LIST_PREORDERS = 9;

const LIST_OF_STATUS = new Map<number, number>(
  Object.entries(LIST_STATUSES).flatMap(([list, statuses]) =>
    (statuses ?? []).map((status) => [status, Number(list)] as [number, number]),
  ),
);

/** The status list (1 to 8) a status belongs to; 0 for a status of none (each belongs to one at most). */
export function listOfStatus(status: number): number {
  return LIST_OF_STATUS.get(status) ?? 0;
}

/** Whether the order is in the problems list: a problem status, or an error of its own (an unpriced draft). */
export function isProblem(status: number, error: string | null): boolean {
  return listOfStatus(status) === LIST_PROBLEMS || error !== null;
}

export type Operation =
  | 'update'
  | 'patch'
  | 'confirm'
  | 'cancel'
  | 'return'
  | 'extendHold'
  | 'pack'
  | 'unpack'
  | 'reserve'
  | 'cancelReserve'
  | 'checkRests';

export interface OrderState {
  status: number;
  /** The order's own error text (an unpriced delivery), or null. */
  error: string | null;
  isPacked: boolean;
  reservationStatus: number;
  /** The order's warehouse is a fulfilment one (goods kept by the service). */
  fulfilment: boolean;
}

/** Why an operation is refused in this state, or null when it is allowed. */
export function refusal(operation: Operation, state: OrderState, options: { preOrder?: boolean } = {}): string | null {
  const { status } = state;
  switch (operation) {
    case 'update':
      return status === STATUS.draft || status === STATUS.error
        ? null
        : 'only a draft or an order in error can be changed';
    case 'patch':
      return FINAL_STATUSES.includes(status) || DELIVERED_STATUSES.includes(status)
        ? 'a finished order cannot be changed'
        : null;
    case 'confirm':
      if (status !== STATUS.draft) return 'only a draft can be confirmed';
      if (state.error !== null) return `its delivery is not priced (${state.error})`;
      if (options.preOrder && !state.fulfilment)
        return 'only an order of a fulfilment shop can be confirmed as a preorder';
      return null;
    case 'cancel':
      return ([STATUS.draft, STATUS.confirmed, STATUS.prepared, STATUS.error] as number[]).includes(status)
        ? null
        : 'it has been handed over to the delivery company already';
    case 'return':
      return status === STATUS.atPoint || status === STATUS.delivered
        ? null
        : 'a return can be requested only at the pickup point or after delivery';
    case 'extendHold':
      return status === STATUS.atPoint
        ? null
        : 'storage can be extended only while the order waits at the pickup point';
    case 'pack':
      if (!([STATUS.draft, STATUS.confirmed, STATUS.prepared] as number[]).includes(status))
        return 'only an order not yet handed over can be packed';
      return state.isPacked ? 'it is packed already' : null;
    case 'unpack':
      if (!([STATUS.draft, STATUS.confirmed, STATUS.prepared] as number[]).includes(status))
        return 'only an order not yet handed over can be unpacked';
      return state.isPacked ? null : 'it is not packed';
    case 'reserve':
      if (!state.fulfilment) return 'only goods of a fulfilment shop are reserved';
      if (!([STATUS.draft, STATUS.confirmed] as number[]).includes(status))
        return 'only a draft or a confirmed order can be reserved';
      // a preorder may be reserved by hand once its goods are there
      return state.reservationStatus === RESERVATION.reserved ? 'it is reserved already' : null;
    case 'cancelReserve':
      if (!([STATUS.draft, STATUS.confirmed] as number[]).includes(status))
        return 'only a draft or a confirmed order has a reserve to cancel';
      return state.reservationStatus === RESERVATION.preorder || state.reservationStatus === RESERVATION.reserved
        ? null
        : 'it has no reserve';
    case 'checkRests':
      return status === STATUS.draft ? null : 'only drafts are checked';
  }
}

/** Where an allowed shop operation leads. */
export function afterConfirm(preOrder: boolean): { status: number; reservationStatus: number | null } {
  return { status: STATUS.confirmed, reservationStatus: preOrder ? RESERVATION.preorder : null };
}

/** Registration with the company: success makes the order Prepared, failure an error. */
export function afterRegistration(status: number, succeeded: boolean): number | null {
  if (status !== STATUS.confirmed) return null;
  return succeeded ? STATUS.prepared : STATUS.error;
}

/**
 * Whether a status reported by the company applies: only to a registered order, only a
 * carrier status, never backwards out of a final status, and after delivery only a return.
 */
export function acceptsCarrierStatus(current: number, reported: number): boolean {
  if (!CARRIER_STATUSES.includes(reported) || reported === current) return false;
  if (
    current === STATUS.draft ||
    current === STATUS.confirmed ||
    current === STATUS.error ||
    current === STATUS.unknown
  )
    return false;
  if (FINAL_STATUSES.includes(current)) return false;
  if (DELIVERED_STATUSES.includes(current)) return RETURN_STATUSES.includes(reported);
  return true;
}

/** PUT on an order in error takes it back to a draft, to be confirmed again. */
export function afterUpdate(status: number): number {
  return status === STATUS.error ? STATUS.draft : status;
}

/**
 * What a company's status does to the goods of a fulfilment order: leaving Prepared (13) for
 * any status the company reports is the handover, and the goods leave the warehouse; 72
 * (returned to the sender) or 74 (a partial buyout's refused lines returned) brings the parcel
 * back to the warehouse, where it waits for the staff's inspection.
 */
export function stockMoveOf(from: number, to: number): 'ship' | 'return' | null {
  if (from === STATUS.prepared && to !== from && CARRIER_STATUSES.includes(to)) return 'ship';
  if ((to === STATUS.returned || to === STATUS.partlyReturned) && from !== to && !FINAL_STATUSES.includes(from))
    return 'return';
  return null;
}

/** Payment type codes (DESIGN.md). */
export const PAYMENT_TYPE = { prepaid: 1, cashOnDelivery: 2, cardOnDelivery: 3 } as const;

/** Payment type of a new order: cash on delivery when anything is collected; card only once the company reports it. */
export function paymentTypeOf(codKopecks: number): number {
  return codKopecks > 0 ? PAYMENT_TYPE.cashOnDelivery : PAYMENT_TYPE.prepaid;
}

/** Payment type after delivery: a COD order paid by card becomes 3; anything else keeps its type. */
export function paymentTypeAfterDelivery(current: number, paid: 'cash' | 'card' | 'none'): number {
  return current === PAYMENT_TYPE.cashOnDelivery && paid === 'card' ? PAYMENT_TYPE.cardOnDelivery : current;
}

/** Statuses before the parcel left the sender, or not a movement at all (10 canceled, 11-13, 83 error). */
const BEFORE_HANDOVER = new Set([1, 10, 11, 12, 13, 83]);
const DELIVERED = new Set([44, 47]);

function firstDateOf(
  history: ReadonlyArray<{ code: number; date: string }>,
  counts: (code: number) => boolean,
): string | null {
  let first: string | null = null;
  for (const item of history) if (counts(item.code) && (first === null || item.date < first)) first = item.date;
  return first === null ? null : new Date(first).toISOString();
}

/** When the sender handed the parcel over: the first status of 14 or later (83 is an error, not a movement). */
export function handedOverAt(doc: { statusHistory: ReadonlyArray<{ code: number; date: string }> }): string | null {
  return firstDateOf(doc.statusHistory, (code) => code >= 14 && !BEFORE_HANDOVER.has(code));
}

/** When the recipient took it (44 delivered, 47 partly delivered): the first such status. */
export function deliveredAt(doc: { statusHistory: ReadonlyArray<{ code: number; date: string }> }): string | null {
  return firstDateOf(doc.statusHistory, (code) => DELIVERED.has(code));
}
