/**
 * From events to deliveries: the dispatcher reads the events outbox as a consumer (like
 * notifications) and, in the transaction that moves its position, queues a delivery per
 * matching endpoint (a webhook's JSON body, or a CMS callback's form fields with the order's
 * tracking link or the product's stock now) and a job to send it. Apart from service.ts because
 * it runs in the pump over every account's new events, never on a request; the sending is
 * delivery-walk.ts.
 */
import type { Scope } from '../../platform/auth.js';
import type { JobQueue } from '../../platform/jobs.js';
import { fromJson, nowIso } from '../../platform/db/values.js';
import type { AccountService } from '../accounts/service.js';
import type { EventService } from '../events/service.js';
import type { AccountEvent } from '../events/types.js';
import type { StockService } from '../fulfilment/stock-service.js';
import type { OrderService } from '../orders/service.js';
import {
  acceptsQuantity,
  orderStatusFields,
  productQuantityFields,
  sendsUnmappedStatus,
  type CmsPlatform,
  type CmsResource,
} from './cms-callbacks.js';
import type { CmsAddress, CmsTargets } from './cms-targets.js';
import { DELIVER_JOB, TURN_MS } from './delivery-walk.js';
import type { EndpointRow, NewDelivery, WebhookStore } from './store.js';

/** The consumer name of the dispatcher in `event_consumers`. */
export const CONSUMER = 'webhooks';
const BATCH = 500;

export class EventDispatch {
  constructor(
    private readonly store: WebhookStore,
    private readonly events: EventService,
    private readonly accounts: AccountService,
    private readonly orders: OrderService,
    private readonly jobs: JobQueue,
    /** What a CMS is told of fulfilment stock (product-quantity-update): vendor code and available units now. */
    private readonly stock: Pick<StockService, 'quantitiesAt'>,
    private readonly cms: Pick<CmsTargets, 'addressOf'>,
  ) {}

  /** Queues a delivery per (new event, matching endpoint); the number of events read. */
  dispatch(): Promise<number> {
    return this.events.consume(
      CONSUMER,
      BATCH,
      (events) => this.plan(events),
      async ({ deliveries, backingOff, leased, lastEventId }, trx) => {
        await this.store.insertDeliveries(deliveries, trx);
        const endpoints = new Map(deliveries.map((delivery) => [delivery.endpoint_id, delivery.account_id]));
        // an endpoint backing off has its retry queued already: the new deliveries wait behind it
        for (const id of backingOff) endpoints.delete(id);
        for (const [endpointId, accountId] of endpoints) {
          // A sender is on it (a slow or hanging receiver). It looks for pending deliveries again
          // when its turn ends; should these land just after that look, one job per TURN_MS slot
          // (never later than the lease's end) takes them, instead of a job per batch, each
          // claimed only to find the endpoint busy: on SQLite those writes were what slowed the API.
          const leaseEnds = leased.get(endpointId);
          if (leaseEnds !== undefined) {
            const at = Math.min(leaseEnds, Math.ceil((Date.now() + TURN_MS) / TURN_MS) * TURN_MS);
            await this.jobs.enqueue(
              accountId,
              DELIVER_JOB,
              { endpointId },
              { runAt: new Date(at), uniqueKey: `webhook:${endpointId}:at:${at}`, maxAttempts: 50 },
              trx,
            );
          } else
            await this.jobs.enqueue(
              accountId,
              DELIVER_JOB,
              { endpointId },
              { uniqueKey: `webhook:${endpointId}:${lastEventId}`, maxAttempts: 50 },
              trx,
            );
        }
      },
    );
  }

  private async plan(
    events: AccountEvent[],
  ): Promise<{ deliveries: NewDelivery[]; backingOff: Set<number>; leased: Map<number, number>; lastEventId: number }> {
    const endpoints = await this.store.enabledEndpointsOf([...new Set(events.map((event) => event.accountId))]);
    const nowMs = Date.now();
    const backingOff = new Set(
      endpoints
        .filter((endpoint) => endpoint.retry_at !== null && Date.parse(endpoint.retry_at) > nowMs)
        .map((endpoint) => endpoint.id),
    );
    // endpoints a sender holds now, with the end of its lease (ms)
    const leased = new Map(
      endpoints
        .filter((endpoint) => endpoint.lease_until !== null && Date.parse(endpoint.lease_until) > nowMs)
        .map((endpoint) => [endpoint.id, Date.parse(endpoint.lease_until as string)]),
    );
    const lastEventId = events[events.length - 1].id;
    if (endpoints.length === 0) return { deliveries: [], backingOff, leased, lastEventId };
    const cms = new Map<number, CmsAddress | null>();
    const trackUrls = await this.trackUrlsOf(events, endpoints);
    const quantities = await this.quantitiesOf(events, endpoints);
    const rows: NewDelivery[] = [];
    const now = nowIso();
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (endpoint.account_id !== event.accountId) continue;
        // stock is the account's: a shop's CMS hears of the fulfilment warehouse its shop ships from (checked below)
        const accountStock =
          event.shopId === null && event.type === 'fulfilment.stock_changed' && endpoint.kind === 'cms';
        if (endpoint.shop_id !== null && endpoint.shop_id !== event.shopId && !accountStock) continue;
        const types = fromJson<string[]>(endpoint.event_types);
        if (types.length > 0 && !types.includes(event.type)) continue;
        // an endpoint hears of what happened after it was made
        if (Date.parse(event.at) < Date.parse(endpoint.created_at)) continue;
        const base = {
          account_id: event.accountId,
          endpoint_id: endpoint.id,
          event_id: event.id,
          message_id: String(event.id),
          event_type: event.type,
          order_id: event.orderId === 0 ? null : event.orderId,
          status: 'pending',
          attempts: 0,
          last_status: null,
          last_error: null,
          delivered_at: null,
          created_at: now,
        };
        if (endpoint.kind === 'webhook') {
          const { accountId: _account, ...data } = event;
          rows.push({ ...base, resource: null, body: JSON.stringify({ type: event.type, timestamp: event.at, data }) });
          continue;
        }
        if (!cms.has(endpoint.id)) cms.set(endpoint.id, await this.cms.addressOf(endpoint).catch(() => null));
        const address = cms.get(endpoint.id);
        // the shop is gone (its callbacks go with the account only): nothing to tell its CMS
        if (!address) continue;
        if (accountStock && address.fulfilmentWarehouseId !== event.payload.fulfilmentWarehouseId) continue;
        const callback = cmsCallbackOf(
          event,
          endpoint,
          address,
          trackUrls.get(event.orderId) ?? null,
          quantities.get(`${event.accountId}:${event.payload.fulfilmentWarehouseId}:${event.payload.productId}`),
        );
        if (callback) rows.push({ ...base, resource: callback.resource, body: JSON.stringify(callback.fields) });
      }
    }
    return { deliveries: rows, backingOff, leased, lastEventId };
  }

  /**
   * The vendor code and available units now of the products whose fulfilment stock changed, for
   * the accounts with CMS callbacks (product-quantity-update carries the quantity as it is when
   * sent: several changes of one product all tell the latest), by "account:warehouse:product".
   */
  private async quantitiesOf(
    events: AccountEvent[],
    endpoints: EndpointRow[],
  ): Promise<Map<string, { vendorCode: string | null; available: number }>> {
    const found = new Map<string, { vendorCode: string | null; available: number }>();
    const cmsAccounts = new Set(
      endpoints.filter((endpoint) => endpoint.kind === 'cms').map((endpoint) => endpoint.account_id),
    );
    const wanted = new Map<string, { accountId: number; fulfilmentWarehouseId: number; productIds: Set<number> }>();
    for (const event of events) {
      const { productId, fulfilmentWarehouseId } = event.payload;
      if (
        event.type !== 'fulfilment.stock_changed' ||
        !cmsAccounts.has(event.accountId) ||
        productId === undefined ||
        fulfilmentWarehouseId === undefined
      )
        continue;
      const key = `${event.accountId}:${fulfilmentWarehouseId}`;
      const entry = wanted.get(key) ?? {
        accountId: event.accountId,
        fulfilmentWarehouseId,
        productIds: new Set<number>(),
      };
      entry.productIds.add(productId);
      wanted.set(key, entry);
    }
    for (const [key, { accountId, fulfilmentWarehouseId, productIds }] of wanted) {
      for (const [productId, quantity] of await this.stock.quantitiesAt(accountId, fulfilmentWarehouseId, [
        ...productIds,
      ]))
        found.set(`${key}:${productId}`, quantity);
    }
    return found;
  }

  /** The tracking links of orders whose status changes go to a CMS (order-status-update carries trackUrl). */
  private async trackUrlsOf(events: AccountEvent[], endpoints: EndpointRow[]): Promise<Map<number, string | null>> {
    const urls = new Map<number, string | null>();
    const cmsAccounts = new Set(
      endpoints.filter((endpoint) => endpoint.kind === 'cms').map((endpoint) => endpoint.account_id),
    );
    const byAccount = new Map<number, number[]>();
    for (const event of events)
      if (cmsAccounts.has(event.accountId) && event.type === 'order.status_changed')
        byAccount.set(event.accountId, [...(byAccount.get(event.accountId) ?? []), event.orderId]);
    for (const [accountId, ids] of byAccount) {
      const scope: Scope = {
        accountId,
        timeZone: await this.accounts.timeZoneOf(accountId),
        kind: 'account',
        shopKeyShopId: null,
        employeeId: null,
      };
      for (const [id, order] of await this.orders.getMany(scope, [...new Set(ids)]))
        urls.set(id, order.trackingUrl ?? null);
    }
    return urls;
  }
}

function cmsCallbackOf(
  event: AccountEvent,
  endpoint: EndpointRow,
  address: { platform: CmsPlatform; sendQuantity: boolean },
  trackUrl: string | null,
  quantity: { vendorCode: string | null; available: number } | undefined,
): { resource: CmsResource; fields: Record<string, string> } | null {
  if (event.type === 'order.status_changed' && event.statusTo !== null) {
    const statusCms = fromJson<Record<string, string>>(endpoint.status_map ?? '{}')[String(event.statusTo)];
    if (statusCms === undefined && !sendsUnmappedStatus(address.platform)) return null;
    return {
      resource: 'order-status-update',
      fields: orderStatusFields({
        orderId: event.orderId,
        statusCms: statusCms ?? '',
        statusSr: event.statusTo,
        trackNumber: event.payload.trackNumber,
        trackUrl,
      }),
    };
  }
  if (
    event.type === 'fulfilment.stock_changed' &&
    acceptsQuantity(address.platform) &&
    address.sendQuantity &&
    quantity?.vendorCode
  ) {
    return {
      resource: 'product-quantity-update',
      fields: productQuantityFields(quantity.vendorCode, quantity.available),
    };
  }
  return null;
}
