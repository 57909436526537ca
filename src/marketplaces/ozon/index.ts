/** The Ozon adapter: FBS postings and the cheap credential check (warehouse list). */
import {
  statusesOneByOne,
  warehouseList,
  type Credentials,
  type MarketplaceAdapter,
  type OrderPage,
  type StatusUpdate,
} from '../types.js';
import { firstCursor, mapPostingList, mapPostingStatus, postingListRequest, type OzonCursor } from './mapper.js';
import { OzonProxy } from './proxy.js';

export class OzonAdapter implements MarketplaceAdapter {
  private readonly proxy: OzonProxy;

  constructor(baseUrl: string) {
    this.proxy = new OzonProxy(baseUrl);
  }

  async checkCredentials(credentials: Credentials, signal: AbortSignal): Promise<void> {
    await this.proxy.warehouses(credentials, signal);
  }

  async fetchOrders(
    credentials: Credentials,
    cursor: unknown,
    limit: number,
    now: Date,
    signal: AbortSignal,
  ): Promise<OrderPage> {
    const at = (cursor as OzonCursor | null) ?? firstCursor(now);
    const body = await this.proxy.postings(credentials, postingListRequest(at, Math.min(limit, 1000), now), signal);
    return mapPostingList(body, at, now);
  }

  /** POST /v1/warehouse/list: {result: [{warehouse_id, name, ...}]}. */
  async listWarehouses(credentials: Credentials, signal: AbortSignal): Promise<Array<{ id: number; name: string }>> {
    return warehouseList(
      ((await this.proxy.warehouses(credentials, signal)) as { result?: unknown }).result,
      'warehouse_id',
    );
  }

  /** Ozon reads one posting per call (/v3/posting/fbs/get); the caller bounds how many. */
  fetchStatuses(credentials: Credentials, numbers: string[], signal: AbortSignal): Promise<StatusUpdate[]> {
    return statusesOneByOne(numbers, async (number) =>
      mapPostingStatus(await this.proxy.posting(credentials, number, signal)),
    );
  }
}
