/**
 * DaData-compatible routes: DaData's paths under `/dadata`, its request and answer shapes, its
 * `Authorization: Token <key>` header, so that DaData's own front-end components and the plugins
 * built on them work pointed at this service (`serviceUrl: https://<host>/dadata/suggestions/api/4_1/rs`).
 *
 * The key is one of ours: an account token or a shop key (a shop's server), or, for the suggestion
 * routes only, the shop's publishable widget key (`pk_…`, checked against its origins as the
 * widget's calls are: it is the key a shop's page may hold). Cleaning's `X-Secret` is accepted
 * and not needed: our key alone says who calls.
 */
import type { FastifyRequest } from 'fastify';
import type { TokenResolver } from '../../platform/auth.js';
import { AppError, unauthorized } from '../../platform/errors.js';
import { sendJsonBody } from '../../platform/compression.js';
import type { App } from '../../platform/http.js';
import { CORS_EXPOSED_HEADERS, type CorsDelegate } from '../../platform/operations.js';
import { installKeyAndAddressLimit } from '../../platform/rate-limit.js';
import { errorResponses } from '../../platform/schemas.js';
import type { WidgetService } from '../widget/service.js';
import { toDadataClean, toDadataSuggestion } from './dadata-shapes.js';
import type { AddressBound, SuggestQuery } from './model.js';
import {
  DadataCleanAnswer,
  DadataCleanInput,
  DadataLocation,
  DadataStatus,
  DadataFindByIdInput,
  DadataGeolocateInput,
  DadataSuggestInput,
  DadataSuggestions,
} from './schemas.js';
import type { AddressService } from './service.js';

export const DADATA_PREFIX = '/dadata';
export const DADATA_SUGGESTIONS_PATH = `${DADATA_PREFIX}/suggestions/api/4_1/rs`;
export const DADATA_CLEAN_PATH = `${DADATA_PREFIX}/api/v1/clean/address`;

const tags = ['Addresses'];
const BOUNDS = new Set<AddressBound>(['country', 'region', 'area', 'city', 'settlement', 'street', 'house', 'flat']);
const FIAS = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface DadataRouteServices {
  addresses: AddressService;
  widget: WidgetService;
  tokens: TokenResolver;
}

/**
 * CORS of the DaData-compatible routes: DaData's components call from the shop's page, with the
 * key in the Authorization header. Any origin is echoed (a page reads why it was refused); what
 * guards the data is the key (a publishable key's origins are checked on every call).
 */
export function dadataCors(): CorsDelegate {
  const options = {
    origin: true,
    methods: ['GET', 'POST'],
    // DaData's jQuery plugin sends its version and partner headers with every call
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Secret', 'X-Request-Id', 'X-Version', 'X-Partner'],
    exposedHeaders: CORS_EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
  };
  return { prefix: `${DADATA_PREFIX}/`, options: async () => options };
}

/** The key of DaData's header ("Token <key>"; "Bearer <key>" as ours is taken too). */
function keyOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header ? /^(?:Token|Bearer)\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : '';
}

/** DaData's `locations` (the first usable one) and bounds as our query. */
export function suggestQueryOfDadata(body: {
  query: string;
  count?: number;
  locations?: Record<string, unknown>[];
  from_bound?: { value: string };
  to_bound?: { value: string };
}): SuggestQuery {
  const query: SuggestQuery = { query: body.query, count: body.count ?? 10 };
  for (const location of body.locations ?? []) {
    const locality = [location.settlement_fias_id, location.city_fias_id].find(
      (value): value is string => typeof value === 'string' && FIAS.test(value),
    );
    if (locality) {
      query.locality = locality;
      break;
    }
    if (typeof location.region_fias_id === 'string' && FIAS.test(location.region_fias_id)) {
      query.region = location.region_fias_id;
      break;
    }
    if (typeof location.kladr_id === 'string' && /^\d{2}/.test(location.kladr_id)) {
      query.region = String(Number(location.kladr_id.slice(0, 2)));
      break;
    }
  }
  const from = body.from_bound?.value;
  const to = body.to_bound?.value;
  if (from && BOUNDS.has(from as AddressBound)) query.fromLevel = from as AddressBound;
  if (to && BOUNDS.has(to as AddressBound)) query.toLevel = to as AddressBound;
  return query;
}

export function dadataRoutes(app: App, services: DadataRouteServices, settings: { perMinute: number }): void {
  const addresses = services.addresses;
  app.register(
    async (api: App) => {
      await installKeyAndAddressLimit(api, settings.perMinute, keyOf);
      const accounts = new WeakMap<FastifyRequest, number>();
      api.addHook('onRequest', async (request) => {
        if (request.method === 'OPTIONS' || request.is404) return;
        const key = keyOf(request);
        if (!key)
          throw unauthorized(
            'Authentication is required: send "Authorization: Token <key>" with a key of this service.',
          );
        if (key.startsWith('pk_') || key.startsWith('pv_')) {
          if (request.url.startsWith(DADATA_CLEAN_PATH))
            throw new AppError(
              401,
              'invalid_token',
              'Cleaning needs an account token or a shop key, not a widget key.',
            );
          const fetchSite = request.headers['sec-fetch-site'];
          const caller = await services.widget.caller(key, request.headers.origin, {
            ownHost: request.headers.host,
            fetchSite: typeof fetchSite === 'string' ? fetchSite : undefined,
          });
          accounts.set(request, caller.scope.accountId);
          return;
        }
        const scope = await services.tokens.resolve(key);
        if (!scope) throw new AppError(401, 'invalid_token', 'The token is unknown, revoked or expired.');
        accounts.set(request, scope.accountId);
      });
      const accountOf = (request: FastifyRequest) => accounts.get(request) as number;
      const logDadata = (request: FastifyRequest) => (operation: string, error: Error) =>
        request.log.warn({ operation, reason: error.message }, 'DaData left out of an address answer');
      const common = { tags, security: [{ bearer: [] }] };

      api.post(
        '/suggestions/api/4_1/rs/suggest/address',
        {
          config: { public: true },
          schema: {
            operation: { id: 'suggestAddressesDadata' },
            ...common,
            summary: "DaData-compatible: address suggestions (DaData's suggest/address)",
            description:
              "DaData's request and answer shapes. Authorization: `Token <key>` with an account token, a shop key or the shop's publishable widget key (its origins checked). `locations`: the first with a city, settlement or region FIAS id or a KLADR id restricts; `from_bound`/`to_bound` bound; `language`, `locations_boost` and `restrict_value` are accepted and not applied.",
            body: DadataSuggestInput,
            response: { 200: DadataSuggestions, ...errorResponses() },
          },
        },
        async (request, reply) =>
          sendJsonBody(
            request,
            reply,
            await addresses.suggestionAnswer(
              'dadata',
              suggestQueryOfDadata(request.body),
              accountOf(request),
              logDadata(request),
              (suggestions) => reply.serialize({ suggestions: suggestions.map(toDadataSuggestion) }),
            ),
          ),
      );

      // DaData's front-end components ask once whether the service works for their key, and where the buyer is
      api.get(
        '/suggestions/api/4_1/rs/status/address',
        {
          config: { public: true },
          schema: {
            operation: { id: 'getAddressStatusDadata' },
            ...common,
            summary: "DaData-compatible: whether suggestions work for this key (DaData's status/address)",
            response: { 200: DadataStatus, ...errorResponses() },
          },
        },
        async () => ({ search: true, enrich: true, state: 'ENABLED', count: 0, resources: [] }),
      );
      api.get(
        '/suggestions/api/4_1/rs/iplocate/address',
        {
          config: { public: true },
          schema: {
            operation: { id: 'locateByAddressDadata' },
            ...common,
            summary:
              "DaData-compatible: the city of the caller's IP address (DaData's iplocate/address): never known here",
            description:
              'The service keeps no IP address database: the answer is always `{"location": null}`, which DaData’s components read as "not known" (no city preferred).',
            response: { 200: DadataLocation, ...errorResponses() },
          },
        },
        async () => ({ location: null }),
      );

      api.post(
        '/suggestions/api/4_1/rs/findById/address',
        {
          config: { public: true },
          schema: {
            operation: { id: 'findAddressByIdDadata' },
            ...common,
            summary: "DaData-compatible: the address of a FIAS id (DaData's findById/address)",
            body: DadataFindByIdInput,
            response: { 200: DadataSuggestions, ...errorResponses() },
          },
        },
        async (request) => {
          const id = request.body.query.trim();
          const found = FIAS.test(id) ? await addresses.findById(id) : null;
          return { suggestions: found ? [toDadataSuggestion(found)] : [] };
        },
      );

      api.post(
        '/suggestions/api/4_1/rs/geolocate/address',
        {
          config: { public: true },
          schema: {
            operation: { id: 'geolocateAddressesDadata' },
            ...common,
            summary: "DaData-compatible: houses nearest a point (DaData's geolocate/address)",
            body: DadataGeolocateInput,
            response: { 200: DadataSuggestions, ...errorResponses() },
          },
        },
        async (request) => {
          const found = await addresses.geolocate({
            lat: request.body.lat,
            lon: request.body.lon,
            radiusMeters: request.body.radius_meters,
            count: request.body.count,
          });
          return { suggestions: found.map(toDadataSuggestion) };
        },
      );

      api.post(
        '/api/v1/clean/address',
        {
          config: { public: true },
          schema: {
            operation: { id: 'cleanAddressesDadata' },
            ...common,
            summary: "DaData-compatible: cleaning (DaData's clean/address)",
            description:
              "A JSON list of up to 50 texts; the answer lists DaData's cleaning fields for each (`source`, `result`, the address fields, `qc`, `qc_complete`, `qc_house`, `qc_geo`). `X-Secret` is accepted and not needed. An account token or a shop key: a widget key cannot clean.",
            body: DadataCleanInput,
            response: { 200: DadataCleanAnswer, ...errorResponses() },
          },
        },
        async (request) => {
          const answers = [];
          for (const text of request.body)
            answers.push(toDadataClean(await addresses.clean(text, accountOf(request), logDadata(request))));
          return answers;
        },
      );
    },
    { prefix: DADATA_PREFIX },
  );
}
