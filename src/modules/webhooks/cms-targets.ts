/**
 * A shop's CMS callbacks as the account sets them (PUT, GET, DELETE /v2/shops/{id}/cms-callbacks,
 * and the plugin's own lists offered for the status mapping), and the address of a shop's plugin
 * when something is sent to it: the shop's API key as its token, the Diafan key, whether it takes
 * quantities. Stored as an endpoint of kind `cms`, one per shop. Apart from service.ts because a
 * CMS target is reached through its shop, not managed as an endpoint of its own; the wire format
 * itself is cms-callbacks.ts.
 */
import type { Scope } from '../../platform/auth.js';
import type { SecretBox } from '../../platform/crypto.js';
import { AppError, FieldErrorCollector, unprocessable } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs.js';
import { flag, fromJson, nowIso, toJson } from '../../platform/db/values.js';
import { maskCredential } from '../../platform/sealed-credentials.js';
import type { AccountService } from '../accounts/service.js';
import type { ShopService } from '../shops/service.js';
import { WAREHOUSE_TYPE } from '../warehouses/schemas.js';
import { cmsHeaders, cmsUrl, readCmsList, type CmsPlatform, type CmsTarget } from './cms-callbacks.js';
import { FRESH, queueTurn, RECOVERED, type WebhookOptions } from './delivery-walk.js';
import type { CmsCallbacksInput, CmsCallbacksView } from './schemas.js';
import { call, checkTypedUrl, describeCallFailure } from './ssrf-guard.js';
import type { EndpointRow, WebhookStore } from './store.js';

/** Where a shop's plugin is, and what it is told of the shop's stock. */
export interface CmsAddress extends CmsTarget {
  sendQuantity: boolean;
  /** The fulfilment warehouse the shop ships from, whose stock changes its CMS hears of; null for an own warehouse. */
  fulfilmentWarehouseId: number | null;
}

export class CmsTargets {
  constructor(
    private readonly store: WebhookStore,
    private readonly shops: ShopService,
    private readonly accounts: AccountService,
    private readonly jobs: JobQueue,
    private readonly secretBox: SecretBox,
    private readonly options: Pick<WebhookOptions, 'allowPrivateTargets' | 'timeoutMs'>,
  ) {}

  async get(scope: Scope, shopId: number): Promise<CmsCallbacksView> {
    return this.viewOf(await this.targetOf(scope, shopId));
  }

  async set(scope: Scope, shopId: number, input: CmsCallbacksInput): Promise<CmsCallbacksView> {
    await this.shopOf(scope, shopId);
    const problems = new FieldErrorCollector();
    const url = checkTypedUrl(input.apiUrl, 'apiUrl', problems, this.options.allowPrivateTargets);
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
      if (afresh) await queueTurn(this.jobs, scope.accountId, existing.id, `afresh:${Date.now()}`);
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
    return this.get(scope, shopId);
  }

  async delete(scope: Scope, shopId: number): Promise<void> {
    const target = await this.targetOf(scope, shopId);
    await this.store.deleteEndpoint(scope.accountId, target.id);
  }

  /** Reads the plugin's statuses.json and payment-methods.json, to offer the mapping. */
  async pluginLists(
    scope: Scope,
    shopId: number,
  ): Promise<{ statuses: Record<string, string>; paymentMethods: Record<string, string> }> {
    const target = await this.targetOf(scope, shopId);
    const headers = cmsHeaders(await this.addressOf(target));
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

  /** The address of the shop's plugin an endpoint of kind `cms` stands for, as of now (the shop's key may have changed). */
  async addressOf(row: EndpointRow): Promise<CmsAddress> {
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

  private async shopOf(scope: Scope, shopId: number) {
    // the shop's own checks: another account's shop is a 404, another shop's key a 403
    return this.shops.get(scope, shopId);
  }

  private async targetOf(scope: Scope, shopId: number): Promise<EndpointRow> {
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

  private viewOf(row: EndpointRow): CmsCallbacksView {
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
}
