/**
 * Ozon Seller API <-> our terms. Pure.
 *
 * Sources (checked 2026-11): Ozon Seller API reference https://docs.ozon.ru/api/seller/ —
 * POST /v3/posting/fbs/list (body: dir, filter{since,to,status}, limit (≤1000), offset,
 * with{...}; answer result{postings[], has_next}); posting fields posting_number,
 * order_number, status, in_process_at, shipment_date, delivering_date,
 * tpl_integration_type, delivery_method{warehouse_id, warehouse}, products[]{price (string,
 * roubles), offer_id, name, sku, quantity}, customer.address (rFBS); POST /v1/warehouse/list
 * (result[]{warehouse_id, name}). Headers Client-Id and Api-Key. Also read: the client
 * models of the public SDKs bevice/owozon (docs/posting/fbs_list.md) and a-ulianov/OzonAPI
 * (PostingFBSListRequest: "since and to are required, the period at most one year").
 */
import {
  instantOrNull,
  kopecksOf,
  textOrNull,
  type FetchedOrder,
  type MarketplaceOrderStatus,
  type OrderPage,
  type StatusUpdate,
} from '../types.js';

export interface OzonCursor {
  since: string;
  /** Set while a window is being read page by page. */
  to: string | null;
  offset: number;
}

/** How far back the first poll reads. */
export const FIRST_POLL_DAYS = 30;

export function firstCursor(now: Date): OzonCursor {
  return { since: new Date(now.getTime() - FIRST_POLL_DAYS * 86_400_000).toISOString(), to: null, offset: 0 };
}

export function postingListRequest(cursor: OzonCursor, limit: number, now: Date) {
  return {
    dir: 'ASC',
    filter: { since: cursor.since, to: cursor.to ?? now.toISOString() },
    limit,
    offset: cursor.offset,
    with: { analytics_data: false, financial_data: false, barcodes: false },
  };
}

const STATUS: Record<string, MarketplaceOrderStatus> = {
  acceptance_in_progress: 1,
  awaiting_approve: 1,
  awaiting_registration: 1,
  awaiting_packaging: 1,
  awaiting_deliver: 2,
  sent_by_seller: 3,
  driver_pickup: 3,
  delivering: 3,
  arbitration: 3,
  client_arbitration: 3,
  delivered: 4,
  cancelled: 5,
  not_accepted: 5,
};

interface OzonPosting {
  posting_number?: unknown;
  order_number?: unknown;
  status?: unknown;
  in_process_at?: unknown;
  shipment_date?: unknown;
  delivering_date?: unknown;
  tpl_integration_type?: unknown;
  delivery_method?: { warehouse_id?: unknown; warehouse?: unknown } | null;
  products?: Array<{ price?: unknown; offer_id?: unknown; name?: unknown; sku?: unknown; quantity?: unknown }> | null;
  customer?: {
    address?: { city?: unknown; region?: unknown; address_tail?: unknown; country?: unknown } | null;
  } | null;
}

export function mapPosting(posting: OzonPosting): FetchedOrder | null {
  const number = textOrNull(posting.posting_number);
  if (!number) return null;
  const statusName = textOrNull(posting.status) ?? 'unknown';
  const warehouseId = Number(posting.delivery_method?.warehouse_id);
  const address = posting.customer?.address;
  const city = textOrNull(address?.city);
  return {
    number,
    createdAt: instantOrNull(posting.in_process_at),
    // rFBS postings the seller delivers itself are "non_integrated"; the rest Ozon carries
    shippingMode: posting.tpl_integration_type === 'non_integrated' ? 3 : 1,
    status: STATUS[statusName] ?? 1,
    statusName,
    statusAt: null,
    acceptPlannedAt: instantOrNull(posting.shipment_date),
    acceptedAt: instantOrNull(posting.delivering_date),
    deliveryPriceKopecks: 0,
    deliveryPriceFactKopecks: null,
    products: (posting.products ?? []).map((product) => ({
      name: textOrNull(product.name) ?? textOrNull(product.offer_id) ?? '',
      count: Math.max(1, Math.trunc(Number(product.quantity) || 1)),
      priceKopecks: kopecksOf(product.price),
      identifiers: Object.fromEntries(
        [
          ['offerId', textOrNull(product.offer_id)],
          ['sku', textOrNull(product.sku)],
        ].filter((entry): entry is [string, string] => entry[1] !== null),
      ),
    })),
    shippingWarehouse:
      Number.isSafeInteger(warehouseId) && warehouseId > 0
        ? { id: warehouseId, name: textOrNull(posting.delivery_method?.warehouse) ?? '' }
        : null,
    deliveryAddress: city
      ? {
          city: { countryCode: 'RU', name: city, fias: null, type: null, region: textOrNull(address?.region) },
          street: textOrNull(address?.address_tail),
          house: null,
          bulk: null,
          flat: null,
        }
      : null,
    bundleKey: textOrNull(posting.order_number),
  };
}

/** The answer of /v3/posting/fbs/get ({result: posting}) as a status; null when it names no posting. */
export function mapPostingStatus(body: unknown): StatusUpdate | null {
  const posting = (body as { result?: OzonPosting | null }).result;
  const order = posting ? mapPosting(posting) : null;
  return order
    ? { number: order.number, status: order.status, statusName: order.statusName, acceptedAt: order.acceptedAt }
    : null;
}

/** The answer of /v3/posting/fbs/list as a page, and where the next one starts. */
export function mapPostingList(body: unknown, cursor: OzonCursor, now: Date): OrderPage {
  const result = (body as { result?: { postings?: OzonPosting[]; has_next?: boolean } }).result;
  const postings = Array.isArray(result?.postings) ? result.postings : [];
  const orders = postings.map(mapPosting).filter((order): order is FetchedOrder => order !== null);
  const to = cursor.to ?? now.toISOString();
  if (result?.has_next === true && postings.length > 0)
    return { orders, cursor: { since: cursor.since, to, offset: cursor.offset + postings.length }, more: true };
  // the window is read: the next one starts where it ended
  return { orders, cursor: { since: to, to: null, offset: 0 }, more: false };
}
