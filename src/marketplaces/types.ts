/**
 * The contract of a marketplace adapter (one per marketplace, split like the carrier
 * drivers: a pure mapper of the marketplace's documented shapes and a proxy doing the I/O).
 */

/** The integration parameters the account gave, keyed by `integrationParams[].key`. */
export type Credentials = Record<string, string>;

/** Our status groups of a marketplace order; also the `list` codes of GET /v2/marketplace-orders (0 = all). */
export const MARKETPLACE_ORDER_STATUSES = {
  1: 'New, awaiting acceptance by the seller',
  2: 'Accepted, being assembled or awaiting shipment',
  3: 'Shipped, in delivery',
  4: 'Delivered',
  5: 'Canceled',
} as const;
export type MarketplaceOrderStatus = 1 | 2 | 3 | 4 | 5;

/** An address in the contract's shape (deliveryAddress of 2.7, the marketplace warehouse of 2.8). */
export interface MarketplaceAddress {
  city: { countryCode: string; name: string; fias: string | null; type: string | null; region: string | null };
  street: string | null;
  house: string | null;
  bulk: string | null;
  flat: string | null;
}

export interface FetchedProduct {
  name: string;
  count: number;
  /** Price of one unit, kopecks. */
  priceKopecks: number;
  /** The marketplace's identifiers of the product, keyed by its bindingNames (offerId, sku...). */
  identifiers: Record<string, string>;
}

/** One order as a marketplace answered it, mapped to our terms (mappers are pure). */
export interface FetchedOrder {
  number: string;
  createdAt: string | null;
  /** 1 FBS, 2 FBO, 3 DBS */
  shippingMode: 1 | 2 | 3;
  status: MarketplaceOrderStatus;
  /** The marketplace's own status name. */
  statusName: string;
  /** The marketplace's time of that status, else null (we take the time we saw it). */
  statusAt: string | null;
  acceptPlannedAt: string | null;
  acceptedAt: string | null;
  deliveryPriceKopecks: number;
  deliveryPriceFactKopecks: number | null;
  products: FetchedProduct[];
  shippingWarehouse: { id: number; name: string } | null;
  deliveryAddress: MarketplaceAddress | null;
  /** Orders of one buyer's basket shipped together share it; null when the marketplace says nothing. */
  bundleKey: string | null;
}

/** One page of a poll: the orders, where the next page starts, and whether there is one now. */
export interface OrderPage {
  orders: FetchedOrder[];
  cursor: unknown;
  more: boolean;
}

/** A stored order's status as the marketplace tells it now. */
export interface StatusUpdate {
  number: string;
  status: MarketplaceOrderStatus;
  statusName: string;
  acceptedAt: string | null;
}

export interface MarketplaceAdapter {
  /** Checks the credentials with a cheap call; throws MarketplaceAuthError or MarketplaceUnavailableError. */
  checkCredentials(credentials: Credentials, signal: AbortSignal): Promise<void>;
  /** The next page of orders after `cursor` (null: the first poll), at most `limit`. */
  fetchOrders(
    credentials: Credentials,
    cursor: unknown,
    limit: number,
    now: Date,
    signal: AbortSignal,
  ): Promise<OrderPage>;
  /**
   * The seller's own warehouses as the marketplace lists them now (ids and names; neither
   * list gives an address we could place by FIAS), or null when the marketplace has no such list.
   */
  listWarehouses(credentials: Credentials, signal: AbortSignal): Promise<Array<{ id: number; name: string }> | null>;
  /** The present statuses of stored orders (by number); an order the marketplace does not answer for is left out. */
  fetchStatuses(credentials: Credentials, numbers: string[], signal: AbortSignal): Promise<StatusUpdate[]>;
}

/** The marketplace refused the credentials (401/403): the account must fix them. */
export class MarketplaceAuthError extends Error {
  override readonly name = 'MarketplaceAuthError';
}

/** The marketplace did not answer usefully (network, 429, 5xx, garbage): try again later. */
export class MarketplaceUnavailableError extends Error {
  override readonly name: string = 'MarketplaceUnavailableError';
  constructor(
    message: string,
    /** From Retry-After (or the marketplace's own header) on a 429, else null. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/**
 * A 404: the thing asked for is not (or no longer) the seller's there. Still "unavailable"
 * for calls that must answer; a status read of one order skips it.
 */
export class MarketplaceNotFoundError extends MarketplaceUnavailableError {
  override readonly name = 'MarketplaceNotFoundError';
}

/** Reads one order's status per call, skipping the orders the marketplace no longer knows. */
export async function statusesOneByOne(
  numbers: string[],
  read: (number: string) => Promise<StatusUpdate | null>,
): Promise<StatusUpdate[]> {
  const updates: StatusUpdate[] = [];
  for (const number of numbers) {
    try {
      const update = await read(number);
      if (update) updates.push(update);
    } catch (error) {
      if (!(error instanceof MarketplaceNotFoundError)) throw error;
    }
  }
  return updates;
}

/** A marketplace's list of warehouses `[{<idKey>, name}]` as ids and names (pure). */
export function warehouseList(items: unknown, idKey: string): Array<{ id: number; name: string }> {
  return (Array.isArray(items) ? (items as Array<Record<string, unknown>>) : []).flatMap((item) => {
    const id = Number(item[idKey]);
    return Number.isSafeInteger(id) && id > 0 ? [{ id, name: textOrNull(item.name) ?? '' }] : [];
  });
}

/** Roubles as the marketplaces write them ("1390.000000", 1390.5) to whole kopecks. */
export function kopecksOf(value: unknown): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(number) ? Math.round(number * 100) : 0;
}

/**
 * A marketplace's RFC 3339 time ("2026-11-01T10:00:00Z", "…+03:00") as our UTC ISO instant, or
 * null when absent or unreadable: stored instants compare as text on SQLite (date filters, overdue).
 */
export function instantOrNull(value: unknown): string | null {
  const text = textOrNull(value);
  const time = text === null ? NaN : Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== ''
    ? value.trim()
    : typeof value === 'number'
      ? String(value)
      : null;
}
