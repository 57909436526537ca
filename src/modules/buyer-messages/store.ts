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

export function unsubscribeKey(shopId: number, channel: string, address: string): string {
  return `${shopId}:${channel}:${address}`;
}

function messageKey(message: { order_id: number | string; moment: string; channel: string }): string {
  return `${message.order_id}:${message.moment}:${message.channel}`;
}

export class BuyerMessageStore {
  constructor(readonly db: Kysely<Tables>) {}

  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

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

  /** Writes the messages not made before (one per order, moment and channel) in one statement; answers the new ones' ids. */
  async insertNew(messages: NewMessage[], db: Db = this.db): Promise<Array<{ id: number; message: NewMessage }>> {
    if (messages.length === 0) return [];
    const now = new Date().toISOString();
    const rows = await db
      .insertInto('buyer_messages')
      .values(messages.map((message) => ({ ...message, created_at: now, updated_at: now })))
      .onConflict((conflict) => conflict.columns(['account_id', 'order_id', 'moment', 'channel']).doNothing())
      .returning(['id', 'order_id', 'moment', 'channel'])
      .execute();
    const byKey = new Map(messages.map((message) => [messageKey(message), message]));
    return rows.flatMap((row) => {
      const message = byKey.get(messageKey(row));
      return message ? [{ id: Number(row.id), message }] : [];
    });
  }

  async message(accountId: number, id: number): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('buyer_messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A message about to be sent, with whether its buyer has unsubscribed since it was made (one read). */
  async messageToSend(accountId: number, id: number): Promise<(MessageRow & { unsubscribed: boolean }) | undefined> {
    const row = await this.db
      .selectFrom('buyer_messages as m')
      .selectAll('m')
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('buyer_unsubscribes as u')
              .select('u.address')
              .whereRef('u.account_id', '=', 'm.account_id')
              .whereRef('u.shop_id', '=', 'm.shop_id')
              .whereRef('u.channel', '=', 'm.channel')
              .whereRef('u.address', '=', 'm.address'),
          )
          .as('unsubscribed'),
      )
      .where('m.account_id', '=', accountId)
      .where('m.id', '=', id)
      .executeTakeFirst();
    return row ? { ...row, unsubscribed: Boolean(row.unsubscribed) } : undefined;
  }

  /**
   * Records a message as sent, only if it still waited to be (a send repeated after a crash
   * changes nothing); true when this call recorded it.
   */
  async markSent(
    accountId: number,
    id: number,
    outcome: Partial<Pick<MessageRow, 'gateway' | 'gateway_id' | 'segments' | 'cost_kopecks'>>,
    db: Db = this.db,
  ): Promise<boolean> {
    const now = new Date().toISOString();
    const result = await db
      .updateTable('buyer_messages')
      .set({ ...outcome, status: 'sent', reason: null, sent_at: now, updated_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'held'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
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

  /** Which of these addresses have unsubscribed, as `shop:channel:address` keys (one read for a batch). */
  async unsubscribedAmong(accountId: number, addresses: string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('buyer_unsubscribes')
      .select(['shop_id', 'channel', 'address'])
      .where('account_id', '=', accountId)
      .where('address', 'in', [...new Set(addresses)])
      .execute();
    return new Set(rows.map((row) => unsubscribeKey(Number(row.shop_id), row.channel, row.address)));
  }

  async unsubscribe(accountId: number, shopId: number, channel: string, address: string): Promise<void> {
    await this.db
      .insertInto('buyer_unsubscribes')
      .values({ account_id: accountId, shop_id: shopId, channel, address, created_at: new Date().toISOString() })
      .onConflict((conflict) => conflict.columns(['account_id', 'shop_id', 'channel', 'address']).doNothing())
      .execute();
  }

  /** The Telegram chats buyers of these phones started with the account's shops' bots, by `shop:phone`. */
  async telegramChats(accountId: number, phones: string[]): Promise<Map<string, string>> {
    if (phones.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('telegram_chats')
      .select(['shop_id', 'phone', 'chat_id'])
      .where('account_id', '=', accountId)
      .where('phone', 'in', [...new Set(phones)])
      .execute();
    return new Map(rows.map((row) => [`${row.shop_id}:${row.phone}`, row.chat_id]));
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
