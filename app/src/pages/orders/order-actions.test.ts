/**
 * The actions an order's page and the list's batch menu offer are the service's rules: for every
 * status the service knows, packed or not, priced or not, of a fulfilment shop or not, the app
 * offers an action exactly when the service's own check (src/modules/orders/state.ts) lets it through.
 */
import { describe, expect, it } from 'vitest';
import { type Operation, refusal, STATUS } from '../../../../src/modules/orders/state';
import { allows, anyAllows, nextActions, type OrderAction } from './order-actions';

const SERVICE_OPERATION: Partial<Record<OrderAction, { operation: Operation; preOrder?: boolean }>> = {
  edit: { operation: 'update' },
  confirm: { operation: 'confirm' },
  confirmPreorder: { operation: 'confirm', preOrder: true },
  pack: { operation: 'pack' },
  unpack: { operation: 'unpack' },
  cancel: { operation: 'cancel' },
  return: { operation: 'return' },
  extendHold: { operation: 'extendHold' },
};

function orderIn(status: number, isPacked: boolean, error: string | null, fulfilment: boolean) {
  return {
    status,
    statusHistory: [{ code: status, name: '', date: '', description: null }],
    isPacked,
    error,
    fulfilment,
  };
}

describe('what an order offers', () => {
  it("offers a status action exactly when the service's check allows it", () => {
    for (const status of Object.values(STATUS))
      for (const isPacked of [false, true])
        for (const error of [null, 'no price'])
          for (const fulfilment of [false, true]) {
            const order = orderIn(status, isPacked, error, fulfilment);
            for (const [action, { operation, preOrder }] of Object.entries(SERVICE_OPERATION)) {
              const serviceAllows =
                refusal(operation, { status, error, isPacked, reservationStatus: 0, fulfilment }, { preOrder }) ===
                null;
              expect(allows(action as OrderAction, order), `${action} at ${status}`).toBe(serviceAllows);
            }
            // stickers and waybills: only an order ready for shipment; a copy of any order
            expect(allows('sticker', order)).toBe(status === STATUS.prepared);
            expect(allows('duplicate', order)).toBe(true);
          }
  });

  it('offers an order ready for shipment no return and no longer storage; one at the pickup point both', () => {
    expect(nextActions(orderIn(STATUS.prepared, false, null, false))).toEqual([
      'sticker',
      'pack',
      'cancel',
      'duplicate',
      'duplicateBack',
    ]);
    expect(nextActions(orderIn(STATUS.atPoint, false, null, false))).toEqual([
      'return',
      'extendHold',
      'duplicate',
      'duplicateBack',
    ]);
    expect(nextActions(orderIn(STATUS.draft, false, null, false))).toEqual([
      'edit',
      'confirm',
      'pack',
      'cancel',
      'duplicate',
      'duplicateBack',
    ]);
    expect(nextActions(orderIn(STATUS.canceled, false, null, false))).toEqual(['duplicate', 'duplicateBack']);
  });

  it('offers a batch action when one chosen order allows it', () => {
    const chosen = [orderIn(STATUS.draft, false, null, false), orderIn(STATUS.canceled, false, null, false)];
    expect(anyAllows('confirm', chosen)).toBe(true);
    expect(anyAllows('extendHold', chosen)).toBe(false);
    expect(anyAllows('sticker', [])).toBe(false);
  });
});
