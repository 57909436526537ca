import Type, { type Static } from 'typebox';
import { OWN_METHOD_ID_MAX_LENGTH, OWN_METHOD_ID_PATTERN } from '../delivery-methods/rules.js';
import { CodeId, Nullable, OverallSideCm, RecordId } from '../../platform/schemas.js';
import { DeliveryPromiseModel } from '../delivery-promises/schemas.js';

const Text = Type.Optional(Type.String({ maxLength: 255 }));
const Money = Type.Optional(Type.Number({ minimum: 0, maximum: 100_000_000, description: 'roubles' }));
const Side = Type.Number({ minimum: 1, maximum: 999, description: 'cm' });
const Weight = Type.Number({ minimum: 0.001, maximum: 100000, description: 'kg' });
const Dimensions = Type.Object({
  width: Type.Optional(Side),
  height: Type.Optional(Side),
  length: Type.Optional(Side),
});
const OverallDimensions = Type.Object(
  { width: Type.Optional(OverallSideCm), height: Type.Optional(OverallSideCm), length: Type.Optional(OverallSideCm) },
  { description: 'The whole shipment, split evenly over itemCount places' },
);
/** A delivery company's number, or an own delivery method's '{accountId}_{methodId}' (convention 12). */
export const CompanyRef = Type.Union([
  CodeId(),
  Type.String({
    pattern: OWN_METHOD_ID_PATTERN,
    maxLength: OWN_METHOD_ID_MAX_LENGTH,
    'x-message': "must be a company id or an own delivery method id '{accountId}_{methodId}'",
  }),
]);
/** A company id as answered: a number, or a string for an own delivery method (convention 12). */
export const CompanyIdOut = Type.Union([Type.Integer(), Type.String()], {
  description: "A company's number, or '{accountId}_{methodId}' for an own delivery method (convention 12)",
});
const DeliveryTypeCode = Type.Enum([1, 2, 3], { description: '1 pickup point, 2 courier, 3 national post' });
const ServiceIds = Type.Array(
  Type.Integer({ minimum: 1, maximum: 22, 'x-message': 'must be a service id of GET /v2/lists/services (1 to 22)' }),
  { maxItems: 50 },
);

export const AddressInput = Type.Object({
  countryCode: Text,
  cityFias: Text,
  cityName: Text,
  cityType: Text,
  zipCode: Text,
  region: Text,
  area: Text,
  street: Text,
  house: Text,
  bulk: Text,
  flat: Text,
});

const Goods = Type.Object({
  vendorCode: Text,
  priceDeclared: Money,
  priceCod: Money,
  discount: Money,
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  weight: Type.Optional(Weight),
  dimensions: Type.Optional(Dimensions),
});

export const CalculatorBody = Type.Object({
  reception: Type.Optional(AddressInput),
  sender: Type.Optional(AddressInput),
  pickupType: Type.Optional(Type.Enum([1, 2, 3, 4], { description: 'Required when no Shop-Id is sent' })),
  products: Type.Optional(Type.Array(Goods, { maxItems: 1000, description: 'Goods; all values per unit' })),
  kits: Type.Optional(
    Type.Array(Type.Object({ id: Type.Optional(RecordId()), ...Goods.properties }), { maxItems: 1000 }),
  ),
  priceDeclared: Money,
  priceCod: Money,
  priceClient: Money,
  pricePrePayClient: Money,
  discount: Money,
  marketplace: Type.Optional(
    Type.Object({
      id: Type.Optional(Nullable(RecordId())),
      warehouseId: Type.Optional(Nullable(RecordId())),
      fbo: Type.Optional(Type.Boolean()),
      fbs: Type.Optional(Type.Boolean()),
    }),
  ),
  services: Type.Optional(ServiceIds),
  servicesRequired: Type.Optional(ServiceIds),
  type: Type.Optional(DeliveryTypeCode),
  companyIds: Type.Optional(
    Type.Array(CompanyRef, {
      maxItems: 100,
      description: "Company ids, or own delivery methods' '{accountId}_{methodId}' (convention 12)",
    }),
  ),
  onlyCheap: Type.Optional(Type.Boolean({ default: false })),
  calcDeclared: Type.Optional(Type.Boolean({ default: true })),
  calcCod: Type.Optional(Type.Boolean({ default: true })),
  hidePointFullInfo: Type.Optional(Type.Boolean({ default: false })),
  applyWidgetSettings: Type.Optional(Type.Boolean({ default: false })),
  applyDefaultDimensions: Type.Optional(Type.Boolean({ default: false })),
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 120000, default: 20000, description: 'ms' })),
  places: Type.Optional(
    Type.Array(Type.Object({ weight: Type.Optional(Weight), dimensions: Type.Optional(Dimensions) }), { maxItems: 99 }),
  ),
  weight: Type.Optional(Weight),
  dimensions: Type.Optional(OverallDimensions),
  itemCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 99, default: 1 })),
  volume: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'm3' })),
  priceMode: Type.Optional(
    Type.Enum([1, 2, 3], {
      default: 1,
      description: '1 by weight (max of actual and volumetric), 2 by actual weight, 3 by volume',
    }),
  ),
  segment: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        "Extension: the buyer's segment as the shop names it (wholesale, vip …), read by the shop's shipping rules with applyWidgetSettings",
    }),
  ),
  paymentOnDelivery: Type.Optional(
    Type.Enum(['cash', 'card'], {
      description:
        "Extension: how the buyer pays what is collected on delivery, for the shop's shipping rules (cash when not given)",
    }),
  ),
});
export type CalculatorBody = Static<typeof CalculatorBody>;

export const OneHeaders = Type.Object({
  'shop-id': Type.Optional(Type.String()),
  type: Type.Enum(['1', '2', '3'], { description: 'Delivery type', 'x-message': 'must be 1, 2 or 3' }),
  'company-id': Type.String({ pattern: '^[1-9][0-9]{0,8}$', 'x-message': 'must be a company id' }),
});

export const CompanyBody = Type.Object({
  type: Type.Optional(DeliveryTypeCode),
  reception: Type.Optional(
    Type.Object({
      cityFias: Text,
      zipCode: Text,
      cityName: Text,
      countryCode: Text,
      region: Text,
      addressString: Type.Optional(Type.String({ maxLength: 1000 })),
    }),
  ),
  applyWidgetSettings: Type.Optional(Type.Boolean({ default: false })),
});
export type CompanyBody = Static<typeof CompanyBody>;

const Days = Type.Object({ min: Type.Integer(), max: Type.Integer() });
const Dates = Type.Object({ from: Type.String(), to: Type.String() });
const DeliveryService = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  price: Type.Number(),
  checked: Type.Boolean(),
  required: Type.Boolean(),
});
const WorkingHours = Type.Object({ from: Type.String(), to: Type.String() });

/** Commissions in money and percent: in a calculator answer and in an order's delivery. */
export const CommissionFields = {
  priceCommissionDeclared: Type.Number({ description: 'Insurance of the declared value, roubles' }),
  percentCommissionDeclared: Type.Number(),
  priceCommissionCod: Type.Number({ description: 'Cash-on-delivery commission, roubles' }),
  percentCommissionCod: Type.Number(),
  priceCommissionCodCard: Type.Number({ description: 'Card-on-delivery commission, roubles' }),
  percentCommissionCodCard: Type.Number(),
  priceCommissionAcquiring: Type.Number({ description: 'Acquiring commission, roubles' }),
  percentCommissionAcquiring: Type.Number(),
};

export const CalculatorPoint = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  longitude: Type.String(),
  latitude: Type.String(),
  type: Type.Integer({ description: '1 pickup point, 2 parcel locker, 3 post office' }),
  description: Nullable(Type.String()),
  address: Type.String(),
  schedule: Nullable(Type.Array(Nullable(WorkingHours))),
  metro: Nullable(Type.Array(Type.String())),
  district: Nullable(Type.String()),
  photos: Nullable(Type.Array(Type.String())),
  fittingAvailable: Type.Boolean(),
  checkupAvailable: Type.Boolean(),
  partialBuyoutAvailable: Type.Boolean(),
  cashPaymentAvailable: Type.Boolean(),
  cardPaymentAvailable: Type.Boolean(),
  union: Type.String(),
  deliveryCompanyId: CompanyIdOut,
  deliveryCompanyName: Type.String(),
  deliveryDriver: Type.String(),
  deliveryDays: Days,
  deliveryDate: Dates,
  deliveryHoldDays: Type.Integer(),
  priceCommissionCod: Type.Number(),
  priceDelivery: Type.Number(),
  totalPrice: Type.Number(),
  isFar: Type.Boolean(),
  zipCode: Nullable(Type.String()),
});

export const DeliveryCompanyResult = Type.Object(
  {
    deliveryCompanyId: CompanyIdOut,
    deliveryCompanyName: Type.String(),
    deliveryCompanyLogo: Nullable(Type.String()),
    tariffName: Nullable(Type.String()),
    pickupCompanyId: CompanyIdOut,
    deliveryDriver: Type.String(),
    deliveryDays: Days,
    deliveryPlanDays: Days,
    deliveryDate: Dates,
    services: Type.Record(Type.String(), DeliveryService),
    ...CommissionFields,
    isPost: Type.Boolean(),
    specificity: Type.Array(Type.String()),
    cashPaymentAvailable: Type.Optional(Type.Boolean()),
    cardPaymentAvailable: Type.Optional(Type.Boolean()),
    priceDelivery: Type.Optional(Type.Number()),
    totalPrice: Type.Optional(Type.Number()),
    isExpress: Type.Optional(Type.Boolean()),
    timeSelectAvailable: Type.Optional(Type.Boolean()),
    promise: Type.Optional(DeliveryPromiseModel),
    points: Type.Optional(Type.Array(Type.Union([CalculatorPoint, Type.Integer()]))),
  },
  { description: 'DeliveryCompany (calculator)' },
);
export type DeliveryCompanyResult = Static<typeof DeliveryCompanyResult>;
export type CalculatorPoint = Static<typeof CalculatorPoint>;

export const CalculatorResult = Type.Object(
  {
    '1': Type.Array(DeliveryCompanyResult),
    '2': Type.Array(DeliveryCompanyResult),
    '3': Type.Array(DeliveryCompanyResult),
  },
  { description: "Keys '1' pickup points, '2' courier, '3' national post; three empty arrays when nothing delivers" },
);
export type CalculatorResult = Static<typeof CalculatorResult>;

export const CompanyIdsResult = Type.Object({
  '1': Type.Array(Type.Union([Type.Integer(), Type.String()])),
  '2': Type.Array(Type.Union([Type.Integer(), Type.String()])),
  '3': Type.Array(Type.Union([Type.Integer(), Type.String()])),
});

export const WidgetSettings = Type.Object(
  {
    defaultDimensions: Type.Optional(Nullable(Type.Object({ width: Side, height: Side, length: Side }))),
    defaultWeight: Type.Optional(Nullable(Weight)),
    priceRules: Type.Optional(
      Type.Array(
        Type.Object({
          type: Type.Optional(Nullable(DeliveryTypeCode)),
          companyId: Type.Optional(Nullable(CodeId())),
          kind: Type.Enum(['markup', 'discount', 'fixed'], {
            description: 'markup or discount by percent and/or amount; fixed: the price is amount',
          }),
          percent: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1000 }))),
          amount: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'roubles' }))),
        }),
        { maxItems: 100 },
      ),
    ),
    freeDeliveryFrom: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          maximum: 100_000_000,
          description: 'Order sum (roubles) from which delivery is free for the customer',
        }),
      ),
    ),
    rounding: Type.Optional(
      Nullable(
        Type.Object({
          step: Type.Number({ exclusiveMinimum: 0, maximum: 10000, description: 'roubles' }),
          mode: Type.Enum(['up', 'down', 'nearest'], {
            description: 'Rounding of the price to the step: up, down or to the nearest',
          }),
        }),
      ),
    ),
    hiddenCompanyIds: Type.Optional(Type.Array(CodeId(), { maxItems: 100 })),
    defaultServices: Type.Optional(Type.Array(CodeId(), { maxItems: 50 })),
  },
  {
    description:
      'Widget settings of a shop (extension): defaults and price rules applied when a calculator call sends applyWidgetSettings / applyDefaultDimensions',
  },
);
export type WidgetSettings = Static<typeof WidgetSettings>;

/** Stored and answered form: every field present. */
export interface WidgetSettingsFull {
  defaultDimensions: { width: number; height: number; length: number } | null;
  defaultWeight: number | null;
  priceRules: Array<{
    type: 1 | 2 | 3 | null;
    companyId: number | null;
    kind: 'markup' | 'discount' | 'fixed';
    percent: number | null;
    amount: number | null;
  }>;
  freeDeliveryFrom: number | null;
  rounding: { step: number; mode: 'up' | 'down' | 'nearest' } | null;
  hiddenCompanyIds: number[];
  defaultServices: number[];
}
