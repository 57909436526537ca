/** The Ozon adapter: FBS postings and the cheap credential check (warehouse list). */
import type { Credentials, MarketplaceAdapter, OrderPage } from '../types.js';
import { firstCursor, mapPostingList, postingListRequest, type OzonCursor } from './mapper.js';
import { OzonProxy } from './proxy.js';

export class OzonAdapter implements MarketplaceAdapter {
  private readonly proxy: OzonProxy;

  constructor(baseUrl: string) {
    this.proxy = new OzonProxy(baseUrl);
  }

  async checkCredentials(credentials: Credentials, signal: AbortSignal): Promise<void> {
    await this.proxy.warehouses(credentials, signal);
  }

  async fetchOrders(credentials: Credentials, cursor: unknown, limit: number, now: Date, signal: AbortSignal): Promise<OrderPage> {
    const at = (cursor as OzonCursor | null) ?? firstCursor(now);
    const body = await this.proxy.postings(credentials, postingListRequest(at, Math.min(limit, 1000), now), signal);
    return mapPostingList(body, at, now);
  }
}
