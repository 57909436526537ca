import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { containsPattern, flag, fromJson, nowIso, searchText, toJson } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { Notifications } from './schemas.js';

export interface ShopValues {
  name: string;
  brand: string;
  cmsProductsAutocomplete: boolean;
  emailNotifications: boolean;
  carrierACalling: boolean;
  disableQuantityControlInCheckout: boolean;
  sendQuantityToCMS: boolean;
  platform: string | null;
  warehouseId: number;
  notifications: Notifications;
}

export interface ShopRecord extends ShopValues {
  id: number;
  apiKeyCipher: string;
}

export interface ShopFilter {
  nameContains?: string;
  brandContains?: string;
  warehouseId?: number;
  onlyId?: number;
  warehouseType?: number;
  warehousePickupTypes?: number[];
}

type ShopRow = Selectable<Tables['shops']>;

function toRecord(row: ShopRow): ShopRecord {
  return {
    id: row.id,
    name: row.name,
    brand: row.brand,
    cmsProductsAutocomplete: flag(row.cms_products_autocomplete),
    emailNotifications: flag(row.email_notifications),
    carrierACalling: flag(row.carrier_a_calling),
    disableQuantityControlInCheckout: flag(row.disable_quantity_control_in_checkout),
    sendQuantityToCMS: flag(row.send_quantity_to_cms),
    platform: row.platform,
    warehouseId: row.warehouse_id,
    notifications: fromJson(row.notifications),
    apiKeyCipher: row.api_key_cipher,
  };
}

function toColumns(values: ShopValues) {
  return {
    name: values.name,
    brand: values.brand,
    search_name: searchText(values.name),
    search_brand: searchText(values.brand),
    platform: values.platform,
    cms_products_autocomplete: values.cmsProductsAutocomplete,
    email_notifications: values.emailNotifications,
    carrier_a_calling: values.carrierACalling,
    disable_quantity_control_in_checkout: values.disableQuantityControlInCheckout,
    send_quantity_to_cms: values.sendQuantityToCMS,
    warehouse_id: values.warehouseId,
    notifications: toJson(values.notifications),
  };
}

/** SQL of shops, always scoped by account. */
export class ShopStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** The account's oldest shop, if any. */
  async firstId(accountId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('shops')
      .select('id')
      .where('account_id', '=', accountId)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** The account's shops in order of creation, with whether each one's current API key has called yet. */
  async keyUse(accountId: number): Promise<Array<{ id: number; keyUsed: boolean }>> {
    const rows = await this.db
      .selectFrom('shops')
      .select(['id', 'api_key_used_at'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .limit(1000)
      .execute();
    return rows.map((row) => ({ id: Number(row.id), keyUsed: row.api_key_used_at !== null }));
  }

  async list(accountId: number, filter: ShopFilter, paging: Paging): Promise<Page<ShopRecord>> {
    let query = this.db.selectFrom('shops').where('shops.account_id', '=', accountId);
    if (filter.nameContains) query = query.where('shops.search_name', 'like', containsPattern(filter.nameContains));
    if (filter.brandContains) query = query.where('shops.search_brand', 'like', containsPattern(filter.brandContains));
    if (filter.warehouseId !== undefined) query = query.where('shops.warehouse_id', '=', filter.warehouseId);
    if (filter.onlyId !== undefined) query = query.where('shops.id', '=', filter.onlyId);
    if (filter.warehouseType !== undefined || filter.warehousePickupTypes !== undefined) {
      const { warehouseType, warehousePickupTypes } = filter;
      query = query.where((eb) => {
        let sub = eb
          .selectFrom('warehouses')
          .select('warehouses.id')
          .whereRef('warehouses.id', '=', 'shops.warehouse_id')
          .where('warehouses.account_id', '=', accountId);
        if (warehouseType !== undefined) sub = sub.where('warehouses.type', '=', warehouseType);
        if (warehousePickupTypes !== undefined) sub = sub.where('warehouses.pickup_type', 'in', warehousePickupTypes);
        return eb.exists(sub);
      });
    }
    const [rows, count] = await Promise.all([
      query.selectAll('shops').orderBy('shops.id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRecord), total: Number(count.total) };
  }

  async get(accountId: number, id: number): Promise<ShopRecord | undefined> {
    const row = await this.db
      .selectFrom('shops')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async insert(accountId: number, values: ShopValues, apiKey: { hash: string; cipher: string }): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('shops')
      .values({
        account_id: accountId,
        ...toColumns(values),
        api_key_hash: apiKey.hash,
        api_key_cipher: apiKey.cipher,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(accountId: number, id: number, values: ShopValues): Promise<boolean> {
    const result = await this.db
      .updateTable('shops')
      .set({ ...toColumns(values), updated_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async replaceApiKey(accountId: number, id: number, apiKey: { hash: string; cipher: string }): Promise<boolean> {
    const result = await this.db
      .updateTable('shops')
      .set({ api_key_hash: apiKey.hash, api_key_cipher: apiKey.cipher, api_key_used_at: null, updated_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('shops')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async idsByWarehouse(accountId: number, warehouseId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('shops')
      .select('id')
      .where('account_id', '=', accountId)
      .where('warehouse_id', '=', warehouseId)
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  }
}
