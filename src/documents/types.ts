/**
 * What the renderers take: plain data that an order, an act or a supply maps into. Money is
 * in kopecks, weights in kilograms, dates `YYYY-MM-DD`. Nothing here knows the database.
 */

/** A postal address as the order keeps it (deliveryAddress / senderAddress / warehouse address). */
export interface PostalAddress {
  countryCode?: string | null;
  zipCode?: string | null;
  region?: string | null;
  area?: string | null;
  /** Locality name, e.g. "Москва". */
  city: string;
  street?: string | null;
  house?: string | null;
  /** Block / building (корпус). */
  bulk?: string | null;
  flat?: string | null;
}

/** A person or organisation with a phone, as printed on a document. */
export interface DocumentParty {
  name: string;
  phone?: string | null;
  /** Legal entity that ships or receives, when not the person. */
  legalName?: string | null;
  address?: PostalAddress | string | null;
}

/** Where a parcel goes: a door (courier) or a pickup point / locker / post office. */
export type LabelDestination =
  | { kind: 'address'; address: PostalAddress }
  | { kind: 'point'; point: { id?: number | string | null; name: string; address: string; code?: string | null } };

/** One order as its labels need it; one label is printed per place. */
export interface StickerOrder {
  orderId: number;
  cmsId?: string | null;
  /** The company's track number: printed as a Code128 barcode and in text. */
  trackNumber: string;
  company: { name: string; tariff?: string | null };
  sender: DocumentParty;
  recipient: DocumentParty;
  destination: LabelDestination;
  /** Total weight of the order, kg. */
  weightKg: number;
  /** Places (1..99); per-place weights when known. Absent or empty: one place. */
  places?: Array<{ weightKg?: number | null }> | null;
  /** Cash to collect from the recipient, kopecks; 0 or absent: prepaid. */
  codKopecks?: number | null;
  /** Comment for the delivery company, printed small when present. */
  comment?: string | null;
}

/** Sticker formats (DESIGN.md): 1 A4 sheet of four labels, 2 thermal 100x150 mm, 3 thermal 75x120 mm. */
export type StickerFormat = 1 | 2 | 3;

/** One order line of a handover act or waybill. */
export interface ActOrder {
  orderId: number;
  cmsId?: string | null;
  trackNumber: string;
  recipientName: string;
  /** Recipient locality, printed beside the name. */
  city?: string | null;
  places: number;
  weightKg: number;
  declaredValueKopecks: number;
  codKopecks: number;
}

/** What a handover act (and the waybill beside it) is about: one company, one warehouse, one date. */
export interface HandoverActInput {
  /** Act number as printed (the waybill set id). */
  number: string | number;
  /** Handover date, `YYYY-MM-DD`. */
  date: string;
  company: { name: string };
  /** The shipper: the account's legal entity or shop. */
  sender: DocumentParty;
  warehouse: { name: string; address: PostalAddress | string };
  orders: ActOrder[];
}

/** The act a pickup's courier signs: the orders it collects from a warehouse on its day. */
export interface PickupActInput extends HandoverActInput {
  /** 3 consolidated pickup, 4 direct shipment. */
  type: 3 | 4;
  /** The company's pickup number, once booked. */
  pickupNumber: string | null;
  /** The courier's interval, `HH:MM`, once booked. */
  time: { from: string; to: string } | null;
}

/** A waybill: the act's orders plus the transport units the company asks to count. */
export interface WaybillInput extends HandoverActInput {
  /** Counts of transport units; a company that needs a waybill asks for some of these. */
  containers: { bags?: number | null; boxes?: number | null; pallets?: number | null };
}

/** One kind of goods to pick or to supply. */
export interface GoodsLine {
  name: string;
  vendorCode?: string | null;
  /** Barcodes of the product (EAN-13 etc.), printed as text. */
  barcodes?: string[] | null;
  count: number;
}

/** One order of an assembly statement. */
export interface AssemblyOrder {
  orderId: number;
  cmsId?: string | null;
  trackNumber?: string | null;
  recipientName: string;
  company?: string | null;
  goods: GoodsLine[];
  /** Boxes to pack into (from the account's boxes), with how many of each. */
  boxes?: Array<{
    name: string;
    dimensions?: { length: number; width: number; height: number } | null;
    count: number;
  }> | null;
  commentForAssembly?: string | null;
  documentsForWarehouse?: string | null;
}

export interface AssemblyStatementInput {
  number: string | number;
  /** Date of the statement, `YYYY-MM-DD`. */
  date: string;
  /** Shop or account the goods belong to. */
  owner: string;
  warehouse?: { name: string; address?: PostalAddress | string | null } | null;
  orders: AssemblyOrder[];
}

/** A supply of goods to a fulfilment warehouse (contract 2.10). */
export interface SupplyActInput {
  supplyId: number;
  date: string;
  /** Supply type (DESIGN.md): goods arrive in boxes or on pallets. */
  type: 'boxes' | 'pallets';
  /** Number of boxes or pallets. */
  places: number;
  sender: DocumentParty;
  warehouse: { name: string; address: PostalAddress | string };
  goods: SupplyGoodsLine[];
  comment?: string | null;
}

/** A line of a supply: batch-accounted goods name their batch and expiry. */
export interface SupplyGoodsLine extends GoodsLine {
  batch?: string | null;
  /** `YYYY-MM-DD` */
  expires?: string | null;
}

/** What the scanner of the fulfilment warehouse reads off a supply act: the supply's number. */
export function supplyBarcodeText(supplyId: number): string {
  return `SUPPLY-${supplyId}`;
}
