import { describe, expect, it } from 'vitest';
import {
  acceptsCarrierStatus,
  afterConfirm,
  afterRegistration,
  afterUpdate,
  CARRIER_STATUSES,
  isProblem,
  LIST_STATUSES,
  listOfStatus,
  refusal,
  RESERVATION,
  STATUS,
  stockMoveOf,
  type Operation,
  type OrderState,
} from './state.js';

const ALL_STATUSES = [
  1, 10, 11, 12, 13, 14, 15, 31, 32, 33, 41, 411, 412, 42, 43, 44, 46, 461, 462, 47, 51, 52, 61, 62, 71, 72, 74, 83,
];

function state(status: number, overrides: Partial<OrderState> = {}): OrderState {
  return { status, error: null, isPacked: false, reservationStatus: RESERVATION.none, fulfilment: false, ...overrides };
}

/** The statuses in which an operation is allowed, the order otherwise plain. */
function allowedIn(
  operation: Operation,
  overrides: Partial<OrderState> = {},
  options: { preOrder?: boolean } = {},
): number[] {
  return ALL_STATUSES.filter((status) => refusal(operation, state(status, overrides), options) === null);
}

describe('order state machine', () => {
  it('changes (PUT) only drafts and orders in error; PUT of an error makes it a draft again', () => {
    expect(allowedIn('update')).toEqual([11, 83]);
    expect(afterUpdate(STATUS.error)).toBe(STATUS.draft);
    expect(afterUpdate(STATUS.draft)).toBe(STATUS.draft);
  });

  it('patches anything but finished orders', () => {
    expect(ALL_STATUSES.filter((status) => !allowedIn('patch').includes(status))).toEqual([10, 44, 47, 72, 74]);
  });

  it('confirms only priced drafts; a preorder only for a fulfilment shop', () => {
    expect(allowedIn('confirm')).toEqual([11]);
    expect(refusal('confirm', state(11, { error: 'no price' }))).toMatch(/not priced/);
    expect(allowedIn('confirm', {}, { preOrder: true })).toEqual([]);
    expect(allowedIn('confirm', { fulfilment: true }, { preOrder: true })).toEqual([11]);
    expect(afterConfirm(false)).toEqual({ status: 12, reservationStatus: null });
    expect(afterConfirm(true)).toEqual({ status: 12, reservationStatus: RESERVATION.preorder });
  });

  it('cancels 11, 12, 13 and 83 only; after handover it is refused', () => {
    expect(allowedIn('cancel')).toEqual([11, 12, 13, 83]);
    expect(refusal('cancel', state(41))).toMatch(/handed over/);
  });

  it('asks a return at the point or after delivery, extends storage only at the point', () => {
    expect(allowedIn('return')).toEqual([42, 44]);
    expect(allowedIn('extendHold')).toEqual([42]);
  });

  it('packs and unpacks before handover, each once', () => {
    expect(allowedIn('pack')).toEqual([11, 12, 13]);
    expect(allowedIn('pack', { isPacked: true })).toEqual([]);
    expect(allowedIn('unpack')).toEqual([]);
    expect(allowedIn('unpack', { isPacked: true })).toEqual([11, 12, 13]);
  });

  it('reserves goods of fulfilment drafts and confirmed orders; cancels an existing reserve', () => {
    expect(allowedIn('reserve')).toEqual([]);
    expect(allowedIn('reserve', { fulfilment: true })).toEqual([11, 12]);
    expect(allowedIn('reserve', { fulfilment: true, reservationStatus: RESERVATION.preorder })).toEqual([11, 12]);
    expect(allowedIn('reserve', { fulfilment: true, reservationStatus: RESERVATION.reserved })).toEqual([]);
    expect(allowedIn('reserve', { fulfilment: true, reservationStatus: RESERVATION.cancelled })).toEqual([11, 12]);
    expect(allowedIn('cancelReserve', { fulfilment: true })).toEqual([]);
    expect(allowedIn('cancelReserve', { fulfilment: true, reservationStatus: RESERVATION.reserved })).toEqual([11, 12]);
  });

  it('checks the rests of drafts only', () => {
    expect(allowedIn('checkRests')).toEqual([11]);
  });

  it('registration moves only a confirmed order: to 13, or 83 on failure', () => {
    expect(afterRegistration(12, true)).toBe(13);
    expect(afterRegistration(12, false)).toBe(83);
    for (const status of ALL_STATUSES.filter((code) => code !== 12)) expect(afterRegistration(status, true)).toBeNull();
  });

  it('takes carrier statuses only for registered orders, never out of a final status, and only returns after delivery', () => {
    for (const status of [1, 10, 11, 12, 83])
      for (const reported of CARRIER_STATUSES) expect(acceptsCarrierStatus(status, reported)).toBe(false);
    for (const reported of CARRIER_STATUSES) expect(acceptsCarrierStatus(13, reported)).toBe(true);
    expect(acceptsCarrierStatus(13, 11)).toBe(false);
    expect(acceptsCarrierStatus(13, 83)).toBe(false);
    expect(acceptsCarrierStatus(41, 41)).toBe(false);
    expect(acceptsCarrierStatus(42, 44)).toBe(true);
    expect(acceptsCarrierStatus(44, 41)).toBe(false);
    expect(acceptsCarrierStatus(44, 51)).toBe(true);
    for (const status of [10, 72, 74]) expect(acceptsCarrierStatus(status, 41)).toBe(false);
  });
});

describe('order lists', () => {
  it('puts every status in at most one status list, the one of LIST_STATUSES', () => {
    for (const status of ALL_STATUSES) {
      const lists = Object.entries(LIST_STATUSES)
        .filter(([, statuses]) => statuses?.includes(status))
        .map(([list]) => Number(list));
      expect(lists.length, `status ${status}`).toBeLessThanOrEqual(1);
      expect(listOfStatus(status), `status ${status}`).toBe(lists[0] ?? 0);
    }
    expect([11, 13, 41, 42, 44, 83, 72, 10, 1].map(listOfStatus)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 0]);
  });

  it('takes a problem status, or any order with an error of its own, as a problem', () => {
    expect(ALL_STATUSES.filter((status) => isProblem(status, null))).toEqual([461, 462, 83]);
    expect(ALL_STATUSES.every((status) => isProblem(status, 'Не удалось рассчитать доставку'))).toBe(true);
  });

  it("ships a fulfilment order's goods at handover (13 to any company status) and takes them back at 72", () => {
    expect(CARRIER_STATUSES.filter((to) => stockMoveOf(STATUS.prepared, to) === 'ship')).toEqual(CARRIER_STATUSES);
    expect(stockMoveOf(STATUS.confirmed, 41)).toBeNull();
    expect(stockMoveOf(41, 411)).toBeNull();
    expect(stockMoveOf(STATUS.prepared, STATUS.canceled)).toBeNull();
    expect(stockMoveOf(71, 72)).toBe('return');
    expect(stockMoveOf(72, 72)).toBeNull();
  });
});
