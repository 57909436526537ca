import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { DateText, Nullable, RecordId } from '../../platform/schemas.js';

const Ids = Type.Array(RecordId(), { minItems: 1, maxItems: 1000, description: 'Order ids (at most 1000)' });

export const IdsBody = Type.Object({ ids: Ids });
export type IdsBody = Static<typeof IdsBody>;

/** Stickers are printed by the thousand at a warehouse's peak: a large set is made by a job (STICKER_SYNC_LABELS). */
export const MAX_STICKER_ORDERS = 10_000;

export const PrinterDpi = Type.Union([Type.Literal(203), Type.Literal(300)], {
  description: 'Thermal printer resolution, dots per inch: 203 (8 dots/mm) or 300 (12 dots/mm)',
});

export const StickersBody = Type.Object({
  ids: Type.Array(RecordId(), {
    minItems: 1,
    maxItems: MAX_STICKER_ORDERS,
    description: `Order ids (at most ${MAX_STICKER_ORDERS})`,
  }),
  type: Type.Optional(
    Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
      description:
        '1 A4 sheet of four labels, 2 thermal 100x150 mm, 3 thermal 75x120 mm; omitted: a ZIP of all three PDFs (with format zpl or png: type 2)',
    }),
  ),
  format: Type.Optional(
    Type.Union([Type.Literal('pdf'), Type.Literal('zpl'), Type.Literal('png')], {
      description:
        "Extension. pdf (default, as before); zpl: one ZPL stream for a thermal printer (types 2 and 3), text as ^GFA graphics so Cyrillic prints on any ZPL printer; png: one 1-bit image per label at the printer's resolution (a ZIP of them for several labels)",
    }),
  ),
  dpi: Type.Optional({
    ...PrinterDpi,
    description:
      "Extension, with format zpl or png: the printer resolution; default the warehouse's label printer setting when all orders share one warehouse, else 203",
  }),
});
export type StickersBody = Static<typeof StickersBody>;

export const FileResult = Type.Object({
  file: Type.String({ description: 'URL of the file; works without a token until it expires' }),
});

export const StickerFile = Type.Object({
  type: Type.Integer({ description: 'Sticker format 1, 2 or 3' }),
  file: Type.String(),
});
export const StickerSet = Type.Object(
  {
    id: Type.Integer({ description: 'Extension: the set id' }),
    date: Type.String({ description: 'When the set was formed, RFC 3339' }),
    deliveryCompanySticker: Nullable(
      Type.String({
        description:
          "The file answered when the set was formed: one PDF, or a ZIP of our formats and the real companies' own labels (labels/{orderId}-{trackNumber}.pdf)",
      }),
    ),
    postSticker: Nullable(Type.String({ description: 'Post forms; not produced by this service: always null' })),
    stickers: Type.Array(StickerFile, {
      description: "One PDF per format of our stickers in the set (none when every order has its company's own label)",
    }),
    orderIds: Type.Array(Type.Integer(), { description: 'Extension: the orders of the set' }),
    format: Type.Union([Type.Literal('pdf'), Type.Literal('zpl'), Type.Literal('png')], {
      description: 'Extension: the output of our labels',
    }),
    dpi: Nullable(Type.Integer({ description: 'Extension: printer resolution of zpl and png sets' })),
    status: Type.Union([Type.Literal('ready'), Type.Literal('pending'), Type.Literal('failed')], {
      description:
        'Extension: pending while a job writes a large set (its file answers 202 meanwhile), failed if it could not',
    }),
    progress: Type.Object(
      { done: Type.Integer(), total: Type.Integer() },
      { description: 'Extension: labels written of the labels of the set' },
    ),
  },
  { description: 'Sticker set' },
);
export type StickerSet = Static<typeof StickerSet>;

export const PlacesRequired = Type.Object({
  carrierARequired: Type.Boolean({
    description: 'Orders of carrier A (company 6, Национальная почта) are among them: carrierAPlaces (bags) is needed',
  }),
  carrierBRequired: Type.Boolean({
    description: 'Orders of carrier B (company 5, ТрансЛайн) are among them: carrierBPlaces (boxes/pallets) is needed',
  }),
});
export type PlacesRequired = Static<typeof PlacesRequired>;

export const WaybillsBody = Type.Object({
  date: DateText,
  ids: Ids,
  carrierAPlaces: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 9999,
      description: 'Bags handed to carrier A; required when its orders are among ids',
    }),
  ),
  carrierBPlaces: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 9999,
      description: 'Boxes or pallets handed to carrier B; required when its orders are among ids',
    }),
  ),
});
export type WaybillsBody = Static<typeof WaybillsBody>;

export const WaybillsResult = Type.Object({
  success: Type.Array(
    Type.Object({
      file: Type.String({ description: 'Act PDF URL' }),
      crossDockFile: Type.Optional(Type.String({ description: 'Extension: waybill PDF URL, where required' })),
      id: Type.Integer({ description: 'Extension: waybill set id' }),
      orderIds: Type.Array(Type.Integer()),
    }),
  ),
  error: Type.Array(Type.Object({ orderId: Type.Integer(), message: Type.String() })),
});
export type WaybillsResult = Static<typeof WaybillsResult>;

const WarehouseRef = Type.Object({ id: Nullable(Type.Integer()), name: Type.String(), address: Type.String() });
export const WaybillSet = Type.Object(
  {
    id: Type.Integer(),
    date: Type.String({ description: 'Handover date YYYY-MM-DD' }),
    company: Type.String(),
    countOrders: Type.Integer(),
    file: Nullable(Type.String({ description: 'Act PDF URL' })),
    crossDockFile: Type.Optional(Type.String({ description: 'Waybill PDF URL; absent: no waybill is required' })),
    warehouse: WarehouseRef,
  },
  { description: 'Waybill set' },
);
export type WaybillSet = Static<typeof WaybillSet>;

export const WaybillListQuery = Type.Object({ warehouseId: Type.Optional(RecordId()), ...PagingQueryFields });
export type WaybillListQuery = Static<typeof WaybillListQuery>;

export const WarehouseParams = Type.Object({ id: RecordId() });
export type WarehouseParams = Static<typeof WarehouseParams>;
export const LabelPrinterBody = Type.Object({ dpi: PrinterDpi });
export type LabelPrinterBody = Static<typeof LabelPrinterBody>;
export const LabelPrinter = Type.Object(
  {
    warehouseId: Type.Integer(),
    dpi: PrinterDpi,
    custom: Type.Boolean({ description: 'false: no setting was made and the default (203) applies' }),
  },
  {
    description:
      "Extension: the resolution of the warehouse's label printer, used for zpl and png stickers of its orders",
  },
);
export type LabelPrinter = Static<typeof LabelPrinter>;

/** What the thermal labels of a supply or a pickup act are asked in (extension). */
export const ThermalLabelsFields = {
  format: Type.Optional(
    Type.Union([Type.Literal('zpl'), Type.Literal('png')], {
      description: 'zpl (default): one ZPL stream; png: one 1-bit image per label (a ZIP when several)',
    }),
  ),
  dpi: Type.Optional({ ...PrinterDpi, description: 'Printer resolution; default 203' }),
};
