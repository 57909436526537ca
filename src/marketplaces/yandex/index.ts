/** The Yandex Market adapter: a campaign's orders, paged by page_token. */
import {
  MarketplaceAuthError,
  statusesOneByOne,
  type Credentials,
  type MarketplaceAdapter,
  type OrderPage,
  type StatusUpdate,
} from '../types.js';
import { mapOrderList, mapOrderStatus, ordersQuery, type YandexCursor } from './mapper.js';
import { YandexProxy } from './proxy.js';

export class YandexMarketAdapter implements MarketplaceAdapter {
  private readonly proxy: YandexProxy;

  constructor(baseUrl: string) {
    this.proxy = new YandexProxy(baseUrl);
  }

  async checkCredentials(credentials: Credentials, signal: AbortSignal): Promise<void> {
    if (!/^\d{1,19}$/.test(credentials.campaignId ?? ''))
      throw new MarketplaceAuthError('The campaign ID is a number (see "API and modules" in the seller office).');
    await this.proxy.campaign(credentials, signal);
  }

  async fetchOrders(
    credentials: Credentials,
    cursor: unknown,
    _limit: number,
    now: Date,
    signal: AbortSignal,
  ): Promise<OrderPage> {
    const at = cursor as YandexCursor | null;
    const body = await this.proxy.orders(credentials, ordersQuery(at, now), signal);
    return mapOrderList(body, at, now);
  }

  /** The campaign API has no list of the seller's warehouses: the reference data answers. */
  async listWarehouses(): Promise<null> {
    return null;
  }

  /** One order per call (GET .../orders/{orderId}); the caller bounds how many. */
  fetchStatuses(credentials: Credentials, numbers: string[], signal: AbortSignal): Promise<StatusUpdate[]> {
    return statusesOneByOne(numbers, async (number) =>
      mapOrderStatus(await this.proxy.order(credentials, number, signal)),
    );
  }
}
