/** Buyers' messages' SQL, always scoped by account (the Telegram webhook finds its shop by its key first). */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { fromJson, toJson } from '../../platform/db/values.js';
import type { Tables } from '../../platform/db/tables.js';

export type Db = Kysely<Tables> | Transaction<Tables>;
export type MessageRow = Selectable<Tables['buyer_messages']>;

export interface StoredSettings {
  settings: unknown;
  templates: unknown;
  secrets: string | null;
  webhookKey: string | null;
}

/** A message as the dispatcher makes it: the row without what the store fills (id, times, the gateway's answer). */
export type NewMessage = Required<
  Omit<
    Selectable<Tables['buyer_messages']>,
    'id' | 'created_at' | 'updated_at' | 'sent_at' | 'gateway' | 'gateway_id' | 'segments' | 'cost_kopecks'
  >
>;

export class BuyerMessageStore {
  constructor(readonly db: Kysely<Tables>) {}

  async settingsOf(accountId: number, shopIds: number[]): Promise<Map<number, StoredSettings>> {
    if (shopIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('buyer_message_settings')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('shop_id', 'in', shopIds)
      .execute();
    return new Map(
      rows.map((row) => [
        Number(row.shop_id),
        {
          settings: fromJson(row.settings),
          templates: fromJson(row.templates),
          secrets: row.secrets,
          webhookKey: row.webhook_key,
        },
      ]),
    );
  }

  async saveSettings(accountId: number, shopId: number, stored: StoredSettings): Promise<void> {
    const values = {
      settings: toJson(stored.settings),
      templates: toJson(stored.templates),
      secrets: stored.secrets,
      webhook_key: stored.webhookKey,
      updated_at: new Date().toISOString(),
    };
    await this.db
      .insertInto('buyer_message_settings')
      .values({ account_id: accountId, shop_id: shopId, ...values })
      .onConflict((conflict) => conflict.columns(['account_id', 'shop_id']).doUpdateSet(values))
      .execute();
  }

  /** The shop whose Telegram webhook has this key (the webhook's path names no account). */
  async byWebhookKey(key: string): Promise<{ accountId: number; shopId: number; stored: StoredSettings } | undefined> {
    const row = await this.db
      .selectFrom('buyer_message_settings')
      .selectAll()
      .where('webhook_key', '=', key)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      accountId: Number(row.account_id),
      shopId: Number(row.shop_id),
      stored: {
        settings: fromJson(row.settings),
        templates: fromJson(row.templates),
        secrets: row.secrets,
        webhookKey: row.webhook_key,
      },
    };
  }

  /** Writes the messages not made before (one per order, moment and channel); answers the new ones' ids. */
  async insertNew(messages: NewMessage[], db: Db = this.db): Promise<Array<{ id: number; message: NewMessage }>> {
    const made: Array<{ id: number; message: NewMessage }> = [];
    const now = new Date().toISOString();
    for (const message of messages) {
      const row = await db
        .insertInto('buyer_messages')
        .values({ ...message, created_at: now, updated_at: now })
        .onConflict((conflict) => conflict.columns(['account_id', 'order_id', 'moment', 'channel']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (row) made.push({ id: Number(row.id), message });
    }
    return made;
  }

  async message(accountId: number, id: number): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('buyer_messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async updateMessage(
    accountId: number,
    id: number,
    change: Partial<
      Pick<
        MessageRow,
        'status' | 'reason' | 'gateway' | 'gateway_id' | 'segments' | 'cost_kopecks' | 'send_after' | 'sent_at'
      >
    >,
  ): Promise<void> {
    await this.db
      .updateTable('buyer_messages')
      .set({ ...change, updated_at: new Date().toISOString() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  async ofOrder(accountId: number, orderId: number): Promise<MessageRow[]> {
    return this.db
      .selectFrom('buyer_messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  }

  async report(accountId: number, period: { from: string; to: string }, shopId: number | undefined) {
    let query = this.db
      .selectFrom('buyer_messages')
      .select(['shop_id', 'channel', 'status'])
      .select((eb) => [
        eb.fn.countAll<number>().as('messages'),
        eb.fn.sum<number>('segments').as('segments'),
        eb.fn.sum<number>('cost_kopecks').as('cost'),
      ])
      .where('account_id', '=', accountId)
      .where('created_at', '>=', period.from)
      .where('created_at', '<', period.to)
      .groupBy(['shop_id', 'channel', 'status']);
    if (shopId !== undefined) query = query.where('shop_id', '=', shopId);
    return query.execute();
  }

  async isUnsubscribed(accountId: number, shopId: number, channel: string, address: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('buyer_unsubscribes')
      .select('address')
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .where('channel', '=', channel)
      .where('address', '=', address)
      .executeTakeFirst();
    return row !== undefined;
  }

  async unsubscribe(accountId: number, shopId: number, channel: string, address: string): Promise<void> {
    await this.db
      .insertInto('buyer_unsubscribes')
      .values({ account_id: accountId, shop_id: shopId, channel, address, created_at: new Date().toISOString() })
      .onConflict((conflict) => conflict.columns(['account_id', 'shop_id', 'channel', 'address']).doNothing())
      .execute();
  }

  async telegramChat(accountId: number, shopId: number, phone: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('telegram_chats')
      .select('chat_id')
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .where('phone', '=', phone)
      .executeTakeFirst();
    return row?.chat_id;
  }

  async saveTelegramChat(
    accountId: number,
    shopId: number,
    phone: string,
    chatId: string,
    language: string | null,
  ): Promise<void> {
    const values = { chat_id: chatId, language, created_at: new Date().toISOString() };
    await this.db
      .insertInto('telegram_chats')
      .values({ account_id: accountId, shop_id: shopId, phone, ...values })
      .onConflict((conflict) => conflict.columns(['account_id', 'shop_id', 'phone']).doUpdateSet(values))
      .execute();
  }
}
