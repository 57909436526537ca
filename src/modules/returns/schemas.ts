import Type, { type Static } from 'typebox';
import { Instant, Nullable, RecordId } from '../../platform/schemas.js';
import { PagingQueryFields } from '../../platform/paging.js';
import { MAX_PHOTOS, MAX_PHOTO_BYTES } from './photos.js';
import { RETURN_PAYERS, RETURN_REASONS, RETURN_STATUSES, RETURN_WAYS } from './rules.js';

export const ReturnReasonSchema = Type.Enum([...RETURN_REASONS], {
  description:
    'did_not_fit, changed_mind, defective, damaged_in_delivery, wrong_item, not_as_described (the last four are the shop’s fault: with payer buyer_unless_fault the shop pays the way back), other',
});
export const ReturnWaySchema = Type.Enum([...RETURN_WAYS], {
  description:
    "point: the buyer drops the parcel at a point of the company; courier: the company's courier collects it; post: at a post office",
});
export const ReturnStatusSchema = Type.Enum([...RETURN_STATUSES], {
  description:
    'requested → approved (the shop, or its rules) / refused / cancelled → in_transit (the return parcel is on its way) → received (it reached the shop) → closed (inspected)',
});

const Roubles = (description: string) => Type.Number({ description: `${description}, roubles` });

export const ReturnLineSchema = Type.Object({
  line: Type.Integer({ description: "Index of the line in the order's products (0-based)" }),
  productId: Nullable(Type.Integer()),
  name: Nullable(Type.String()),
  vendorCode: Nullable(Type.String()),
  count: Type.Integer(),
  price: Roubles('Per unit, as the buyer paid it (price less discount)'),
  reason: ReturnReasonSchema,
  comment: Nullable(Type.String()),
});

export const ReturnSchema = Type.Object(
  {
    id: Type.Integer(),
    shopId: Type.Integer(),
    orderId: Type.Integer({ description: 'The delivered order the goods come back from' }),
    orderNumber: Nullable(Type.String({ description: "The order's cmsId" })),
    status: ReturnStatusSchema,
    code: Type.String({
      description: 'The return code the buyer shows at the point or to the courier (also as a QR code)',
    }),
    way: ReturnWaySchema,
    companyId: Type.Integer({ description: 'The delivery company carrying the return parcel' }),
    pointId: Nullable(Type.Integer({ description: 'The point the buyer drops the parcel at (point, post)' })),
    lines: Type.Array(ReturnLineSchema),
    photos: Type.Array(
      Type.String({ description: 'A photo of the goods (PUBLIC_URL/files/…, with a token of the account)' }),
    ),
    goodsSum: Roubles("The returned lines' prices"),
    cost: Roubles("The return's delivery cost (the return parcel's price)"),
    payer: Type.Enum(['shop', 'buyer'], { description: 'Who pays the delivery cost, by the shop’s return rules' }),
    refundSum: Roubles('What the shop refunds: goodsSum, less the cost when the buyer pays it'),
    createdBy: Type.Enum(['buyer', 'shop'], { description: 'buyer: the returns page; shop: POST /v2/returns' }),
    approvedBy: Nullable(
      Type.Enum(['rules', 'shop'], {
        description: 'rules: the shop’s auto-approval rules; shop: the shop (POST …/approve, or its own return)',
      }),
    ),
    refusalReason: Nullable(Type.String()),
    parcelOrderId: Nullable(
      Type.Integer({
        description: 'The return parcel, an order in the reverse direction (GET /v2/orders/{id}, returnOf)',
      }),
    ),
    createdAt: Instant,
    updatedAt: Instant,
  },
  { description: 'A return of goods of a delivered order (extension)' },
);
export type ReturnView = Static<typeof ReturnSchema>;

export const ReturnListQuery = Type.Object({
  ...PagingQueryFields,
  status: Type.Optional(ReturnStatusSchema),
  shopId: Type.Optional(RecordId("Only this shop's returns (a shop key sees only its own shop anyway)")),
  orderId: Type.Optional(RecordId('Only the returns of this order')),
  dateFrom: Type.Optional(
    Type.String({ format: 'date', description: 'Created on or after this day (YYYY-MM-DD, the account’s time zone)' }),
  ),
  dateTo: Type.Optional(Type.String({ format: 'date', description: 'Created on or before this day (YYYY-MM-DD)' })),
});
export type ReturnListQuery = Static<typeof ReturnListQuery>;

const MAX_LINES = 100;
/** Base64 of the largest photo, and a little. */
const MAX_PHOTO_BASE64 = Math.ceil((MAX_PHOTO_BYTES * 4) / 3) + 4;

export const ReturnLineInput = Type.Object({
  line: Type.Integer({ minimum: 0, maximum: 999, description: "Index of the line in the order's products (0-based)" }),
  count: Type.Integer({ minimum: 0, maximum: 100_000, description: 'Units returned (0: the line is not returned)' }),
  reason: ReturnReasonSchema,
  comment: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
});

export const PhotoInput = Type.Object({
  data: Type.String({
    maxLength: MAX_PHOTO_BASE64,
    description: 'The picture, base64 (JPEG, PNG, WebP or HEIC; at most 5 MB)',
  }),
});

/** What a return is made of: the shop's POST /v2/returns and the returns page send the same. */
export const ReturnRequestFields = {
  lines: Type.Array(ReturnLineInput, { minItems: 1, maxItems: MAX_LINES }),
  way: ReturnWaySchema,
  companyId: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The company carrying the parcel back' }),
  pointId: Type.Optional(
    Nullable(
      RecordId(
        'The point the buyer drops the parcel at: required for point and post, one of the company’s near the buyer',
      ),
    ),
  ),
  photos: Type.Optional(Type.Array(PhotoInput, { maxItems: MAX_PHOTOS, description: `At most ${MAX_PHOTOS}` })),
};

export const ReturnCreateBody = Type.Object({
  orderId: RecordId('The delivered order'),
  ...ReturnRequestFields,
});
export type ReturnCreateBody = Static<typeof ReturnCreateBody>;
export type ReturnRequestInput = Omit<ReturnCreateBody, 'orderId'>;

export const RefuseBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 1000, description: 'Why, for the buyer' }),
});

export const ReturnSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Buyers may start returns on the returns page' }),
    windowDays: Type.Integer({
      minimum: 1,
      maximum: 365,
      description: 'Days after delivery a buyer may start a return',
    }),
    ways: Type.Array(
      Type.Object({
        way: ReturnWaySchema,
        companyIds: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { minItems: 1, maxItems: 20 }),
      }),
      { maxItems: 3, description: 'The ways back the shop allows, each with the companies the buyer chooses from' },
    ),
    payer: Type.Enum([...RETURN_PAYERS], {
      description:
        'Who pays the way back: shop, buyer, or buyer_unless_fault (the shop pays when a reason is its fault)',
    }),
    autoApprove: Nullable(
      Type.Object(
        {
          reasons: Type.Array(ReturnReasonSchema, {
            maxItems: RETURN_REASONS.length,
            description: 'Empty: any reason',
          }),
          maxGoodsValue: Nullable(
            Type.Number({ minimum: 0, maximum: 100_000_000, description: 'Roubles; null: any value' }),
          ),
          withinDays: Nullable(
            Type.Integer({ minimum: 0, maximum: 365, description: 'Days after delivery; null: the whole window' }),
          ),
        },
        { description: 'Approve without the shop when every rule holds; null: the shop approves each return' },
      ),
    ),
  },
  { description: "A shop's return rules (extension)" },
);

export const ReturnSettingsView = Type.Object(
  {
    ...ReturnSettingsSchema.properties,
    pageUrl: Type.String({
      description:
        "The shop's returns page (buyers find their order by number and phone): link it from the shop's site",
    }),
  },
  { description: "A shop's return rules and its returns page (extension)" },
);
