import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { CodeId, CountryCode, DateText, Nullable, RecordId } from '../../platform/schemas.js';

const NamedItem = Type.Object({ id: Type.Integer(), name: Type.String() });

export const ServicesQuery = Type.Object({
  shopId: Type.Optional(RecordId('Adds the fulfilment services when the shop ships from a fulfilment warehouse')),
});
export const ServicesList = Type.Object(
  { delivery: Type.Array(NamedItem), packing: Type.Array(NamedItem) },
  { description: 'Services list' },
);

export const DeliveryCompanyItem = Type.Object(
  { id: Type.Integer(), name: Type.String(), logo: Type.String(), deliveryTypes: Type.Array(Type.Integer()) },
  { description: 'Delivery company' },
);
export const ReturnCompanyItem = Type.Object(
  { id: Type.Integer(), name: Type.String(), logo: Type.String() },
  { description: 'Return company' },
);

const Hours = Type.Object({ from: Type.String(), to: Type.String() });
const LimitValue = Nullable(Type.Number());

export const PointItem = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    deliveryCompanyId: Type.Integer(),
    longitude: Type.String(),
    latitude: Type.String(),
    type: Type.Integer({ description: '1 pickup point, 2 parcel locker, 3 post office' }),
    description: Nullable(Type.String()),
    address: Type.String(),
    zipCode: Type.String({
      description: "Postal code (generated points: the region's digits where the place's own code is not known)",
    }),
    schedule: Type.Array(Nullable(Hours), { description: '7 values, Monday to Sunday; null is a day off' }),
    district: Nullable(Type.String()),
    metro: Nullable(Type.Array(Type.String())),
    photos: Nullable(Type.Array(Type.String())),
    fittingAvailable: Type.Boolean(),
    checkupAvailable: Type.Boolean(),
    partialBuyoutAvailable: Type.Boolean(),
    cashPaymentAvailable: Type.Boolean(),
    cardPaymentAvailable: Type.Boolean(),
    limits: Type.Object({
      maxSizeA: LimitValue,
      maxSizeB: LimitValue,
      maxSizeC: LimitValue,
      maxSizeSum: LimitValue,
      minWeight: LimitValue,
      maxWeight: LimitValue,
      maxCod: LimitValue,
      maxVolume: LimitValue,
    }),
  },
  { description: 'Pickup point' },
);
export type PointItem = Static<typeof PointItem>;

export const PointsQuery = Type.Object({
  id: Type.Optional(RecordId()),
  companyId: Type.Optional(CodeId()),
  cityFias: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'FIAS id of the city (or the `gn:NNN` id we answer for cities without one)',
    }),
  ),
  country: Type.Optional(CountryCode),
  types: Type.Optional(
    Type.Array(Type.Enum([1, 2, 3]), {
      maxItems: 3,
      description: 'Point types: 1 pickup point, 2 parcel locker, 3 post office',
    }),
  ),
  ...PagingQueryFields,
});
export type PointsQuery = Static<typeof PointsQuery>;

export const CourierScheduleQuery = Type.Object({
  cityFias: Type.String({ minLength: 1, maxLength: 64 }),
  cityType: Type.String({ minLength: 1, maxLength: 32 }),
  cityName: Type.String({ minLength: 1, maxLength: 255 }),
  cityRegion: Type.String({ minLength: 1, maxLength: 255 }),
  shopId: RecordId(),
  companyId: CodeId(),
  date: DateText,
});
export type CourierScheduleQuery = Static<typeof CourierScheduleQuery>;

export const CourierInterval = Type.Object(
  { id: Type.Integer(), timeFrom: Type.String(), timeTo: Type.String(), isDefault: Type.Boolean() },
  { description: 'Courier interval' },
);
export type CourierInterval = Static<typeof CourierInterval>;

export const WarehouseShipmentQuery = Type.Object({
  countryCode: CountryCode,
  region: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Required when countryCode is RU' })),
  fias: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export type WarehouseShipmentQuery = Static<typeof WarehouseShipmentQuery>;

const PickupCompany = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  directPickupAvailable: Type.Optional(Type.Boolean()),
  directTransportAvailable: Type.Optional(Type.Boolean()),
  directTransportPoints: Type.Optional(Type.Array(Type.Object({ id: Type.Integer(), address: Type.String() }))),
});
export type PickupCompany = Static<typeof PickupCompany>;

const MergedWarehouse = Type.Object({
  id: Type.Integer(),
  address: Type.String(),
  type: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  photos: Nullable(Type.Array(Type.String())),
  description: Nullable(Type.Array(Type.String())),
  schedule: Type.Array(Nullable(Hours)),
  sortingPrice: Type.Number(),
});
export type MergedWarehouse = Static<typeof MergedWarehouse>;

export const WarehouseShipment = Type.Object({
  '1': Type.Object({ available: Type.Boolean(), companies: Type.Array(PickupCompany) }),
  '2': Type.Object({ available: Type.Boolean(), mergedWarehouses: Type.Array(MergedWarehouse) }),
  '3': Type.Object({
    available: Type.Boolean(),
    companies: Type.Array(PickupCompany),
    minPrice: Type.Number(),
    countForFree: Type.Integer(),
  }),
  '4': Type.Object({ available: Type.Boolean(), companies: Type.Array(PickupCompany) }),
  companiesForExceptions: Type.Array(PickupCompany),
});
export type WarehouseShipment = Static<typeof WarehouseShipment>;

export const OrderShipmentQuery = Type.Object({
  countryCode: Type.Optional(CountryCode),
  region: Type.String({ minLength: 1, maxLength: 255 }),
  fias: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  companyId: CodeId(),
  pickupType: Type.Enum([1, 4], {
    description: 'Pickup type: 1 drop-off to the company, 4 direct shipment',
    'x-message': 'must be 1 (drop-off) or 4 (direct shipment)',
  }),
});
export type OrderShipmentQuery = Static<typeof OrderShipmentQuery>;

export const ShipmentOption = Type.Object(
  {
    pickupDate: Type.Object({ from: Type.String(), to: Type.String() }),
    pricePickup: Type.Number(),
    pickupPointRequired: Type.Boolean(),
    points: Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        address: Type.String(),
        latitude: Type.String(),
        longitude: Type.String(),
        type: Type.Integer(),
      }),
    ),
  },
  { description: 'Shipment option' },
);
export type ShipmentOption = Static<typeof ShipmentOption>;

/** Pickup company item (contract 2.9): who can collect from a warehouse, at what price. */
export const PickupCompanyOffer = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    price: Type.Number({ description: 'Pickup cost, roubles' }),
    countFree: Type.Integer({ description: 'From this many orders the pickup is free; 0: never free' }),
    commentAvailable: Type.Boolean({ description: 'The courier takes a comment' }),
  },
  { description: 'Pickup company' },
);
export type PickupCompanyOffer = Static<typeof PickupCompanyOffer>;
