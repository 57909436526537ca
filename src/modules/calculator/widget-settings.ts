/** Widget settings of a shop: stored per account and shop (extension of the contract). */
import type { Kysely } from 'kysely';
import type { Scope } from '../../platform/auth.js';
import { declareChange } from '../../platform/audit.js';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, nowIso, toJson } from '../../platform/db/values.js';
import type { ShopService } from '../shops/service.js';
import type { WidgetSettings, WidgetSettingsFull } from './schemas.js';

export const DEFAULT_WIDGET_SETTINGS: WidgetSettingsFull = {
  defaultDimensions: null,
  defaultWeight: null,
  priceRules: [],
  freeDeliveryFrom: null,
  rounding: null,
  hiddenCompanyIds: [],
  defaultServices: [],
};

export class WidgetSettingsStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async get(accountId: number, shopId: number): Promise<WidgetSettingsFull | null> {
    const row = await this.db
      .selectFrom('widget_settings')
      .select('settings')
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .executeTakeFirst();
    return row ? fromJson<WidgetSettingsFull>(row.settings) : null;
  }

  async put(accountId: number, shopId: number, settings: WidgetSettingsFull): Promise<void> {
    const values = { account_id: accountId, shop_id: shopId, settings: toJson(settings), updated_at: nowIso() };
    await this.db
      .insertInto('widget_settings')
      .values(values)
      .onConflict((conflict) =>
        conflict
          .columns(['account_id', 'shop_id'])
          .doUpdateSet({ settings: values.settings, updated_at: values.updated_at }),
      )
      .execute();
  }
}

export class WidgetSettingsService {
  constructor(
    private readonly store: WidgetSettingsStore,
    private readonly shops: ShopService,
  ) {}

  /** The shop's settings (defaults when never saved); 404 for a shop of another account. */
  async get(scope: Scope, shopId: number): Promise<WidgetSettingsFull> {
    await this.shops.get(scope, shopId);
    return this.forShop(scope, shopId);
  }

  /** Without the access check: for a shop already resolved by the caller. */
  async forShop(scope: Scope, shopId: number): Promise<WidgetSettingsFull> {
    return (await this.store.get(scope.accountId, shopId)) ?? DEFAULT_WIDGET_SETTINGS;
  }

  async put(scope: Scope, shopId: number, input: WidgetSettings): Promise<void> {
    await this.shops.get(scope, shopId);
    const settings: WidgetSettingsFull = {
      defaultDimensions: input.defaultDimensions ?? null,
      defaultWeight: input.defaultWeight ?? null,
      priceRules: (input.priceRules ?? []).map((rule) => ({
        type: (rule.type ?? null) as 1 | 2 | 3 | null,
        companyId: rule.companyId ?? null,
        kind: rule.kind,
        percent: rule.percent ?? null,
        amount: rule.amount ?? null,
      })),
      freeDeliveryFrom: input.freeDeliveryFrom ?? null,
      rounding: input.rounding ?? null,
      hiddenCompanyIds: [...new Set(input.hiddenCompanyIds ?? [])],
      defaultServices: [...new Set(input.defaultServices ?? [])],
    };
    declareChange({
      type: 'widget_settings',
      ids: [shopId],
      before: await this.store.get(scope.accountId, shopId),
      after: settings,
    });
    await this.store.put(scope.accountId, shopId, settings);
  }
}
