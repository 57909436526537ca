/**
 * Yandex Market Partner API <-> our terms. Pure.
 *
 * Sources (checked 2026-11): https://yandex.ru/dev/market/partner-api/doc/ru/reference/orders/getOrders
 * — GET https://api.partner.market.yandex.ru/v2/campaigns/{campaignId}/orders (query
 * fromDate/toDate DD-MM-YYYY, status, page_token, limit ≤ 50; answer {orders[], paging
 * {nextPageToken}, pager}); order fields id, status (PROCESSING, DELIVERY, PICKUP,
 * DELIVERED, CANCELLED, UNPAID...), substatus (STARTED, READY_TO_SHIP, SHIPPED...),
 * creationDate "DD-MM-YYYY HH:mm:ss" (Moscow), itemsTotal, deliveryTotal, items[]{offerId,
 * offerName, price, count}, delivery{deliveryPartnerType (YANDEX_MARKET | SHOP), region,
 * address{country, postcode, city, street, house, block, apartment}, shipments[]
 * {shipmentDate DD-MM-YYYY}}; GET /v2/campaigns/{campaignId} (the credential check);
 * errors {status: "ERROR", errors[]{code, message}}. Header `Api-Key`. The SDK
 * MrSmitix/ympa (docs/CampaignsApi.md) lists the same paths under /campaigns.
 */
import {
  kopecksOf,
  textOrNull,
  type FetchedOrder,
  type MarketplaceOrderStatus,
  type OrderPage,
  type StatusUpdate,
} from '../types.js';

export interface YandexCursor {
  fromDate: string;
  pageToken: string | null;
}

/** Yandex Market lives on Moscow time; its dates carry no offset. */
const MOSCOW_OFFSET_MS = 3 * 3_600_000;
export const PAGE_LIMIT = 50;

export function yandexDate(at: Date): string {
  const moscow = new Date(at.getTime() + MOSCOW_OFFSET_MS).toISOString();
  return `${moscow.slice(8, 10)}-${moscow.slice(5, 7)}-${moscow.slice(0, 4)}`;
}

/** "DD-MM-YYYY[ HH:mm:ss]" (Moscow) as an instant; a bare date is the end of that day. */
export function instantOf(value: unknown): string | null {
  const text = textOrNull(value);
  const match = text?.match(/^(\d{2})-(\d{2})-(\d{4})(?: (\d{2}):(\d{2}):(\d{2}))?$/);
  if (!match) return null;
  const [, day, month, year, hour = '23', minute = '59', second = '59'] = match;
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}+03:00`).toISOString();
}

export function ordersQuery(cursor: YandexCursor | null, now: Date): URLSearchParams {
  const query = new URLSearchParams({
    fromDate: cursor?.fromDate ?? yandexDate(new Date(now.getTime() - 30 * 86_400_000)),
    limit: String(PAGE_LIMIT),
  });
  if (cursor?.pageToken) query.set('page_token', cursor.pageToken);
  return query;
}

function statusOf(status: string, substatus: string | null): MarketplaceOrderStatus {
  if (status === 'CANCELLED') return 5;
  if (status === 'DELIVERED' || status === 'PARTIALLY_RETURNED' || status === 'RETURNED') return 4;
  if (status === 'DELIVERY' || status === 'PICKUP') return 3;
  if (status === 'PROCESSING') return substatus === 'READY_TO_SHIP' ? 2 : substatus === 'SHIPPED' ? 3 : 1;
  return 1;
}

interface YandexOrder {
  id?: unknown;
  status?: unknown;
  substatus?: unknown;
  creationDate?: unknown;
  deliveryTotal?: unknown;
  items?: Array<{ offerId?: unknown; offerName?: unknown; price?: unknown; count?: unknown }> | null;
  delivery?: {
    deliveryPartnerType?: unknown;
    address?: {
      country?: unknown;
      city?: unknown;
      street?: unknown;
      house?: unknown;
      block?: unknown;
      apartment?: unknown;
    } | null;
    region?: { name?: unknown } | null;
    shipments?: Array<{ shipmentDate?: unknown }> | null;
  } | null;
}

export function mapOrder(order: YandexOrder): FetchedOrder | null {
  const number = textOrNull(order.id);
  if (!number) return null;
  const status = textOrNull(order.status) ?? 'UNKNOWN';
  const substatus = textOrNull(order.substatus);
  const address = order.delivery?.address;
  const city = textOrNull(address?.city);
  return {
    number,
    createdAt: instantOf(order.creationDate),
    shippingMode: order.delivery?.deliveryPartnerType === 'SHOP' ? 3 : 1,
    status: statusOf(status, substatus),
    statusName: substatus ? `${status}/${substatus}` : status,
    statusAt: null,
    acceptPlannedAt: instantOf(order.delivery?.shipments?.[0]?.shipmentDate),
    acceptedAt: null,
    deliveryPriceKopecks: kopecksOf(order.deliveryTotal),
    deliveryPriceFactKopecks: null,
    products: (order.items ?? []).map((item) => {
      const offerId = textOrNull(item.offerId);
      return {
        name: textOrNull(item.offerName) ?? offerId ?? '',
        count: Math.max(1, Math.trunc(Number(item.count) || 1)),
        priceKopecks: kopecksOf(item.price),
        identifiers: (offerId ? { sku: offerId } : {}) as Record<string, string>,
      };
    }),
    shippingWarehouse: null,
    deliveryAddress: city
      ? {
          city: {
            countryCode: 'RU',
            name: city,
            fias: null,
            type: null,
            region: textOrNull(order.delivery?.region?.name),
          },
          street: textOrNull(address?.street),
          house: textOrNull(address?.house),
          bulk: textOrNull(address?.block),
          flat: textOrNull(address?.apartment),
        }
      : null,
    bundleKey: null,
  };
}

/** The answer of GET .../orders/{orderId} ({order}) as a status; null when it names no order. */
export function mapOrderStatus(body: unknown): StatusUpdate | null {
  const found = (body as { order?: YandexOrder | null }).order;
  const order = found ? mapOrder(found) : null;
  return order
    ? { number: order.number, status: order.status, statusName: order.statusName, acceptedAt: order.acceptedAt }
    : null;
}

export function mapOrderList(body: unknown, cursor: YandexCursor | null, now: Date): OrderPage {
  const answer = body as { orders?: YandexOrder[]; paging?: { nextPageToken?: unknown } };
  const orders = (Array.isArray(answer.orders) ? answer.orders : [])
    .map(mapOrder)
    .filter((order): order is FetchedOrder => order !== null);
  const fromDate = cursor?.fromDate ?? ordersQuery(null, now).get('fromDate') ?? yandexDate(now);
  const nextPageToken = textOrNull(answer.paging?.nextPageToken);
  if (nextPageToken) return { orders, cursor: { fromDate, pageToken: nextPageToken }, more: true };
  // read to the end: the next poll starts from today (orders of today already stored are not stored again)
  return { orders, cursor: { fromDate: yandexDate(now), pageToken: null }, more: false };
}
