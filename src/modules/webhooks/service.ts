/**
 * Webhooks and CMS callbacks: the endpoints an account manages (create, change, rotate the
 * signing secret, test, read deliveries and attempts, send again), and the one service other
 * areas and the pump see. What it delegates to is built here from its own dependencies: a
 * shop's CMS callbacks (cms-targets.ts), the dispatcher from the events outbox to deliveries
 * (event-dispatch.ts), the senders walking each endpoint's deliveries in order (delivery-walk.ts).
 */
import { declareChange } from '../../platform/audit.js';
import { randomUUID } from 'node:crypto';
import { requireAccountWide, requireShopAccess, type Scope } from '../../platform/auth.js';
import type { SecretBox } from '../../platform/crypto.js';
import { conflict, FieldErrorCollector, notFound } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { Page, Paging } from '../../platform/paging.js';
import { flag, fromJson, nowIso, toJson } from '../../platform/db/values.js';
import type { AccountService } from '../accounts/service.js';
import { EVENT_RETENTION_DAYS, type EventService } from '../events/service.js';
import type { StockService } from '../fulfilment/stock-service.js';
import type { NotificationService } from '../notifications/service.js';
import type { OrderService } from '../orders/service.js';
import type { ShopService } from '../shops/service.js';
import { CmsTargets } from './cms-targets.js';
import { DeliveryWalk, FRESH, queueTurn, RECOVERED, type WebhookOptions } from './delivery-walk.js';
import { EventDispatch } from './event-dispatch.js';
import type {
  AttemptListQuery,
  CmsCallbacksInput,
  CmsCallbacksView,
  DeliveryListQuery,
  WebhookInput,
  WebhookListQuery,
  WebhookView,
} from './schemas.js';
import { checkTypedUrl } from './ssrf-guard.js';
import { newSigningSecret } from './signing.js';
import type { AttemptRow, DeliveryRow, EndpointRow, WebhookStore } from './store.js';

export { DELIVER_JOB, type DeliverJob, type WebhookOptions } from './delivery-walk.js';
export { CONSUMER } from './event-dispatch.js';

type EndpointKind = 'webhook' | 'cms';

export class WebhookService {
  private readonly cms: CmsTargets;
  private readonly dispatcher: EventDispatch;
  private readonly walk: DeliveryWalk;

  constructor(
    private readonly store: WebhookStore,
    events: EventService,
    private readonly shops: ShopService,
    accounts: AccountService,
    orders: OrderService,
    notifications: NotificationService,
    private readonly jobs: JobQueue,
    private readonly secretBox: SecretBox,
    readonly options: WebhookOptions,
    /** What a CMS is told of fulfilment stock (product-quantity-update): vendor code and available units now. */
    stock: Pick<StockService, 'quantitiesAt'>,
  ) {
    this.cms = new CmsTargets(store, shops, accounts, jobs, secretBox, options);
    this.dispatcher = new EventDispatch(store, events, accounts, orders, jobs, stock, this.cms);
    this.walk = new DeliveryWalk(store, notifications, secretBox, options, this.cms);
  }

  // ---------------------------------------------------------------- endpoints

  async create(
    scope: Scope,
    input: WebhookInput,
  ): Promise<{ id: number; secret: string; previousSecretValidUntil: null }> {
    const values = await this.validate(scope, input);
    declareChange({ type: 'webhook_endpoints', ids: [], before: null, after: values });
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
    declareChange({ type: 'webhook_endpoints', ids: [id], before: endpoint, after: values });
    await this.store.updateEndpoint(scope.accountId, id, { ...values, ...(afresh ? RECOVERED : {}) });
    if (afresh) await queueTurn(this.jobs, scope.accountId, id, `afresh:${Date.now()}`);
  }

  async delete(scope: Scope, id: number): Promise<void> {
    const before = await this.accessible(scope, id, 'webhook');
    declareChange({ type: 'webhook_endpoints', ids: [id], before, after: null });
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
    await queueTurn(this.jobs, scope.accountId, id, `test:${deliveryId}`);
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
    await queueTurn(this.jobs, scope.accountId, id, `redeliver:${newId}`);
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
    const url = checkTypedUrl(input.url, 'url', problems, this.options.allowPrivateTargets);
    problems.throwIfAny();
    return {
      shop_id: shopId,
      url,
      description: (input.description ?? '').trim(),
      event_types: toJson([...new Set(input.eventTypes ?? [])]),
      enabled: input.enabled ?? true,
    };
  }

  /** Forgets delivered and given-up deliveries (and their attempts) after the events' retention. */
  purgeOld(now = new Date()): Promise<number> {
    return this.store.purge(new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString());
  }

  // ---------------------------------------------------------------- CMS callbacks (cms-targets.ts)

  cmsCallbacks(scope: Scope, shopId: number): Promise<CmsCallbacksView> {
    return this.cms.get(scope, shopId);
  }

  setCmsCallbacks(scope: Scope, shopId: number, input: CmsCallbacksInput): Promise<CmsCallbacksView> {
    return this.cms.set(scope, shopId, input);
  }

  deleteCmsCallbacks(scope: Scope, shopId: number): Promise<void> {
    return this.cms.delete(scope, shopId);
  }

  /** Reads the plugin's statuses.json and payment-methods.json, to offer the mapping. */
  cmsOptions(
    scope: Scope,
    shopId: number,
  ): Promise<{ statuses: Record<string, string>; paymentMethods: Record<string, string> }> {
    return this.cms.pluginLists(scope, shopId);
  }

  // ---------------------------------------------------------------- the pump's side (event-dispatch.ts, delivery-walk.ts)

  /** Queues a delivery per (new event, matching endpoint); the number of events read. */
  dispatch(): Promise<number> {
    return this.dispatcher.dispatch();
  }

  /**
   * One turn of an endpoint's sender: its deliveries in order until none is left, the turn
   * is over, or one fails. Answers when the endpoint wants another turn (null: nothing owed
   * now; a new delivery brings its own job).
   */
  runEndpoint(accountId: number, endpointId: number, now?: Date): Promise<Date | null> {
    return this.walk.runEndpoint(accountId, endpointId, now);
  }

  /** first * 2^(n-1), capped, times 0.8..1.2 so receivers coming back are not hit by every sender at once. */
  backOffMs(failures: number): number {
    return this.walk.backOffMs(failures);
  }
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
