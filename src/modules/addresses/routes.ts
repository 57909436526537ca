/**
 * The addresses over HTTP: our own routes (`/v2/addresses/…`, an account token or a shop key), the
 * widget's suggestion route (`/widget/v1/api/addresses/suggest`, the shop's publishable key, the
 * widget's CORS and limits), the account's DaData key (`/v2/account/address-settings`), and the
 * DaData-compatible routes (dadata-routes.ts).
 */
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { sendJsonBody } from '../../platform/compression.js';
import type { App } from '../../platform/http.js';
import { fieldError, notFound } from '../../platform/errors.js';
import { installKeyAndAddressLimit } from '../../platform/rate-limit.js';
import { ErrorBody, errorResponses } from '../../platform/schemas.js';
import type { WidgetCaller, WidgetService } from '../widget/service.js';
import type { AddressService } from './service.js';
import {
  AddressSettings,
  AddressSettingsInput,
  AddressSuggestion,
  AddressSuggestions,
  CleanedAddresses,
  CleanInput,
  FiasIdParams,
  GeolocateQuery,
  SuggestQuery,
} from './schemas.js';

const tags = ['Addresses'];

/** The services these routes use, and no other. */
export interface AddressRouteServices {
  addresses: AddressService;
  widget: WidgetService;
}

const described = (description: string) => Type.Object(ErrorBody.properties, { description });
const PAGE_ERRORS = {
  400: ErrorBody,
  401: described('No widget key, or one that is unknown or was replaced (invalid_widget_key).'),
  403: described('A page of an origin the key does not allow (origin_not_allowed).'),
  429: described('Too many calls for this key from this address this minute: retry after the Retry-After header.'),
};

export const WidgetAddressQuery = Type.Object({
  key: Type.Optional(Type.String({ maxLength: 100, description: "The shop's publishable widget key (required)" })),
  ...SuggestQuery.properties,
});

export function addressRoutes(app: App, services: AddressRouteServices, settings: { widgetPerMinute: number }): void {
  const addresses = services.addresses;
  const logDadata = (request: FastifyRequest) => (operation: string, error: Error) =>
    request.log.warn({ operation, reason: error.message }, 'DaData left out of an address answer');

  app.get(
    '/v2/addresses/suggest',
    {
      schema: {
        operation: { id: 'suggestAddresses' },
        tags,
        summary: 'Addresses that start as typed: city, street, house, flat (extension)',
        description:
          "From the federal address register: typos of one letter, abbreviations (ул, пр-т, д, к, стр), ё/е, the Latin keyboard layout and city nicknames (мск, спб) are understood. `locality` (a city's or settlement's FIAS id) or `region` (a code or FIAS id) restrict the answer; `fromLevel`/`toLevel` bound it. With the account's own DaData key (PUT /v2/account/address-settings), DaData is asked where the register has no house. A shop's API key may call it.",
        querystring: SuggestQuery,
        response: { 200: AddressSuggestions, ...errorResponses() },
      },
    },
    async (request, reply) =>
      sendJsonBody(
        request,
        reply,
        await addresses.suggestionAnswer(
          'v2',
          request.query,
          request.scope.accountId,
          logDadata(request),
          (suggestions) => reply.serialize({ suggestions }),
        ),
      ),
  );

  app.get(
    '/v2/addresses/geolocate',
    {
      schema: {
        operation: { id: 'geolocateAddresses' },
        tags,
        summary: 'Houses nearest a point (extension)',
        description: 'Houses of the register with coordinates within `radius` metres (at most 1000), nearest first.',
        querystring: GeolocateQuery,
        response: { 200: AddressSuggestions, ...errorResponses() },
      },
    },
    async (request) => ({
      suggestions: await addresses.geolocate({
        lat: request.query.lat,
        lon: request.query.lon,
        radiusMeters: request.query.radius,
        count: request.query.count,
      }),
    }),
  );

  app.get(
    '/v2/addresses/:fiasId',
    {
      schema: {
        operation: { id: 'getAddress' },
        tags,
        summary: 'The address of a FIAS id: a region, city, street, house or flat (extension)',
        params: FiasIdParams,
        response: { 200: AddressSuggestion, ...errorResponses(404) },
      },
    },
    async (request) => {
      const found = await addresses.findById(request.params.fiasId);
      if (!found) throw notFound('Address', request.params.fiasId);
      return found;
    },
  );

  app.post(
    '/v2/addresses/clean',
    {
      // changes nothing: a read for key scopes and the audit trail (platform/key-scopes.ts)
      config: { readOnly: true },
      schema: {
        operation: {
          id: 'cleanAddresses',
          examples: { one: { summary: 'One address as typed', value: { address: 'мск, ул. Ленина 5к2 кв 3' } } },
        },
        tags,
        summary: 'Free text to a structured address, with its quality and what was changed (extension)',
        description:
          'Give `address` (one text) or `addresses` (up to 50). Each answer holds the register ids, postcode, coordinates and their precision, `quality` (certain, check, unrecognised) and `changes`. An address is never refused for being unknown: it comes back unrecognised.',
        body: CleanInput,
        response: { 200: CleanedAddresses, ...errorResponses() },
      },
    },
    async (request) => {
      const texts = request.body.addresses ?? (request.body.address !== undefined ? [request.body.address] : []);
      if (texts.length === 0) throw fieldError('address', 'give address (one text) or addresses (a list of up to 50)');
      if (request.body.address !== undefined && request.body.addresses)
        throw fieldError('addresses', 'give address or addresses, not both');
      const cleaned = [];
      for (const text of texts) cleaned.push(await addresses.clean(text, request.scope.accountId, logDadata(request)));
      return { addresses: cleaned };
    },
  );

  app.get(
    '/v2/account/address-settings',
    {
      schema: {
        operation: { id: 'getAddressSettings' },
        tags,
        summary: "The account's address settings: its own DaData keys, masked (extension)",
        response: { 200: AddressSettings, ...errorResponses(403) },
      },
    },
    async (request) => addresses.settings(request.scope),
  );

  app.put(
    '/v2/account/address-settings',
    {
      schema: {
        operation: { id: 'changeAddressSettings' },
        tags,
        summary: "Set the account's own DaData keys (extension)",
        description:
          'With a DaData API key (and its secret key, for cleaning) the service asks DaData, with the account’s own limit, where the federal address register has no house for what was typed. The keys are kept encrypted and never shown again (GET masks them). `dadataApiKey: null` removes them. Account tokens only.',
        body: AddressSettingsInput,
        response: { 200: AddressSettings, ...errorResponses(403) },
      },
    },
    async (request) => addresses.changeSettings(request.scope, request.body),
  );

  // the buyer's browser: the shop's publishable key, as the widget's other calls (its CORS covers the prefix)
  app.register(
    async (api: App) => {
      const keyOf = (request: FastifyRequest) => {
        const key = (request.query as { key?: unknown } | undefined)?.key;
        return typeof key === 'string' ? key : '';
      };
      await installKeyAndAddressLimit(api, settings.widgetPerMinute, keyOf);
      // a missing or wrong key is a 401 before the query is even read, as on the widget's other calls
      const callers = new WeakMap<FastifyRequest, WidgetCaller>();
      api.addHook('onRequest', async (request) => {
        if (request.method === 'OPTIONS' || request.is404) return;
        const fetchSite = request.headers['sec-fetch-site'];
        callers.set(
          request,
          await services.widget.caller(keyOf(request), request.headers.origin, {
            ownHost: request.headers.host,
            fetchSite: typeof fetchSite === 'string' ? fetchSite : undefined,
          }),
        );
      });
      api.get(
        '/addresses/suggest',
        {
          config: { public: true },
          schema: {
            operation: { id: 'suggestWidgetAddresses' },
            tags,
            security: [],
            summary: "Address suggestions for the checkout widget's courier address",
            description:
              "As GET /v2/addresses/suggest, with the shop's publishable key in `key` (CORS by the key's origins, the widget's limit per key and address). The shop's own DaData key is used as for the shop's server.",
            querystring: WidgetAddressQuery,
            response: { 200: AddressSuggestions, ...PAGE_ERRORS },
          },
        },
        async (request, reply) => {
          const caller = callers.get(request) as WidgetCaller;
          const { key: _key, ...query } = request.query;
          reply.header('cache-control', 'private, max-age=60');
          return sendJsonBody(
            request,
            reply,
            await addresses.suggestionAnswer(
              'widget',
              query,
              caller.scope.accountId,
              logDadata(request),
              (suggestions) => reply.serialize({ suggestions }),
            ),
          );
        },
      );
    },
    { prefix: '/widget/v1/api' },
  );
}
