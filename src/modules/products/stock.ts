/**
 * Where `quantity` and `rests` of a product come from. Fulfilment stock does not exist
 * yet; the fulfilment area will provide a real source and wire it in `services.ts`.
 */
import type { Scope } from '../../platform/auth.js';
import type { ProductRest } from './schemas.js';

export interface ProductStock {
  /** Total available quantity (null when the product has no stock records) and rests per warehouse. */
  of(scope: Scope, productIds: number[]): Promise<Map<number, { quantity: number | null; rests: ProductRest[] }>>;
  /** Products with stock at a fulfilment warehouse. */
  productIdsAt(scope: Scope, fulfilmentWarehouseId: number): Promise<number[]>;
}

/** No stock anywhere: quantity null, rests empty, nothing at any fulfilment warehouse. */
export const NO_STOCK: ProductStock = {
  async of() {
    return new Map();
  },
  async productIdsAt() {
    return [];
  },
};
