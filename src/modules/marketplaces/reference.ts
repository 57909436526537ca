/** The marketplaces the service knows (data/marketplaces.json), loaded once. */
import { readDataFile } from '../../platform/reference-data.js';
import type { MarketplaceAddress } from '../../marketplaces/types.js';

export interface LocalText {
  ru: string;
  en: string;
}

export interface MarketplaceWarehouseRecord {
  id: number;
  name: string;
  /** Shipping modes served from it: 1 FBS, 2 FBO, 3 DBS. */
  shippingModes: number[];
  /** Set when it is one of the service's fulfilment warehouses: its orders are fulfilment orders. */
  fulfilmentWarehouseId?: number;
  address: MarketplaceAddress & { zipCode: string | null };
}

export interface MarketplaceRecord {
  id: number;
  /** Which adapter speaks to it (src/marketplaces/registry.ts). */
  code: string;
  name: string;
  /** Path under PUBLIC_URL. */
  logo: string;
  legalEntity: { name: string; TIN: string };
  fbs: boolean;
  fbo: boolean;
  dbs: boolean;
  integrationParams: Array<{ key: string; name: LocalText }>;
  bindingNames: Record<string, LocalText>;
  warehouses: MarketplaceWarehouseRecord[];
}

export class MarketplaceDirectory {
  readonly all: readonly MarketplaceRecord[];
  private readonly byId: Map<number, MarketplaceRecord>;

  constructor(records: MarketplaceRecord[] = readDataFile<MarketplaceRecord[]>('marketplaces.json')) {
    this.all = records;
    this.byId = new Map(records.map((record) => [record.id, record]));
  }

  get(id: number): MarketplaceRecord | undefined {
    return this.byId.get(id);
  }

  /** Whether the marketplace offers a shipping mode (1 FBS, 2 FBO, 3 DBS). */
  offers(record: MarketplaceRecord, shippingMode: number): boolean {
    return (
      (shippingMode === 1 && record.fbs) || (shippingMode === 2 && record.fbo) || (shippingMode === 3 && record.dbs)
    );
  }

  /** The reference warehouse a marketplace ships an order from, if we know it. */
  warehouse(marketplaceId: number, warehouseId: number): MarketplaceWarehouseRecord | undefined {
    return this.byId.get(marketplaceId)?.warehouses.find((warehouse) => warehouse.id === warehouseId);
  }
}
