/**
 * Read for this file: the Bot API's "Formatting options → HTML style"
 * (https://core.telegram.org/bots/api#html-style: every <, > and & that is not part of a tag or an
 * entity must be written &lt; &gt; &amp;; only &lt; &gt; &amp; &quot; are known named entities),
 * and "Deep linking" (https://core.telegram.org/bots/features#deep-linking, with
 * https://core.telegram.org/api/links#bot-links: https://t.me/<bot username>?start=<parameter>,
 * the parameter up to 64 characters of A-Z, a-z, 0-9, _ and -; the bot then receives the message
 * "/start PAYLOAD"), as mirrored by MarshalX/telegram-crawler. grammY's command matcher
 * (grammyjs/grammY src/context.ts) for the "/start@botname payload" form a group or a typing user sends.
 *
 * Pure helpers for the shop's Telegram bot: text made safe for parse_mode HTML, the payload a
 * buyer's /start carries, and the t.me link that makes Telegram send it.
 */

/** The documented start parameter: 1–64 characters of the base64url alphabet. */
const START_PAYLOAD = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A username's alphabet (letters, digits, underscore) and its documented longest (32). The
 * shortest is left open: Fragment sells shorter collectible names than @BotFather hands out.
 */
const BOT_USERNAME = /^[A-Za-z0-9_]{1,32}$/;

/**
 * "/start", optionally addressed "@botname", then whitespace and the rest. Commands are sent
 * lowercase by the clients; "/startx" is another command, so the name must end there.
 */
const START_COMMAND = /^\/start(?:@[A-Za-z0-9_]{1,32})?(?:\s+([\s\S]*))?$/;

/**
 * Text for a parse_mode HTML message: the three characters the documentation says must be
 * entities. Quotes stay as they are: text between tags does not need them escaped (an attribute
 * value such as an href is another matter, and is not what this is for).
 */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/[&<>]/g, (character) => (character === '&' ? '&amp;' : character === '<' ? '&lt;' : '&gt;'));
}

/** Whether a value can travel as a deep link's start parameter (so /start brings it back intact). */
export function isStartPayload(value: string): boolean {
  return START_PAYLOAD.test(value);
}

/**
 * The payload of a "/start PAYLOAD" (or "/start@botname PAYLOAD") message; null for any other
 * text, a bare /start, or a payload outside the documented alphabet and length (such a payload
 * never came from a link we built, so it is someone typing, and nothing to look up).
 */
export function startPayloadOf(text: string): string | null {
  const match = START_COMMAND.exec(text.trim());
  const payload = match?.[1]?.trim();
  if (!payload) return null;
  return isStartPayload(payload) ? payload : null;
}

/**
 * https://t.me/<username>?start=<payload>: opening it shows the bot's START button, and pressing
 * it sends "/start <payload>" from the buyer's chat. Throws a RangeError for a payload Telegram
 * would not carry (the caller built it wrong) or a username that cannot be one.
 */
export function deepLink(username: string, payload: string): string {
  const name = username.startsWith('@') ? username.slice(1) : username;
  if (!BOT_USERNAME.test(name)) throw new RangeError('A Telegram username is 1-32 letters, digits or underscores');
  if (!isStartPayload(payload))
    throw new RangeError('A start parameter is 1-64 characters of A-Z, a-z, 0-9, _ and - (Telegram drops others)');
  // Both parts are inside URL-safe alphabets already: nothing to encode.
  return `https://t.me/${name}?start=${payload}`;
}
