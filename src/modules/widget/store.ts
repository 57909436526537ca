/** SQL of the checkout widget: keys and selections, scoped by account. */
import type { Kysely } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, nowIso, toJson } from '../../platform/db/values.js';

export interface KeyRecord {
  accountId: number;
  shopId: number;
  publicKey: string;
  allowedOrigins: string[];
  createdAt: string;
}

export interface SelectionRecord<T> {
  id: number;
  accountId: number;
  shopId: number;
  selection: T;
  expiresAt: string;
  usedAt: string | null;
  orderId: number | null;
}

export class WidgetStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async keyOfShop(accountId: number, shopId: number): Promise<KeyRecord | null> {
    const row = await this.db
      .selectFrom('widget_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .executeTakeFirst();
    return row ? toKey(row) : null;
  }

  /** The one lookup not scoped by account: a page names only its key, which is what tells the account. */
  async keyByPublicKey(publicKey: string): Promise<KeyRecord | null> {
    // not a key we issue (pk_ and base64url): not asked of the database, where PostgreSQL refuses a NUL in text with an error
    if (!/^pk_[A-Za-z0-9_-]{1,128}$/.test(publicKey)) return null;
    const row = await this.db
      .selectFrom('widget_keys')
      .selectAll()
      .where('public_key', '=', publicKey)
      .executeTakeFirst();
    return row ? toKey(row) : null;
  }

  async putKey(accountId: number, shopId: number, publicKey: string, allowedOrigins: string[]): Promise<KeyRecord> {
    const values = {
      account_id: accountId,
      shop_id: shopId,
      public_key: publicKey,
      allowed_origins: toJson(allowedOrigins),
      created_at: nowIso(),
    };
    await this.db
      .insertInto('widget_keys')
      .values(values)
      .onConflict((conflict) =>
        conflict.columns(['account_id', 'shop_id']).doUpdateSet({
          public_key: values.public_key,
          allowed_origins: values.allowed_origins,
          created_at: values.created_at,
        }),
      )
      .execute();
    return { accountId, shopId, publicKey, allowedOrigins, createdAt: values.created_at };
  }

  /** The shop's preview key when it is still valid after `validAfter`, else null. */
  async previewKeyOfShop(
    accountId: number,
    shopId: number,
    validAfter: string,
  ): Promise<{ previewKey: string; expiresAt: string } | null> {
    const row = await this.db
      .selectFrom('widget_preview_keys')
      .select(['preview_key', 'expires_at'])
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .where('expires_at', '>', validAfter)
      .executeTakeFirst();
    return row ? { previewKey: row.preview_key, expiresAt: row.expires_at } : null;
  }

  /** Replaces the shop's preview key. */
  async putPreviewKey(accountId: number, shopId: number, previewKey: string, expiresAt: string): Promise<void> {
    const now = nowIso();
    await this.db
      .insertInto('widget_preview_keys')
      .values({
        account_id: accountId,
        shop_id: shopId,
        preview_key: previewKey,
        expires_at: expiresAt,
        created_at: now,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['account_id', 'shop_id'])
          .doUpdateSet({ preview_key: previewKey, expires_at: expiresAt, created_at: now }),
      )
      .execute();
  }

  /** The one preview-key lookup not scoped by account (a page names only its key); unexpired keys only. */
  async previewKeyRecord(previewKey: string, now: string): Promise<{ accountId: number; shopId: number } | null> {
    if (!/^pv_[A-Za-z0-9_-]{1,128}$/.test(previewKey)) return null;
    const row = await this.db
      .selectFrom('widget_preview_keys')
      .select(['account_id', 'shop_id'])
      .where('preview_key', '=', previewKey)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? { accountId: Number(row.account_id), shopId: Number(row.shop_id) } : null;
  }

  /** Orders made of the account's widget selections, the latest first. */
  async ordersOfSelections(accountId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('widget_selections')
      .select('order_id')
      .where('account_id', '=', accountId)
      .where('order_id', 'is not', null)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.order_id));
  }

  /** Shops of the account with a publishable key that some origin may use. */
  async shopsWithKeys(accountId: number): Promise<Array<{ shopId: number; allowedOrigins: string[] }>> {
    const rows = await this.db
      .selectFrom('widget_keys')
      .select(['shop_id', 'allowed_origins'])
      .where('account_id', '=', accountId)
      .orderBy('shop_id')
      .execute();
    return rows.map((row) => ({
      shopId: Number(row.shop_id),
      allowedOrigins: fromJson<string[]>(row.allowed_origins),
    }));
  }

  /** Forgets preview keys that expired before `before`. */
  async deleteExpiredPreviewKeys(before: string): Promise<number> {
    const result = await this.db.deleteFrom('widget_preview_keys').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async insertSelection(
    accountId: number,
    shopId: number,
    tokenHash: string,
    selection: unknown,
    expiresAt: string,
  ): Promise<number> {
    const row = await this.db
      .insertInto('widget_selections')
      .values({
        account_id: accountId,
        shop_id: shopId,
        token_hash: tokenHash,
        selection: toJson(selection),
        expires_at: expiresAt,
        created_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async selectionByToken<T>(accountId: number, tokenHash: string): Promise<SelectionRecord<T> | null> {
    const row = await this.db
      .selectFrom('widget_selections')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: Number(row.id),
      accountId: Number(row.account_id),
      shopId: Number(row.shop_id),
      selection: fromJson<T>(row.selection),
      expiresAt: row.expires_at,
      usedAt: row.used_at,
      orderId: row.order_id === null ? null : Number(row.order_id),
    };
  }

  /** Takes an unused selection for one confirm; false when another confirm took it first. */
  async claim(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('widget_selections')
      .set({ used_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a claimed selection back when its order could not be made. */
  async release(accountId: number, id: number): Promise<void> {
    await this.db
      .updateTable('widget_selections')
      .set({ used_at: null })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('order_id', 'is', null)
      .execute();
  }

  async markOrdered(accountId: number, id: number, orderId: number): Promise<void> {
    await this.db
      .updateTable('widget_selections')
      .set({ order_id: orderId })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  /** Forgets selections expired a day ago (they can no longer be confirmed). */
  async deleteExpired(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom('widget_selections')
      .where('expires_at', '<', before)
      .where('order_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function toKey(row: {
  account_id: number;
  shop_id: number;
  public_key: string;
  allowed_origins: unknown;
  created_at: string;
}): KeyRecord {
  return {
    accountId: Number(row.account_id),
    shopId: Number(row.shop_id),
    publicKey: row.public_key,
    allowedOrigins: fromJson<string[]>(row.allowed_origins),
    createdAt: row.created_at,
  };
}
