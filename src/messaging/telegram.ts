/**
 * Read for this file: the Bot API documentation (https://core.telegram.org/bots/api, mirrored by
 * MarshalX/telegram-crawler): "Making requests" (https://api.telegram.org/bot<token>/METHOD_NAME,
 * JSON bodies, the answer {ok, result} or {ok: false, error_code, description, parameters} with
 * ResponseParameters.retry_after "in case of exceeding flood control"), getMe, sendMessage
 * (parse_mode, link_preview_options: LinkPreviewOptions.is_disabled, which replaced
 * disable_web_page_preview in Bot API 7.0), setWebhook (allowed_updates; secret_token, 1-256
 * characters of A-Z a-z 0-9 _ -, sent back in X-Telegram-Bot-Api-Secret-Token) and deleteWebhook.
 * grammY (grammyjs/types api.ts, methods.ts, manage.ts; grammyjs/grammY src/core/error.ts,
 * client.ts) for the exact shapes. Error descriptions as bots meet them, from public issue threads:
 * 401 "Unauthorized" (a wrong token; tdlib/telegram-bot-api#80: "the only way" to get a 401),
 * 404 "Not Found" (a token not even shaped like one), 403 "Forbidden: bot was blocked by the user" /
 * "Forbidden: user is deactivated", 400 "Bad Request: chat not found", 429 "Too Many Requests:
 * retry after 34" with parameters.retry_after 34 (flathunters/flathunter#88).
 *
 * A shop's own Telegram bot (its token from @BotFather): who it is, a message to a buyer's chat,
 * and the webhook that brings the buyers' /start. Every refusal becomes a MessagingError that says
 * whether trying again can help. The token is a password sitting in every request's URL path:
 * no message thrown from here carries it (URLs and errors reach the logs).
 */
import { jsonOfText, sendRequest, type HttpAnswer } from '../platform/remote-http.js';
import { MessagingError, type TelegramBot } from './types.js';

export const TELEGRAM_API_URL = 'https://api.telegram.org';

/** A call's own ceiling under the caller's signal: a hung connection must not hold a job's slot. */
const CALL_TIMEOUT_MS = 15_000;
const DESCRIPTION_MAX = 300;
/**
 * What a token may hold for it to stay in the URL path it is put in (a @BotFather token is
 * "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"). Anything else could reach another path or host.
 */
const TOKEN_CHARACTERS = /^[A-Za-z0-9:_-]+$/;
/** setWebhook's secret_token as documented. */
const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;
/** A numeric chat id (a user's, or a group's with its minus); the Bot API also takes "@channel". */
const NUMERIC_CHAT_ID = /^-?\d{1,16}$/;

export interface TelegramBotOptions {
  /** The bot's token from @BotFather. */
  token: string;
  /** The Bot API server: Telegram's, or a local telegram-bot-api server (or a test's fake). */
  baseUrl?: string;
}

type MethodParameters = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shortened(text: string): string {
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX)}…` : text;
}

/** A numeric id goes as a JSON number, as the documentation types it ("Integer or String"). */
function chatIdParameter(chatId: string): number | string {
  const trimmed = chatId.trim();
  if (NUMERIC_CHAT_ID.test(trimmed) && Number.isSafeInteger(Number(trimmed))) return Number(trimmed);
  return trimmed;
}

export class TelegramBotClient implements TelegramBot {
  readonly #token: string;
  readonly #baseUrl: string;

  constructor(options: TelegramBotOptions) {
    this.#token = options.token.trim();
    this.#baseUrl = (options.baseUrl ?? TELEGRAM_API_URL).replace(/\/+$/, '');
  }

  async identity(signal: AbortSignal): Promise<{ id: number; username: string }> {
    const me = await this.#call('getMe', {}, signal);
    if (!isRecord(me) || typeof me.id !== 'number' || typeof me.username !== 'string' || me.username === '')
      throw new MessagingError("Telegram answered getMe without the bot's id and username", false, 'bad_answer');
    return { id: me.id, username: me.username };
  }

  async sendMessage(chatId: string, html: string, signal: AbortSignal): Promise<{ messageId: number }> {
    const message = await this.#call(
      'sendMessage',
      {
        chat_id: chatIdParameter(chatId),
        text: html,
        parse_mode: 'HTML',
        // An order message links to the tracking page: a preview card would only push the text away.
        link_preview_options: { is_disabled: true },
      },
      signal,
    );
    if (!isRecord(message) || typeof message.message_id !== 'number') {
      // Telegram said ok, so the message most likely went: permanent, lest a retry send it twice.
      throw new MessagingError('Telegram accepted sendMessage but named no message id', true, 'bad_answer');
    }
    return { messageId: message.message_id };
  }

  async setWebhook(url: string, secretToken: string, signal: AbortSignal): Promise<void> {
    if (!SECRET_TOKEN.test(secretToken)) {
      throw new MessagingError(
        "A webhook's secret token is 1-256 characters of A-Z, a-z, 0-9, _ and - (Telegram refuses others)",
        true,
        'bad_request',
      );
    }
    // Only messages: the /start a deep link sends is all the service reads. Pending updates are
    // kept (no drop_pending_updates): a buyer's /start sent while the hook moved still counts.
    await this.#call('setWebhook', { url, secret_token: secretToken, allowed_updates: ['message'] }, signal);
  }

  async deleteWebhook(signal: AbortSignal): Promise<void> {
    await this.#call('deleteWebhook', {}, signal);
  }

  /** The text with the token (as it is and as a URL would encode it) blotted out. */
  #withoutToken(text: string): string {
    let safe = text;
    for (const form of new Set([this.#token, encodeURIComponent(this.#token)]))
      if (form !== '') safe = safe.split(form).join('<token>');
    return safe;
  }

  /** One Bot API method: its `result` when Telegram says ok, else a MessagingError. */
  async #call(method: string, parameters: MethodParameters, signal: AbortSignal): Promise<unknown> {
    if (!TOKEN_CHARACTERS.test(this.#token)) {
      throw new MessagingError(
        'The bot token is malformed: a token from @BotFather looks like 123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11',
        true,
        'auth',
      );
    }
    const ownDeadline = AbortSignal.timeout(CALL_TIMEOUT_MS);
    let answer: HttpAnswer;
    try {
      answer = await sendRequest(
        { method: 'POST', url: `${this.#baseUrl}/bot${this.#token}/${method}`, json: parameters },
        AbortSignal.any([signal, ownDeadline]),
      );
    } catch (error) {
      // The caller's own deadline or stop: theirs to tell apart (remote-http's convention).
      if (signal.aborted) throw error;
      if (ownDeadline.aborted)
        throw new MessagingError(
          `Telegram did not answer ${method} within ${CALL_TIMEOUT_MS / 1000} s`,
          false,
          'timeout',
        );
      const reason = error instanceof Error ? error.message : String(error);
      throw new MessagingError(
        this.#withoutToken(`Telegram did not answer ${method}: ${reason}`),
        false,
        'unreachable',
      );
    }
    return this.#resultOf(method, answer);
  }

  #resultOf(method: string, answer: HttpAnswer): unknown {
    const body = jsonOfText(answer.text);
    const envelope = isRecord(body) ? body : null;
    if (envelope?.ok === true && answer.status >= 200 && answer.status < 300) return envelope.result;

    // The HTTP status is the error code; error_code repeats it ("subject to change", says the documentation).
    const errorCode = envelope?.error_code;
    const status = answer.status >= 300 || typeof errorCode !== 'number' ? answer.status : errorCode;
    const description = this.#withoutToken(
      shortened(typeof envelope?.description === 'string' ? envelope.description.trim() : ''),
    );
    const said = description === '' ? '' : `: ${description}`;

    if (envelope === null && status < 300)
      throw new MessagingError(
        `Telegram answered ${method} with something other than its JSON envelope`,
        false,
        'bad_answer',
      );
    if (status === 401)
      throw new MessagingError(
        'Telegram refused the bot token (401 Unauthorized): revoked or mistyped; copy the current one from @BotFather',
        true,
        'auth',
      );
    if (status === 404)
      throw new MessagingError(
        `Telegram knows no bot by this token (404 Not Found on ${method}): a malformed token or a wrong API address`,
        true,
        'auth',
      );
    if (status === 403)
      throw new MessagingError(`Telegram will not deliver to this chat${said || ': Forbidden'}`, true, 'blocked');
    if (status === 429) {
      const parameters = isRecord(envelope?.parameters) ? envelope.parameters : {};
      const seconds =
        typeof parameters.retry_after === 'number'
          ? parameters.retry_after
          : answer.retryAfterMs === null
            ? null
            : Math.ceil(answer.retryAfterMs / 1000);
      const wait = seconds === null ? 'to slow down' : `to wait: retry after ${seconds} s`;
      throw new MessagingError(`Telegram asks ${wait} (429 Too Many Requests on ${method})`, false, 'throttled');
    }
    if (status >= 500 || status < 400)
      throw new MessagingError(`Telegram answered ${status} on ${method}${said}`, false, 'unavailable');
    // 400 and the rest of 4xx: the request itself is refused, and sending it again changes nothing.
    const code = status === 400 ? (/chat not found/i.test(description) ? 'chat_not_found' : 'bad_request') : 'refused';
    throw new MessagingError(`Telegram refused ${method}${said || ` (${status})`}`, true, code);
  }
}
