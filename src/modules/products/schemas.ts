import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { CountryCode, Nullable, RecordId, SideCm, WeightKg } from '../../platform/schemas.js';

const Money = Type.Number({ minimum: 0, maximum: 100_000_000, description: 'roubles, to the kopeck' });
const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });

export const VAT_RATES = [0, 10, 20] as const;

/** Fields shared by POST/PUT (all of them) and PATCH (any of them). */
const productFields = {
  name: Type.String({ minLength: 1, maxLength: 500, description: 'Required' }),
  nameEn: Type.Optional(Nullable(Text(500, 'English name, needed for international post delivery'))),
  vendorCode: Type.String({ minLength: 1, maxLength: 255, description: 'Required; unique within the account' }),
  vat: Type.Optional(Nullable(Type.Enum([...VAT_RATES], { description: 'VAT percent: 0, 10 or 20' }))),
  priceDeclared: Type.Optional(Nullable(Money)),
  priceCod: Type.Optional(Nullable(Money)),
  weight: Type.Optional(Nullable(WeightKg)),
  volume: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1000, description: 'm3' }))),
  expirityDays: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 999, description: 'Shelf life in days, 1 to 999' })),
  ),
  photo: Type.Optional(
    Nullable(
      Type.String({
        format: 'uri',
        maxLength: 2000,
        pattern: '^https?://',
        'x-message': 'must be an http:// or https:// URL',
      }),
    ),
  ),
  tnved: Type.Optional(Nullable(Text(32, 'Customs nomenclature code (TN VED)'))),
  barcodes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 100, description: 'Barcodes, as strings' }),
  ),
  brand: Type.Optional(Nullable(Text(255))),
  producingCountry: Type.Optional(Nullable(CountryCode)),
  markCodeRequired: Type.Optional(
    Type.Boolean({ description: 'The product needs a mandatory marking code (fulfilment clients)' }),
  ),
  batchAccounting: Type.Optional(Type.Boolean({ description: 'Batch accounting' })),
  bindings: Type.Optional(
    Type.Array(Type.Unknown(), { maxItems: 100, description: 'Bindings to marketplaces, stored as given' }),
  ),
};

const DimensionsInput = Type.Object({
  width: Type.Optional(Nullable(SideCm)),
  height: Type.Optional(Nullable(SideCm)),
  length: Type.Optional(Nullable(SideCm)),
});

/** POST and PUT: the whole product; what is left out becomes empty. */
export const ProductInput = Type.Object({ ...productFields, dimensions: Type.Optional(DimensionsInput) });
export type ProductInput = Static<typeof ProductInput>;

/** PATCH: any part of a product; dimensions may be sent one side at a time. */
export const ProductPatch = Type.Object({
  ...productFields,
  name: Type.Optional(productFields.name),
  vendorCode: Type.Optional(productFields.vendorCode),
  dimensions: Type.Optional(DimensionsInput),
});
export type ProductPatch = Static<typeof ProductPatch>;

const StockBatch = Type.Object(
  {
    batch: Type.String({ description: 'Batch number' }),
    expires: Nullable(Type.String({ description: 'Expiry date of the batch, YYYY-MM-DD' })),
    quantity: Type.Integer({ description: 'On hand' }),
    reserved: Type.Integer({ description: 'Held for orders' }),
    available: Type.Integer({ description: 'quantity - reserved' }),
  },
  { description: 'Stock of one batch (products with batchAccounting)' },
);

export const ProductRest = Type.Object(
  {
    warehouseId: Type.Integer({
      description: 'The fulfilment warehouse holding the goods (an id of GET /v2/warehouses?hold=1)',
    }),
    name: Type.String({ description: 'Its name' }),
    quantity: Type.Integer({ description: 'On hand there' }),
    reserved: Type.Integer({ description: 'Held there for orders' }),
    available: Type.Integer({ description: 'quantity - reserved' }),
    defective: Type.Integer({
      description:
        'Extension: returned units found unfit at inspection (the defect stock): kept there, never available or reserved, not in quantity',
    }),
    batches: Type.Array(StockBatch, { description: 'Per batch, first-expiring first; empty without batch accounting' }),
  },
  { description: 'Stock of the product at one fulfilment warehouse' },
);
export type ProductRest = Static<typeof ProductRest>;

export const Product = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    nameEn: Nullable(Type.String()),
    vendorCode: Type.String(),
    vat: Nullable(Type.Integer({ description: '0, 10 or 20' })),
    priceDeclared: Nullable(Type.Number({ description: 'roubles' })),
    priceCod: Nullable(Type.Number({ description: 'roubles' })),
    weight: Nullable(Type.Number({ description: 'kg' })),
    volume: Nullable(Type.Number({ description: 'm3' })),
    dimensions: Type.Object(
      { width: Nullable(Type.Integer()), height: Nullable(Type.Integer()), length: Nullable(Type.Integer()) },
      { description: 'cm' },
    ),
    quantity: Nullable(
      Type.Integer({
        description:
          'GET only: total available quantity (on hand less reserved) across fulfilment warehouses; null until the goods have stock',
      }),
    ),
    rests: Type.Array(ProductRest, { description: 'GET only: stock per warehouse' }),
    expirityDays: Nullable(Type.Integer()),
    photo: Nullable(Type.String()),
    tnved: Nullable(Type.String()),
    barcodes: Type.Array(Type.String()),
    brand: Nullable(Type.String()),
    producingCountry: Nullable(Type.String()),
    markCodeRequired: Type.Boolean(),
    batchAccounting: Type.Boolean(),
    bindings: Type.Array(Type.Unknown()),
  },
  { description: 'Product' },
);
export type Product = Static<typeof Product>;

/** Sort fields of GET /v2/products; anything else is a 400. */
export const PRODUCT_SORT_FIELDS = [
  'id',
  'name',
  'vendorCode',
  'priceDeclared',
  'priceCod',
  'weight',
  'brand',
  'tnved',
] as const;
export type ProductSortField = (typeof PRODUCT_SORT_FIELDS)[number];

const IdList = Type.Array(RecordId(), { maxItems: 1000, description: 'ids[]=1&ids[]=2, ids[0]=1 or ids=1,2' });

export const ProductListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 500, description: 'Substring of the name, any case' })),
  vendorCode: Type.Optional(Type.String({ maxLength: 255, description: 'Substring of the vendor code, any case' })),
  tnved: Type.Optional(Type.String({ maxLength: 32, description: 'Substring of the TN VED code' })),
  barcode: Type.Optional(Type.String({ maxLength: 128, description: 'Substring of any of the barcodes' })),
  ids: Type.Optional(IdList),
  vendorCodes: Type.Optional(
    Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000, description: 'Exact vendor codes' }),
  ),
  fulfilmentWarehouseId: Type.Optional(RecordId('Only goods with stock at this fulfilment warehouse')),
  sort: Type.Optional(Type.Enum([...PRODUCT_SORT_FIELDS], { description: 'Sort field; default id' })),
  desc: Type.Optional(
    Type.Boolean({ description: "'true' or 'false'. Default: true when sort is not given (newest first), else false" }),
  ),
  ...PagingQueryFields,
});
export type ProductListQuery = Static<typeof ProductListQuery>;

/** The export's filters and sort: the list's, without paging (every match goes in the file). */
export const ProductExportQuery = Type.Omit(ProductListQuery, ['page', 'perPage']);
export type ProductExportQuery = Static<typeof ProductExportQuery>;

export const ImportRequest = Type.Object({
  file: Type.String({
    minLength: 1,
    description: 'The xlsx file (layout of GET /v2/products/import/template), base64-encoded',
  }),
});
export type ImportRequest = Static<typeof ImportRequest>;

export const ImportRowError = Type.Object(
  { field: Type.String(), message: Type.String() },
  { description: 'The first problem of the row' },
);

export const ImportResult = Type.Object(
  {
    success: Type.Integer({ description: 'Products imported (created or overwritten)' }),
    total: Type.Integer({ description: 'Product rows in the file' }),
    errors: Type.Record(Type.String({ pattern: '^[0-9]+$' }), ImportRowError, {
      description: 'Rows not imported, keyed by xlsx row number',
    }),
  },
  { description: 'Import result' },
);
export type ImportResult = Static<typeof ImportResult>;
