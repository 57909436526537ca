/**
 * What a client sends to make or change an order: the body of POST and PUT /v2/orders
 * (OrderInput, with its products) and of PATCH (OrderPatch, the few fields a made order still
 * takes). Apart from schemas.ts, which holds what the area answers and the batch, list and
 * tracking requests, because these models are the largest and share their field rules (money
 * to the kopeck, sides, weights, dates a form may leave empty) with nothing else.
 */
import Type, { type Static } from 'typebox';
import { CodeId, CountryCode, Nullable, OverallSideCm, RecordId } from '../../platform/schemas.js';
import { CompanyRef } from '../calculator/schemas.js';

const Text = (maxLength = 255) => Type.Optional(Nullable(Type.String({ maxLength })));
const Money = Type.Number({ minimum: 0, maximum: 100_000_000, description: 'roubles, to the kopeck' });
const OptionalMoney = Type.Optional(Nullable(Money));
const Side = Type.Number({ minimum: 1, maximum: 999, description: 'cm, 1 to 999' });
const Weight = Type.Number({ minimum: 0.001, maximum: 100000, description: 'kg, at least 0.001, to the gram' });
/** A date; form clients send an empty value for none. */
const OptionalDate = Type.Optional(
  Nullable(
    Type.String({
      pattern: '^(\\d{4}-\\d{2}-\\d{2})?$',
      'x-message': 'must be a date in the form YYYY-MM-DD',
      description: 'YYYY-MM-DD',
    }),
  ),
);

const CityInput = Type.Object({
  countryCode: CountryCode,
  name: Type.String({ minLength: 1, maxLength: 255, description: 'Locality name' }),
  fias: Text(64),
  type: Text(32),
  region: Text(),
  area: Text(),
});
const SenderCityInput = Type.Object({
  countryCode: Type.Optional(Nullable(CountryCode)),
  name: Text(),
  fias: Text(64),
  type: Text(32),
  region: Text(),
  area: Text(),
});

const SidesInput = Type.Object({
  width: Type.Optional(Nullable(Side)),
  height: Type.Optional(Nullable(Side)),
  length: Type.Optional(Nullable(Side)),
});

export const OrderProductInput = Type.Object({
  id: Type.Optional(Nullable(RecordId('A product of the catalogue: fields not sent are taken from it'))),
  name: Text(500),
  nameEn: Text(500),
  vendorCode: Text(),
  vat: Type.Optional(Nullable(Type.Enum([0, 10, 20], { description: 'VAT percent' }))),
  priceDeclared: OptionalMoney,
  priceCod: OptionalMoney,
  prePay: OptionalMoney,
  discount: OptionalMoney,
  tnved: Text(32),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  weight: Type.Optional(Nullable(Weight)),
  brand: Text(),
  producingCountry: Type.Optional(Nullable(CountryCode)),
  barcode: Text(128),
  dimensions: Type.Optional(SidesInput),
});
export type OrderProductInput = Static<typeof OrderProductInput>;

const RecipientInput = Type.Object({
  fullName: Type.String({ minLength: 1, maxLength: 255 }),
  phone: Type.String({
    minLength: 5,
    maxLength: 32,
    pattern: '^\\+?[0-9 ()\\-]{5,32}$',
    'x-message': 'must be a phone number of digits, with an optional leading +',
  }),
  additionalPhone: Text(32),
  email: Text(),
  legalEntity: Type.Optional(Nullable(Type.Object({ name: Text(), TIN: Text(12) }))),
});

const DeliveryInput = Type.Object({
  company: Type.Object(
    { id: CompanyRef, tariff: Text() },
    {
      description:
        "id: a delivery company's number, or an own delivery method's '{accountId}_{methodId}' (convention 12)",
    },
  ),
  type: Type.Enum([1, 2, 3], { description: '1 pickup point, 2 courier, 3 national post' }),
  services: Type.Optional(
    Type.Array(
      Type.Union([CodeId(), Type.Object({ id: CodeId() })], {
        'x-message': 'must be a service id or {"id": <service id>}',
      }),
      {
        maxItems: 50,
        description: 'Additional services: ids, or objects with id; their price is added to the total',
      },
    ),
  ),
  point: Type.Optional(Nullable(Type.Object({ id: RecordId() }))),
});

const orderFields = {
  cmsId: Text(),
  shopId: Type.Optional(Nullable(RecordId("Sender and sender address then come from the shop's warehouse"))),
  products: Type.Optional(Type.Array(OrderProductInput, { maxItems: 1000 })),
  priceDeclared: OptionalMoney,
  discount: OptionalMoney,
  places: Type.Optional(
    Type.Array(Type.Object({ weight: Type.Optional(Nullable(Weight)), dimensions: Type.Optional(SidesInput) }), {
      maxItems: 99,
    }),
  ),
  dimensions: Type.Optional(
    Type.Object({
      width: Type.Optional(Nullable(OverallSideCm)),
      height: Type.Optional(Nullable(OverallSideCm)),
      length: Type.Optional(Nullable(OverallSideCm)),
      weight: Type.Optional(Nullable(Weight)),
      places: Type.Optional(
        Nullable(Type.Integer({ minimum: 1, maximum: 99, description: 'Number of places, 1 to 99, default 1' })),
      ),
    }),
  ),
  deliveryAddress: Type.Object({
    city: CityInput,
    street: Text(),
    house: Text(32),
    bulk: Text(32),
    flat: Text(32),
    zipCode: Text(16),
    fiasId: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
          maxLength: 36,
          'x-message': 'must be a FIAS id (a UUID)',
          description:
            'Extension: the FIAS id of the house (or flat) when the address was picked from GET /v2/addresses/suggest; else the address is cleaned from its text',
        }),
      ),
    ),
  }),
  recipient: RecipientInput,
  senderAddress: Type.Optional(
    Nullable(
      Type.Object({
        city: Type.Optional(SenderCityInput),
        street: Text(),
        house: Text(32),
        bulk: Text(32),
        flat: Text(32),
      }),
    ),
  ),
  sender: Type.Optional(Nullable(Type.Object({ fullName: Text(), phone: Text(32) }))),
  pickup: Type.Optional(
    Nullable(
      Type.Object({
        type: Type.Optional(
          Nullable(Type.Enum([1, 4], { description: '1 drop-off to the company, 4 direct shipment' })),
        ),
        date: OptionalDate,
        pointId: Type.Optional(Nullable(RecordId())),
      }),
    ),
  ),
  priceMode: Type.Optional(
    Type.Enum([1, 2, 3], {
      default: 1,
      description: '1 by weight (max of actual and volumetric), 2 by actual weight, 3 by volume',
    }),
  ),
  applyWidgetSettings: Type.Optional(Type.Boolean({ default: false })),
  applyDefaultDimensions: Type.Optional(Type.Boolean({ default: false })),
  segment: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 100,
        description:
          "Extension: the buyer's segment as the shop passed it to the calculator (wholesale, vip …): the shop's shipping rules price the order as they priced the quote",
      }),
    ),
  ),
  paymentOnDelivery: Type.Optional(
    Nullable(
      Type.Enum(['cash', 'card'], {
        description:
          "Extension: how the buyer pays what is collected on delivery, as the calculator was told, for the shop's shipping rules (cash when not given)",
      }),
    ),
  ),
  delivery: DeliveryInput,
  clientPrice: OptionalMoney,
  clientPrePay: OptionalMoney,
  clientDeliveryDate: OptionalDate,
  clientCourierTime: Type.Optional(Nullable(CodeId())),
  comment: Text(2000),
  commentForAssembly: Text(2000),
  documentsForWarehouse: Text(2000),
};

export const OrderInput = Type.Object(orderFields, { description: 'Order (create and replace)' });
export type OrderInput = Static<typeof OrderInput>;

/** Refuses any field PATCH does not take (the validator otherwise drops unknown fields). */
const NotPatchable = Type.Unsafe<never>({ not: {}, 'x-message': 'cannot be changed by PATCH' });

export const OrderPatch = Type.Object(
  {
    recipient: Type.Optional(
      Type.Object(
        {
          fullName: Type.Optional(RecipientInput.properties.fullName),
          phone: Type.Optional(RecipientInput.properties.phone),
          additionalPhone: Text(32),
          email: Text(),
          legalEntity: Type.Optional(
            Nullable(Type.Object({ name: Text(), TIN: Text(12) }, { additionalProperties: NotPatchable })),
          ),
        },
        { additionalProperties: NotPatchable },
      ),
    ),
    cmsId: Text(),
    comment: Text(2000),
    commentForAssembly: Text(2000),
    documentsForWarehouse: Text(2000),
  },
  { additionalProperties: NotPatchable, description: 'Only these fields; any other is refused' },
);
export type OrderPatch = Static<typeof OrderPatch>;
