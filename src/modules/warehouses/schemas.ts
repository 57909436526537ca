import Type, { type Static } from 'typebox';
import { CodeId, CountryCode, DateText, Nullable, Phone, RecordId, ZeroOne } from '../../platform/schemas.js';
import { PagingQueryFields } from '../../platform/paging.js';
import { RegisterEntryModel } from '../addresses/schemas.js';

/** Warehouse `type` (ours; the contract leaves the table open). */
export const WAREHOUSE_TYPE = { own: 1, fulfilment: 2 } as const;
/** Pickup type codes of the contract (section 1, convention 11). */
export const PICKUP_TYPES = [1, 2, 3, 4] as const;

const Text = (maxLength = 255) => Type.String({ maxLength });
const OptionalText = (maxLength = 255) => Type.Optional(Nullable(Type.String({ maxLength })));

const Time = Type.String({
  pattern: '^(([01]?\\d|2[0-3]):[0-5]\\d|24:00)$',
  'x-message': 'must be a time HH:MM',
  examples: ['09:00'],
});

export const WorkingHours = Type.Object({ from: Time, to: Time }, { description: 'Working hours of one day' });

/** One day of a schedule: hours, or null for a day off. Form clients may send "09:00-18:00" or "". */
export const ScheduleDayInput = Type.Union([
  Type.Null(),
  WorkingHours,
  Type.String({
    pattern: '^(\\s*\\d{1,2}:\\d{2}\\s*-\\s*\\d{1,2}:\\d{2}\\s*)?$',
    'x-message': 'must be {"from": "HH:MM", "to": "HH:MM"}, "HH:MM-HH:MM", or null for a day off',
  }),
]);

export const ScheduleInput = Type.Array(ScheduleDayInput, {
  minItems: 7,
  maxItems: 7,
  description: '7 values, Monday to Sunday: working hours, or null for a day off',
});

/** Extension: where this warehouse drops parcels off, per delivery company that takes them only at a point chosen in advance. */
export const DropOffPoint = Type.Object(
  {
    companyId: CodeId('A delivery company (GET /v2/lists/delivery-companies)'),
    pointId: RecordId('One of its drop-off points (GET /v2/orders/shipment?pickupType=1 lists them)'),
  },
  {
    description: 'The drop-off point orders of this warehouse use for one company when they name none (pickup.pointId)',
  },
);
const DROP_OFF_POINTS_DESCRIPTION =
  'Extension: per delivery company, the drop-off point its orders from this warehouse use when they name none (pickup.pointId). ' +
  'Without one, a company that takes parcels only at a point chosen in advance gets its point nearest the warehouse. ' +
  'Omitted in PUT: kept as it was; [] clears it.';

export const Schedule = Type.Array(Nullable(WorkingHours), {
  minItems: 7,
  maxItems: 7,
  description: '7 values, Monday to Sunday; null is a day off',
});

export const CityInput = Type.Object({
  countryCode: CountryCode,
  name: Type.String({ minLength: 1, maxLength: 255, description: 'City or locality name' }),
  fias: OptionalText(64),
  type: OptionalText(32),
  region: OptionalText(),
  area: OptionalText(),
});

export const City = Type.Object({
  countryCode: Type.String(),
  name: Type.String(),
  fias: Nullable(Type.String()),
  type: Nullable(Type.String()),
  region: Nullable(Type.String()),
  area: Nullable(Type.String()),
});

const Tin = Type.String({
  pattern: '^(\\d{10}|\\d{12})$',
  'x-message': 'must be a taxpayer number (TIN) of 10 or 12 digits',
});

export const WarehouseInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  type: Type.Enum([1, 2], {
    description: '1 own warehouse of the sender, 2 fulfilment (goods kept at a fulfilment warehouse of the service)',
  }),
  pickupType: Type.Optional(
    Type.Enum([...PICKUP_TYPES], {
      default: 1,
      description:
        'Extension: how parcels leave this warehouse by default (pickup type codes 1-4); orders shipped otherwise are marked exceptionDeliveryCompany',
    }),
  ),
  senderOtherEntity: Type.Optional(
    Type.Object({
      enabled: Type.Boolean({ default: false }),
      company: Type.Optional(
        Nullable(
          Type.Object({
            TIN: Type.Optional(Nullable(Tin)),
            name: OptionalText(),
            director: OptionalText(),
          }),
        ),
      ),
    }),
  ),
  fulfilmentWarehouseId: Type.Optional(Nullable(RecordId('Only for type 2; one of GET /v2/warehouses?hold=1'))),
  fulfilmentAutoReserve: Type.Optional(Type.Boolean({ default: false })),
  address: Type.Object({
    street: Type.String({ minLength: 1, maxLength: 255 }),
    house: OptionalText(32),
    bulk: OptionalText(32),
    flat: OptionalText(32),
    city: CityInput,
  }),
  contact: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 255 }),
    position: OptionalText(),
    phone: Phone,
  }),
  holidays: Type.Optional(
    Type.Array(DateText, { maxItems: 366, description: 'Non-working days; past dates are removed automatically' }),
  ),
  schedule: ScheduleInput,
  markCompletedOrders: Type.Optional(Type.Boolean({ default: false })),
  dropOffPoints: Type.Optional(Type.Array(DropOffPoint, { maxItems: 100, description: DROP_OFF_POINTS_DESCRIPTION })),
});
export type WarehouseInput = Static<typeof WarehouseInput>;

/** Extension: what the federal address register made of a warehouse's address (warehouses/service.ts). */
const WarehouseRegister = RegisterEntryModel({
  finding:
    'Why a person should look at the address (less than a house, not recognised, not checked); the warehouse is kept as typed, and its drop-off point and own courier zones are measured from its locality until the register places its house',
  description:
    "Extension, read-only: the warehouse's address as the federal address register knows it, checked on each POST and PUT (the fields beside it keep the address as typed; never a reason to refuse the warehouse). " +
    'Where it places the house (geoPrecision 0, or 1 the street), the drop-off point chosen for a company is the one nearest these coordinates, ' +
    "and own courier methods' radiusKm is measured from them to the recipient's house. Absent on warehouses saved before the check, on foreign ones and on the service's fulfilment warehouses.",
});

export const Warehouse = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    type: Type.Integer({ description: '1 own, 2 fulfilment' }),
    pickupType: Type.Integer({ description: 'Default pickup type, codes 1-4' }),
    senderOtherEntity: Type.Object({
      enabled: Type.Boolean(),
      company: Nullable(
        Type.Object({ TIN: Nullable(Type.String()), name: Nullable(Type.String()), director: Nullable(Type.String()) }),
      ),
    }),
    fulfilmentWarehouseId: Nullable(Type.Integer()),
    fulfilmentAutoReserve: Type.Boolean(),
    address: Type.Object({
      street: Type.String(),
      house: Nullable(Type.String()),
      bulk: Nullable(Type.String()),
      flat: Nullable(Type.String()),
      city: City,
      register: Type.Optional(WarehouseRegister),
    }),
    contact: Type.Object({ name: Type.String(), position: Nullable(Type.String()), phone: Type.String() }),
    holidays: Type.Array(Type.String({ format: 'date' })),
    schedule: Schedule,
    markCompletedOrders: Type.Boolean(),
    dropOffPoints: Type.Array(DropOffPoint, { description: DROP_OFF_POINTS_DESCRIPTION }),
    fulfilmentAutoReserveAvailable: Type.Optional(
      Type.Boolean({ description: 'Read-only; only on fulfilment warehouses' }),
    ),
  },
  { description: 'Warehouse' },
);
export type Warehouse = Static<typeof Warehouse>;

export const WarehouseListQuery = Type.Object({
  name: Type.Optional(Type.String({ description: 'Substring of the name, any case' })),
  onlyMergedPickup: Type.Optional(ZeroOne),
  hold: Type.Optional(ZeroOne),
  integrationMarketplaceId: Type.Optional(RecordId()),
  ...PagingQueryFields,
});
export type WarehouseListQuery = Static<typeof WarehouseListQuery>;
