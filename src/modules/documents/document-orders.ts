/**
 * The orders a document is formed of: every id asked, visible to the caller and in a state the
 * document takes, or one error naming each id that is not, and the rule that most documents
 * take Prepared orders only. Stickers, the check of places before acts, acts and assembly
 * statements share it; apart from service.ts so that sticker-sets.ts applies the same rule
 * without importing the service that builds it.
 */
import type { Scope } from '../../platform/auth.js';
import { AppError, conflict, type ErrorItem } from '../../platform/errors.js';
import type { OrderDoc } from '../orders/document.js';
import type { OrderService } from '../orders/service.js';
import { STATUS } from '../orders/state.js';

type Order = OrderDoc & { id: number };

/**
 * Every id the caller may see, in request order, or the error naming every failing id
 * (as the orders area's batches do): 409 when a visible order is refused, else 403 for
 * another shop's orders, else 404.
 */
export async function visibleOrders(
  orders: Pick<OrderService, 'getMany' | 'shopsOf'>,
  scope: Scope,
  ids: number[],
  refuse: ((order: Order) => string | null) | null,
): Promise<Order[]> {
  const unique = [...new Set(ids)];
  const found = await orders.getMany(scope, unique);
  const refused: ErrorItem[] = [];
  const invisible = unique.filter((id) => !found.has(id));
  const shops = invisible.length > 0 ? await orders.shopsOf(scope, invisible) : new Map<number, number | null>();
  const foreign: ErrorItem[] = [];
  const missing: ErrorItem[] = [];
  for (const id of unique) {
    const order = found.get(id);
    if (order) {
      const reason = refuse?.(order);
      if (reason) refused.push({ id, message: `${reason}.` });
    } else if (shops.has(id)) foreign.push({ id, message: `Order ${id} belongs to another shop.` });
    else missing.push({ id, message: `Order ${id} was not found.` });
  }
  const all = [...refused, ...foreign, ...missing].sort(
    (a, b) => unique.indexOf(a.id as number) - unique.indexOf(b.id as number),
  );
  if (all.length > 0) {
    const summary = `${all.length} of ${unique.length} order${unique.length > 1 ? 's' : ''} cannot be processed; nothing was formed. ${all[0].message}`;
    if (refused.length) throw conflict('order_state', summary, all);
    if (foreign.length) throw new AppError(403, 'forbidden', summary, all);
    throw new AppError(404, 'not_found', summary, all);
  }
  return unique.map((id) => found.get(id) as Order);
}

export function statusRefusal(order: Order, what: string): string | null {
  if (order.status === STATUS.prepared) return null;
  return `Order ${order.id} is in status ${order.status}; ${what} only for orders ready for shipment (status 13, Prepared)`;
}
