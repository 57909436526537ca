/**
 * The checkout widget over HTTP: the owner's key (/v2/shops/{id}/widget-key), the page's calls
 * under /widget/v1/api/ (a publishable key in `key`, CORS by the key's origins, a budget per key
 * and address) and the shop server's confirm (/v2/widget/orders).
 */
import type { FastifyRequest } from 'fastify';
import { sendJsonBody } from '../../platform/compression.js';
import { CORS_EXPOSED_HEADERS, type CorsDelegate } from '../../platform/operations.js';
import type { App } from '../../platform/http.js';
import { installKeyAndAddressLimit } from '../../platform/rate-limit.js';
import { ErrorBody, errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { WidgetService } from './service.js';
import type { WidgetCaller } from './service.js';
import { widgetAssetRoutes } from './assets.js';
import {
  CabinetAnswer,
  ConfirmOrderInput,
  UpdateOrderInput,
  ConfirmAnswer,
  ConfirmInput,
  KeyQuery,
  LocalitySearchQuery,
  PointsAnswer,
  PointsQuery,
  PriceChanged,
  QuoteAnswer,
  QuoteInput,
  SelectionAnswer,
  SelectionInput,
  WidgetKey,
  WidgetKeyInput,
  WidgetLocality,
  WidgetPreviewKey,
} from './schemas.js';
import Type from 'typebox';

export const WIDGET_API_PREFIX = '/widget/v1/api';
const tags = ['Checkout widget'];

const described = (description: string) => Type.Object(ErrorBody.properties, { description });
/** What a page's call may be refused with, said for a page rather than for a token. */
const PAGE_ERRORS = {
  400: ErrorBody,
  401: described('No widget key, or one that is unknown or was replaced (invalid_widget_key).'),
  403: described('A page of an origin the key does not allow (origin_not_allowed).'),
  429: described('Too many calls for this key from this address this minute: retry after the Retry-After header.'),
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on the widget's API routes: the shop a publishable key acts for. */
    widget: WidgetCaller;
  }
}

function keyOf(request: FastifyRequest): string {
  const key = (request.query as { key?: unknown } | undefined)?.key;
  return typeof key === 'string' ? key : '';
}

/** The services these routes use, and no other. */
export interface WidgetRouteServices {
  widget: WidgetService;
}
/**
 * CORS of the widget's API: any page's Origin is echoed, so a page always reads why it was
 * refused (a wrong key, an origin the key does not allow). What guards the data is the server's
 * own check of the Origin on every call (WidgetService.caller): a browser always sends it and a
 * page cannot change it.
 */
export function widgetCors(): CorsDelegate {
  const options = {
    origin: true,
    methods: ['GET', 'POST'],
    allowedHeaders: ['Content-Type', 'X-Request-Id'],
    exposedHeaders: CORS_EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
  };
  return { prefix: `${WIDGET_API_PREFIX}/`, options: async () => options };
}

export function widgetRoutes(
  app: App,
  services: WidgetRouteServices,
  settings: { perMinute: number; directory: string },
): void {
  const widget = services.widget;
  widgetAssetRoutes(app, settings.directory);

  app.post(
    '/v2/shops/:id/widget-key',
    {
      schema: {
        operation: { id: 'issueWidgetKey' },
        tags,
        summary: "Issue or replace the shop's publishable widget key (extension)",
        description:
          'A new key each call (the old one stops at once), bound to the origins whose pages may use it. Needs an account token.',
        params: IdParams,
        body: WidgetKeyInput,
        response: { 200: WidgetKey, ...errorResponses(403, 404) },
      },
    },
    async (request) => widget.issueKey(request.scope, request.params.id, request.body),
  );

  app.put(
    '/v2/shops/:id/widget-key',
    {
      schema: {
        operation: { id: 'changeWidgetKeyOrigins' },
        tags,
        summary: "Change the origins allowed to use the shop's widget key; the key stays (extension)",
        description:
          'The pages that carry the key go on working where their origin is still allowed. 404 when the shop has no key yet (POST issues one). Needs an account token.',
        params: IdParams,
        body: WidgetKeyInput,
        response: { 200: WidgetKey, ...errorResponses(403, 404) },
      },
    },
    async (request) => widget.setOrigins(request.scope, request.params.id, request.body),
  );

  app.post(
    '/v2/shops/:id/widget-preview-key',
    {
      schema: {
        operation: { id: 'issueWidgetPreviewKey' },
        tags,
        summary: "The dashboard's preview key of the shop's widget (extension)",
        description:
          "A pv_… key for the real widget shown inside the dashboard: it reads localities, points and quotes of the shop and records selections that can never become orders (POST /v2/widget/orders answers 422 preview_selection), only from pages of the service's own origin (a call without Origin or from another is 403), and not as a bearer token anywhere (401). The same key while it has half an hour left, else a new one for two hours. The shop's publishable key is not touched. Account tokens and owners only.",
        params: IdParams,
        response: { 200: WidgetPreviewKey, ...errorResponses(403, 404) },
      },
    },
    async (request) => widget.previewKey(request.scope, request.params.id),
  );

  app.get(
    '/v2/shops/:id/widget-key',
    {
      schema: {
        operation: { id: 'getWidgetKey' },
        tags,
        summary: "The shop's publishable widget key (extension)",
        params: IdParams,
        response: { 200: WidgetKey, ...errorResponses(403, 404) },
      },
    },
    async (request) => widget.getKey(request.scope, request.params.id),
  );

  app.post(
    '/v2/widget/orders',
    {
      schema: {
        operation: { id: 'createOrderFromWidgetSelection' },
        tags,
        summary: "Make an order of a buyer's widget selection (extension)",
        description:
          "The shop's server sends the selection token its page got, with the recipient; send the shop's order number as Idempotency-Key. The token must be unused and unexpired, the option still available, the price the buyer saw: a changed price is a 409 price_changed with the new quote, and nothing is made.",
        body: ConfirmInput,
        response: { 201: ConfirmAnswer, 409: PriceChanged, ...errorResponses(403, 404, 422) },
      },
    },
    async (request, reply) => {
      const outcome = await widget.confirm(request.scope, request.body);
      if (outcome.kind === 'created') return reply.code(201).send({ id: outcome.id, quote: outcome.quote });
      return reply.code(409).send({
        code: 'price_changed',
        message: `The price changed from ${outcome.was} to ${outcome.quote.totalPrice}: show the buyer the new quote; nothing was made.`,
        errors: [{ field: 'quote.totalPrice', message: `was ${outcome.was}, is now ${outcome.quote.totalPrice}` }],
        logId: request.id,
        quote: outcome.quote,
      });
    },
  );

  const widgetEra = (summary: string, description: string) => ({
    tags,
    summary,
    description,
    headers: Type.Object({
      'from-widget': Type.Optional(
        Type.String({ description: 'Sent by some widget-era plugins; accepted, no effect' }),
      ),
    }),
  });
  app.post(
    '/v2/widgets/update-order',
    {
      schema: {
        operation: { id: 'updateWidgetEraOrder' },
        ...widgetEra(
          'Widget era: make (or find) the order of a widget selection',
          "For shop plugins of the widget era, unchanged: id is what the compatibility widget's done event gave. JSON or PHP form; Shop-Id or shop-id. Answers the order id as cabinetId.",
        ),
        body: UpdateOrderInput,
        response: { 200: CabinetAnswer, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => widget.updateWidgetEraOrder(request.scope, request.body),
  );
  app.post(
    '/v2/widgets/confirm-order',
    {
      schema: {
        operation: { id: 'confirmWidgetEraOrder' },
        ...widgetEra(
          'Widget era: the order of a checkout session',
          'checkoutSessId is the selection token (the SR_checkoutSessId cookie the compatibility widget sets). The widget takes no payment, so nothing is marked paid.',
        ),
        body: ConfirmOrderInput,
        response: { 200: CabinetAnswer, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => widget.confirmWidgetEraOrder(request.scope, request.body),
  );

  app.register(
    async (api: App) => {
      await installKeyAndAddressLimit(api, settings.perMinute, keyOf);
      api.decorateRequest('widget', null as unknown as WidgetCaller);
      // onRequest: a missing or wrong key is a 401 before the body is even read
      api.addHook('onRequest', async (request) => {
        if (request.method === 'OPTIONS' || request.is404) return;
        const fetchSite = request.headers['sec-fetch-site'];
        request.widget = await widget.caller(keyOf(request), request.headers.origin, {
          ownHost: request.headers.host,
          fetchSite: typeof fetchSite === 'string' ? fetchSite : undefined,
        });
      });

      const common = { tags, security: [] };

      api.get(
        '/localities',
        {
          config: { public: true },
          schema: {
            operation: { id: 'searchWidgetLocalities' },
            ...common,
            summary: 'Localities whose name starts with the typed text, the largest first',
            querystring: LocalitySearchQuery,
            response: { 200: Type.Array(WidgetLocality), ...PAGE_ERRORS },
          },
        },
        async (request, reply) => {
          reply.header('cache-control', 'public, max-age=3600');
          return widget.localities(request.query);
        },
      );

      api.get(
        '/points',
        {
          config: { public: true },
          schema: {
            operation: { id: 'listWidgetPoints' },
            ...common,
            summary: 'Pickup points in a map viewport that take the parcel (clustered when zoomed out)',
            description:
              "Filtered on the server by the parcel (weight, sizes), payment on delivery, point type, fitting, and the shop's hidden companies; the nearest to the viewport's centre first. ETag: an unchanged answer is a 304.",
            querystring: PointsQuery,
            response: { 200: PointsAnswer, 304: NoContent, ...PAGE_ERRORS },
          },
        },
        async (request, reply) => {
          const { tag, answer } = await widget.points(request.widget, request.query, request.url);
          reply.header('etag', tag).header('cache-control', 'private, max-age=60');
          if (request.headers['if-none-match'] === tag) return reply.code(304).send();
          // a big city's view is ~80 kB: gzipped for a phone that takes it (the gzip made once per remembered answer)
          return sendJsonBody(request, reply, answer());
        },
      );

      api.post(
        '/quotes',
        {
          config: { public: true },
          schema: {
            operation: { id: 'quoteWidgetCart' },
            ...common,
            summary: "The cart's delivery options at the shop's prices",
            description:
              "Prices come from the calculator with the shop's widget settings; a company that does not answer in 4 s is left out.",
            querystring: KeyQuery,
            body: QuoteInput,
            response: { 200: QuoteAnswer, ...PAGE_ERRORS },
          },
        },
        async (request) =>
          widget.quotes(request.widget, request.body, (companyId, reason) =>
            request.log.warn({ companyId, reason }, 'company left out of widget quotes'),
          ),
      );

      api.post(
        '/selections',
        {
          config: { public: true },
          schema: {
            operation: { id: 'createWidgetSelection' },
            ...common,
            summary: "Record the buyer's choice; answers the token the shop's server confirms",
            querystring: KeyQuery,
            body: SelectionInput,
            response: { 201: SelectionAnswer, 422: ErrorBody, ...PAGE_ERRORS },
          },
        },
        async (request, reply) => reply.code(201).send(await widget.select(request.widget, request.body)),
      );
    },
    { prefix: WIDGET_API_PREFIX },
  );
}
