/** The Wildberries adapter: FBS/DBS assembly tasks, paged by WB's `next` token. */
import {
  warehouseList,
  type Credentials,
  type MarketplaceAdapter,
  type OrderPage,
  type StatusUpdate,
} from '../types.js';
import { mapOrderList, mapStatuses, ordersQuery, STATUS_BATCH, type WildberriesCursor } from './mapper.js';
import { WildberriesProxy } from './proxy.js';

export class WildberriesAdapter implements MarketplaceAdapter {
  private readonly proxy: WildberriesProxy;

  constructor(baseUrl: string) {
    this.proxy = new WildberriesProxy(baseUrl);
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
    const at = cursor as WildberriesCursor | null;
    const pageSize = Math.min(limit, 1000);
    const body = await this.proxy.orders(credentials, ordersQuery(at, pageSize, now), signal);
    return mapOrderList(body, at, pageSize, now);
  }

  /** GET /api/v3/warehouses: [{id, officeId, name, ...}]. */
  async listWarehouses(credentials: Credentials, signal: AbortSignal): Promise<Array<{ id: number; name: string }>> {
    return warehouseList(await this.proxy.warehouses(credentials, signal), 'id');
  }

  /** The order list carries no status: WB answers it by id through /api/v3/orders/status. */
  async fetchStatuses(credentials: Credentials, numbers: string[], signal: AbortSignal): Promise<StatusUpdate[]> {
    const ids = numbers.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
    const updates: StatusUpdate[] = [];
    for (let start = 0; start < ids.length; start += STATUS_BATCH)
      updates.push(
        ...mapStatuses(await this.proxy.statuses(credentials, ids.slice(start, start + STATUS_BATCH), signal)),
      );
    return updates;
  }
}
