/**
 * The fake Telegram Bot API, written from its public documentation
 * (https://core.telegram.org/bots/api: "Making requests", getMe, sendMessage, "HTML style",
 * setWebhook, deleteWebhook, getWebhookInfo, Update; mirrored by MarshalX/telegram-crawler), grammY's
 * types (grammyjs/types) and the refusals bots meet as public issue threads quote them.
 *
 * Like Telegram it answers POST (or GET) /bot<token>/<method>, methods in any letter case, the
 * parameters in the query string, a JSON or a form body; every answer is the {ok, result} or
 * {ok: false, error_code, description, parameters} envelope with the HTTP status equal to the
 * error code. A token not shaped like one is a 404 "Not Found", a well-shaped token of no bot a
 * 401 "Unauthorized". A chat is known to a bot once it wrote to it (`sendUpdate`) or a test says so
 * (`addChat`); another chat is a 400 "Bad Request: chat not found", a chat that blocked the bot a
 * 403 "Forbidden: bot was blocked by the user". parse_mode HTML is parsed: an unescaped "<" that
 * starts no supported tag is refused as Telegram refuses it. `failNext` answers 502 with the HTML
 * page a proxy in front of the API gives; `throttleNext` answers Telegram's flood-control 429.
 *
 * Where it parts from api.telegram.org, on purpose: a webhook may be http:// on any port (as a
 * local telegram-bot-api server allows), so a test's receiver on loopback can take the updates;
 * `sendUpdate` delivers once and reports the status instead of retrying. Descriptions of
 * refusals no public source quotes (a bad secret token, a bad parse mode) are this fake's words.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentTelegramMessage {
  token: string;
  /** chat_id as sent, as text (a JSON number or a string alike). */
  chatId: string;
  /** The text as the client sent it (HTML markup and entities intact). */
  text: string;
  parseMode: string | null;
  linkPreviewOptions: Record<string, unknown> | null;
  messageId: number;
}

export interface TelegramWebhook {
  url: string;
  secretToken: string | null;
  allowedUpdates: string[] | null;
}

export interface FakeTelegram {
  /** The Bot API base URL (what TelegramBotClient's baseUrl takes). */
  url: string;
  /** Every message accepted by sendMessage, in order. */
  sent: SentTelegramMessage[];
  /** Every request that named a method: which bot and method (counts the tries). */
  calls: Array<{ token: string; method: string }>;
  /** A bot the fake knows: its id is the token's number before the colon. */
  addBot(token: string, username: string): { id: number; username: string };
  /** A chat that has started the bot (sendUpdate does this for the chat an update comes from). */
  addChat(token: string, chatId: string | number): void;
  /** The user of this chat blocked the bots: sendMessage answers 403 until they write again. */
  block(chatId: string | number): void;
  /** The next n requests answer 502 Bad Gateway (an HTML page, no JSON). */
  failNext(count: number): void;
  /** The next request answers 429 with parameters.retry_after = seconds. */
  throttleNext(seconds: number): void;
  webhookOf(token: string): TelegramWebhook | null;
  /**
   * POSTs the update to the bot's webhook with its secret token header, as Telegram delivers
   * one; resolves to the webhook's HTTP status. The chat it comes from becomes known (unblocked).
   */
  sendUpdate(token: string, update: object): Promise<number>;
  close(): Promise<void>;
}

interface FakeBot {
  id: number;
  username: string;
  chats: Set<string>;
  webhook: TelegramWebhook | null;
}

/** A token's documented shape ("123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"); others are a 404. */
const TOKEN_SHAPE = /^(\d+):[A-Za-z0-9_-]+$/;
const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;
const PARSE_MODES = new Set(['HTML', 'MarkdownV2', 'Markdown']);
/** The tags the "HTML style" section lists. */
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'tg-emoji',
  'code',
  'pre',
  'blockquote',
]);
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const BAD_GATEWAY_PAGE = [
  '<html>',
  '<head><title>502 Bad Gateway</title></head>',
  '<body>',
  '<center><h1>502 Bad Gateway</h1></center>',
  '<hr><center>nginx</center>',
  '</body>',
  '</html>',
  '',
].join('\r\n');

class BotApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly parameters?: Record<string, unknown>,
  ) {
    super(description);
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return NAMED_ENTITIES[name] ?? whole;
  });
}

/** The plain text of a parse_mode HTML text, or the refusal Telegram gives for bad markup. */
function plainTextOfHtml(html: string): string {
  const open: string[] = [];
  let plain = '';
  let at = 0;
  while (at < html.length) {
    const tagStart = html.indexOf('<', at);
    if (tagStart === -1) {
      plain += html.slice(at);
      break;
    }
    plain += html.slice(at, tagStart);
    const offset = Buffer.byteLength(html.slice(0, tagStart));
    const tagEnd = html.indexOf('>', tagStart);
    if (tagEnd === -1)
      throw new BotApiRefusal(400, `Bad Request: can't parse entities: Unclosed start tag at byte offset ${offset}`);
    const inside = html.slice(tagStart + 1, tagEnd);
    if (inside.startsWith('/')) {
      const name = inside.slice(1).trim().toLowerCase();
      const expected = open.pop();
      if (expected !== name) {
        throw new BotApiRefusal(
          400,
          `Bad Request: can't parse entities: Unmatched end tag at byte offset ${offset}, ` +
            `expected "</${expected ?? ''}>", found "</${name}>"`,
        );
      }
    } else {
      const name = (/^[A-Za-z][A-Za-z-]*/.exec(inside)?.[0] ?? '').toLowerCase();
      if (!HTML_TAGS.has(name))
        throw new BotApiRefusal(
          400,
          `Bad Request: can't parse entities: Unsupported start tag "${name}" at byte offset ${offset}`,
        );
      open.push(name);
    }
    at = tagEnd + 1;
  }
  const unclosed = open.pop();
  if (unclosed !== undefined)
    throw new BotApiRefusal(
      400,
      `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${unclosed}"`,
    );
  return decodeEntities(plain);
}

/** A parameter that is an object or array: itself in a JSON body, JSON text in a form or query. */
function structured(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

function readParameters(url: URL, contentType: string, body: string): Record<string, unknown> {
  const parameters: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (body === '') return parameters;
  if (contentType.includes('application/json')) {
    const parsed = structured(body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new BotApiRefusal(400, 'Bad Request: invalid JSON body');
    return { ...parameters, ...(parsed as Record<string, unknown>) };
  }
  return { ...parameters, ...Object.fromEntries(new URLSearchParams(body)) };
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  const bots = new Map<string, FakeBot>();
  const blocked = new Set<string>();
  const sent: SentTelegramMessage[] = [];
  const calls: FakeTelegram['calls'] = [];
  let failuresAhead = 0;
  let throttleSeconds: number | null = null;
  let nextMessageId = 1;

  const botFor = (token: string): FakeBot => {
    if (!TOKEN_SHAPE.test(token)) throw new BotApiRefusal(404, 'Not Found');
    const bot = bots.get(token);
    if (!bot) throw new BotApiRefusal(401, 'Unauthorized');
    return bot;
  };

  const methods: Record<string, (token: string, bot: FakeBot, parameters: Record<string, unknown>) => unknown> = {
    getme: (_token, bot) => ({
      id: bot.id,
      is_bot: true,
      first_name: bot.username,
      username: bot.username,
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
    }),
    sendmessage: (token, bot, parameters) => {
      const chatId = parameters.chat_id === undefined ? '' : String(parameters.chat_id);
      if (chatId === '') throw new BotApiRefusal(400, 'Bad Request: chat_id is empty');
      const text = typeof parameters.text === 'string' ? parameters.text : '';
      const parseMode = typeof parameters.parse_mode === 'string' ? parameters.parse_mode : null;
      if (parseMode !== null && parseMode !== '' && !PARSE_MODES.has(parseMode))
        throw new BotApiRefusal(400, `Bad Request: unsupported parse_mode "${parseMode}"`);
      // A user who blocked the bot had a chat with it: blocked is told before unknown.
      if (blocked.has(chatId)) throw new BotApiRefusal(403, 'Forbidden: bot was blocked by the user');
      if (!bot.chats.has(chatId)) throw new BotApiRefusal(400, 'Bad Request: chat not found');
      const plain = parseMode === 'HTML' ? plainTextOfHtml(text) : text;
      if (plain.trim() === '') throw new BotApiRefusal(400, 'Bad Request: message text is empty');
      if (plain.length > 4096) throw new BotApiRefusal(400, 'Bad Request: message is too long');
      const preview = structured(parameters.link_preview_options);
      const messageId = nextMessageId++;
      sent.push({
        token,
        chatId,
        text,
        parseMode,
        linkPreviewOptions:
          typeof preview === 'object' && preview !== null ? (preview as Record<string, unknown>) : null,
        messageId,
      });
      return {
        message_id: messageId,
        from: { id: bot.id, is_bot: true, first_name: bot.username, username: bot.username },
        chat: { id: Number(chatId), type: 'private' },
        date: Math.floor(Date.now() / 1000),
        text: plain,
      };
    },
    setwebhook: (_token, bot, parameters) => {
      const url = typeof parameters.url === 'string' ? parameters.url : '';
      if (url === '') {
        bot.webhook = null;
        return true;
      }
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new BotApiRefusal(400, 'Bad Request: bad webhook: invalid URL');
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
        throw new BotApiRefusal(400, 'Bad Request: bad webhook: unsupported URL protocol');
      const secret = typeof parameters.secret_token === 'string' ? parameters.secret_token : null;
      if (secret !== null && !SECRET_TOKEN.test(secret))
        throw new BotApiRefusal(400, 'Bad Request: bad webhook: secret token contains unallowed characters');
      const allowed = structured(parameters.allowed_updates);
      bot.webhook = {
        url,
        secretToken: secret,
        allowedUpdates: Array.isArray(allowed) ? allowed.map(String) : (bot.webhook?.allowedUpdates ?? null),
      };
      return true;
    },
    deletewebhook: (_token, bot) => {
      bot.webhook = null;
      return true;
    },
    getwebhookinfo: (_token, bot) => ({
      url: bot.webhook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: 0,
      ...(bot.webhook?.allowedUpdates ? { allowed_updates: bot.webhook.allowedUpdates } : {}),
    }),
  };
  // What Telegram says beside a true result (grammY's types call it an ApiSuccess either way).
  const remarks: Record<string, (before: TelegramWebhook | null) => string> = {
    setwebhook: () => 'Webhook was set',
    deletewebhook: (before) => (before ? 'Webhook was deleted' : 'Webhook is already deleted'),
  };

  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (failuresAhead > 0) {
        failuresAhead--;
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end(BAD_GATEWAY_PAGE);
        return;
      }
      try {
        if (throttleSeconds !== null) {
          const seconds = throttleSeconds;
          throttleSeconds = null;
          throw new BotApiRefusal(429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds });
        }
        const url = new URL(request.url ?? '/', 'http://fake-telegram');
        const path = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
        if (!path) throw new BotApiRefusal(404, 'Not Found');
        const token = decodeURIComponent(path[1]);
        const method = path[2].toLowerCase();
        calls.push({ token, method: path[2] });
        const bot = botFor(token);
        const handle = methods[method];
        if (!handle) throw new BotApiRefusal(404, 'Not Found');
        const parameters = readParameters(url, request.headers['content-type'] ?? '', body);
        const before = bot.webhook;
        const result = handle(token, bot, parameters);
        const remark = remarks[method]?.(before);
        send(200, { ok: true, result, ...(remark ? { description: remark } : {}) });
      } catch (error) {
        if (!(error instanceof BotApiRefusal)) {
          send(500, { ok: false, error_code: 500, description: 'Internal Server Error' });
          return;
        }
        send(error.status, {
          ok: false,
          error_code: error.status,
          description: error.description,
          ...(error.parameters ? { parameters: error.parameters } : {}),
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    calls,
    addBot(token, username) {
      const shape = TOKEN_SHAPE.exec(token);
      if (!shape) throw new Error('A fake bot needs a token shaped like 123456:ABC-DEF…');
      const bot: FakeBot = { id: Number(shape[1]), username, chats: new Set(), webhook: null };
      bots.set(token, bot);
      return { id: bot.id, username };
    },
    addChat(token, chatId) {
      const bot = bots.get(token);
      if (!bot) throw new Error('addChat: addBot first');
      bot.chats.add(String(chatId));
    },
    block(chatId) {
      blocked.add(String(chatId));
    },
    failNext(count) {
      failuresAhead = count;
    },
    throttleNext(seconds) {
      throttleSeconds = seconds;
    },
    webhookOf(token) {
      const webhook = bots.get(token)?.webhook;
      return webhook ? { ...webhook } : null;
    },
    async sendUpdate(token, update) {
      const bot = bots.get(token);
      if (!bot?.webhook) throw new Error('sendUpdate: the bot has no webhook set');
      const chatId = (update as { message?: { chat?: { id?: unknown } } }).message?.chat?.id;
      if (chatId !== undefined) {
        // Writing to a bot (pressing START again included) opens the chat and lifts a block.
        bot.chats.add(String(chatId));
        blocked.delete(String(chatId));
      }
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (bot.webhook.secretToken !== null) headers['x-telegram-bot-api-secret-token'] = bot.webhook.secretToken;
      const answer = await fetch(bot.webhook.url, { method: 'POST', headers, body: JSON.stringify(update) });
      await answer.arrayBuffer();
      return answer.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let nextUpdateId = 100_000;

/**
 * An Update as Telegram sends it when a user presses START on a deep link (or types the text):
 * a private chat whose id is the user's, a bot_command entity over the command.
 */
export function startCommandUpdate(options: {
  chatId: number;
  text: string;
  languageCode?: string;
  chatType?: 'private' | 'group' | 'supergroup';
}): object {
  const command = /^\/\S*/.exec(options.text)?.[0] ?? '';
  const user = {
    id: options.chatId,
    is_bot: false,
    first_name: 'Buyer',
    ...(options.languageCode ? { language_code: options.languageCode } : {}),
  };
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextUpdateId,
      from: user,
      chat:
        (options.chatType ?? 'private') === 'private'
          ? { id: options.chatId, first_name: 'Buyer', type: 'private' }
          : { id: -options.chatId, title: 'A group', type: options.chatType },
      date: Math.floor(Date.now() / 1000),
      text: options.text,
      ...(command ? { entities: [{ offset: 0, length: command.length, type: 'bot_command' }] } : {}),
    },
  };
}
