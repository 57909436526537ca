/** Shops of an account: their settings, their sender warehouse and their API key. */
import { declareChange } from '../../platform/audit.js';
import { requireAccountWide, requireShopAccess, type Scope, type TokenResolver } from '../../platform/auth.js';
import type { AccountReadCache } from '../../platform/cache.js';
import { todayIn } from '../../platform/clock.js';
import { hashToken, newToken, type SecretBox } from '../../platform/crypto.js';
import { AppError, FieldErrorCollector, notFound } from '../../platform/errors.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { AccountService } from '../accounts/service.js';
import type { WarehouseService } from '../warehouses/service.js';
import { WAREHOUSE_TYPE } from '../warehouses/schemas.js';
import type { Notifications, NotificationsInput, Shop, ShopInput, ShopListQuery } from './schemas.js';
import type { ShopFilter, ShopRecord, ShopStore, ShopValues } from './store.js';

const MERGED_PICKUP_TYPES = [2, 3];
const CACHE_TOPIC = 'shops';

export function normaliseNotifications(input: NotificationsInput | undefined): Notifications {
  const events = input?.events ?? {};
  return {
    events: {
      ordersExpirationInPickupPoint: events.ordersExpirationInPickupPoint ?? false,
      ordersSentForReturn: events.ordersSentForReturn ?? false,
      newOrder: events.newOrder ?? false,
      newProblemOrder: events.newProblemOrder ?? false,
      fulfillmentReceivedReturns: events.fulfillmentReceivedReturns ?? false,
      productEndsInFulfilment: {
        enabled: events.productEndsInFulfilment?.enabled ?? false,
        border: events.productEndsInFulfilment?.border ?? null,
      },
      orderProductsNotAvailableInFulfilment: events.orderProductsNotAvailableInFulfilment ?? false,
      deliveryAcceptedForFulfillment: events.deliveryAcceptedForFulfillment ?? false,
    },
    currentAccount: { enabled: input?.currentAccount?.enabled ?? false },
    employees: { enabled: input?.employees?.enabled ?? false, ids: [...new Set(input?.employees?.ids ?? [])] },
  };
}

export class ShopService {
  constructor(
    private readonly store: ShopStore,
    private readonly warehouses: WarehouseService,
    private readonly accounts: AccountService,
    private readonly secrets: SecretBox,
    private readonly tokens: TokenResolver,
    private readonly cache: AccountReadCache,
  ) {
    warehouses.onChange((scope) => cache.invalidate(scope.accountId, CACHE_TOPIC));
    warehouses.addUsageCheck(async (scope, warehouseId) => {
      const ids = await this.store.idsByWarehouse(scope.accountId, warehouseId);
      return ids.length === 0 ? [] : [`shop${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`];
    });
  }

  /** The account's shops, oldest first, and whether each one's current API key has authenticated a call (a plugin given it calls). */
  keyUse(accountId: number): Promise<Array<{ id: number; keyUsed: boolean }>> {
    return this.store.keyUse(accountId);
  }

  async list(scope: Scope, query: ShopListQuery, paging: Paging): Promise<Page<Shop>> {
    const filter: ShopFilter = {};
    if (query.name) filter.nameContains = query.name;
    if (query.brand) filter.brandContains = query.brand;
    if (query.warehouseId !== undefined) filter.warehouseId = query.warehouseId;
    if (query.onlyFulfilment === 1) filter.warehouseType = WAREHOUSE_TYPE.fulfilment;
    if (query.onlyMergedPickup === 1) filter.warehousePickupTypes = MERGED_PICKUP_TYPES;
    if (scope.shopKeyShopId !== null) filter.onlyId = scope.shopKeyShopId;
    // Shops embed their warehouse, whose holidays are cut at today: today is part of the key;
    // a manager's answer holds no API key, so it is remembered apart from a shop key's
    const key = JSON.stringify([
      filter,
      paging.page,
      paging.perPage,
      todayIn(scope.timeZone),
      scope.role === 'manager',
    ]);
    return this.cache.read(scope.accountId, CACHE_TOPIC, key, async () => {
      const page = await this.store.list(scope.accountId, filter, paging);
      return { items: await this.present(scope, page.items), total: page.total };
    });
  }

  async get(scope: Scope, id: number): Promise<Shop> {
    const record = await this.findAccessible(scope, id);
    return (await this.present(scope, [record]))[0];
  }

  /** Name, brand and notification settings of shops, for work outside a request (notifications); deleted shops are left out. */
  async notificationSettingsOf(
    accountId: number,
    shopIds: number[],
  ): Promise<Map<number, Pick<ShopRecord, 'id' | 'name' | 'brand' | 'emailNotifications' | 'notifications'>>> {
    const settings = new Map<
      number,
      Pick<ShopRecord, 'id' | 'name' | 'brand' | 'emailNotifications' | 'notifications'>
    >();
    for (const id of new Set(shopIds)) {
      const record = await this.store.get(accountId, id);
      if (record)
        settings.set(id, {
          id,
          name: record.name,
          brand: record.brand,
          emailNotifications: record.emailNotifications,
          notifications: normaliseNotifications(record.notifications),
        });
    }
    return settings;
  }

  /** Whether the account has a shop of this id (a shop key's limits are the caller's to check). */
  /** The account's oldest shop (whose notifications a marketplace order without a chosen shop raises), or null. */
  firstShopId(accountId: number): Promise<number | null> {
    return this.store.firstId(accountId);
  }

  async exists(scope: Scope, id: number): Promise<boolean> {
    return (await this.store.get(scope.accountId, id)) !== undefined;
  }

  async create(scope: Scope, input: ShopInput): Promise<number> {
    requireAccountWide(scope, 'create shops');
    const values = await this.validate(scope, input);
    declareChange({ type: 'shops', ids: [], before: null, after: values });
    const apiKey = newToken('shp');
    const id = await this.store.insert(scope.accountId, values, {
      hash: hashToken(apiKey),
      cipher: this.secrets.seal(apiKey),
    });
    this.cache.invalidate(scope.accountId, CACHE_TOPIC);
    return id;
  }

  async replace(scope: Scope, id: number, input: ShopInput): Promise<void> {
    const before = await this.findAccessible(scope, id);
    const values = await this.validate(scope, input);
    declareChange({ type: 'shops', ids: [id], before, after: values });
    await this.store.update(scope.accountId, id, values);
    this.cache.invalidate(scope.accountId, CACHE_TOPIC);
  }

  async delete(scope: Scope, id: number): Promise<void> {
    const before = await this.findAccessible(scope, id);
    requireAccountWide(scope, 'delete shops');
    declareChange({ type: 'shops', ids: [id], before, after: null });
    await this.store.delete(scope.accountId, id);
    this.cache.invalidate(scope.accountId, CACHE_TOPIC);
    this.tokens.revoke(scope.accountId);
  }

  /** Issues a new API key; the old one stops working at once. */
  async rotateApiKey(scope: Scope, id: number): Promise<string> {
    await this.findAccessible(scope, id);
    requireAccountWide(scope, 'replace API keys');
    const apiKey = newToken('shp');
    await this.store.replaceApiKey(scope.accountId, id, { hash: hashToken(apiKey), cipher: this.secrets.seal(apiKey) });
    this.cache.invalidate(scope.accountId, CACHE_TOPIC);
    this.tokens.revoke(scope.accountId);
    return apiKey;
  }

  /** The warehouse a shop key is limited to, or null for account-wide callers. */
  async warehouseOfShopKey(scope: Scope): Promise<number | null> {
    if (scope.shopKeyShopId === null) return null;
    const record = await this.store.get(scope.accountId, scope.shopKeyShopId);
    return record?.warehouseId ?? null;
  }

  /**
   * The shop named by a `Shop-Id` header. A shop key without the header acts for its own
   * shop; an unknown or foreign id is a 400 (what shop plugins expect), a shop key naming
   * another shop is a 403.
   */
  async resolveShopHeader(
    scope: Scope,
    header: string | string[] | undefined,
    required: boolean,
  ): Promise<Shop | null> {
    const raw = (Array.isArray(header) ? header[0] : header)?.trim();
    if (raw === undefined || raw === '') {
      if (scope.shopKeyShopId !== null) return this.get(scope, scope.shopKeyShopId);
      if (required)
        throw new AppError(400, 'shop_id_required', 'The Shop-Id header is required for this call.', [
          { field: 'Shop-Id', message: 'is required' },
        ]);
      return null;
    }
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > Number.MAX_SAFE_INTEGER) {
      throw new AppError(400, 'invalid_shop_id', 'The Shop-Id header must be the number of one of your shops.', [
        { field: 'Shop-Id', message: 'must be a shop id' },
      ]);
    }
    const id = Number(raw);
    requireShopAccess(scope, id);
    // Every order and calculator call names its shop: remembered like the shop list (embedded mode, per day).
    const shop = await this.cache.read(
      scope.accountId,
      CACHE_TOPIC,
      `header:${id}:${todayIn(scope.timeZone)}:${scope.role === 'manager' ? 'manager' : 'key'}`,
      async () => {
        const record = await this.store.get(scope.accountId, id);
        return record ? (await this.present(scope, [record]))[0] : null;
      },
    );
    if (!shop)
      throw new AppError(400, 'unknown_shop', `Shop-Id ${id} is not a shop of this account.`, [
        { field: 'Shop-Id', message: 'is not a shop of this account' },
      ]);
    return shop;
  }

  private async findAccessible(scope: Scope, id: number): Promise<ShopRecord> {
    const record = await this.store.get(scope.accountId, id);
    if (!record) throw notFound('Shop', id);
    requireShopAccess(scope, id);
    return record;
  }

  private async present(scope: Scope, records: ShopRecord[]): Promise<Shop[]> {
    const warehouses = await this.warehouses.getMany(
      scope,
      records.map((record) => record.warehouseId),
    );
    return records.map((record) => {
      const warehouse = warehouses.get(record.warehouseId);
      if (!warehouse) throw new Error(`Shop ${record.id} refers to missing warehouse ${record.warehouseId}`);
      return {
        id: record.id,
        // a manager works through the dashboard and may leave: the shop's permanent key is an owner's to hand out
        apiKey: scope.role === 'manager' ? null : this.secrets.open(record.apiKeyCipher),
        name: record.name,
        brand: record.brand,
        cmsProductsAutocomplete: record.cmsProductsAutocomplete,
        emailNotifications: record.emailNotifications,
        carrierACalling: record.carrierACalling,
        disableQuantityControlInCheckout: record.disableQuantityControlInCheckout,
        sendQuantityToCMS: record.sendQuantityToCMS,
        platform: record.platform,
        warehouse,
        notifications: record.notifications,
      };
    });
  }

  private async validate(scope: Scope, input: ShopInput): Promise<ShopValues> {
    const problems = new FieldErrorCollector();
    const warehouseId = typeof input.warehouse === 'number' ? input.warehouse : input.warehouse.id;
    if (!(await this.warehouses.exists(scope, warehouseId)))
      problems.add('warehouse.id', `warehouse ${warehouseId} does not exist in this account`);
    const notifications = normaliseNotifications(input.notifications);
    const unknown = await this.accounts.unknownEmployeeIds(scope, notifications.employees.ids);
    for (const id of unknown) {
      problems.add(
        `notifications.employees.ids[${notifications.employees.ids.indexOf(id)}]`,
        `employee ${id} does not exist in this account`,
      );
    }
    problems.throwIfAny();
    return {
      name: input.name.trim(),
      brand: input.brand.trim(),
      cmsProductsAutocomplete: input.cmsProductsAutocomplete ?? false,
      emailNotifications: input.emailNotifications ?? false,
      carrierACalling: input.carrierACalling ?? false,
      disableQuantityControlInCheckout: input.disableQuantityControlInCheckout ?? false,
      sendQuantityToCMS: input.sendQuantityToCMS ?? false,
      platform: input.platform ? input.platform.trim().toLowerCase() : null,
      warehouseId,
      notifications,
    };
  }
}
