/** TypeBox models of pickups (contract 2.9, 4.10). */
import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { CodeId, DateText, Nullable, RecordId, ZeroOne } from '../../platform/schemas.js';
import { Warehouse } from '../warehouses/schemas.js';

/** Pickup status codes (DESIGN.md). */
export const PICKUP_STATUS = { new: 1, scheduled: 2, done: 3, canceled: 4, error: 5 } as const;
export const PICKUP_STATUS_NAMES: Record<number, string> = {
  1: 'New',
  2: 'Scheduled',
  3: 'Done',
  4: 'Canceled',
  5: 'Error',
};
const STATUS_DESCRIPTION =
  '1 New, 2 Scheduled (booked with the company), 3 Done (collected), 4 Canceled, 5 Error (the company refused)';

const PickupType = Type.Enum([3, 4], {
  description: "3 consolidated pickup, 4 direct shipment (the company's own courier)",
  'x-message': 'must be 3 (consolidated pickup) or 4 (direct shipment)',
});

export const PickupCompaniesQuery = Type.Object({
  warehouseId: RecordId('A warehouse of the account'),
  type: PickupType,
});
export type PickupCompaniesQuery = Static<typeof PickupCompaniesQuery>;

export const PickupInput = Type.Object({
  warehouseId: RecordId("A warehouse of the account (a shop key: its shop's)"),
  companyId: CodeId('One of GET /v2/pickups/companies for this warehouse and type'),
  type: PickupType,
  weight: Type.Optional(
    Nullable(
      Type.Number({ minimum: 0.001, maximum: 20000, description: 'kg, default 1; shown until orders are covered' }),
    ),
  ),
  date: DateText,
  comment: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 500,
        description: 'For the courier; only where the company takes one (commentAvailable)',
      }),
    ),
  ),
});
export type PickupInput = Static<typeof PickupInput>;

export const PickupIdBody = Type.Object({ id: RecordId('The pickup') });
export type PickupIdBody = Static<typeof PickupIdBody>;

export const PickupListQuery = Type.Object({
  archive: Type.Optional(ZeroOne),
  ...PagingQueryFields,
});
export type PickupListQuery = Static<typeof PickupListQuery>;

export const PickupStatusItem = Type.Object({
  code: Type.Integer({ description: STATUS_DESCRIPTION }),
  name: Type.String(),
  date: Type.String({ description: 'RFC 3339' }),
});
export type PickupStatusItem = Static<typeof PickupStatusItem>;

export const Pickup = Type.Object(
  {
    id: Type.Integer(),
    type: Type.Integer({ description: '3 consolidated pickup, 4 direct shipment' }),
    status: Type.Integer({ description: STATUS_DESCRIPTION }),
    statusHistory: Type.Array(PickupStatusItem, { description: 'Extension: latest first' }),
    number: Nullable(Type.String({ description: 'The number at the transport company, once booked' })),
    date: Type.String(),
    time: Type.Object(
      { from: Nullable(Type.String()), to: Nullable(Type.String()) },
      { description: "The courier's interval (HH:MM), once booked" },
    ),
    price: Type.Number({ description: 'Roubles; 0 from countFree orders' }),
    weight: Type.Number({ description: "kg: the covered orders' weight, or the declared weight while there are none" }),
    file: Nullable(
      Type.String({ description: 'URL of the handover act (PDF) of the covered orders; null while there are none' }),
    ),
    countOrders: Type.Integer(),
    orderIds: Type.Array(Type.Integer(), {
      description: 'Extension: the orders the pickup covers (collected, once Done)',
    }),
    warehouse: Warehouse,
    companyId: Type.Integer({ description: 'Extension' }),
    companyName: Type.String(),
    comment: Nullable(Type.String()),
    error: Nullable(Type.String()),
  },
  { description: 'Pickup' },
);
export type Pickup = Static<typeof Pickup>;
