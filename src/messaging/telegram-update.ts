/**
 * Read for this file: the Bot API's Update, Message, Chat and User objects
 * (https://core.telegram.org/bots/api#update, #message, #chat, #user; mirrored by
 * MarshalX/telegram-crawler) and grammY's types of them (grammyjs/types update.ts, message.ts,
 * manage.ts). Ids "may have more than 32 significant bits … but at most 52", so a JSON number
 * holds them exactly; language_code is an IETF language tag and optional, like `from` and `text`.
 *
 * The part of an incoming webhook Update the service reads, and the one thing it reads it for: a
 * buyer pressing START on the shop bot's deep link, which sends "/start <payload>" from their
 * private chat. Everything else Telegram sends (edited messages, photos, group chatter) is
 * ignored, and the schema lets the rest of the object through unread.
 */
import Type, { type Static } from 'typebox';
import { startPayloadOf } from './telegram-html.js';

export const TelegramUpdate = Type.Object({
  update_id: Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: "Telegram's sequence number of the update (repeats on a retried delivery)",
  }),
  message: Type.Optional(
    Type.Object({
      chat: Type.Object({
        id: Type.Integer({
          minimum: -Number.MAX_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'The chat to answer in (a private chat: the user id)',
        }),
        type: Type.String({ maxLength: 32, description: '"private", "group", "supergroup" or "channel"' }),
      }),
      from: Type.Optional(
        Type.Object({
          language_code: Type.Optional(
            Type.String({ maxLength: 35, description: "IETF language tag of the user's Telegram app, e.g. ru" }),
          ),
        }),
      ),
      text: Type.Optional(Type.String({ maxLength: 4096 })),
    }),
  ),
});
export type TelegramUpdate = Static<typeof TelegramUpdate>;

export interface StartCommand {
  /** The chat to send the order's messages to, as the Bot API takes it (digits, maybe a minus). */
  chatId: string;
  /** The deep link's start parameter, checked against the documented alphabet and length. */
  payload: string;
  /** The user's app language when Telegram tells it (to pick the messages' language); else null. */
  languageCode: string | null;
}

/**
 * The /start with a payload in an update, or null. Only a private chat counts: a deep link's
 * START opens one, and linking a group would send a buyer's order messages to everyone in it.
 */
export function readStartCommand(update: TelegramUpdate): StartCommand | null {
  const message = update.message;
  if (!message || message.chat.type !== 'private' || message.text === undefined) return null;
  const payload = startPayloadOf(message.text);
  if (payload === null) return null;
  return {
    chatId: String(message.chat.id),
    payload,
    languageCode: message.from?.language_code || null,
  };
}
