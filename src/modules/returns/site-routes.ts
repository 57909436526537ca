/**
 * The buyer's returns page (no token: the signed link, or the order number and phone, is the
 * credential). Every call is limited per IP address; the lookup, where numbers and phones could
 * be guessed, much more tightly. Refusals are shown on the page in its language.
 */
import rateLimit from '@fastify/rate-limit';
import Type from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { sendLinkPage } from '../../platform/link-pages.js';
import { pageLanguage } from '../tracking-page/page.js';
import type { Lang, PageSubmission, ReturnPages } from './buyer.js';
import {
  PAGE_BODY_LIMIT_BYTES,
  PAGE_SCRIPT,
  renderMissingReturnsPage,
  renderOrderPage,
  renderShopPage,
  SCRIPT_PATH,
} from './page.js';
import { PhotoInput, ReturnReasonSchema } from './schemas.js';

/** Lookups a minute from one address: a buyer mistypes a few times; a walk over numbers and phones gets nowhere. */
const LOOKUPS_PER_MINUTE = 10;
/** Any call of the page a minute from one address. */
const CALLS_PER_MINUTE = 120;

const LangQuery = Type.Object({ lang: Type.Optional(Type.String({ maxLength: 5 })) });
const ShopParams = Type.Object({ shop: Type.String({ maxLength: 60 }) });
const OrderParams = Type.Object({ shop: Type.String({ maxLength: 60 }), order: Type.String({ maxLength: 40 }) });
const HtmlPage = Type.Unsafe<string>({ description: 'An HTML page (text/html)' });
const LookupBody = Type.Object({
  number: Type.String({ maxLength: 100 }),
  phone: Type.String({ maxLength: 30 }),
});
const SubmitBody = Type.Object({
  lines: Type.Optional(
    Type.Array(
      Type.Object({
        line: Type.Integer({ minimum: 0, maximum: 999 }),
        count: Type.Integer({ minimum: 0, maximum: 100_000 }),
        reason: ReturnReasonSchema,
        comment: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
      }),
      { maxItems: 100 },
    ),
  ),
  option: Type.Optional(Type.String({ pattern: '^(point|courier|post):\\d{1,10}$' })),
  point: Type.Optional(
    Type.Record(Type.String({ maxLength: 30 }), Type.String({ maxLength: 20 }), { maxProperties: 30 }),
  ),
  photos: Type.Optional(Type.Array(PhotoInput, { maxItems: 5 })),
});
const Submitted = Type.Object({
  url: Type.String({ description: "The order's returns page, showing the new return's code" }),
});

const WORDS: Record<Lang, Record<string, string>> = {
  ru: {
    validation_failed: 'Проверьте количество и выбранный пункт.',
    option_unavailable: 'Этот способ отправки недоступен для вашей посылки: выберите другой.',
    order_state: 'Срок возврата по этому заказу истёк.',
    order_changed: 'Эти товары уже оформлены в другом возврате: обновите страницу.',
    other: 'Не получилось оформить возврат. Попробуйте ещё раз.',
  },
  en: {
    validation_failed: 'Check the quantities and the chosen point.',
    option_unavailable: 'This way back is not available for your parcel: choose another.',
    order_state: 'The return period of this order has ended.',
    order_changed: 'These goods are in another return already: reload the page.',
    other: 'The return could not be requested. Please try again.',
  },
};

function languageOf(request: FastifyRequest): Lang {
  return pageLanguage((request.query as { lang?: string } | undefined)?.lang, request.headers['accept-language']);
}

/** The page's script, its form and its pictures (photos as data: while chosen, the shop's logo over https). */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; img-src https: data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return sendLinkPage(reply, status, html, PAGE_POLICY);
}

/** The services these routes use, and no other. */
export interface ReturnPageRouteServices {
  returnPages: ReturnPages;
}

export function returnPageRoutes(app: App, services: ReturnPageRouteServices): void {
  const pages = services.returnPages;
  app.register(async (site: App) => {
    if (!site.hasDecorator('createRateLimit')) await site.register(rateLimit, { global: false });
    const perAddress = site.createRateLimit({
      max: CALLS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request) => `returns-page:${request.ip}`,
    });
    const lookups = site.createRateLimit({
      max: LOOKUPS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request) => `returns-lookup:${request.ip}`,
    });
    site.addHook('onRequest', async (request, reply) => {
      const lookup = request.method === 'POST' && request.routeOptions.url === '/site/returns/:shop';
      const verdict = await (lookup ? lookups : perAddress)(request);
      if (!verdict.isAllowed && verdict.isExceeded) {
        void reply.header('retry-after', String(Math.ceil(verdict.ttlInSeconds)));
        return sendHtml(reply, 429, renderMissingReturnsPage(languageOf(request), 429, request.id));
      }
    });

    site.get(SCRIPT_PATH, { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(PAGE_SCRIPT),
    );

    site.get(
      '/site/returns/:shop',
      {
        config: { public: true },
        schema: {
          operation: { id: 'getReturnsLookupPage' },
          tags: ['Returns (extension)'],
          summary: "The shop's returns page: find a delivered order by its number and phone",
          description:
            'The link is the shop’s (GET /v2/shops/{id}/return-settings, pageUrl). An unknown or altered link is a 404 page.',
          security: [],
          params: ShopParams,
          querystring: LangQuery,
          produces: ['text/html'],
          response: { 200: HtmlPage, 404: HtmlPage },
        },
      },
      async (request, reply) => {
        const lang = languageOf(request);
        const view = await pages.shopPage(request.params.shop, lang);
        return view
          ? sendHtml(reply, 200, renderShopPage(view))
          : sendHtml(reply, 404, renderMissingReturnsPage(lang, 404, request.id));
      },
    );

    site.post(
      '/site/returns/:shop',
      {
        config: { public: true },
        schema: {
          operation: { id: 'findReturnableOrder' },
          tags: ['Returns (extension)'],
          summary: 'Find a delivered order of the shop by its number and the phone given with it',
          description: `A form post: found, a 303 to the order's returns page; otherwise the same page again with one answer for an unknown order and a wrong phone. ${LOOKUPS_PER_MINUTE} a minute from one address.`,
          security: [],
          params: ShopParams,
          querystring: LangQuery,
          body: LookupBody,
          produces: ['text/html'],
          response: { 200: HtmlPage, 303: HtmlPage, 404: HtmlPage },
        },
      },
      async (request, reply) => {
        const lang = languageOf(request);
        const url = await pages.lookup(request.params.shop, request.body.number, request.body.phone);
        if (url)
          return reply.code(303).header('location', `${url}?lang=${lang}`).header('cache-control', 'no-store').send('');
        const view = await pages.shopPage(request.params.shop, lang, { number: request.body.number, notFound: true });
        return view
          ? sendHtml(reply, 200, renderShopPage(view))
          : sendHtml(reply, 404, renderMissingReturnsPage(lang, 404, request.id));
      },
    );

    site.get(
      '/site/returns/:shop/:order',
      {
        config: { public: true },
        schema: {
          operation: { id: 'getOrderReturnsPage' },
          tags: ['Returns (extension)'],
          summary: "A delivered order's returns page (the tracking page and the delivered message link to it)",
          description:
            'The goods that may still come back within the shop’s window, quantity and reason per item, photos, the ways back the shop allows with their cost and who pays, then the return’s code and QR code. The signed link is the credential.',
          security: [],
          params: OrderParams,
          querystring: LangQuery,
          produces: ['text/html'],
          response: { 200: HtmlPage, 404: HtmlPage },
        },
      },
      async (request, reply) => {
        const lang = languageOf(request);
        const view = await pages.orderPage(request.params.shop, request.params.order, lang);
        return view
          ? sendHtml(reply, 200, renderOrderPage(view))
          : sendHtml(reply, 404, renderMissingReturnsPage(lang, 404, request.id));
      },
    );

    site.post(
      '/site/returns/:shop/:order',
      {
        config: { public: true },
        bodyLimit: PAGE_BODY_LIMIT_BYTES,
        // a body of up to 12 MB is read only for a link we signed: an altered link costs an HMAC, not a parse
        preParsing: async (request, reply, payload) => {
          const { shop, order } = request.params as { shop: string; order: string };
          if (pages.isSignedOrderLink(shop, order)) return payload;
          request.raw.resume();
          return sendHtml(reply, 404, renderMissingReturnsPage(languageOf(request), 404, request.id));
        },
        schema: {
          operation: { id: 'requestReturnOnPage' },
          tags: ['Returns (extension)'],
          summary: "The buyer's return from the order's returns page",
          description:
            'The page’s script sends JSON (with photos, base64) and reads a 201 {url}; a plain form post (no photos) is answered with a 303 to the page. Refusals are in the page’s language.',
          security: [],
          params: OrderParams,
          querystring: LangQuery,
          body: SubmitBody,
          response: { 201: Submitted, 303: HtmlPage, 404: HtmlPage },
        },
      },
      async (request, reply) => {
        const lang = languageOf(request);
        const json = (request.headers['content-type'] ?? '').startsWith('application/json');
        const { shop, order } = request.params;
        const page = `/site/returns/${shop}/${order}?lang=${lang}`;
        try {
          const made = await pages.submit(shop, order, request.body as PageSubmission, lang);
          if (!made) return sendHtml(reply, 404, renderMissingReturnsPage(lang, 404, request.id));
          if (json) return reply.code(201).header('cache-control', 'no-store').send({ url: page });
          return reply.code(303).header('location', page).send('');
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
          const message = WORDS[lang][error.code] ?? WORDS[lang].other;
          // the script shows the message as it is: the buyer's words, not the API's
          if (json) throw new AppError(error.statusCode, error.code, message);
          const view = await pages.orderPage(shop, order, lang, message);
          return view
            ? sendHtml(reply, error.statusCode, renderOrderPage(view))
            : sendHtml(reply, 404, renderMissingReturnsPage(lang, 404, request.id));
        }
      },
    );
  });
}
