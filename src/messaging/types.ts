/**
 * The buyers' message channels beside e-mail: SMS gateways and a shop's Telegram bot. A channel
 * knows no area (like a carrier driver): the notifications area hands it a message and reads the
 * outcome. Errors say whether trying again can help.
 */

/** One SMS to one number. */
export interface SmsMessage {
  /** E.164 digits without '+', e.g. 79161234567 (normalised by the caller: phone.ts). */
  phone: string;
  text: string;
  /** The shop's registered sender name (alpha name), when it has one. */
  sender?: string | null;
}

export interface SmsSent {
  /** The gateway's id of the message (to ask its status later). */
  gatewayId: string;
  /** Segments the gateway counted (a Cyrillic SMS holds 70 characters, 67 per part when split). */
  segments: number;
  /** What the gateway charged, roubles; null when it does not say. */
  costRoubles: number | null;
}

export type SmsDeliveryStatus = 'queued' | 'sent' | 'delivered' | 'failed';

/** An account's connection to an SMS gateway (its own credentials). */
export interface SmsGateway {
  readonly code: 'smsru' | 'smsc';
  send(message: SmsMessage, signal: AbortSignal): Promise<SmsSent>;
  /** Where the gateway says the message is now, and what it charged when it says (SMS.ru does only here). */
  status(
    gatewayId: string,
    phone: string,
    signal: AbortSignal,
  ): Promise<{ status: SmsDeliveryStatus; reason?: string; costRoubles?: number | null }>;
  /** Checks the credentials (a balance call): throws a MessagingError when refused. */
  check(signal: AbortSignal): Promise<{ balanceRoubles: number | null }>;
}

/** A shop's own Telegram bot (its token from @BotFather). */
export interface TelegramBot {
  /** getMe: the bot's username (for the t.me deep link); throws a MessagingError on a bad token. */
  identity(signal: AbortSignal): Promise<{ id: number; username: string }>;
  /** sendMessage to a chat that started the bot; HTML parse mode. */
  sendMessage(chatId: string, html: string, signal: AbortSignal): Promise<{ messageId: number }>;
  /** setWebhook with a secret token (Telegram sends it in X-Telegram-Bot-Api-Secret-Token). */
  setWebhook(url: string, secretToken: string, signal: AbortSignal): Promise<void>;
  deleteWebhook(signal: AbortSignal): Promise<void>;
}

/**
 * A channel's refusal. `permanent`: trying again cannot help (a bad number, a bad key, a blocked
 * sender, a chat that blocked the bot); otherwise the job retries with back-off.
 */
export class MessagingError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The gateway's own code, for the order's message log. */
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'MessagingError';
  }
}
