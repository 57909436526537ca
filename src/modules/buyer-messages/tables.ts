/** The buyers' messages' tables as Kysely sees them (migration 0102). */
import type { Id, Instant, Json } from '../../platform/db/column-types.js';

export interface BuyerMessageTables {
  buyer_message_settings: {
    account_id: number;
    shop_id: number;
    /** BuyerMessageSettings without secrets (schemas.ts). */
    settings: Json;
    /** TemplateOverrides (templates.ts). */
    templates: Json;
    /** The SMS gateway's credentials and the bot's token, sealed (SecretBox). */
    secrets: string | null;
    /** The path key of the shop's Telegram webhook (random; its secret header is derived from it). */
    webhook_key: string | null;
    updated_at: Instant;
  };
  buyer_messages: {
    id: Id;
    account_id: number;
    shop_id: number;
    order_id: number;
    moment: string;
    channel: string;
    /** E-mail address, phone digits or Telegram chat id. */
    address: string;
    language: string;
    subject: string | null;
    body: string;
    /** The tracking page the message points to (an e-mail's button). */
    link: string | null;
    /** pending, held (quiet hours), sent, delivered, failed, skipped */
    status: string;
    reason: string | null;
    gateway: string | null;
    gateway_id: string | null;
    segments: number | null;
    cost_kopecks: number | null;
    send_after: Instant;
    created_at: Instant;
    sent_at: Instant | null;
    updated_at: Instant;
  };
  buyer_unsubscribes: {
    account_id: number;
    shop_id: number;
    channel: string;
    address: string;
    created_at: Instant;
  };
  telegram_chats: {
    account_id: number;
    shop_id: number;
    phone: string;
    chat_id: string;
    language: string | null;
    created_at: Instant;
  };
}
