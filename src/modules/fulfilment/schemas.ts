/** TypeBox models of fulfilment supplies (contract 2.10, 4.11) and of the warehouse staff's extension endpoints. */
import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { DayText, Nullable, RecordId } from '../../platform/schemas.js';
import { ThermalLabelsFields } from '../documents/schemas.js';

/** Supply status codes (DESIGN.md). */
export const SUPPLY_STATUS = { draft: 1, confirmed: 2, arrived: 3, accepted: 4, canceled: 5 } as const;
export const SUPPLY_STATUS_NAMES: Record<number, string> = {
  1: 'Draft',
  2: 'Confirmed',
  3: 'Arrived',
  4: 'Accepted',
  5: 'Canceled',
};
export const SUPPLY_TYPES = ['boxes', 'pallets'] as const;

const Count = Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Units' });

export const SupplyLineInput = Type.Object({
  id: RecordId('A product of the catalogue'),
  count: Count,
  batch: Type.Optional(
    Nullable(Type.String({ maxLength: 64, description: 'Batch number: required for goods with batchAccounting' })),
  ),
  expires: Type.Optional(
    Nullable(DayText('Expiry date of the batch, YYYY-MM-DD: required for goods with batchAccounting')),
  ),
});

export const SupplyInput = Type.Object({
  date: DayText('Day the goods are brought to the warehouse, YYYY-MM-DD'),
  fulfilmentWarehouseId: RecordId('One of GET /v2/warehouses?hold=1'),
  places: Type.Integer({ minimum: 1, maximum: 9999, description: 'Boxes or pallets' }),
  type: Type.Enum([...SUPPLY_TYPES], { description: 'boxes or pallets' }),
  products: Type.Array(SupplyLineInput, {
    minItems: 1,
    maxItems: 2000,
    description: '[{id, count}], plus batch and expires for batch-accounted goods',
  }),
  employeeId: Type.Optional(Nullable(RecordId('The employee who prepared the supply'))),
});
export type SupplyInput = Static<typeof SupplyInput>;

export const SupplyIdBody = Type.Object({ id: RecordId('The supply') });
export type SupplyIdBody = Static<typeof SupplyIdBody>;

export const SupplyListQuery = Type.Object({
  fulfilmentWarehouseId: Type.Optional(RecordId()),
  status: Type.Optional(
    Type.Enum([1, 2, 3, 4, 5], { description: '1 Draft, 2 Confirmed, 3 Arrived, 4 Accepted, 5 Canceled' }),
  ),
  ...PagingQueryFields,
});
export type SupplyListQuery = Static<typeof SupplyListQuery>;

export const SupplyStatusItem = Type.Object({
  status: Type.Integer(),
  name: Type.String(),
  date: Type.String({ description: 'RFC 3339' }),
  comment: Nullable(Type.String()),
});
export type SupplyStatusItem = Static<typeof SupplyStatusItem>;

export const SupplyLine = Type.Object({
  id: Type.Integer({ description: 'Product id' }),
  name: Type.String(),
  vendorCode: Type.String(),
  barcodes: Type.Array(Type.String()),
  batch: Nullable(Type.String()),
  expires: Nullable(Type.String()),
  count: Type.Integer({ description: 'Declared on the act' }),
  accepted: Nullable(
    Type.Integer({
      description: 'Extension: good units counted at acceptance (these entered stock); null until accepted',
    }),
  ),
  damaged: Nullable(Type.Integer({ description: 'Extension: units found unfit (not taken into stock)' })),
  short: Nullable(Type.Integer({ description: 'Extension: declared but not found' })),
  surplus: Nullable(Type.Integer({ description: 'Extension: found beyond the act' })),
});
export type SupplyLine = Static<typeof SupplyLine>;

export const SupplyWarehouse = Type.Object({
  id: Type.Integer({ description: 'The fulfilment warehouse (GET /v2/warehouses?hold=1)' }),
  name: Type.String(),
  address: Type.Unknown({ description: 'As in the Warehouse model' }),
});

export const Supply = Type.Object(
  {
    id: Type.Integer(),
    date: Type.String(),
    type: Type.String({ description: 'boxes or pallets' }),
    warehouse: SupplyWarehouse,
    status: Type.Integer({ description: '1 Draft, 2 Confirmed, 3 Arrived, 4 Accepted, 5 Canceled' }),
    statusHistory: Type.Array(SupplyStatusItem, { description: 'Latest first' }),
    countPlaces: Type.Integer(),
    products: Type.Array(SupplyLine),
    file: Nullable(Type.String({ description: 'URL of the act (PDF)' })),
    employeeId: Nullable(Type.Integer()),
    hasDiscrepancies: Type.Boolean({ description: 'Extension: the count at acceptance differs from the act' }),
  },
  { description: 'Fulfilment supply' },
);
export type Supply = Static<typeof Supply>;

export const SupplyCreated = Type.Object(
  { id: Type.Integer({ description: 'The new supply' }), file: Type.String({ description: 'URL of the act (PDF)' }) },
  { description: 'Created: the act to print and send with the goods' },
);

/** Warehouse staff: what they counted, per line of the act (lines left out were not found). */
export const AcceptanceBody = Type.Object({
  products: Type.Array(
    Type.Object({
      id: RecordId('Product id of the line'),
      batch: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
      accepted: Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Good units counted: these enter stock' }),
      damaged: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Units found unfit' })),
    }),
    { maxItems: 2000 },
  ),
  comment: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
});
export type AcceptanceBody = Static<typeof AcceptanceBody>;

export const OperatorSupplyQuery = Type.Object({
  status: Type.Optional(Type.Enum([2, 3, 4], { description: '2 Confirmed (on the way), 3 Arrived, 4 Accepted' })),
  ...PagingQueryFields,
});
export type OperatorSupplyQuery = Static<typeof OperatorSupplyQuery>;

/** A supply as the warehouse staff see it: whose it is, and the supply. */
export const OperatorSupply = Type.Object({ accountId: Type.Integer(), supply: Supply });

export const MovementReportBody = Type.Object({
  date: Type.Object({
    from: DayText('First day, YYYY-MM-DD'),
    to: DayText('Last day, YYYY-MM-DD (at most 366 days after from)'),
  }),
  ids: Type.Array(RecordId(), { minItems: 1, maxItems: 2000, description: 'Products to report' }),
});
export type MovementReportBody = Static<typeof MovementReportBody>;

export const ReportFile = Type.Object({
  file: Type.String({
    description: 'URL of the xlsx, or of a ZIP of one xlsx per fulfilment warehouse when there are several',
  }),
});

export const SupplyLabelsBody = Type.Object({
  ...ThermalLabelsFields,
  perUnit: Type.Optional(
    Type.Boolean({ description: 'true (default): a label for each unit; false: one per product' }),
  ),
});
export type SupplyLabelsBody = Static<typeof SupplyLabelsBody>;

// ---------------------------------------------------------------- returned parcels' inspection (extension)

export const RETURN_SOURCES = ['refusal', 'partial-buyout', 'return'] as const;
export const INSPECTION_OUTCOMES = ['stock', 'defect', 'write_off'] as const;
export const INSPECTION_STATUSES = ['waiting', 'done'] as const;

export const ReturnInspectionLine = Type.Object({
  productId: Type.Integer({ description: 'A product of the catalogue' }),
  vendorCode: Nullable(Type.String()),
  name: Nullable(Type.String()),
  count: Type.Integer({ description: 'Units the parcel brought back' }),
});

export const InspectedLine = Type.Object({
  productId: Type.Integer(),
  outcome: Type.Enum([...INSPECTION_OUTCOMES], {
    description:
      'stock: back on the shelf (available again); defect: to the defect stock (kept, never sold); write_off: written off',
  }),
  count: Type.Integer(),
  reason: Type.String(),
  at: Type.String({ description: 'RFC 3339' }),
});

export const ReturnInspection = Type.Object(
  {
    id: Type.Integer(),
    accountId: Type.Integer(),
    orderId: Type.Integer({
      description: 'The parcel that came back: a refused order, a partly bought one, or a return parcel',
    }),
    shopId: Nullable(Type.Integer()),
    fulfilmentWarehouseId: Type.Integer(),
    source: Type.Enum([...RETURN_SOURCES], {
      description:
        'refusal (the whole parcel came back), partial-buyout (the lines refused at the point), return (a return parcel of the buyer)',
    }),
    returnId: Nullable(Type.Integer()),
    trackNumber: Nullable(Type.String()),
    status: Type.Enum([...INSPECTION_STATUSES], { description: 'waiting for the staff, or done' }),
    arrivedAt: Type.String({ description: 'RFC 3339' }),
    inspectedAt: Nullable(Type.String({ description: 'RFC 3339' })),
    lines: Type.Array(ReturnInspectionLine, { description: 'What came back, per product' }),
    outcomes: Type.Array(InspectedLine, { description: 'Once done: what became of each line' }),
  },
  { description: 'A returned parcel at a fulfilment warehouse and its inspection' },
);
export type ReturnInspection = Static<typeof ReturnInspection>;

export const ReturnInspectionQuery = Type.Object({
  status: Type.Optional(Type.Enum([...INSPECTION_STATUSES], { description: 'waiting (default) or done' })),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: "A scanned code: the parcel's order id or its track number (exact)",
    }),
  ),
  ...PagingQueryFields,
});
export type ReturnInspectionQuery = Static<typeof ReturnInspectionQuery>;

export const AccountReturnInspectionQuery = Type.Object({
  status: Type.Optional(Type.Enum([...INSPECTION_STATUSES], { description: 'waiting or done; both when absent' })),
  ...PagingQueryFields,
});
export type AccountReturnInspectionQuery = Static<typeof AccountReturnInspectionQuery>;

export const OrderIdParams = Type.Object({ orderId: RecordId('The returned parcel (its order id)') });

export const InspectionBody = Type.Object({
  lines: Type.Array(
    Type.Object({
      productId: RecordId('A product the parcel brought back'),
      outcome: Type.Enum([...INSPECTION_OUTCOMES], { description: 'stock, defect or write_off' }),
      count: Type.Integer({ minimum: 1, maximum: 100_000, description: 'Units with this outcome' }),
      reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why (what the staff saw)' }),
    }),
    {
      minItems: 1,
      maxItems: 300,
      description:
        "Every unit the parcel brought back, once: per product the counts add up to what came back. A product's units may be split between outcomes.",
    },
  ),
});
export type InspectionBody = Static<typeof InspectionBody>;
