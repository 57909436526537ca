import Type, { type Static } from 'typebox';
import { Instant, Nullable, RecordId } from '../../platform/schemas.js';
import { EVENT_TYPES } from './types.js';

export const EventTypeSchema = Type.Enum([...EVENT_TYPES], {
  description:
    "order.created (new order), order.status_changed (every status change), order.problem (the order entered the problems list: 83, 461, 462 or an error), order.sent_for_return (33, 51, 61 or 71 first reached, or a return requested), order.storage_ending (one day of storage left at the pickup point), order.late (the order passed its promised date, delivery.promise.byDate, without arriving; payload.promisedBy; it joins the problems list), fulfilment.goods_missing (a fulfilment order lacks goods: confirmed as a preorder, refused, or still waiting when goods arrived), fulfilment.return_received (a returned parcel was inspected at the fulfilment warehouse; payload.source refusal, partial-buyout or return, payload.returned what became of each line: stock, defect or write_off, with the count and reason), fulfilment.product_ends (a reservation took the available stock of a product to or below the shop's border; orderId is that order), fulfilment.stock_changed (what is available of a product at a fulfilment warehouse changed: received, reserved, released, returned; account-wide, shop null; payload.productId and fulfilmentWarehouseId), fulfilment.supply_accepted (a supply was accepted at the warehouse; orderId 0, the supply in payload.supplyId), marketplace_order.created (a new order read from a marketplace; orderId 0, the order in payload.marketplaceOrderId, its number in cmsId), pickup.status_changed (a pickup moved between statuses 1-5; orderId 0, the pickup in payload.pickupId), supply.status_changed (a supply moved between statuses 1-5; orderId 0, the supply in payload.supplyId), bill.issued (a billing period closed with a bill; orderId 0, payload.billId, date, sum in roubles), return.requested / return.approved / return.refused / return.cancelled / return.in_transit / return.received (a return of goods of the delivered order orderId moved: payload.return carries its lines, sums and costs, GET /v2/returns/{id})",
});

export const EventListQuery = Type.Object({
  afterId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 0,
      description: 'Answer events after this id: 0 at first, then the id of the last event received',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Events per call, 1 to 1000' }),
  ),
  types: Type.Optional(
    Type.Array(EventTypeSchema, { maxItems: 10, description: 'Only these types (types=a,b or types[]=a)' }),
  ),
  shopId: Type.Optional(RecordId("Only this shop's orders (a shop API key sees only its own shop anyway)")),
});
export type EventListQuery = Static<typeof EventListQuery>;

export const EventSchema = Type.Object(
  {
    id: Type.Integer({
      description: "Position in the account's stream: increasing, never reused; pass the last one as afterId",
    }),
    type: EventTypeSchema,
    orderId: Type.Integer({
      description:
        'The order; 0 for an event of no order of the orders area (fulfilment.supply_accepted, marketplace_order.created, pickup.status_changed, supply.status_changed, bill.issued)',
    }),
    shopId: Nullable(Type.Integer()),
    statusFrom: Nullable(Type.Integer({ description: 'Status before the change (null for order.created)' })),
    statusTo: Nullable(Type.Integer({ description: 'Status after the change' })),
    at: Instant,
    payload: Type.Object(
      {
        cmsId: Nullable(Type.String()),
        trackNumber: Nullable(Type.String()),
        description: Type.Optional(Nullable(Type.String())),
        error: Type.Optional(Nullable(Type.String())),
        holdDate: Type.Optional(Nullable(Type.String())),
        promisedBy: Type.Optional(Nullable(Type.String({ description: 'order.late: the promised date that passed' }))),
        reason: Type.Optional(
          Type.Enum(['status', 'requested'], {
            description:
              'Why the order goes back (order.sent_for_return): status, its company reported the return; requested, the shop asked for it',
          }),
        ),
        productId: Type.Optional(Type.Integer()),
        vendorCode: Type.Optional(Nullable(Type.String())),
        available: Type.Optional(Type.Integer()),
        border: Type.Optional(Type.Integer()),
        fulfilmentWarehouseId: Type.Optional(Type.Integer()),
        supplyId: Type.Optional(Type.Integer()),
        hasDiscrepancies: Type.Optional(Type.Boolean()),
        marketplaceOrderId: Type.Optional(
          Type.Integer({ description: 'marketplace_order.created: GET /v2/marketplace-orders/{id}' }),
        ),
        marketplaceId: Type.Optional(Type.Integer()),
        pickupId: Type.Optional(Type.Integer()),
        billId: Type.Optional(Type.Integer()),
        source: Type.Optional(
          Type.String({ description: 'fulfilment.return_received: refusal, partial-buyout or return' }),
        ),
        returned: Type.Optional(
          Type.Array(
            Type.Object({
              productId: Type.Integer(),
              outcome: Type.String({ description: 'stock, defect or write_off' }),
              count: Type.Integer(),
              reason: Type.String(),
            }),
            { description: 'fulfilment.return_received: what became of each line at inspection' },
          ),
        ),
        date: Type.Optional(Type.String()),
        sum: Type.Optional(Type.Number({ description: 'Roubles' })),
        return: Type.Optional(
          Type.Object(
            {
              id: Type.Integer(),
              status: Type.String(),
              code: Type.String(),
              way: Type.String(),
              companyId: Type.Integer(),
              lines: Type.Array(
                Type.Object({
                  line: Type.Integer(),
                  productId: Nullable(Type.Integer()),
                  vendorCode: Nullable(Type.String()),
                  name: Nullable(Type.String()),
                  count: Type.Integer(),
                  price: Type.Number({ description: 'Per unit, roubles' }),
                  reason: Type.String(),
                }),
              ),
              goodsSum: Type.Number({ description: 'Roubles' }),
              cost: Type.Number({ description: "The return's delivery cost, roubles" }),
              payer: Type.String({ description: 'shop or buyer: who pays the cost' }),
              refundSum: Type.Number({ description: 'What the shop refunds, roubles' }),
              parcelOrderId: Nullable(Type.Integer()),
              refusalReason: Nullable(Type.String()),
            },
            { description: 'return.*: the return after the step (GET /v2/returns/{id})' },
          ),
        ),
      },
      { description: 'A few fields of the order at the time of the event' },
    ),
  },
  { description: 'An order event' },
);
