import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { CodeId, DateText, INT32_MAX, Nullable, RecordId, ZeroOne } from '../../platform/schemas.js';
import { OWN_METHOD_ID_MAX_LENGTH, OWN_METHOD_ID_PATTERN } from '../delivery-methods/rules.js';
import { CommissionFields, CompanyIdOut } from '../calculator/schemas.js';
import { OrderPromiseModel } from '../delivery-promises/schemas.js';
import { RegisterEntryModel } from '../addresses/schemas.js';

/** The bodies of create, replace and patch (input-schemas.ts), where routes and other areas have always found them. */
export { OrderInput, OrderPatch, OrderProductInput } from './input-schemas.js';

const NullableString = Nullable(Type.String());
const City = Type.Object({
  countryCode: NullableString,
  name: NullableString,
  fias: NullableString,
  type: NullableString,
  region: NullableString,
  area: NullableString,
});
const Schedule = Nullable(Type.Array(Nullable(Type.Object({ from: Type.String(), to: Type.String() }))));

/** Extension: what the federal address register made of a courier order's address (orders/recipient-address.ts). */
const RecipientRegister = RegisterEntryModel({
  finding:
    'Why a person should look at the address (less than a house, not recognised, not checked); the order is kept as typed and stays confirmable',
  description:
    "Extension, courier orders (type 2) only: the recipient's address as the federal address register knows it; the contract's fields keep the address as typed",
});

export const StatusHistoryItem = Type.Object({
  code: Type.Integer({ description: 'Status code (GET /v2/lists/order-statuses)' }),
  name: Type.String(),
  date: Type.String({ description: 'RFC 3339' }),
  description: NullableString,
});

export const OrderPoint = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    longitude: Type.Number(),
    latitude: Type.Number(),
    type: Nullable(Type.Integer({ description: '1 pickup point, 2 parcel locker, 3 post office' })),
    description: NullableString,
    address: Type.String(),
    photos: Nullable(Type.Array(Type.String())),
    schedule: Schedule,
    zipCode: NullableString,
    isPost: Type.Boolean(),
    holdDays: Type.Integer(),
    holdDate: NullableString,
    storagingEnds: Type.Boolean(),
  },
  { description: 'OrderDeliveryPickupPoint' },
);

export const OrderProduct = Type.Object({
  id: Nullable(Type.Integer()),
  name: NullableString,
  nameEn: NullableString,
  vendorCode: NullableString,
  vat: Nullable(Type.Integer({ description: 'VAT percent: 0, 10 or 20; null when not given' })),
  priceDeclared: Type.Number(),
  priceCod: Type.Number(),
  prePay: Type.Number(),
  discount: Type.Number(),
  tnved: NullableString,
  count: Type.Integer(),
  weight: Nullable(Type.Number()),
  brand: NullableString,
  producingCountry: NullableString,
  barcode: NullableString,
  dimensions: Type.Object({
    width: Nullable(Type.Number()),
    height: Nullable(Type.Number()),
    length: Nullable(Type.Number()),
  }),
});

/** Extension: the delivery ended with some lines bought and the rest refused (status 47). */
export const PartialBuyout = Type.Object(
  {
    date: Type.String({ description: 'RFC 3339: when the recipient took the bought lines' }),
    lines: Type.Array(
      Type.Object({
        index: Type.Integer({ description: "The line's position in products (0-based)" }),
        id: Nullable(Type.Integer()),
        vendorCode: Nullable(Type.String()),
        name: Nullable(Type.String()),
        count: Type.Integer({ description: 'Units of the line in the order' }),
        bought: Type.Integer({ description: 'Units the recipient bought' }),
        refused: Type.Integer({ description: 'Units refused: they travel back with the parcel' }),
      }),
      { description: 'Every line of products, in order' },
    ),
    priceCod: Type.Number({ description: 'Roubles: the cash on delivery the order asked for (priceCod)' }),
    collected: Type.Number({
      description:
        "Roubles: the cash on delivery collected, for the bought lines only (goods less discounts) plus the buyer's delivery charge; as the company reported it when it did",
    }),
    commission: Type.Number({
      description:
        "Roubles: the company's commission for collecting it, on the collected sum only (withheld from the remittance)",
    }),
  },
  {
    description:
      "Extension: a partial buyout at the point (status 47, where the point's partialBuyoutAvailable and a payment on delivery allow it): which lines were bought, and the sums. The refused lines come back with the parcel (71, then 74).",
  },
);
export type PartialBuyout = Static<typeof PartialBuyout>;

export const Order = Type.Object(
  {
    id: Type.Integer(),
    status: Type.Integer({ description: 'Extension: the current status code (statusHistory[0])' }),
    statusHistory: Type.Array(StatusHistoryItem, { description: 'Latest first' }),
    creationDate: Type.String(),
    trackingUrl: NullableString,
    trackNumber: NullableString,
    stickerFormed: Type.Boolean(),
    wasInAct: Type.Boolean({ description: 'Extension: the order was in an act' }),
    isPacked: Type.Boolean(),
    exceptionDeliveryCompany: Type.Boolean(),
    error: NullableString,
    pay: Type.Object({
      type: Type.Integer({
        description: '1 prepaid, 2 cash on delivery, 3 card on delivery (once the company reports a card payment)',
      }),
      prePay: Type.Number(),
      status: Type.Object({ code: Type.String({ description: 'not_paid, paid or refunded' }), date: Type.String() }),
    }),
    priceCod: Type.Number(),
    cmsId: NullableString,
    shopId: Nullable(Type.Integer()),
    warehouseId: Nullable(Type.Integer({ description: 'Extension: the sender warehouse (of the shop, at creation)' })),
    products: Type.Array(OrderProduct),
    priceDeclared: Nullable(Type.Number()),
    discount: Type.Number(),
    deliveryCostThresholds: Type.Object({
      deliveryCost: Nullable(
        Type.Number({
          description:
            "Delivery price charged to the customer when the bought-out sum is below the threshold: the shop's widget price rules without free delivery (null unless applyWidgetSettings and the shop's widget settings have freeDeliveryFrom)",
        }),
      ),
      threshold: Nullable(
        Type.Number({
          description: "Threshold sum of buyout: the shop's widget freeDeliveryFrom (null unless applyWidgetSettings)",
        }),
      ),
    }),
    reservationStatus: Type.Object({
      key: Type.Integer({ description: '0 none, 1 Preorder, 2 In reserve, 3 Reserve cancelled' }),
      date: NullableString,
    }),
    places: Type.Array(
      Type.Object({
        weight: Nullable(Type.Number()),
        dimensions: Type.Object({
          width: Nullable(Type.Number()),
          height: Nullable(Type.Number()),
          length: Nullable(Type.Number()),
        }),
      }),
    ),
    dimensions: Type.Object({
      width: Nullable(Type.Number()),
      height: Nullable(Type.Number()),
      length: Nullable(Type.Number()),
      weight: Nullable(Type.Number()),
      factWeight: Nullable(Type.Number()),
      places: Nullable(Type.Integer()),
    }),
    deliveryAddress: Type.Object({
      city: City,
      street: NullableString,
      house: NullableString,
      bulk: NullableString,
      flat: NullableString,
      zipCode: NullableString,
      register: Type.Optional(RecipientRegister),
    }),
    recipient: Type.Object({
      fullName: Type.String(),
      phone: Type.String(),
      additionalPhone: NullableString,
      email: NullableString,
      legalEntity: Type.Object({ name: NullableString, TIN: NullableString }),
    }),
    senderAddress: Type.Object({
      city: City,
      street: NullableString,
      house: NullableString,
      bulk: NullableString,
      flat: NullableString,
    }),
    sender: Type.Object({ fullName: NullableString, phone: NullableString }),
    pickup: Type.Object({
      type: Nullable(Type.Integer({ description: 'Pickup type: 1 drop-off to the company, 4 direct shipment' })),
      date: NullableString,
      pointId: Nullable(Type.Integer()),
    }),
    priceMode: Type.Integer({
      description: '1 by weight (max of actual and volumetric), 2 by actual weight, 3 by volume',
    }),
    services: Type.Array(Type.Integer()),
    applyWidgetSettings: Type.Boolean(),
    delivery: Type.Object({
      company: Type.Object({
        id: CompanyIdOut,
        name: NullableString,
        abbr: NullableString,
        logo: NullableString,
        tariff: NullableString,
      }),
      type: Type.Integer({ description: '1 pickup point, 2 courier, 3 national post' }),
      cashPaymentAvailable: Type.Boolean(),
      cardPaymentAvailable: Type.Boolean(),
      fittingAvailable: Type.Boolean(),
      checkupAvailable: Type.Boolean(),
      partialBuyoutAvailable: Type.Boolean(),
      date: Type.Object({ from: NullableString, to: NullableString }),
      days: Type.Object({ min: Nullable(Type.Integer()), max: Nullable(Type.Integer()) }),
      price: Nullable(Type.Number()),
      totalPrice: Nullable(Type.Number()),
      factPrice: Nullable(
        Type.Number({
          description:
            'Set on delivery: the cost to the shop (delivery, required services, insurance, acquiring and the COD commission of how the recipient paid: card, cash or none); no widget rules',
        }),
      ),
      services: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), price: Type.Number() })),
      point: Nullable(OrderPoint),
      ...CommissionFields,
      testMode: Type.Optional(
        Type.Boolean({
          description:
            "Extension: present (true) only when the order travels through the account's contract in the company's test environment (GET /v2/carrier-integrations testMode): its parcel is no real shipment",
        }),
      ),
      promise: Type.Optional(OrderPromiseModel),
    }),
    clientPrice: Type.Number(),
    clientPrePay: Nullable(Type.Number()),
    clientDeliveryDate: NullableString,
    clientCourierTime: Nullable(Type.Integer()),
    comment: NullableString,
    commentForAssembly: NullableString,
    documentsForWarehouse: NullableString,
    tasks: Type.Array(
      Type.Object({
        type: Type.String({ description: 'return | extend-hold' }),
        date: Type.String(),
        status: Type.String({
          description:
            'requested | done | refused (a return is done when the parcel is back with the sender, 72; an extension is done when the company granted it)',
        }),
        days: Type.Optional(Type.Integer()),
        message: Type.Optional(Type.String({ description: 'Why the company refused' })),
      }),
    ),
    // sent from the start but never published: the schema now says what the stored document holds
    brand: Type.Optional(
      Type.String({
        description: "Extension: the brand the customer sees (the shop's, copied when the order was made)",
      }),
    ),
    fulfilment: Type.Optional(
      Type.Boolean({ description: 'Extension: the goods are kept at a fulfilment warehouse of the service' }),
    ),
    segment: Type.Optional(
      Type.String({ description: "Extension: the buyer's segment the order was priced with (shipping rules)" }),
    ),
    paymentOnDelivery: Type.Optional(
      Type.Enum(['cash', 'card'], {
        description: 'Extension: how the buyer pays on delivery, as the order was priced (shipping rules)',
      }),
    ),
    partialBuyout: Type.Optional(PartialBuyout),
    returnOf: Type.Optional(
      Nullable(
        Type.Object(
          { returnId: Type.Integer(), orderId: Type.Integer() },
          {
            description:
              'Extension: this order is the parcel of a return (GET /v2/returns/{returnId}) carrying goods of order orderId back to the shop',
          },
        ),
      ),
    ),
  },
  { description: 'Order' },
);
export type Order = Static<typeof Order>;
export type OrderPointModel = Static<typeof OrderPoint>;
export type StatusHistoryItem = Static<typeof StatusHistoryItem>;

/** Codes and company ids, kept in 32-bit integer columns. */
const IntList = (description: string) =>
  Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: INT32_MAX }), { maxItems: 100, description }));

export const OrderListQuery = Type.Object({
  list: Type.Optional(
    Type.Enum([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], {
      default: 0,
      description:
        'Order list (default 0): 0 all, 1 drafts, 2 prepared, 3 in delivery, 4 at pickup point, 5 delivered, 6 problems, 7 returns, 8 canceled, 9 preorders',
    }),
  ),
  deliveryType: Type.Optional(Type.Enum([1, 2, 3], { description: '1 pickup point, 2 courier, 3 national post' })),
  shopId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: "The shop's orders; 0: orders without a shop (sender given in the order)",
    }),
  ),
  warehouseId: Type.Optional(RecordId()),
  dateFrom: Type.Optional(DateText),
  dateTo: Type.Optional(DateText),
  statuses: IntList('Status codes'),
  deliveryCompanies: Type.Optional(
    Type.Array(
      Type.Union([
        Type.Integer({ minimum: 0, maximum: INT32_MAX }),
        Type.String({
          pattern: OWN_METHOD_ID_PATTERN,
          maxLength: OWN_METHOD_ID_MAX_LENGTH,
          'x-message': "must be a company id or an own delivery method id '{accountId}_{methodId}'",
        }),
      ]),
      { maxItems: 100, description: "Company ids; own delivery methods as '{accountId}_{methodId}' (convention 12)" },
    ),
  ),
  paymentMethods: IntList('Payment type codes: 1 prepaid, 2 cash on delivery, 3 card on delivery'),
  stickerFormed: Type.Optional(ZeroOne),
  wasInAct: Type.Optional(ZeroOne),
  packed: Type.Optional(ZeroOne),
  storagingEnds: Type.Optional(ZeroOne),
  withCod: Type.Optional(ZeroOne),
  codReceived: Type.Optional(ZeroOne),
  recipientCountry: Type.Optional(Type.String({ maxLength: 2 })),
  recipientCity: Type.Optional(Type.String({ maxLength: 255 })),
  search: Type.Optional(
    Type.String({ maxLength: 255, description: 'Substring of the id, cmsId, track number, recipient name or phone' }),
  ),
  reservationStatus: Type.Optional(
    Type.Enum([0, 1, 2, 3], {
      description: 'Reservation status: 0 none, 1 Preorder, 2 In reserve, 3 Reserve cancelled',
    }),
  ),
  autoReservation: Type.Optional(ZeroOne),
  ...PagingQueryFields,
});
export type OrderListQuery = Static<typeof OrderListQuery>;

const Ids = Type.Array(RecordId(), { minItems: 1, maxItems: 1000, description: 'Order ids' });
export const IdsBody = Type.Object({ ids: Ids });
export type IdsBody = Static<typeof IdsBody>;
export const ConfirmBody = Type.Object({ ids: Ids, preOrder: Type.Optional(Type.Boolean({ default: false })) });
export type ConfirmBody = Static<typeof ConfirmBody>;
export const ExtendHoldBody = Type.Object({
  ids: Ids,
  days: Type.Integer({ minimum: 1, maximum: 30, description: 'Extension in days' }),
});
export type ExtendHoldBody = Static<typeof ExtendHoldBody>;

export const MissingProducts = Type.Array(
  Type.Object({
    id: Type.Integer(),
    missingProducts: Type.Array(
      Type.Object({
        id: Nullable(Type.Integer()),
        name: NullableString,
        vendorCode: NullableString,
        restCount: Type.Integer(),
        missingCount: Type.Integer(),
      }),
    ),
  }),
);
export type MissingProducts = Static<typeof MissingProducts>;

export const DuplicateResult = Type.Array(Type.Object({ id: Type.Integer(), newId: Type.Integer() }), {
  description: 'Extension: the new order of each id',
});

export const TrackingQuery = Type.Object({
  id: Type.Optional(RecordId()),
  orderId: Type.Optional(RecordId('Another spelling of id')),
  trackNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  cmsId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});
export type TrackingQuery = Static<typeof TrackingQuery>;

export const TrackingRecord = Type.Object(
  {
    id: Type.Integer(),
    cmsId: NullableString,
    brand: Type.String(),
    statusHistory: Type.Array(StatusHistoryItem),
    trackNumber: NullableString,
    trackingUrl: NullableString,
    isPost: Type.Boolean(),
    withCod: Type.Boolean(),
    delivery: Type.Object({
      type: Type.Integer({ description: '1 pickup point, 2 courier, 3 national post' }),
      totalPrice: Nullable(Type.Number()),
      company: Type.String(),
      holdDays: NullableString,
      logo: Type.String({ description: 'base64' }),
      date: Type.Object({ from: NullableString, to: NullableString }),
    }),
    address: NullableString,
    cityPhoto: NullableString,
    point: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { description: 'Tracking record' },
);
export type TrackingRecord = Static<typeof TrackingRecord>;

export const PushParams = Type.Object({ companyId: CodeId() });
export const PushHeaders = Type.Object({
  'x-carrier-secret': Type.String({ minLength: 1, description: "The company's own secret" }),
});
/** With 47: what the recipient bought (extension of the push, the own-status move and the sandbox). */
export const BuyoutInput = Type.Object(
  {
    lines: Type.Array(
      Type.Object({
        index: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: 999,
            description: "The line's position in the order's products (0-based)",
          }),
        ),
        vendorCode: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 255,
            description: 'Or the article the company was given (the vendor code, else the product id)',
          }),
        ),
        count: Type.Integer({ minimum: 0, maximum: 100_000, description: 'Units of that line bought' }),
      }),
      { minItems: 1, maxItems: 1000, description: 'Lines bought (a line left out: nothing of it bought)' },
    ),
    collected: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1_000_000_000,
        description: 'Roubles collected, when the company says (else worked out from the bought lines)',
      }),
    ),
  },
  {
    description:
      'With 47 (partly delivered): the lines the recipient bought; the rest travel back. Without it a 47 is recorded as before, with no lines (the whole COD counted).',
  },
);
export type BuyoutInput = Static<typeof BuyoutInput>;

export const PushBody = Type.Object({
  events: Type.Array(
    Type.Object({
      trackNumber: Type.String({ minLength: 1, maxLength: 64 }),
      statusCode: Type.Integer({
        minimum: 0,
        maximum: INT32_MAX,
        description: 'Status code of the service (GET /v2/lists/order-statuses)',
      }),
      at: Type.Optional(Type.String({ format: 'date-time' })),
      description: Type.Optional(Type.String({ maxLength: 500 })),
      paymentMethod: Type.Optional(
        Type.Enum(['cash', 'card'], {
          description:
            'With a delivery (44 delivered, 47 partly delivered): how the recipient paid what was collected on delivery. card makes a cash-on-delivery order pay.type 3 (card on delivery); both set delivery.factPrice with that COD commission. Unsaid: cash where the company or point takes cash, else card.',
        }),
      ),
      buyout: Type.Optional(BuyoutInput),
    }),
    { minItems: 1, maxItems: 1000 },
  ),
});
export type PushBody = Static<typeof PushBody>;
export const PushResult = Type.Object({
  applied: Type.Integer(),
  ignored: Type.Array(Type.Object({ trackNumber: Type.String(), message: Type.String() })),
});
export type PushResult = Static<typeof PushResult>;

/** Statuses a shop may give an order of its own delivery method (extension). */
export const OWN_DELIVERY_STATUSES = [14, 411, 412, 42, 43, 46, 44, 47, 461, 462, 71, 72, 74] as const;

export const OwnStatusBody = Type.Object({
  code: Type.Enum([...OWN_DELIVERY_STATUSES], {
    description:
      'The status the shop moves its own delivery to: 14 shipped by sender, 411 in transit, 412 arrived in the city, 42 at the pickup point (type 1), 43 out for delivery (types 2, 3), 46 date moved, 44 delivered, 47 partly delivered, 461 refused before delivery, 462 refused upon delivery, 71 returning, 72 returned, 74 partly returned',
  }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  paymentMethod: Type.Optional(
    Type.Enum(['cash', 'card'], {
      description: 'With 44 or 47: how the recipient paid what was collected on delivery',
    }),
  ),
  buyout: Type.Optional(BuyoutInput),
});
export type OwnStatusBody = Static<typeof OwnStatusBody>;
