/**
 * The built-in sandbox marketplace: no network, it "receives" one order every
 * MARKETPLACE_SANDBOX_ORDER_SECONDS from the first poll on, so a demo shows orders arriving
 * (and, a few intervals later, overdue for acceptance). Deterministic: order n is always
 * the same order. The token "invalid" is refused, to show a refusal.
 */
import {
  MarketplaceAuthError,
  type Credentials,
  type FetchedOrder,
  type MarketplaceAdapter,
  type OrderPage,
  type StatusUpdate,
} from '../types.js';

export interface SandboxCursor {
  startedAt: string;
  produced: number;
}

export const SANDBOX_WAREHOUSE = { id: 4000001, name: 'Песочница: склад продавца в Москве' };
const GOODS = [
  { sku: 'SANDBOX-1', name: 'Футболка (песочница)', price: 99_000 },
  { sku: 'SANDBOX-2', name: 'Кружка (песочница)', price: 45_000 },
  { sku: 'SANDBOX-3', name: 'Носки (песочница)', price: 19_900 },
];

export function sandboxOrder(n: number, createdAt: Date, intervalMs: number): FetchedOrder {
  const goods = GOODS[(n - 1) % GOODS.length] as (typeof GOODS)[number];
  return {
    number: `SBX-${String(n).padStart(6, '0')}`,
    createdAt: createdAt.toISOString(),
    shippingMode: n % 4 === 0 ? 3 : 1,
    status: 1,
    statusName: 'awaiting_acceptance',
    statusAt: createdAt.toISOString(),
    // three intervals to accept it: a demo sees some become overdue
    acceptPlannedAt: new Date(createdAt.getTime() + 3 * intervalMs).toISOString(),
    acceptedAt: null,
    deliveryPriceKopecks: 19_900,
    deliveryPriceFactKopecks: null,
    products: [{ name: goods.name, count: 1 + (n % 2), priceKopecks: goods.price, identifiers: { sku: goods.sku } }],
    shippingWarehouse: SANDBOX_WAREHOUSE,
    deliveryAddress: {
      city: {
        countryCode: 'RU',
        name: 'Москва',
        fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
        type: 'г',
        region: 'Москва',
      },
      street: 'Тверская улица',
      house: String((n % 30) + 1),
      bulk: null,
      flat: String(n),
    },
    // orders 5k+1 and 5k+2 are one buyer's basket
    bundleKey: n % 5 === 1 || n % 5 === 2 ? `SBX-B${Math.ceil(n / 5)}` : null,
  };
}

export class SandboxAdapter implements MarketplaceAdapter {
  constructor(private readonly orderIntervalMs: number) {}

  async checkCredentials(credentials: Credentials): Promise<void> {
    if ((credentials.token ?? '').trim().toLowerCase() === 'invalid')
      throw new MarketplaceAuthError('The sandbox refuses the token "invalid" (any other token is accepted).');
  }

  async fetchOrders(_credentials: Credentials, cursor: unknown, limit: number, now: Date): Promise<OrderPage> {
    const at = (cursor as SandboxCursor | null) ?? { startedAt: now.toISOString(), produced: 0 };
    const start = Date.parse(at.startedAt);
    const due = this.orderIntervalMs > 0 ? Math.floor((now.getTime() - start) / this.orderIntervalMs) + 1 : 0;
    const upTo = Math.min(due, at.produced + limit);
    const orders: FetchedOrder[] = [];
    for (let n = at.produced + 1; n <= upTo; n++)
      orders.push(sandboxOrder(n, new Date(start + (n - 1) * this.orderIntervalMs), this.orderIntervalMs));
    return { orders, cursor: { startedAt: at.startedAt, produced: Math.max(at.produced, upTo) }, more: upTo < due };
  }

  /** The sandbox's one warehouse is in the reference data. */
  async listWarehouses(): Promise<null> {
    return null;
  }

  /** Sandbox orders keep the status they arrived in (a demo of status changes would need the shop to act on them). */
  async fetchStatuses(): Promise<StatusUpdate[]> {
    return [];
  }
}
