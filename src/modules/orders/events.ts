/**
 * Which events an order change makes (DESIGN.md 5: every status change emits an event).
 * Pure: the order store calls it on every write, with the order as it was read, so no
 * change can be written without its events.
 */
import { parseDoc, type OrderDoc } from './document.js';
import { isProblem, LIST_RETURNS, LIST_STATUSES, RESERVATION } from './state.js';
import type { EventPayload, OrderEventDraft } from '../events/types.js';

const RETURN_STATUSES: readonly number[] = LIST_STATUSES[LIST_RETURNS] ?? [];
/** Statuses that start the way back; reached first, the order is "sent for return". */
const RETURN_STARTS: readonly number[] = [33, 51, 61, 71];

/** What the events of a change depend on. */
export interface OrderFacts {
  status: number;
  error: string | null;
  storagingEnds: boolean;
  returnRequests: number;
  reservation: number;
  late: boolean;
}

export function factsOf(doc: OrderDoc): OrderFacts {
  return {
    status: doc.status,
    error: doc.error,
    storagingEnds: doc.delivery.point?.storagingEnds === true,
    returnRequests: doc.tasks.filter((task) => task.type === 'return').length,
    reservation: doc.reservationStatus.key,
    late: doc.delivery.promise?.late === true,
  };
}

/** The order appears in the problems list (GET /v2/orders?list=6). */
function inProblems(facts: OrderFacts): boolean {
  return isProblem(facts.status, facts.error);
}

/**
 * The events of writing `after` over the order as it was read (`before`: its status and
 * stored document; null: a new order). The old document is parsed only when it matters.
 */
export function orderEventsOf(before: { status: number; doc: Buffer } | null, after: OrderDoc): OrderEventDraft[] {
  const now = factsOf(after);
  const base: EventPayload = { cmsId: after.cmsId, trackNumber: after.trackNumber };
  const events: OrderEventDraft[] = [];
  if (before === null) {
    events.push({ type: 'order.created', statusFrom: null, statusTo: now.status, payload: base });
    if (inProblems(now))
      events.push({
        type: 'order.problem',
        statusFrom: null,
        statusTo: now.status,
        payload: { ...base, error: now.error },
      });
    return events;
  }
  // nothing that makes an event can have happened: skip reading the old document
  const mayMatter =
    before.status !== now.status ||
    now.error !== null ||
    now.storagingEnds ||
    now.returnRequests > 0 ||
    now.reservation === RESERVATION.preorder ||
    now.late;
  if (!mayMatter) return events;
  const was = factsOf(parseDoc(before.doc));
  if (was.status !== now.status) {
    const latest = after.statusHistory[0];
    const description = latest && latest.code === now.status ? latest.description : null;
    events.push({
      type: 'order.status_changed',
      statusFrom: was.status,
      statusTo: now.status,
      payload: { ...base, description },
    });
  }
  if (!inProblems(was) && inProblems(now))
    events.push({
      type: 'order.problem',
      statusFrom: was.status,
      statusTo: now.status,
      payload: { ...base, error: now.error },
    });
  const returnByStatus = RETURN_STARTS.includes(now.status) && !RETURN_STATUSES.includes(was.status);
  const returnRequested = now.returnRequests > was.returnRequests;
  if (returnByStatus || returnRequested) {
    events.push({
      type: 'order.sent_for_return',
      statusFrom: was.status,
      statusTo: now.status,
      payload: { ...base, reason: returnByStatus ? 'status' : 'requested' },
    });
  }
  if (!was.storagingEnds && now.storagingEnds) {
    events.push({
      type: 'order.storage_ending',
      statusFrom: was.status,
      statusTo: now.status,
      payload: { ...base, holdDate: after.delivery.point?.holdDate ?? null },
    });
  }
  if (!was.late && now.late) {
    events.push({
      type: 'order.late',
      statusFrom: was.status,
      statusTo: now.status,
      payload: { ...base, promisedBy: after.delivery.promise?.byDate ?? null },
    });
  }
  // an order becomes a preorder only when its goods are missing at the fulfilment warehouse
  if (was.reservation !== RESERVATION.preorder && now.reservation === RESERVATION.preorder) {
    events.push({
      type: 'fulfilment.goods_missing',
      statusFrom: was.status,
      statusTo: now.status,
      payload: {
        ...base,
        description: 'Goods are missing at the fulfilment warehouse: the order waits for them as a preorder',
      },
    });
  }
  // fulfilment.return_received is told when the warehouse staff have inspected the parcel (fulfilment/return-inspections.ts), not on its arrival
  return events;
}
