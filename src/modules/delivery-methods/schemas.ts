import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { Nullable, RecordId } from '../../platform/schemas.js';
import { OWN_METHOD_ID_MAX_LENGTH } from './rules.js';
import { Schedule, ScheduleInput } from '../warehouses/schemas.js';

const Roubles = Type.Number({ minimum: 0, maximum: 100_000_000, description: 'roubles, to the kopeck' });
const Kg = Type.Number({ minimum: 0.001, maximum: 100000, description: 'kg, to the gram' });
const DeliveryTypeCode = Type.Enum([1, 2, 3], { description: "1 pickup point (of the shop's own), 2 courier, 3 post" });

/** Convention 12: `'{accountId}_{methodId}'`; the method's number alone is taken too. */
export const OwnMethodIdText = Type.String({
  // each number at most 15 digits (safe in JavaScript and in a bigint column): a larger one is bad input, as for record ids
  pattern: '^([1-9][0-9]{0,14}_)?[1-9][0-9]{0,14}$',
  maxLength: OWN_METHOD_ID_MAX_LENGTH,
  'x-message': "must be an own delivery method id '{accountId}_{methodId}'",
  description: "Own delivery method id '{accountId}_{methodId}' (convention 12)",
  examples: ['1_1'],
});

export const MethodIdParams = Type.Object({ id: OwnMethodIdText });

const PriceRuleInput = Type.Object({
  weightTo: Type.Optional(
    Nullable({ ...Kg, description: 'Up to this chargeable weight, kg (inclusive); empty: any weight' }),
  ),
  orderSumFrom: Type.Optional(
    Nullable({ ...Roubles, description: 'From this order sum, roubles (inclusive); empty: any sum' }),
  ),
  price: Roubles,
});

const PointInput = Type.Object({
  id: Type.Optional(Nullable(RecordId('A point of this method: kept with its id; without one a new point is made'))),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  address: Type.String({ minLength: 1, maxLength: 500 }),
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  schedule: Type.Optional(Nullable(ScheduleInput)),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  zipCode: Type.Optional(Nullable(Type.String({ maxLength: 16 }))),
});

export const DeliveryMethodInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    type: DeliveryTypeCode,
    localities: Type.Optional(
      Type.Array(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description:
            'FIAS id of a locality (or `gn:` and a GeoNames id, as the service answers for localities without one)',
        }),
        { maxItems: 1000 },
      ),
    ),
    radiusKm: Type.Optional(
      Nullable(
        Type.Number({
          exclusiveMinimum: 0,
          maximum: 5000,
          description: "km around the sender's locality (the shop's warehouse)",
        }),
      ),
    ),
    priceRules: Type.Array(PriceRuleInput, {
      minItems: 1,
      maxItems: 100,
      description: 'Ordered brackets by weight and order sum: the first that holds the parcel gives the price',
    }),
    freeFrom: Type.Optional(Nullable({ ...Roubles, description: 'Order sum (roubles) from which delivery is free' })),
    days: Type.Object(
      { min: Type.Integer({ minimum: 0, maximum: 365 }), max: Type.Integer({ minimum: 0, maximum: 365 }) },
      { description: 'Working days of delivery' },
    ),
    points: Type.Optional(
      Type.Array(PointInput, { maxItems: 1000, description: "The shop's own pickup points (type 1 only)" }),
    ),
    cashPaymentAvailable: Type.Optional(Type.Boolean({ default: false })),
    cardPaymentAvailable: Type.Optional(Type.Boolean({ default: false })),
  },
  { description: 'Own delivery method (create and replace)' },
);
export type DeliveryMethodInput = Static<typeof DeliveryMethodInput>;

export const OwnPointModel = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  address: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  schedule: Nullable(Schedule),
  description: Nullable(Type.String()),
  zipCode: Nullable(Type.String()),
});

export const DeliveryMethod = Type.Object(
  {
    id: Type.String({
      description: "'{accountId}_{methodId}': the company id of this method in the calculator and orders",
    }),
    name: Type.String(),
    type: Type.Integer({ description: '1 pickup point, 2 courier, 3 post' }),
    localities: Type.Array(Type.String()),
    radiusKm: Nullable(Type.Number()),
    priceRules: Type.Array(
      Type.Object({ weightTo: Nullable(Type.Number()), orderSumFrom: Nullable(Type.Number()), price: Type.Number() }),
    ),
    freeFrom: Nullable(Type.Number()),
    days: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
    points: Type.Array(OwnPointModel),
    cashPaymentAvailable: Type.Boolean(),
    cardPaymentAvailable: Type.Boolean(),
  },
  { description: 'DeliveryMethod (extension): an own delivery method of the account' },
);
export type DeliveryMethod = Static<typeof DeliveryMethod>;

export const DeliveryMethodListQuery = Type.Object({
  type: Type.Optional(DeliveryTypeCode),
  ...PagingQueryFields,
});
export type DeliveryMethodListQuery = Static<typeof DeliveryMethodListQuery>;

export const CreatedMethod = Type.Object(
  { id: Type.String({ description: "'{accountId}_{methodId}'" }) },
  { description: 'Created' },
);
