/** The Wildberries adapter: FBS/DBS assembly tasks, paged by WB's `next` token. */
import type { Credentials, MarketplaceAdapter, OrderPage } from '../types.js';
import { mapOrderList, ordersQuery, type WildberriesCursor } from './mapper.js';
import { WildberriesProxy } from './proxy.js';

export class WildberriesAdapter implements MarketplaceAdapter {
  private readonly proxy: WildberriesProxy;

  constructor(baseUrl: string) {
    this.proxy = new WildberriesProxy(baseUrl);
  }

  async checkCredentials(credentials: Credentials, signal: AbortSignal): Promise<void> {
    await this.proxy.warehouses(credentials, signal);
  }

  async fetchOrders(credentials: Credentials, cursor: unknown, limit: number, now: Date, signal: AbortSignal): Promise<OrderPage> {
    const at = cursor as WildberriesCursor | null;
    const pageSize = Math.min(limit, 1000);
    const body = await this.proxy.orders(credentials, ordersQuery(at, pageSize, now), signal);
    return mapOrderList(body, at, pageSize, now);
  }
}
