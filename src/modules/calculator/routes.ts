import type { FastifyRequest } from 'fastify';
import { AppError, type ErrorItem } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { sendJsonBody } from '../../platform/compression.js';

/** The length of the calculator's answer when no company delivers (`{"1":[],"2":[],"3":[]}`, nothing shorter is one). */
const NOTHING_DELIVERS_BYTES = '{"1":[],"2":[],"3":[]}'.length;
/** Why nothing delivers, when the service knows: `<code>; <sentence>`. */
const CALCULATION_PROBLEM_HEADER = 'x-calculation-problem';

/** A header value carries Latin-1 only: a city typed in Cyrillic is %-escaped in it. */
function asciiHeader(text: string): string {
  return text.replace(/[^\x20-\x7e]+/g, (run) => encodeURIComponent(run));
}
import { errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { ShopService } from '../shops/service.js';
import type { CalculatorService } from './service.js';
import type { WidgetSettingsService } from './widget-settings.js';
import type { ShippingRuleSets } from './shipping-rule-sets.js';
import { shippingRuleRoutes } from './shipping-rules-routes.js';
import type { DeliveryType } from '../../carriers/types.js';
import {
  CalculatorBody,
  CalculatorResult,
  CompanyBody,
  CompanyIdsResult,
  DeliveryCompanyResult,
  WidgetSettings,
} from './schemas.js';
import { requiredShopHeader, type ExampleDoc } from '../../platform/openapi.js';
import { OWN_METHOD_ID_MAX_LENGTH, OWN_METHOD_ID_PATTERN, parseOwnMethodId } from '../delivery-methods/rules.js';

/** The docs page's example (a test replays it on a fresh instance). */
export const CALCULATOR_EXAMPLE: ExampleDoc = {
  summary: 'Москва to Санкт-Петербург, no shop',
  description: 'Without the Shop-Id header the sender locality and pickupType are given in the body.',
  value: {
    sender: { countryCode: 'RU', cityName: 'Москва' },
    reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' },
    pickupType: 1,
    products: [
      { priceDeclared: 800, priceCod: 900, count: 1, weight: 0.5, dimensions: { width: 15, height: 4, length: 22 } },
    ],
    priceDeclared: 800,
    priceCod: 900,
  },
};

const tags = ['Calculator'];

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim();
}

/** Company-Id: a company's number, or an own delivery method's '{accountId}_{methodId}' (convention 12) as it is. */
function companyIdOf(header: string): number | string {
  return header.includes('_') ? header : Number(header);
}

/** Companies left out of a calculation are logged, never failing the call. */
function logFailures(request: FastifyRequest) {
  return (companyId: number, reason: string) =>
    request.log.warn({ companyId, reason }, 'delivery company left out of the calculation');
}

/** The services these routes use, and no other. */
export interface CalculatorRouteServices {
  calculator: CalculatorService;
  shops: ShopService;
  widgetSettings: WidgetSettingsService;
  shippingRules: ShippingRuleSets;
}
export function calculatorRoutes(app: App, services: CalculatorRouteServices): void {
  shippingRuleRoutes(app, services);
  app.post(
    '/v2/calculator',
    {
      // changes nothing: a read for key scopes and the audit trail (platform/key-scopes.ts)
      config: { readOnly: true },
      schema: {
        operation: { id: 'calculateDelivery', contract: '4.12', examples: { calculator: CALCULATOR_EXAMPLE } },
        tags,
        summary: 'Calculate delivery across companies',
        description:
          'Header Shop-Id (optional): the sender is the shop\'s warehouse; without it give sender.* and pickupType. Answers keys "1" (pickup points), "2" (courier), "3" (national post); three empty arrays when nothing delivers, then with the header X-Calculation-Problem saying why when the service knows (`unknown_locality; <sentence>`: the recipient\'s locality is not in the directory).',
        body: CalculatorBody,
        response: { 200: CalculatorResult, ...errorResponses(403, 422) },
      },
    },
    async (request, reply) => {
      const shop = await services.shops.resolveShopHeader(request.scope, request.headers['shop-id'], false);
      // already JSON text: a big city's hundreds of points are joined from pre-serialised parts
      const answer = await services.calculator.calculateJson(request.scope, shop, request.body, {
        onCompanyFailed: logFailures(request),
      });
      // nothing delivers: the answer's shape is the contract's, so why goes in a header
      if (answer.length === NOTHING_DELIVERS_BYTES) {
        const unknown = services.calculator.unknownRecipient(request.body);
        if (unknown) reply.header(CALCULATION_PROBLEM_HEADER, `unknown_locality; ${asciiHeader(unknown)}`);
      }
      // a big city's points are hundreds of kB
      return sendJsonBody(request, reply, answer);
    },
  );

  app.post(
    '/v2/calculator/one',
    {
      // changes nothing: a read for key scopes and the audit trail (platform/key-scopes.ts)
      config: { readOnly: true },
      schema: {
        operation: {
          id: 'calculateDeliveryByCompany',
          contract: '4.12',
          headers: [
            requiredShopHeader('The shop whose warehouse sends the parcel.'),
            {
              name: 'Type',
              required: true,
              description: 'Delivery type: 1 pickup point, 2 courier, 3 national post.',
              schema: { type: 'integer', enum: [1, 2, 3] },
            },
            {
              name: 'Company-Id',
              required: true,
              description:
                "The delivery company to calculate (GET /v2/lists/delivery-companies), or an own delivery method as '{accountId}_{methodId}' (GET /v2/delivery-methods).",
              schema: {
                anyOf: [
                  { type: 'integer', minimum: 1, maximum: 999_999_999 },
                  { type: 'string', pattern: OWN_METHOD_ID_PATTERN, maxLength: OWN_METHOD_ID_MAX_LENGTH },
                ],
              },
            },
          ],
        },
        tags,
        summary: 'Calculate delivery by one company and type',
        description:
          'Headers Shop-Id, Type (1, 2 or 3) and Company-Id are required; body as /v2/calculator (type and companyIds come from the headers). One DeliveryCompany, or [] when it cannot deliver.',
        body: CalculatorBody,
        response: {
          200: { anyOf: [DeliveryCompanyResult, { type: 'array', maxItems: 0 }] },
          ...errorResponses(403, 422),
        },
      },
    },
    async (request, reply) => {
      const problems: ErrorItem[] = [];
      const type = header(request, 'type');
      const companyId = header(request, 'company-id');
      if (!type) problems.push({ field: 'Type', message: 'is required' });
      else if (!/^[123]$/.test(type)) problems.push({ field: 'Type', message: 'must be 1, 2 or 3' });
      if (!companyId) problems.push({ field: 'Company-Id', message: 'is required' });
      else if (!/^[1-9]\d{0,8}$/.test(companyId) && !parseOwnMethodId(companyId))
        problems.push({
          field: 'Company-Id',
          message: "must be a delivery company id, or an own delivery method's '{accountId}_{methodId}'",
        });
      const shop = await services.shops.resolveShopHeader(request.scope, request.headers['shop-id'], true);
      if (problems.length)
        throw new AppError(400, 'validation_failed', `${problems[0].field}: ${problems[0].message}`, problems);
      const json = await services.calculator.calculateOneJson(
        request.scope,
        shop,
        request.body,
        Number(type) as DeliveryType,
        companyIdOf(companyId as string),
        logFailures(request),
      );
      return reply.type('application/json; charset=utf-8').send(json as unknown as DeliveryCompanyResult);
    },
  );

  app.post(
    '/v2/calculator/company',
    {
      // changes nothing: a read for key scopes and the audit trail (platform/key-scopes.ts)
      config: { readOnly: true },
      schema: {
        operation: {
          id: 'listDeliveringCompanies',
          contract: '4.12',
          headers: [requiredShopHeader('The shop whose widget settings and warehouse apply.')],
        },
        tags,
        summary: 'Which companies deliver to a place',
        description:
          'Header Shop-Id required. Answers, per delivery type, the ids of the companies that can deliver there.',
        body: CompanyBody,
        response: { 200: CompanyIdsResult, ...errorResponses(403) },
      },
    },
    async (request) => {
      const shop = await services.shops.resolveShopHeader(request.scope, request.headers['shop-id'], true);
      if (!shop) throw new AppError(400, 'shop_id_required', 'The Shop-Id header is required for this call.');
      return services.calculator.companiesFor(request.scope, shop, request.body);
    },
  );

  app.get(
    '/v2/shops/:id/widget-settings',
    {
      schema: {
        operation: { id: 'getWidgetSettings' },
        tags: ['Shops'],
        summary: 'Widget settings of a shop (extension)',
        description:
          'Defaults and price rules used by the calculator when a call sends applyWidgetSettings / applyDefaultDimensions.',
        params: IdParams,
        response: { 200: WidgetSettings, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.widgetSettings.get(request.scope, request.params.id),
  );

  app.put(
    '/v2/shops/:id/widget-settings',
    {
      schema: {
        operation: { id: 'replaceWidgetSettings' },
        tags: ['Shops'],
        summary: 'Replace the widget settings of a shop (extension)',
        params: IdParams,
        body: WidgetSettings,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.widgetSettings.put(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );
}
