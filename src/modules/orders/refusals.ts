/**
 * What every operation on an account's existing orders refuses alike: another account's order
 * (404), another shop's under a shop key (403), a state the rules of state.ts refuse (409; a
 * batch names every failing id and changes nothing), an order another request changed between
 * the read and the write (409 order_changed). Apart from service.ts so that its operations
 * and the fulfilment reservations (reservations.ts) refuse in the same words.
 */
import type { Scope } from '../../platform/auth.js';
import { AppError, conflict, forbidden, notFound, type ErrorItem } from '../../platform/errors.js';
import { parseDoc, type OrderDoc } from './document.js';
import type { OrderState } from './state.js';
import type { OrderRecord, OrderStore } from './store.js';

/** The order as the rules of state.ts judge it. */
export function stateOf(record: OrderRecord, doc: OrderDoc): OrderState {
  return {
    status: record.status,
    error: doc.error,
    isPacked: doc.isPacked,
    reservationStatus: doc.reservationStatus.key,
    fulfilment: doc.fulfilment,
  };
}

/** The order's record if the caller may see it: 404 for another account's, 403 for another shop's (shop key). */
export async function accessibleOrder(store: OrderStore, scope: Scope, id: number): Promise<OrderRecord> {
  const record = await store.get(scope.accountId, id);
  if (!record) throw notFound('Order', id);
  if (scope.shopKeyShopId !== null && record.shopId !== scope.shopKeyShopId)
    throw forbidden(`This API key belongs to shop ${scope.shopKeyShopId}; order ${id} is not one of its orders.`);
  return record;
}

/** The error of a batch naming every failing id, or null when all may proceed. */
export function checkAll(
  scope: Scope,
  ids: number[],
  records: Map<number, OrderRecord>,
  check: (record: OrderRecord, doc: OrderDoc) => string | null,
): AppError | null {
  const missing: ErrorItem[] = [];
  const foreign: ErrorItem[] = [];
  const refused: ErrorItem[] = [];
  for (const id of ids) {
    const record = records.get(id);
    if (!record) missing.push({ id, message: `Order ${id} was not found.` });
    else if (scope.shopKeyShopId !== null && record.shopId !== scope.shopKeyShopId)
      foreign.push({ id, message: `Order ${id} belongs to another shop.` });
    else {
      const reason = check(record, parseDoc(record.doc));
      if (reason) refused.push({ id, message: `Order ${id}: ${reason}.` });
    }
  }
  const all = [...refused, ...foreign, ...missing].sort(
    (a, b) => ids.indexOf(a.id as number) - ids.indexOf(b.id as number),
  );
  if (all.length === 0) return null;
  const summary = `${all.length} of ${ids.length} order${ids.length > 1 ? 's' : ''} cannot be processed; nothing was changed. ${all[0].message}`;
  if (refused.length) return conflict('order_state', summary, all);
  if (foreign.length) return new AppError(403, 'forbidden', summary, all);
  return new AppError(404, 'not_found', summary, all);
}

/** An order changed by another request between its read and its write. */
export function raced(id: number): AppError {
  return conflict(
    'order_changed',
    `Order ${id} was changed by another request at the same time; read it again and retry.`,
    [{ id, message: 'changed concurrently' }],
  );
}
