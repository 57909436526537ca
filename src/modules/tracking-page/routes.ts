/**
 * Public (no token) tracking for recipients: the HTML page behind every `trackingUrl` of a
 * built-in company, and the status-only JSON that order-sync clients without credentials ask.
 */
import Type from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { ErrorBody } from '../../platform/schemas.js';
import type { TrackingPageService } from './service.js';
import { sendLinkPage } from '../../platform/link-pages.js';
import { pageLanguage, renderMissingPage, renderStatusOnlyPage, renderTrackingPage, type Lang } from './page.js';

const LangQuery = Type.Object({
  lang: Type.Optional(
    Type.String({ description: '`ru` (default) or `en`; otherwise the Accept-Language header decides' }),
  ),
});
const HtmlPage = Type.Unsafe<string>({ description: 'An HTML page (text/html)' });

const PublicStatus = Type.Object({
  trackNumber: Type.String(),
  code: Type.Integer({ description: 'Order status code (GET /v2/lists/order-statuses)' }),
  name: Type.String({ description: 'Its name in the requested language' }),
  date: Type.String({ description: 'RFC 3339: when the parcel reached this status' }),
});

function languageOf(request: FastifyRequest): Lang {
  return pageLanguage((request.query as { lang?: string } | undefined)?.lang, request.headers['accept-language']);
}

/** Inline CSS and nothing else: even text that escaped escaping could not run or load anything. */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return sendLinkPage(reply, status, html, PAGE_POLICY);
}

/** The services these routes use, and no other. */
export interface TrackingPageRouteServices {
  trackingPage: TrackingPageService;
}
export function trackingPageRoutes(app: App, services: TrackingPageRouteServices): void {
  const page = services.trackingPage;
  const pageSchema = (
    summary: string,
    description: string,
    params: Record<string, ReturnType<typeof Type.String>>,
  ) => ({
    tags: ['Tracking'],
    summary,
    description,
    security: [],
    params: Type.Object(params),
    querystring: LangQuery,
    produces: ['text/html'],
    response: { 200: HtmlPage, 404: HtmlPage },
  });

  app.get(
    '/track/:company/:trackNumber/:seal',
    {
      config: { public: true },
      schema: {
        operation: { id: 'getTrackingPage' },
        ...pageSchema(
          "The recipient's tracking page (the order's trackingUrl)",
          'Statuses, the pickup point (address, hours, coordinates, map link) or the city, the hold date, the shop and the delivery company, in Russian or English. The sealed link is the credential; an unknown or altered link is a 404 page.',
          { company: Type.String(), trackNumber: Type.String(), seal: Type.String() },
        ),
      },
    },
    async (request, reply) => {
      const lang = languageOf(request);
      const view = await page.page(request.params.company, request.params.trackNumber, request.params.seal, lang);
      return view
        ? sendPage(reply, 200, renderTrackingPage(view))
        : sendPage(reply, 404, renderMissingPage(lang, request.id));
    },
  );

  app.get(
    '/track/:company/:trackNumber',
    {
      config: { public: true },
      schema: {
        operation: { id: 'getUnsealedTrackingPage' },
        ...pageSchema(
          'A tracking link without its seal (issued before links were sealed): the current status only',
          'A track number alone is guessable, so this page shows the current status and the delivery company, nothing else.',
          { company: Type.String(), trackNumber: Type.String() },
        ),
      },
    },
    async (request, reply) => {
      const lang = languageOf(request);
      const view = await page.statusOnlyPage(request.params.company, request.params.trackNumber, lang);
      return view
        ? sendPage(reply, 200, renderStatusOnlyPage(view))
        : sendPage(reply, 404, renderMissingPage(lang, request.id));
    },
  );

  // a mangled link (cut in an SMS, a segment lost) still gets a page a recipient can read
  for (const url of ['/track', '/track/*']) {
    app.get(url, { config: { public: true }, schema: { hide: true, querystring: LangQuery } }, async (request, reply) =>
      sendPage(reply, 404, renderMissingPage(languageOf(request), request.id)),
    );
  }

  app.get(
    '/site/tracking/:trackNumber',
    {
      config: { public: true },
      schema: {
        operation: { id: 'getPublicTrackingStatus' },
        tags: ['Tracking'],
        summary: 'Extension: the current status of a track number, without a token',
        description:
          'For order-sync clients without credentials. A track number is printed on the parcel, so only the current status code, its name and date are answered: nothing of the recipient, the point or the goods.',
        security: [],
        params: Type.Object({ trackNumber: Type.String() }),
        querystring: LangQuery,
        response: { 200: PublicStatus, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const status = await page.publicStatus(request.params.trackNumber, languageOf(request));
      if (!status) throw notFound('Parcel', request.params.trackNumber);
      void reply.header('cache-control', 'no-cache');
      return status;
    },
  );
}
