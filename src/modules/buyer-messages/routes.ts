import Type from 'typebox';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { errorResponses, IdParams } from '../../platform/schemas.js';
import { readStartCommand, TelegramUpdate } from '../../messaging/telegram-update.js';
import {
  BuyerMessage,
  BuyerMessageSettings,
  BuyerMessageSettingsInput,
  MessagesReport,
  MessagesReportQuery,
  Preview,
  PreviewBody,
  PreviewHtmlQuery,
  TemplatesInput,
  TemplatesView,
} from './schemas.js';
import type { BuyerMessageService } from './service.js';

/** The services these routes use, and no other. */
export interface BuyerMessageRouteServices {
  buyerMessages: BuyerMessageService;
}

const tags = ['Buyer messages (extension)'];
const HtmlPage = Type.Unsafe<string>({ description: 'An HTML page (text/html)' });
const TokenParams = Type.Object({ token: Type.String({ maxLength: 800 }) });
const KeyParams = Type.Object({ key: Type.String({ maxLength: 100 }) });

function page(reply: FastifyReply, status: number, title: string, text: string, form: string | null): FastifyReply {
  const button = form
    ? `<form method="post"><button type="submit" style="font-size:16px;padding:10px 18px">${form}</button></form>`
    : '';
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex, nofollow')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    )
    .send(
      `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:Arial,Helvetica,sans-serif;max-width:560px;margin:48px auto;padding:0 16px"><h1 style="font-size:22px">${title}</h1><p>${text}</p>${button}</body></html>`,
    );
}

export function buyerMessageRoutes(app: App, services: BuyerMessageRouteServices): void {
  const messages = services.buyerMessages;

  app.get(
    '/v2/shops/:id/buyer-messages',
    {
      schema: {
        operation: { id: 'getBuyerMessageSettings' },
        tags,
        summary: "How the shop's buyers hear of their delivery",
        description:
          'Channels (e-mail, SMS through SMS.ru or SMSC, the shop’s own Telegram bot), the moments each is on for, the language, quiet hours, the brand of e-mails. Credentials are never answered. A shop that never saved any e-mails its buyers as `emailNotifications` says (at the point, out for delivery, delivered, late).',
        params: IdParams,
        response: { 200: BuyerMessageSettings, ...errorResponses(403, 404) },
      },
    },
    async (request) => messages.settings(request.scope, request.params.id),
  );

  app.put(
    '/v2/shops/:id/buyer-messages',
    {
      schema: {
        operation: { id: 'setBuyerMessageSettings' },
        tags,
        summary: "Change how the shop's buyers hear of their delivery",
        description:
          'What is left out stays. Credentials given are checked before anything is saved (the SMS gateway’s balance; the bot’s getMe, and its webhook is set to this service): refused, a 422 channel_refused naming the field. Credentials are stored sealed and never answered. Account tokens only (a shop key: 403).',
        params: IdParams,
        body: BuyerMessageSettingsInput,
        response: { 200: BuyerMessageSettings, ...errorResponses(400, 403, 404, 422) },
      },
    },
    async (request) => messages.saveSettings(request.scope, request.params.id, request.body),
  );

  app.get(
    '/v2/shops/:id/buyer-messages/templates',
    {
      schema: {
        operation: { id: 'getBuyerMessageTemplates' },
        tags,
        summary: "The shop's message templates, its own and the defaults, with their variables",
        params: IdParams,
        response: { 200: TemplatesView, ...errorResponses(403, 404) },
      },
    },
    async (request) => messages.templates(request.scope, request.params.id),
  );

  app.put(
    '/v2/shops/:id/buyer-messages/templates',
    {
      schema: {
        operation: { id: 'setBuyerMessageTemplates' },
        tags,
        summary: "Replace the shop's own message templates (Liquid)",
        description:
          'Each is rendered with a sample order before anything is saved: an unknown variable or filter, a syntax error or a text over 4,000 characters is a 400 naming `templates.<moment>.<language>.<part>`. Filters besides Liquid’s: ru_date, en_date, numeric_date, plural (2 forms English, 3 Russian), money. No include or render.',
        params: IdParams,
        body: TemplatesInput,
        response: { 200: TemplatesView, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => messages.saveTemplates(request.scope, request.params.id, request.body),
  );

  app.post(
    '/v2/shops/:id/buyer-messages/preview',
    {
      // changes nothing: a read for key scopes and the audit trail (platform/key-scopes.ts)
      config: { readOnly: true },
      schema: {
        operation: { id: 'previewBuyerMessage' },
        tags,
        summary: 'A message as a buyer would get it, from a real order or a sample',
        description:
          'The saved template, or `subject`/`body` to try before saving; an e-mail’s HTML with the brand, an SMS’s parts and encoding.',
        params: IdParams,
        body: PreviewBody,
        response: { 200: Preview, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => messages.preview(request.scope, request.params.id, request.body),
  );

  app.get(
    '/v2/shops/:id/buyer-messages/preview.html',
    {
      schema: {
        operation: { id: 'previewBuyerEmailHtml' },
        tags,
        summary: 'An e-mail as the buyer sees it: its HTML, to show in a frame',
        description:
          'The e-mail of a moment as POST .../preview makes it (the saved template, or `subject`/`body` to try), as an HTML page with a policy of its own (the e-mail’s inline styles), which the dashboard shows in a frame of its own origin.',
        params: IdParams,
        querystring: PreviewHtmlQuery,
        produces: ['text/html'],
        response: { 200: HtmlPage, ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const preview = await messages.preview(request.scope, request.params.id, {
        ...request.query,
        moment: request.query.moment ?? 'delivered',
        channel: 'email',
      });
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
        )
        .send(preview.html ?? '');
    },
  );

  app.get(
    '/v2/orders/:id/buyer-messages',
    {
      schema: {
        operation: { id: 'listOrderBuyerMessages' },
        tags,
        summary: "What the order's buyer was sent, and how it went",
        description:
          'One line per moment and channel: pending, held (quiet hours: sendAfter), sent, delivered, failed (with the reason), skipped (unsubscribed, a sandbox order, no gateway). Phones are masked.',
        params: IdParams,
        response: { 200: Type.Array(BuyerMessage), ...errorResponses(403, 404) },
      },
    },
    async (request) => messages.orderMessages(request.scope, request.params.id),
  );

  app.get(
    '/v2/reports/buyer-messages',
    {
      schema: {
        operation: { id: 'getBuyerMessagesReport' },
        tags,
        summary: 'Buyer messages per shop and channel: sent, failed, SMS parts and their cost',
        querystring: MessagesReportQuery,
        response: { 200: MessagesReport, ...errorResponses(400, 403) },
      },
    },
    async (request) => messages.report(request.scope, request.query),
  );

  app.get(
    '/buyer/unsubscribe/:token',
    {
      config: { public: true },
      schema: {
        operation: { id: 'getBuyerUnsubscribePage' },
        tags,
        summary: "The buyer's unsubscribe page (the link at the foot of every message)",
        security: [],
        params: TokenParams,
        produces: ['text/html'],
        response: { 200: HtmlPage, 404: HtmlPage },
      },
    },
    async (request, reply) =>
      page(
        reply,
        200,
        'Отписаться от сообщений магазина',
        'Одно нажатие — и сообщения о доставке по этому каналу больше не придут. / One click and no more delivery messages on this channel.',
        'Отписаться / Unsubscribe',
      ),
  );

  app.post(
    '/buyer/unsubscribe/:token',
    {
      config: { public: true },
      schema: {
        operation: { id: 'unsubscribeBuyer' },
        tags,
        summary: 'Unsubscribe (the page’s button, or a mail program’s one click: RFC 8058)',
        security: [],
        params: TokenParams,
        produces: ['text/html'],
        response: { 200: HtmlPage, 404: HtmlPage },
      },
    },
    async (request, reply) =>
      (await messages.unsubscribe(request.params.token))
        ? page(reply, 200, 'Вы отписались', 'Сообщения по этому каналу больше не придут. / You are unsubscribed.', null)
        : page(
            reply,
            404,
            'Ссылка не найдена',
            `Эта ссылка не наша или повреждена. / This link is not known. Код для поддержки / Log id: ${request.id}`,
            null,
          ),
  );

  app.post(
    '/buyer/telegram/:key',
    {
      config: { public: true },
      schema: {
        operation: { id: 'receiveTelegramUpdate' },
        tags,
        summary: "Telegram's webhook of a shop's bot",
        description:
          'Set when the bot’s token is saved; Telegram’s secret header is checked (else 401). A buyer’s `/start <payload>` from the tracking page links their chat to the order’s phone.',
        security: [],
        params: KeyParams,
        body: TelegramUpdate,
        response: { 200: Type.Object({ ok: Type.Boolean() }), ...errorResponses(401) },
      },
    },
    async (request) => {
      const secret = request.headers['x-telegram-bot-api-secret-token'];
      const ok = await messages.telegramUpdate(
        request.params.key,
        typeof secret === 'string' ? secret : undefined,
        readStartCommand(request.body),
      );
      if (!ok) throw new AppError(401, 'unauthorized', 'This is not a webhook of a bot connected here.');
      return { ok: true };
    },
  );
}
