import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/schemas.js';
import type { ContractCompanies } from '../../carriers/contracts.js';
import type { ShopService } from '../shops/service.js';
import type { ReferenceData } from './reference.js';
import type { DeliveryCompanyService } from './service.js';
import { OrderShipmentQuery, ShipmentOption } from './schemas.js';

/** The services these routes use, and no other. */
export interface CompaniesRouteServices {
  contractCompanies: ContractCompanies;
  deliveryCompanies: DeliveryCompanyService;
  reference: ReferenceData;
  shops: ShopService;
}
/** A plain logo for a company that ships none: its initials on a colour of its own. */
export function logoSvg(name: string, code: string): string {
  let hue = 0;
  for (const char of code) hue = (hue * 31 + char.charCodeAt(0)) % 360;
  const initials = name
    .split(/[\s-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0].toUpperCase())
    .join('')
    .replace(/[<>&"']/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="18" fill="hsl(${hue},60%,42%)"/><text x="48" y="60" font-family="sans-serif" font-size="36" font-weight="bold" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
}

export function deliveryCompanyRoutes(app: App, services: CompaniesRouteServices): void {
  app.get<{ Params: { file: string } }>(
    '/logos/:file',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const code = request.params.file.replace(/\.svg$/, '');
      // the instance's companies, and the real ones an account may contract with (their cards name this address too)
      const company =
        services.reference.registry.all().find((entry) => entry.company.code === code)?.company ??
        services.contractCompanies.all().find((entry) => entry.file.code === code)?.file;
      if (!company)
        return reply.code(404).send({ code: 'not_found', message: 'No such logo.', errors: [], logId: request.id });
      return reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .send(logoSvg(company.name, company.code));
    },
  );

  app.get(
    '/v2/orders/shipment',
    {
      schema: {
        operation: { id: 'listOrderShipmentOptions', contract: '4.4' },
        tags: ['Orders'],
        summary: 'Shipment options for a company and pickup type',
        description:
          "The next 3 working days (Monday to Friday). Extension: with the header Shop-Id (or a shop key) and pickupType 4, the days skip the shop warehouse's holidays and days off, when no pickup collects and an order naming such a pickup.date is refused.",
        querystring: OrderShipmentQuery,
        response: { 200: Type.Array(ShipmentOption), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const shop = await services.shops.resolveShopHeader(request.scope, request.headers['shop-id'], false);
      return services.deliveryCompanies.orderShipment(request.scope, request.query, shop?.warehouse ?? null);
    },
  );
}
