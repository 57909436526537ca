/**
 * Wildberries marketplace API <-> our terms. Pure.
 *
 * Sources (checked 2026-11): https://dev.wildberries.ru/openapi/orders-fbs and its OpenAPI
 * file as published in eslazarev/wildberries-sdk specs/03-orders-fbs.yaml — GET
 * /api/v3/orders on https://marketplace-api.wildberries.ru (query limit 1..1000, next
 * (0 first, then the answer's `next`), dateFrom/dateTo as Unix seconds, at most 30 days;
 * answer {next, orders[]}); order fields id, orderUid (one basket), article, nmId, chrtId,
 * skus[] (barcodes), price (×100, i.e. kopecks), createdAt (RFC 3339), warehouseId,
 * deliveryType (fbs | dbs | wbgo), address{fullAddress} (dbs only); 429 {title, detail,
 * ...} with X-Ratelimit-Retry; GET /api/v3/warehouses (seller's warehouses). Header
 * `Authorization: <token>`. The list carries no status: a new assembly task is "new".
 */
import {
  instantOrNull,
  textOrNull,
  type FetchedOrder,
  type MarketplaceOrderStatus,
  type OrderPage,
  type StatusUpdate,
} from '../types.js';

export interface WildberriesCursor {
  next: number;
  /** Unix seconds. */
  dateFrom: number;
}

/** WB answers at most 30 days back. */
const WINDOW_SECONDS = 30 * 86_400 - 3_600;

export function ordersQuery(cursor: WildberriesCursor | null, limit: number, now: Date): URLSearchParams {
  const earliest = Math.floor(now.getTime() / 1000) - WINDOW_SECONDS;
  // the `next` token is what keeps the place; dateFrom only has to stay inside WB's window
  return new URLSearchParams({
    limit: String(limit),
    next: String(cursor?.next ?? 0),
    dateFrom: String(Math.max(cursor?.dateFrom ?? earliest, earliest)),
  });
}

interface WildberriesOrder {
  id?: unknown;
  orderUid?: unknown;
  article?: unknown;
  nmId?: unknown;
  skus?: unknown;
  price?: unknown;
  createdAt?: unknown;
  warehouseId?: unknown;
  deliveryType?: unknown;
  address?: { fullAddress?: unknown } | null;
}

export function mapOrder(order: WildberriesOrder): FetchedOrder | null {
  const number = textOrNull(order.id);
  if (!number) return null;
  const skus = Array.isArray(order.skus) ? order.skus.filter((sku): sku is string => typeof sku === 'string') : [];
  const identifiers: Record<string, string> = {};
  const article = textOrNull(order.article);
  if (article) identifiers.article = article;
  const nmId = textOrNull(order.nmId);
  if (nmId) identifiers.nmId = nmId;
  if (skus[0]) identifiers.barcode = skus[0];
  const warehouseId = Number(order.warehouseId);
  const fullAddress = textOrNull(order.address?.fullAddress);
  return {
    number,
    createdAt: instantOrNull(order.createdAt),
    shippingMode: order.deliveryType === 'dbs' ? 3 : 1,
    status: 1,
    // what /api/v3/orders/status answers for a new assembly task, so the first re-read sees no change
    statusName: 'new/waiting',
    statusAt: null,
    acceptPlannedAt: null,
    acceptedAt: null,
    deliveryPriceKopecks: 0,
    deliveryPriceFactKopecks: null,
    // one assembly task is one unit of one product
    products: [
      { name: article ?? nmId ?? '', count: 1, priceKopecks: Math.round(Number(order.price) || 0), identifiers },
    ],
    shippingWarehouse: Number.isSafeInteger(warehouseId) && warehouseId > 0 ? { id: warehouseId, name: '' } : null,
    deliveryAddress: fullAddress
      ? {
          city: {
            countryCode: 'RU',
            name: fullAddress.split(',')[0]?.trim() ?? fullAddress,
            fias: null,
            type: null,
            region: null,
          },
          street: fullAddress,
          house: null,
          bulk: null,
          flat: null,
        }
      : null,
    bundleKey: textOrNull(order.orderUid),
  };
}

export function mapOrderList(body: unknown, cursor: WildberriesCursor | null, limit: number, now: Date): OrderPage {
  const answer = body as { next?: unknown; orders?: WildberriesOrder[] };
  const raw = Array.isArray(answer.orders) ? answer.orders : [];
  const orders = raw.map(mapOrder).filter((order): order is FetchedOrder => order !== null);
  const next = Number(answer.next);
  const dateFrom = Number(ordersQuery(cursor, limit, now).get('dateFrom'));
  return {
    orders,
    cursor: { next: Number.isSafeInteger(next) && next > 0 ? next : (cursor?.next ?? 0), dateFrom },
    more: raw.length >= limit,
  };
}

/** WB's own states of an assembly task (supplierStatus) and of the buyer's order (wbStatus). */
const SUPPLIER_STATUS: Record<string, MarketplaceOrderStatus> = { new: 1, confirm: 2, complete: 3, cancel: 5 };
const WB_STATUS: Record<string, MarketplaceOrderStatus> = {
  sorted: 3,
  ready_for_pickup: 3,
  sold: 4,
  canceled: 5,
  canceled_by_client: 5,
  declined_by_client: 5,
  defect: 5,
};

/**
 * The answer of POST /api/v3/orders/status ({orders: [{id, supplierStatus, wbStatus}]}):
 * WB's verdict (sold, canceled...) wins over the seller's step; the name shows both.
 */
export function mapStatuses(body: unknown): StatusUpdate[] {
  const answer = body as { orders?: Array<{ id?: unknown; supplierStatus?: unknown; wbStatus?: unknown }> };
  return (Array.isArray(answer.orders) ? answer.orders : []).flatMap((item) => {
    const number = textOrNull(item.id);
    const supplier = textOrNull(item.supplierStatus) ?? 'new';
    const wb = textOrNull(item.wbStatus) ?? 'waiting';
    if (!number) return [];
    return [
      {
        number,
        status: WB_STATUS[wb] ?? SUPPLIER_STATUS[supplier] ?? 1,
        statusName: `${supplier}/${wb}`,
        acceptedAt: null,
      },
    ];
  });
}

/** The ids WB takes in one status call. */
export const STATUS_BATCH = 1000;
