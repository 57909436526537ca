import type { Id, Instant } from '../../platform/db/column-types.js';

export interface KitTables {
  kits: {
    id: Id;
    account_id: number;
    shop_id: number;
    name: string;
    search_name: string;
    vendor_code: string;
    search_vendor_code: string;
    /** Default discount, percent 0..100 */
    discount: number;
    created_at: Instant;
    updated_at: Instant;
  };
  /** The goods of a kit, in the order they were sent. */
  kit_products: {
    account_id: number;
    kit_id: number;
    position: number;
    product_id: number;
    count: number;
  };
}
