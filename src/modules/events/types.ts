/** What an order event is: its types and the shape written with an order change. */

export const EVENT_TYPES = [
  'order.created',
  'order.status_changed',
  'order.problem',
  'order.sent_for_return',
  'order.storage_ending',
  'order.late',
  'fulfilment.goods_missing',
  'fulfilment.return_received',
  'fulfilment.product_ends',
  'fulfilment.stock_changed',
  'fulfilment.supply_accepted',
  'marketplace_order.created',
  'pickup.status_changed',
  'supply.status_changed',
  'bill.issued',
  'return.requested',
  'return.approved',
  'return.refused',
  'return.cancelled',
  'return.in_transit',
  'return.received',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The small payload of an event: enough to show it without reading the order. */
export interface EventPayload {
  cmsId: string | null;
  trackNumber: string | null;
  /** The status's description (from the company) or the reason of the change. */
  description?: string | null;
  /** The order's error, for order.problem. */
  error?: string | null;
  /** order.late: the promised date that passed (YYYY-MM-DD). */
  promisedBy?: string | null;
  /** Last day of storage at the pickup point (YYYY-MM-DD). */
  holdDate?: string | null;
  /** order.sent_for_return: "status" (the company sends it back) or "requested" (the shop asked). */
  reason?: 'status' | 'requested';
  /** fulfilment.product_ends: the product, what is available now at the warehouse, and the shop's border; fulfilment.stock_changed: the product and the warehouse. */
  productId?: number;
  vendorCode?: string | null;
  available?: number;
  border?: number;
  fulfilmentWarehouseId?: number;
  /** fulfilment.supply_accepted: the supply, and whether the count differed from its act. */
  supplyId?: number;
  hasDiscrepancies?: boolean;
  /** marketplace_order.created: the marketplace order (GET /v2/marketplace-orders/{id}) and its marketplace. */
  marketplaceOrderId?: number;
  marketplaceId?: number;
  /** pickup.status_changed: the pickup (GET /v2/pickups/{id}). */
  pickupId?: number;
  /** fulfilment.return_received: where the parcel came from (refusal, partial-buyout, return) and what became of each line at inspection. */
  source?: string;
  returned?: Array<{ productId: number; outcome: string; count: number; reason: string }>;
  /** bill.issued: the bill (GET /v2/reports/bills), its date and sum in roubles. */
  billId?: number;
  date?: string;
  sum?: number;
  /** return.*: the return (GET /v2/returns/{id}) as it is after the step: lines, sums and costs, so a CMS can refund. */
  return?: ReturnEventPayload;
}

/** The return in a return.* event (modules/returns). Amounts in roubles. */
export interface ReturnEventPayload {
  id: number;
  status: string;
  code: string;
  way: string;
  companyId: number;
  lines: Array<{
    line: number;
    productId: number | null;
    vendorCode: string | null;
    name: string | null;
    count: number;
    price: number;
    reason: string;
  }>;
  goodsSum: number;
  cost: number;
  payer: string;
  refundSum: number;
  parcelOrderId: number | null;
  refusalReason: string | null;
}

/** An event of one order change, before it is written. */
export interface OrderEventDraft {
  type: EventType;
  statusFrom: number | null;
  statusTo: number | null;
  payload: EventPayload;
}

/** An event as stored and answered. */
export interface OrderEvent {
  id: number;
  type: EventType;
  orderId: number;
  shopId: number | null;
  statusFrom: number | null;
  statusTo: number | null;
  at: string;
  payload: EventPayload;
}

/** An event with its account, for consumers inside the service. */
export interface AccountEvent extends OrderEvent {
  accountId: number;
}
