/** Models of the checkout widget: its key, the calls a shop's page makes, and the server-side confirm. */
import Type, { type Static } from 'typebox';
import { CodeId, INT32_MAX, Nullable, RecordId } from '../../platform/schemas.js';
import { CompanyIdOut, CompanyRef } from '../calculator/schemas.js';
import { DeliveryPromiseModel } from '../delivery-promises/schemas.js';

/** An origin as a browser sends it: scheme, host and port, no path. */
const Origin = Type.String({
  pattern: '^https?://[^/\\s?#]+$',
  maxLength: 255,
  'x-message': 'must be an origin such as https://shop.example (scheme, host, port; no path)',
});

export const WidgetKeyInput = Type.Object({
  allowedOrigins: Type.Array(Origin, {
    minItems: 1,
    maxItems: 20,
    description: 'Pages of these origins may use the key (CORS); any other origin is refused',
  }),
});
export type WidgetKeyInput = Static<typeof WidgetKeyInput>;

export const WidgetKey = Type.Object(
  {
    publicKey: Type.String({
      description:
        'Publishable: put it in the page (pk_…). It can only read points, localities and quotes and record selections of this shop',
    }),
    allowedOrigins: Type.Array(Type.String()),
    createdAt: Type.String({ description: 'RFC 3339' }),
  },
  { description: 'WidgetKey' },
);
export type WidgetKey = Static<typeof WidgetKey>;

export const WidgetPreviewKey = Type.Object(
  {
    previewKey: Type.String({
      description:
        "pv_…: the dashboard's preview key of this shop. It prices and previews (localities, points, quotes, selections that can never become orders), only from the service's own origin (the dashboard's), and expires",
    }),
    expiresAt: Type.String({ description: 'RFC 3339' }),
  },
  { description: 'WidgetPreviewKey' },
);
export type WidgetPreviewKey = Static<typeof WidgetPreviewKey>;

/** Optional in the schema: a call without it is a 401, not a 400. */
export const KeyQuery = Type.Object({
  key: Type.Optional(Type.String({ maxLength: 100, description: "The shop's publishable widget key (required)" })),
});

/** The locality search of the widget and of GET /v2/lists/localities (the dashboard's order form). */
export const LocalityNameQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 100, description: 'The start of a locality name, as the buyer types it' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
});

export const LocalitySearchQuery = Type.Object({
  ...KeyQuery.properties,
  ...LocalityNameQuery.properties,
});
export type LocalitySearchQuery = Static<typeof LocalityNameQuery>;

export const WidgetLocality = Type.Object({
  fias: Type.String({ description: 'FIAS id, or `gn:<id>` for localities without one; send it back as city.fias' }),
  name: Type.String(),
  type: Type.String({ description: 'г, пгт, с' }),
  region: Type.String(),
  countryCode: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
});
export type WidgetLocality = Static<typeof WidgetLocality>;

const Flag = Type.Optional(Type.Boolean({ default: false }));
const Kg = Type.Number({ exclusiveMinimum: 0, maximum: 100000, description: 'kg' });
const Cm = Type.Number({ exclusiveMinimum: 0, maximum: 999, description: 'cm' });

export const PointsQuery = Type.Object({
  ...KeyQuery.properties,
  bbox: Type.String({
    pattern: '^-?\\d{1,3}(\\.\\d+)?,-?\\d{1,2}(\\.\\d+)?,-?\\d{1,3}(\\.\\d+)?,-?\\d{1,2}(\\.\\d+)?$',
    'x-message': 'must be west,south,east,north in degrees',
    description: 'The map viewport: west,south,east,north (longitude, latitude) in degrees',
  }),
  zoom: Type.Integer({ minimum: 0, maximum: 22, description: 'The map zoom: below 12 points come clustered' }),
  weight: Type.Optional(Kg),
  length: Type.Optional(Cm),
  width: Type.Optional(Cm),
  height: Type.Optional(Cm),
  cod: Flag,
  card: Flag,
  fitting: Flag,
  types: Type.Optional(
    Type.Array(Type.Enum([1, 2, 3]), { maxItems: 3, description: '1 pickup point, 2 parcel locker, 3 post office' }),
  ),
  companyIds: Type.Optional(Type.Array(CodeId(), { maxItems: 50 })),
});
export type PointsQuery = Static<typeof PointsQuery>;

export const WidgetPoint = Type.Object({
  id: Type.Integer(),
  companyId: Type.Integer(),
  type: Type.Integer({ description: '1 pickup point, 2 parcel locker, 3 post office' }),
  name: Type.String(),
  address: Type.String(),
  zipCode: Type.String({ description: "The point's postal code (a post office's is where a post parcel waits)" }),
  latitude: Type.Number(),
  longitude: Type.Number(),
  schedule: Type.Array(Nullable(Type.Object({ from: Type.String(), to: Type.String() }))),
  cashPaymentAvailable: Type.Boolean(),
  cardPaymentAvailable: Type.Boolean(),
  fittingAvailable: Type.Boolean(),
});
export type WidgetPoint = Static<typeof WidgetPoint>;

export const PointCluster = Type.Object({ latitude: Type.Number(), longitude: Type.Number(), count: Type.Integer() });
export type PointCluster = Static<typeof PointCluster>;

export const PointsAnswer = Type.Object(
  { clusters: Type.Array(PointCluster), points: Type.Array(WidgetPoint) },
  { description: 'Either clusters (zoomed out, or too many points in view) or points' },
);
export type PointsAnswer = Static<typeof PointsAnswer>;

const Money = Type.Number({ minimum: 0, maximum: 100_000_000, description: 'roubles' });

export const CartProduct = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 500 })),
  vendorCode: Type.Optional(Type.String({ maxLength: 255 })),
  price: Money,
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  weight: Type.Optional(Kg),
  width: Type.Optional(Cm),
  height: Type.Optional(Cm),
  length: Type.Optional(Cm),
});

const CityRef = Type.Object({
  fias: Type.Optional(Type.String({ maxLength: 64 })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  region: Type.Optional(Type.String({ maxLength: 255 })),
});

const cartFields = {
  city: CityRef,
  products: Type.Array(CartProduct, { minItems: 1, maxItems: 200 }),
  declaredValue: Type.Optional(Money),
  cod: Type.Optional(
    Type.Boolean({ default: false, description: 'The buyer pays on delivery: points must take cash or card' }),
  ),
  segment: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        "The buyer's segment as the shop's page names it (wholesale, vip …), for the shop's shipping rules; the order made from the selection keeps it",
    }),
  ),
  paymentOnDelivery: Type.Optional(
    Type.Enum(['cash', 'card'], {
      description: "How the buyer will pay on delivery, for the shop's shipping rules (cash when not given)",
    }),
  ),
};

export const QuoteInput = Type.Object({
  ...cartFields,
  modes: Type.Optional(
    Type.Array(Type.Enum([1, 2, 3]), { maxItems: 3, description: '1 pickup point, 2 courier, 3 post; all by default' }),
  ),
});
export type QuoteInput = Static<typeof QuoteInput>;

export const WidgetOption = Type.Object({
  mode: Type.Integer({ description: '1 pickup point, 2 courier, 3 post' }),
  companyId: CompanyIdOut,
  companyName: Type.String(),
  tariffName: Nullable(Type.String()),
  totalPrice: Type.Number({
    description: "The buyer's price with the shop's widget settings, roubles (pickup: the lowest of its points)",
  }),
  deliveryDays: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  deliveryDate: Type.Object({ from: Type.String(), to: Type.String() }),
  cashPaymentAvailable: Type.Boolean(),
  cardPaymentAvailable: Type.Boolean(),
  courierIntervals: Type.Optional(
    Type.Array(
      Type.Object({ id: Type.Integer(), timeFrom: Type.String(), timeTo: Type.String(), isDefault: Type.Boolean() }),
    ),
  ),
  promise: Type.Optional(DeliveryPromiseModel),
});
export type WidgetOption = Static<typeof WidgetOption>;

export const QuoteAnswer = Type.Object(
  { city: WidgetLocality, options: Type.Array(WidgetOption) },
  { description: 'WidgetQuotes' },
);
export type QuoteAnswer = Static<typeof QuoteAnswer>;

export const SelectionInput = Type.Object({
  ...cartFields,
  mode: Type.Enum([1, 2, 3], { description: '1 pickup point, 2 courier, 3 post' }),
  companyId: CompanyRef,
  pointId: Type.Optional(
    RecordId(
      'Required for mode 1 (a pickup point or locker); for mode 3, the post office chosen (type 3 of the points), else the post prices to the locality',
    ),
  ),
  address: Type.Optional(
    Type.Object({
      street: Type.Optional(Type.String({ maxLength: 255 })),
      house: Type.Optional(Type.String({ maxLength: 32 })),
      bulk: Type.Optional(Type.String({ maxLength: 32, description: 'The block (корпус) of the house' })),
      flat: Type.Optional(Type.String({ maxLength: 32 })),
      zipCode: Type.Optional(Type.String({ maxLength: 16 })),
      fiasId: Type.Optional(
        Type.String({
          pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
          maxLength: 36,
          'x-message': 'must be a FIAS id (a UUID)',
          description:
            "The house's FIAS id when the buyer chose it from the suggestions (GET /widget/v1/api/addresses/suggest): the order's address is then the register's house",
        }),
      ),
    }),
  ),
  contacts: Type.Optional(
    Type.Object(
      {
        fullName: Type.String({ minLength: 1, maxLength: 255 }),
        phone: Type.String({
          minLength: 5,
          maxLength: 32,
          pattern: '^\\+?[0-9 ()\\-]{5,32}$',
          'x-message': 'must be a phone number of digits, with an optional leading +',
        }),
        email: Type.Optional(Type.String({ maxLength: 255 })),
      },
      {
        description:
          "The buyer's contacts, when the widget asks them (the widget-era compatibility script): POST /v2/widgets/update-order then needs no recipient",
      },
    ),
  ),
  courier: Type.Optional(
    Type.Object({
      date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', 'x-message': 'must be YYYY-MM-DD' })),
      intervalId: Type.Optional(CodeId()),
    }),
  ),
});
export type SelectionInput = Static<typeof SelectionInput>;

export const SelectedQuote = Type.Object({
  ...WidgetOption.properties,
  point: Nullable(WidgetPoint),
});
export type SelectedQuote = Static<typeof SelectedQuote>;

export const SelectionAnswer = Type.Object(
  {
    token: Type.String({
      description: 'Opaque; give it to the shop server, which confirms it (POST /v2/widget/orders)',
    }),
    expiresAt: Type.String({ description: 'RFC 3339' }),
    quote: SelectedQuote,
  },
  { description: 'WidgetSelection' },
);
export type SelectionAnswer = Static<typeof SelectionAnswer>;

export const ConfirmInput = Type.Object({
  selectionToken: Type.String({ minLength: 1, maxLength: 200 }),
  cmsId: Type.Optional(Type.String({ maxLength: 255, description: "The shop's order number" })),
  recipient: Type.Object({
    fullName: Type.String({ minLength: 1, maxLength: 255 }),
    phone: Type.String({
      minLength: 5,
      maxLength: 32,
      pattern: '^\\+?[0-9 ()\\-]{5,32}$',
      'x-message': 'must be a phone number of digits, with an optional leading +',
    }),
    email: Type.Optional(Type.String({ maxLength: 255 })),
  }),
  comment: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type ConfirmInput = Static<typeof ConfirmInput>;

export const ConfirmAnswer = Type.Object(
  { id: Type.Integer({ description: 'The order made (a draft, as POST /v2/orders makes)' }), quote: SelectedQuote },
  { description: 'WidgetOrder' },
);

export const PriceChanged = Type.Object(
  {
    code: Type.String({ examples: ['price_changed'] }),
    message: Type.String(),
    errors: Type.Array(Type.Object({ field: Type.Optional(Type.String()), message: Type.String() })),
    logId: Type.String(),
    quote: Type.Optional({ ...SelectedQuote, description: 'With price_changed: the new quote' }),
  },
  {
    description:
      'A conflict: price_changed (the new quote is in `quote`; nothing was made), selection_used, selection_expired, selection_unavailable',
  },
);

const WidgetEraId = Type.Union([
  Type.String({ minLength: 1, maxLength: 200 }),
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
]);
/** A CMS's own id: a word, or a number as some CMSs send it. */
const CmsValue = (description: string) =>
  Type.Optional(
    Type.Union(
      [Type.String({ maxLength: 255 }), Type.Integer({ minimum: -INT32_MAX, maximum: Number.MAX_SAFE_INTEGER })],
      { description },
    ),
  );

export const UpdateOrderInput = Type.Object({
  id: {
    ...WidgetEraId,
    description: "What the widget's done event gave (a selection token), or an order id (cabinetId)",
  },
  cmsId: CmsValue("The CMS's order number"),
  status: CmsValue("The CMS's own status id: accepted, not kept"),
  paymentMethod: CmsValue("The CMS's payment method: accepted, not kept"),
});
export type UpdateOrderInput = Static<typeof UpdateOrderInput>;

export const ConfirmOrderInput = Type.Object({
  checkoutSessId: { ...WidgetEraId, description: 'The SR_checkoutSessId cookie: the selection token' },
});
export type ConfirmOrderInput = Static<typeof ConfirmOrderInput>;

export const CabinetAnswer = Type.Object(
  { cabinetId: Type.Integer({ description: 'The order id' }) },
  { description: 'WidgetEraOrder' },
);
