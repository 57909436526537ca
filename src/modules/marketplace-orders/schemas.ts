import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { CodeId, DateText, Nullable, RecordId } from '../../platform/schemas.js';
import { ShippingMode } from '../marketplaces/schemas.js';

const NullableString = Nullable(Type.String());
const StatusCode = Type.Integer({
  minimum: 1,
  maximum: 5,
  description:
    'Marketplace order status: 1 new, awaiting acceptance; 2 accepted, being assembled or awaiting shipment; 3 shipped, in delivery; 4 delivered; 5 canceled',
});

export const MarketplaceOrderListQuery = Type.Object({
  list: Type.Optional(
    Type.Enum([0, 1, 2, 3, 4, 5], {
      description:
        'List: 0 all (default), 1 new (awaiting acceptance), 2 accepted (assembling, awaiting shipment), 3 shipped (in delivery), 4 delivered, 5 canceled',
    }),
  ),
  dateFrom: Type.Optional(DateText),
  dateTo: Type.Optional(DateText),
  statuses: Type.Optional(
    Type.Array(StatusCode, { maxItems: 5, description: 'Status codes (1 to 5, as the list codes)' }),
  ),
  search: Type.Optional(
    Type.String({
      maxLength: 255,
      description: 'Substring of the marketplace order number, a product name or identifier',
    }),
  ),
  marketplaces: Type.Optional(Type.Array(CodeId(), { maxItems: 100, description: 'Marketplace ids' })),
  shippingMode: Type.Optional(ShippingMode),
  warehouseId: Type.Optional(RecordId('The marketplace warehouse the order ships from (shippingWarehouse.id)')),
  marketplaceAcceptExpired: Type.Optional(
    Type.Boolean({
      description: 'true: only orders whose planned acceptance date passed without acceptance; false: the others',
    }),
  ),
  ...PagingQueryFields,
});
export type MarketplaceOrderListQuery = Static<typeof MarketplaceOrderListQuery>;

export const BundleQuery = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'Bundle id (bundle.id of an order)' }),
});

const Address = Type.Object({
  city: Type.Object({
    countryCode: Type.String(),
    name: Type.String(),
    fias: NullableString,
    type: NullableString,
    region: NullableString,
  }),
  street: NullableString,
  house: NullableString,
  bulk: NullableString,
  flat: NullableString,
});

export const MarketplaceOrderProduct = Type.Object({
  productId: Nullable(
    Type.Integer({ description: 'The catalogue product bound to it; null: none is bound (see errors)' }),
  ),
  vendorCode: NullableString,
  name: Type.String(),
  count: Type.Integer(),
  price: Type.Number({ description: 'Price of one unit, roubles' }),
  identifiers: Type.Record(Type.String(), Type.String(), {
    description: "The marketplace's identifiers (its bindingNames)",
  }),
});

export const MarketplaceOrderStatusChange = Type.Object({
  code: StatusCode,
  name: Type.String({ description: "The marketplace's own status" }),
  date: Type.String({ description: 'RFC 3339' }),
});

export const MarketplaceOrder = Type.Object(
  {
    id: Type.Integer(),
    shopId: Nullable(Type.Integer({ description: 'Extension: the shop notified of it' })),
    marketplace: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
    marketplaceCreationDate: NullableString,
    marketplaceOrderNumber: NullableString,
    shippingMode: Nullable(Type.Integer({ description: '1 FBS, 2 FBO, 3 DBS' })),
    statusHistory: Type.Array(MarketplaceOrderStatusChange, { description: 'Latest first' }),
    marketplaceAcceptDatePlanned: NullableString,
    marketplaceAcceptDate: NullableString,
    deliveryPrice: Type.Number(),
    deliveryPriceFact: Nullable(Type.Number()),
    priceDeclared: Type.Number({ description: "The goods' prices times counts, roubles" }),
    products: Type.Array(MarketplaceOrderProduct),
    dimensions: Type.Object(
      {
        width: Type.Number(),
        height: Type.Number(),
        length: Type.Number(),
        weight: Type.Number({ description: 'kg' }),
      },
      { description: 'From the bound catalogue products (unbound ones count 0)' },
    ),
    shippingWarehouse: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
    deliveryAddress: Address,
    bundle: Nullable(Type.Object({ id: Type.String(), count: Type.Integer({ description: 'Orders in the bundle' }) })),
    isFulfilment: Type.Boolean({ description: 'Ships from a fulfilment warehouse of the service' }),
    errors: Nullable(
      Type.Array(Type.Object({ product: Type.Integer({ description: 'Index in products' }), message: Type.String() })),
    ),
    marketplaceAcceptExpired: Type.Boolean(),
  },
  { description: 'Marketplace order' },
);
export type MarketplaceOrder = Static<typeof MarketplaceOrder>;
