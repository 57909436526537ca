/** Which events an order write makes (pure): the rules the store applies on every write. */
import { describe, expect, it } from 'vitest';
import type { OrderDoc } from './document.js';
import { orderEventsOf } from './events.js';

function doc(
  overrides: {
    status?: number;
    error?: string | null;
    storagingEnds?: boolean;
    holdDate?: string | null;
    returns?: number;
    reservation?: number;
    fulfilment?: boolean;
  } = {},
): OrderDoc {
  const value = {
    status: overrides.status ?? 42,
    error: overrides.error ?? null,
    cmsId: 'C-1',
    trackNumber: 'TN1',
    statusHistory: [
      { code: overrides.status ?? 42, name: '', date: '2026-01-01T00:00:00.000Z', description: 'from the company' },
    ],
    tasks: Array.from({ length: overrides.returns ?? 0 }, () => ({
      type: 'return',
      date: '2026-01-01',
      status: 'requested',
    })),
    delivery: {
      point: { storagingEnds: overrides.storagingEnds ?? false, holdDate: overrides.holdDate ?? '2026-01-05' },
    },
    reservationStatus: { key: overrides.reservation ?? 0, date: null },
    fulfilment: overrides.fulfilment ?? false,
  };
  return value as unknown as OrderDoc;
}

const stored = (value: OrderDoc) => ({ status: value.status, doc: Buffer.from(JSON.stringify(value)) });
const types = (events: Array<{ type: string }>) => events.map((event) => event.type);

describe('order events of a write', () => {
  it('marks storage ending once, when the flag turns on', () => {
    const events = orderEventsOf(stored(doc()), doc({ storagingEnds: true, holdDate: '2026-01-02' }));
    expect(events).toEqual([
      {
        type: 'order.storage_ending',
        statusFrom: 42,
        statusTo: 42,
        payload: { cmsId: 'C-1', trackNumber: 'TN1', holdDate: '2026-01-02' },
      },
    ]);
    expect(orderEventsOf(stored(doc({ storagingEnds: true })), doc({ storagingEnds: true }))).toEqual([]);
  });

  it('makes nothing for a write that changes neither status nor problems, returns or storage', () => {
    expect(orderEventsOf({ status: 42, doc: Buffer.from('not read') }, doc({ status: 42 }))).toEqual([]);
  });

  it('sends for return only on the first return status', () => {
    expect(types(orderEventsOf(stored(doc({ status: 42 })), doc({ status: 51 })))).toEqual([
      'order.status_changed',
      'order.sent_for_return',
    ]);
    expect(types(orderEventsOf(stored(doc({ status: 51 })), doc({ status: 71 })))).toEqual(['order.status_changed']);
    expect(orderEventsOf(stored(doc({ status: 44 })), doc({ status: 44, returns: 1 }))).toMatchObject([
      { type: 'order.sent_for_return', payload: { reason: 'requested' } },
    ]);
  });

  it('counts an order as a problem once, by status or error', () => {
    expect(types(orderEventsOf(stored(doc({ status: 12 })), doc({ status: 83, error: 'refused' })))).toEqual([
      'order.status_changed',
      'order.problem',
    ]);
    expect(types(orderEventsOf(stored(doc({ status: 461 })), doc({ status: 462 })))).toEqual(['order.status_changed']);
    expect(types(orderEventsOf(null, doc({ status: 11, error: 'cannot price' })))).toEqual([
      'order.created',
      'order.problem',
    ]);
  });

  it('tells of goods missing when a fulfilment order becomes a preorder; its return is told at inspection, not at 72', () => {
    const draft = doc({ status: 11, fulfilment: true });
    expect(types(orderEventsOf(stored(draft), doc({ status: 12, fulfilment: true, reservation: 1 })))).toEqual([
      'order.status_changed',
      'fulfilment.goods_missing',
    ]);
    expect(
      types(
        orderEventsOf(
          stored(doc({ status: 12, fulfilment: true, reservation: 1 })),
          doc({ status: 12, fulfilment: true, reservation: 1 }),
        ),
      ),
    ).toEqual([]);
    expect(
      types(
        orderEventsOf(
          stored(doc({ status: 12, fulfilment: true, reservation: 1 })),
          doc({ status: 12, fulfilment: true, reservation: 2 }),
        ),
      ),
    ).toEqual([]);
    expect(
      types(orderEventsOf(stored(doc({ status: 71, fulfilment: true })), doc({ status: 72, fulfilment: true }))),
    ).toEqual(['order.status_changed']);
    expect(types(orderEventsOf(stored(doc({ status: 71 })), doc({ status: 72 })))).toEqual(['order.status_changed']);
  });
});
