/**
 * Webhooks and CMS callbacks (issue 28). A dispatcher reads the events outbox as a consumer
 * (like notifications) and, in the transaction that moves its position, queues a delivery
 * per matching endpoint and a job to send it. One sender at a time per endpoint (a lease on
 * the endpoint row) walks the endpoint's deliveries in id order, which is event order: an
 * order's events reach a receiver in order. A failure stops the endpoint's walk and retries
 * its oldest delivery after an exponential back-off with jitter; an endpoint failing for
 * longer than the disable window is disabled and its account told.
 */
import type { StockService } from '../fulfilment/stock-service.js';
import { WAREHOUSE_TYPE } from '../warehouses/schemas.js';
import { randomUUID } from 'node:crypto';
import { requireAccountWide, requireShopAccess, type Scope } from '../../platform/auth.js';
import type { SecretBox } from '../../platform/crypto.js';
import { AppError, conflict, FieldErrorCollector, notFound, unprocessable } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { Page, Paging } from '../../platform/paging.js';
import { flag, fromJson, nowIso, toJson } from '../../platform/db/values.js';
import { maskCredential } from '../../platform/sealed-credentials.js';
import type { AccountService } from '../accounts/service.js';
import { EVENT_RETENTION_DAYS, type EventService } from '../events/service.js';
import type { AccountEvent } from '../events/types.js';
import type { NotificationService } from '../notifications/service.js';
import type { OrderService } from '../orders/service.js';
import type { ShopService } from '../shops/service.js';
import {
  acceptsQuantity,
  cmsAccepted,
  cmsHeaders,
  cmsUrl,
  formBody,
  orderStatusFields,
  productQuantityFields,
  readCmsList,
  sendsUnmappedStatus,
  type CmsPlatform,
  type CmsResource,
} from './cms-callbacks.js';
import type {
  AttemptListQuery,
  CmsCallbacksInput,
  CmsCallbacksView,
  DeliveryListQuery,
  WebhookInput,
  WebhookListQuery,
  WebhookView,
} from './schemas.js';
import { BlockedTargetError, call, checkTargetUrl, describeCallFailure } from './ssrf-guard.js';
import { newSigningSecret, signedHeaders } from './signing.js';
import type { AttemptRow, DeliveryRow, EndpointRow, NewDelivery, RecordedAttempt, WebhookStore } from './store.js';

export const DELIVER_JOB = 'webhooks.deliver';
/** The consumer name of the dispatcher in `event_consumers`. */
export const CONSUMER = 'webhooks';
const BATCH = 500;
/** A sender stops starting new sends after this long, so one busy endpoint does not keep a slot. */
const TURN_MS = 5_000;
const RESPONSE_HEAD_BYTES = 500;
/** Deliveries read, and successes recorded, at a time. */
const RECORD_EVERY = 100;

export interface WebhookOptions {
  /** Back-off after the first failure; doubles per failure, with ±20 % jitter, up to `retryMaxSeconds`. */
  retryFirstSeconds: number;
  retryMaxSeconds: number;
  /** An endpoint failing without a success for this long is disabled. */
  disableAfterHours: number;
  /** Let URLs resolve to loopback/private addresses (self-hosted shops, tests). */
  allowPrivateTargets: boolean;
  timeoutMs: number;
  /** After a rotation, the old secret signs too for this long. */
  secretGraceHours: number;
}

export interface DeliverJob {
  endpointId: number;
}

type EndpointKind = 'webhook' | 'cms';

interface Outcome {
  delivered: boolean;
  httpStatus: number | null;
  error: string | null;
  head: string | null;
}

export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
    private readonly events: EventService,
    private readonly shops: ShopService,
    private readonly accounts: AccountService,
    private readonly orders: OrderService,
    private readonly notifications: NotificationService,
    private readonly jobs: JobQueue,
    private readonly secretBox: SecretBox,
    readonly options: WebhookOptions,
    /** What a CMS is told of fulfilment stock (product-quantity-update): vendor code and available units now. */
    private readonly stock: Pick<StockService, 'quantitiesAt'>,
  ) {}

  // ---------------------------------------------------------------- endpoints

  async create(
    scope: Scope,
    input: WebhookInput,
  ): Promise<{ id: number; secret: string; previousSecretValidUntil: null }> {
    const values = await this.validate(scope, input);
    const secret = newSigningSecret();
    const now = nowIso();
    const id = await this.store.insertEndpoint({
      account_id: scope.accountId,
      kind: 'webhook',
      ...values,
      secret: this.secretBox.seal(secret),
      cms_platform: null,
      cms_api_key: null,
      status_map: null,
      ...FRESH,
      created_at: now,
      updated_at: now,
    });
    return { id, secret, previousSecretValidUntil: null };
  }

  async list(scope: Scope, query: WebhookListQuery, paging: Paging): Promise<Page<WebhookView>> {
    if (query.shopId !== undefined) requireShopAccess(scope, query.shopId);
    const shopId = scope.shopKeyShopId ?? query.shopId;
    const page = await this.store.endpoints(scope.accountId, shopId === undefined ? {} : { shopId }, paging);
    return { items: page.items.map(viewOf), total: page.total };
  }

  async get(scope: Scope, id: number): Promise<WebhookView> {
    return viewOf(await this.accessible(scope, id));
  }

  async replace(scope: Scope, id: number, input: WebhookInput): Promise<void> {
    const endpoint = await this.accessible(scope, id, 'webhook');
    const values = await this.validate(scope, input);
    // enabled again, or another URL: the failures were the old receiver's, start afresh and now
    const afresh = values.enabled && (!flag(endpoint.enabled) || values.url !== endpoint.url);
    await this.store.updateEndpoint(scope.accountId, id, { ...values, ...(afresh ? RECOVERED : {}) });
    if (afresh) await this.kick(scope.accountId, id, `afresh:${Date.now()}`);
  }

  async delete(scope: Scope, id: number): Promise<void> {
    await this.accessible(scope, id, 'webhook');
    await this.store.deleteEndpoint(scope.accountId, id);
  }

  /** A new secret; the old one keeps signing (both signatures are sent) for the grace period. */
  async rotateSecret(
    scope: Scope,
    id: number,
  ): Promise<{ id: number; secret: string; previousSecretValidUntil: string }> {
    const endpoint = await this.accessible(scope, id, 'webhook');
    const secret = newSigningSecret();
    const until = new Date(Date.now() + this.options.secretGraceHours * 3_600_000).toISOString();
    await this.store.updateEndpoint(scope.accountId, id, {
      secret: this.secretBox.seal(secret),
      previous_secret: endpoint.secret,
      previous_secret_until: until,
    });
    return { id, secret, previousSecretValidUntil: until };
  }

  /** Queues a `webhook.test` message behind whatever the endpoint owes. */
  async sendTest(scope: Scope, id: number): Promise<{ deliveryId: number }> {
    const endpoint = await this.accessible(scope, id, 'webhook');
    if (!flag(endpoint.enabled))
      throw conflict(
        'webhook_disabled',
        `Webhook endpoint ${id} is disabled; enable it first (PUT with enabled: true).`,
      );
    const at = nowIso();
    const deliveryId = await this.store.insertDelivery({
      account_id: scope.accountId,
      endpoint_id: id,
      event_id: null,
      message_id: `test_${randomUUID()}`,
      event_type: 'webhook.test',
      order_id: null,
      resource: null,
      body: JSON.stringify({ type: 'webhook.test', timestamp: at, data: { webhookId: id } }),
      status: 'pending',
      attempts: 0,
      last_status: null,
      last_error: null,
      delivered_at: null,
      created_at: at,
    });
    await this.kick(scope.accountId, id, `test:${deliveryId}`);
    return { deliveryId };
  }

  async deliveries(
    scope: Scope,
    id: number,
    query: DeliveryListQuery,
    paging: Paging,
  ): Promise<Page<ReturnType<typeof deliveryViewOf>>> {
    await this.accessible(scope, id);
    const page = await this.store.deliveries(scope.accountId, id, query.status ? { status: query.status } : {}, paging);
    return { items: page.items.map(deliveryViewOf), total: page.total };
  }

  async attempts(
    scope: Scope,
    id: number,
    query: AttemptListQuery,
    paging: Paging,
  ): Promise<Page<ReturnType<typeof attemptViewOf>>> {
    await this.accessible(scope, id);
    const page = await this.store.attempts(
      scope.accountId,
      id,
      query.deliveryId === undefined ? {} : { deliveryId: query.deliveryId },
      paging,
    );
    return { items: page.items.map(attemptViewOf), total: page.total };
  }

  /**
   * Sends a delivery again by hand: a copy (same webhook-id, same body) queued behind what
   * the endpoint owes now; a receiver deduplicating by id takes it at most once.
   */
  async redeliver(scope: Scope, id: number, deliveryId: number): Promise<{ deliveryId: number }> {
    const endpoint = await this.accessible(scope, id);
    const delivery = await this.store.delivery(scope.accountId, id, deliveryId);
    if (!delivery) throw notFound('Delivery', deliveryId);
    if (!flag(endpoint.enabled))
      throw conflict('webhook_disabled', `Webhook endpoint ${id} is disabled; enable it first.`);
    const { id: _old, ...copy } = delivery;
    const newId = await this.store.insertDelivery({
      ...copy,
      status: 'pending',
      attempts: 0,
      last_status: null,
      last_error: null,
      delivered_at: null,
      created_at: nowIso(),
    });
    await this.kick(scope.accountId, id, `redeliver:${newId}`);
    return { deliveryId: newId };
  }

  private async accessible(scope: Scope, id: number, kind?: EndpointKind): Promise<EndpointRow> {
    const endpoint = await this.store.endpoint(scope.accountId, id);
    if (!endpoint) throw notFound('Webhook endpoint', id);
    if (endpoint.shop_id === null) requireAccountWide(scope, 'manage account-wide webhook endpoints');
    else requireShopAccess(scope, endpoint.shop_id);
    if (kind === 'webhook' && endpoint.kind !== 'webhook')
      throw conflict(
        'cms_callbacks',
        `Endpoint ${id} is a shop's CMS callbacks; change it with PUT /v2/shops/${endpoint.shop_id}/cms-callbacks.`,
      );
    return endpoint;
  }

  private async validate(scope: Scope, input: WebhookInput) {
    const problems = new FieldErrorCollector();
    if (input.shopId !== undefined) requireShopAccess(scope, input.shopId);
    const shopId = input.shopId ?? scope.shopKeyShopId;
    if (shopId !== null && !(await this.shops.exists(scope, shopId)))
      problems.add('shopId', `shop ${shopId} does not exist in this account`);
    const url = this.checkUrl(input.url, 'url', problems);
    problems.throwIfAny();
    return {
      shop_id: shopId,
      url,
      description: (input.description ?? '').trim(),
      event_types: toJson([...new Set(input.eventTypes ?? [])]),
      enabled: input.enabled ?? true,
    };
  }

  /** An http(s) URL, not an address we refuse to call (names are checked again at delivery, after DNS). */
  private checkUrl(raw: string, field: string, problems: FieldErrorCollector): string {
    const url = raw.trim();
    try {
      const parsed = new URL(url);
      if (parsed.username || parsed.password) problems.add(field, 'must not carry a user name or password');
      checkTargetUrl(url, this.options.allowPrivateTargets);
    } catch (error) {
      problems.add(
        field,
        error instanceof BlockedTargetError ? `is refused: ${error.message}` : 'must be an absolute http or https URL',
      );
    }
    return url;
  }

  // ---------------------------------------------------------------- CMS callbacks

  async cmsCallbacks(scope: Scope, shopId: number): Promise<CmsCallbacksView> {
    return this.cmsViewOf(await this.cmsTargetOf(scope, shopId));
  }

  async setCmsCallbacks(scope: Scope, shopId: number, input: CmsCallbacksInput): Promise<CmsCallbacksView> {
    await this.shopOf(scope, shopId);
    const problems = new FieldErrorCollector();
    const url = this.checkUrl(input.apiUrl, 'apiUrl', problems);
    if (input.platform === 'diafan' && !input.apiKey?.trim())
      problems.add('apiKey', 'is required for Diafan (its "API-ключ для интеграции")');
    for (const code of Object.keys(input.statusMap ?? {}))
      if (!/^[1-9][0-9]{0,3}$/.test(code))
        problems.add(`statusMap.${code}`, 'must be keyed by an order status code (GET /v2/lists/order-statuses)');
    problems.throwIfAny();
    const values = {
      url,
      cms_platform: input.platform,
      status_map: toJson(input.statusMap ?? {}),
      cms_api_key: input.apiKey?.trim() ? this.secretBox.seal(input.apiKey.trim()) : null,
      enabled: input.enabled ?? true,
    };
    const existing = await this.store.cmsTarget(scope.accountId, shopId);
    if (existing) {
      const afresh = values.enabled && (!flag(existing.enabled) || values.url !== existing.url);
      await this.store.updateEndpoint(scope.accountId, existing.id, { ...values, ...(afresh ? RECOVERED : {}) });
      if (afresh) await this.kick(scope.accountId, existing.id, `afresh:${Date.now()}`);
    } else {
      const now = nowIso();
      await this.store.insertEndpoint({
        account_id: scope.accountId,
        shop_id: shopId,
        kind: 'cms',
        description: 'CMS callbacks',
        event_types: toJson(['order.status_changed', 'fulfilment.stock_changed']),
        // the token is the shop's own API key, read when sending: the plugin is configured with it
        secret: '',
        ...FRESH,
        created_at: now,
        updated_at: now,
        ...values,
      });
    }
    return this.cmsCallbacks(scope, shopId);
  }

  async deleteCmsCallbacks(scope: Scope, shopId: number): Promise<void> {
    const target = await this.cmsTargetOf(scope, shopId);
    await this.store.deleteEndpoint(scope.accountId, target.id);
  }

  /** Reads the plugin's statuses.json and payment-methods.json, to offer the mapping. */
  async cmsOptions(
    scope: Scope,
    shopId: number,
  ): Promise<{ statuses: Record<string, string>; paymentMethods: Record<string, string> }> {
    const target = await this.cmsTargetOf(scope, shopId);
    const headers = cmsHeaders(await this.cmsAddress(target));
    const read = async (resource: string) => {
      let answer;
      try {
        answer = await call({
          method: 'GET',
          url: cmsUrl(target.url, resource),
          headers,
          timeoutMs: this.options.timeoutMs,
          allowPrivate: this.options.allowPrivateTargets,
          keepBytes: 256 * 1024,
        });
      } catch (error) {
        throw unprocessable(
          'cms_not_answering',
          `The shop's CMS did not answer ${resource}: ${describeCallFailure(error)}`,
        );
      }
      const list = answer.status === 200 ? readCmsList(answer.head) : null;
      if (!list)
        throw unprocessable(
          'cms_not_answering',
          `The shop's CMS answered ${resource} with HTTP ${answer.status} and no list: ${answer.head.slice(0, 200)}`,
        );
      return list;
    };
    return { statuses: await read('statuses.json'), paymentMethods: await read('payment-methods.json') };
  }

  private async shopOf(scope: Scope, shopId: number) {
    // the shop's own checks: another account's shop is a 404, another shop's key a 403
    return this.shops.get(scope, shopId);
  }

  private async cmsTargetOf(scope: Scope, shopId: number): Promise<EndpointRow> {
    await this.shopOf(scope, shopId);
    const target = await this.store.cmsTarget(scope.accountId, shopId);
    if (!target)
      throw new AppError(
        404,
        'not_found',
        `Shop ${shopId} has no CMS callbacks set; PUT /v2/shops/${shopId}/cms-callbacks sets them.`,
      );
    return target;
  }

  private cmsViewOf(row: EndpointRow): CmsCallbacksView {
    return {
      webhookId: row.id,
      platform: row.cms_platform as CmsPlatform,
      apiUrl: row.url,
      statusMap: fromJson<Record<string, string>>(row.status_map ?? '{}'),
      apiKey: row.cms_api_key ? maskCredential(this.secretBox.open(row.cms_api_key)) : null,
      enabled: flag(row.enabled),
      disabledReason: row.disabled_reason,
    };
  }

  private async cmsAddress(row: EndpointRow) {
    const accountId = row.account_id;
    const shopId = row.shop_id as number;
    const scope: Scope = {
      accountId,
      timeZone: await this.accounts.timeZoneOf(accountId),
      kind: 'account',
      shopKeyShopId: null,
      employeeId: null,
    };
    const shop = await this.shops.get(scope, shopId);
    if (shop.apiKey === null) throw new Error('an account scope is shown the shop key');
    const fulfilmentWarehouseId =
      shop.warehouse.type === WAREHOUSE_TYPE.fulfilment ? shop.warehouse.fulfilmentWarehouseId : null;
    return {
      platform: row.cms_platform as CmsPlatform,
      baseUrl: row.url,
      shopId,
      token: shop.apiKey,
      apiKey: row.cms_api_key ? this.secretBox.open(row.cms_api_key) : null,
      sendQuantity: shop.sendQuantityToCMS,
      fulfilmentWarehouseId,
    };
  }

  // ---------------------------------------------------------------- dispatching events

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
    const cms = new Map<number, Awaited<ReturnType<WebhookService['cmsAddress']>> | null>();
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
        if (!cms.has(endpoint.id)) cms.set(endpoint.id, await this.cmsAddress(endpoint).catch(() => null));
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

  private async kick(accountId: number, endpointId: number, reason: string): Promise<void> {
    await this.jobs.enqueue(
      accountId,
      DELIVER_JOB,
      { endpointId },
      { uniqueKey: `webhook:${endpointId}:${reason}`, maxAttempts: 50 },
    );
  }

  /** Forgets delivered and given-up deliveries (and their attempts) after the events' retention. */
  purgeOld(now = new Date()): Promise<number> {
    return this.store.purge(new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString());
  }

  // ---------------------------------------------------------------- sending

  /**
   * One turn of an endpoint's sender: its deliveries in order until none is left, the turn
   * is over, or one fails. Answers when the endpoint wants another turn (null: nothing owed
   * now; a new delivery brings its own job).
   */
  async runEndpoint(accountId: number, endpointId: number, now?: Date): Promise<Date | null> {
    const clock = () => now ?? new Date();
    const endpoint = await this.store.endpoint(accountId, endpointId);
    if (!endpoint || !flag(endpoint.enabled)) return null;
    if (endpoint.retry_at && Date.parse(endpoint.retry_at) > clock().getTime()) return new Date(endpoint.retry_at);
    // Another sender has the endpoint. It looks for pending deliveries again after letting it
    // go, so what was queued before this job ran is its; come back only when its lease ends
    // (it may have died: then the lease is what frees the endpoint). Every job in that state
    // asks for the same time, so they are one job.
    if (!(await this.store.takeLease(accountId, endpointId, clock(), TURN_MS + this.options.timeoutMs + 15_000))) {
      return endpoint.lease_until ? new Date(endpoint.lease_until) : new Date(clock().getTime() + 1000);
    }
    const next = await this.turn(endpoint, clock);
    await this.store.releaseLease(accountId, endpointId);
    if (next !== null) return next;
    // deliveries queued while this turn was ending were left to it by their jobs: another turn
    // (a disabled endpoint has none: disabling gave them up)
    return (await this.store.pending(accountId, endpointId, 1)).length > 0 ? clock() : null;
  }

  /** Sends the endpoint's pending deliveries in order while the turn lasts; when to come back. */
  private async turn(endpoint: EndpointRow, clock: () => Date): Promise<Date | null> {
    const accountId = endpoint.account_id;
    const endpointId = endpoint.id;
    const turnEnds = Date.now() + TURN_MS;
    // successes are recorded a run at a time (a crash before the record sends them again: at least once)
    let done: RecordedAttempt[] = [];
    let failures = endpoint.consecutive_failures;
    let failingSince = endpoint.failing_since;
    let stateChanged = false;
    const record = async (retryAt: Date | null = null) => {
      const patch =
        stateChanged || retryAt
          ? { failing_since: failingSince, consecutive_failures: failures, retry_at: retryAt?.toISOString() ?? null }
          : null;
      await this.store.recordAttempts(accountId, endpointId, done, patch);
      done = [];
      stateChanged = false;
    };
    try {
      for (;;) {
        const batch = await this.store.pending(accountId, endpointId, RECORD_EVERY);
        if (batch.length === 0) {
          await record();
          return null;
        }
        for (const delivery of batch) {
          if (Date.now() > turnEnds) {
            await record();
            return clock();
          }
          const at = clock();
          const started = Date.now();
          const outcome = await this.send(endpoint, delivery);
          done.push({
            delivery,
            at: at.toISOString(),
            durationMs: Date.now() - started,
            httpStatus: outcome.httpStatus,
            error: outcome.error,
            responseHead: outcome.head,
            delivered: outcome.delivered,
          });
          if (outcome.delivered) {
            if (failures > 0) stateChanged = true;
            failures = 0;
            failingSince = null;
            continue;
          }
          // a failure stops the walk: what follows waits behind it, in order
          failures += 1;
          failingSince ??= at.toISOString();
          if (at.getTime() - Date.parse(failingSince) >= this.options.disableAfterHours * 3_600_000) {
            stateChanged = true;
            await record();
            await this.disable(endpoint, delivery, failingSince, outcome);
            return null;
          }
          const retryAt = new Date(at.getTime() + this.backOffMs(failures));
          await record(retryAt);
          return retryAt;
        }
        await record();
      }
    } catch (error) {
      await this.store.releaseLease(accountId, endpointId);
      throw error;
    }
  }

  /** first * 2^(n-1), capped, times 0.8..1.2 so receivers coming back are not hit by every sender at once. */
  backOffMs(failures: number): number {
    const base =
      Math.min(this.options.retryFirstSeconds * 2 ** Math.min(failures - 1, 40), this.options.retryMaxSeconds) * 1000;
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private async send(endpoint: EndpointRow, delivery: DeliveryRow): Promise<Outcome> {
    try {
      const request =
        endpoint.kind === 'cms' ? await this.cmsRequest(endpoint, delivery) : this.webhookRequest(endpoint, delivery);
      const answer = await call({
        method: 'POST',
        ...request,
        timeoutMs: this.options.timeoutMs,
        allowPrivate: this.options.allowPrivateTargets,
        keepBytes: RESPONSE_HEAD_BYTES,
      });
      const delivered =
        endpoint.kind === 'cms' ? cmsAccepted(answer.status, answer.head) : answer.status >= 200 && answer.status < 300;
      return {
        delivered,
        httpStatus: answer.status,
        error: delivered ? null : `HTTP ${answer.status}`,
        head: answer.head,
      };
    } catch (error) {
      return { delivered: false, httpStatus: null, error: describeCallFailure(error).slice(0, 500), head: null };
    }
  }

  private webhookRequest(
    endpoint: EndpointRow,
    delivery: DeliveryRow,
  ): { url: string; headers: Record<string, string>; body: string } {
    const secrets = [this.secretBox.open(endpoint.secret)];
    if (
      endpoint.previous_secret &&
      endpoint.previous_secret_until &&
      Date.parse(endpoint.previous_secret_until) > Date.now()
    )
      secrets.push(this.secretBox.open(endpoint.previous_secret));
    // signed at the real time of sending: receivers refuse timestamps far from their clock
    const headers = signedHeaders(secrets, delivery.message_id, new Date(), delivery.body);
    return {
      url: endpoint.url,
      headers: { 'content-type': 'application/json', 'user-agent': 'delivery-service-webhooks/1', ...headers },
      body: delivery.body,
    };
  }

  private async cmsRequest(
    endpoint: EndpointRow,
    delivery: DeliveryRow,
  ): Promise<{ url: string; headers: Record<string, string>; body: string }> {
    const address = await this.cmsAddress(endpoint);
    return {
      url: cmsUrl(endpoint.url, delivery.resource as CmsResource),
      headers: { ...cmsHeaders(address), 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody(fromJson<Record<string, string>>(delivery.body)),
    };
  }

  private async disable(
    endpoint: EndpointRow,
    delivery: DeliveryRow,
    failingSince: string,
    outcome: Outcome,
  ): Promise<void> {
    const reason = `Failing since ${failingSince} (last: ${outcome.error ?? 'no answer'}); disabled after ${this.options.disableAfterHours} h without a success.`;
    await this.store.transaction(async (trx) => {
      await this.store.updateEndpoint(
        endpoint.account_id,
        endpoint.id,
        {
          enabled: false,
          disabled_reason: reason,
          retry_at: null,
          consecutive_failures: 0,
          failing_since: failingSince,
        },
        trx,
      );
      await this.store.failPending(endpoint.account_id, endpoint.id, trx);
    });
    const what =
      endpoint.kind === 'cms'
        ? `The CMS callbacks of shop ${endpoint.shop_id} (${endpoint.url})`
        : `Webhook endpoint ${endpoint.id} (${endpoint.url})`;
    await this.notifications.notifyOwner(endpoint.account_id, {
      type: 'webhookDisabled',
      key: delivery.id,
      shopId: endpoint.shop_id,
      text: `${what} was disabled: ${reason} Fix the receiver, enable it again, and send the failed deliveries again.`,
    });
  }
}

/** PUT with enabled: true on a disabled endpoint, or with another URL, starts it afresh. */
const RECOVERED = { disabled_reason: null, failing_since: null, consecutive_failures: 0, retry_at: null } as const;
/** The state of a new endpoint: no rotation under way, no failures, nobody sending. */
const FRESH = { ...RECOVERED, previous_secret: null, previous_secret_until: null, lease_until: null } as const;

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

function viewOf(row: EndpointRow): WebhookView {
  return {
    id: row.id,
    kind: row.kind as EndpointKind,
    url: row.url,
    shopId: row.shop_id,
    eventTypes: fromJson<WebhookView['eventTypes']>(row.event_types),
    enabled: flag(row.enabled),
    description: row.description,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function deliveryViewOf(row: DeliveryRow) {
  return {
    id: row.id,
    eventId: row.event_id === null ? null : Number(row.event_id),
    messageId: row.message_id,
    type: row.event_type,
    orderId: row.order_id === null ? null : Number(row.order_id),
    resource: row.resource,
    status: row.status as 'pending' | 'delivered' | 'failed',
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
  };
}

function attemptViewOf(row: AttemptRow) {
  return {
    id: row.id,
    deliveryId: Number(row.delivery_id),
    at: row.at,
    durationMs: row.duration_ms,
    httpStatus: row.http_status,
    error: row.error,
    responseHead: row.response_head,
  };
}
