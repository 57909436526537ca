import type { Flag, Id, Instant, Json } from '../../platform/db/column-types.js';

export interface ProductTables {
  products: {
    id: Id;
    account_id: number;
    vendor_code: string;
    search_vendor_code: string;
    name: string;
    search_name: string;
    name_en: string | null;
    vat: number | null;
    price_declared_kopecks: number | null;
    price_cod_kopecks: number | null;
    weight_grams: number | null;
    /** m3 */
    volume: number | null;
    width: number | null;
    height: number | null;
    length: number | null;
    expirity_days: number | null;
    photo: string | null;
    tnved: string | null;
    search_tnved: string;
    /** JSON array of strings */
    barcodes: Json;
    /** The barcodes joined by a newline, lower case, for substring search. */
    search_barcodes: string;
    brand: string | null;
    producing_country: string | null;
    mark_code_required: Flag;
    batch_accounting: Flag;
    /** Marketplace bindings as given and validated (JSON array); their identifiers are also rows of product_bindings. */
    bindings: Json;
    /**
     * Set when the product was deleted: it leaves the catalogue, but kits (and later
     * orders) that refer to it still read it. Vendor codes are unique among live rows only.
     */
    deleted_at: Instant | null;
    created_at: Instant;
    updated_at: Instant;
  };
  /** One row per binding identifier of a product: the unique index keeps an identifier to one product per marketplace. */
  product_bindings: {
    account_id: number;
    marketplace_id: number;
    /** One of the marketplace's bindingNames (offerId, sku...). */
    name: string;
    value: string;
    product_id: number;
  };
}
