import type { App } from '../../platform/http.js';
import type { ContractCompanies } from '../../carriers/contracts.js';
import type { ReferenceData } from './reference.js';

/** The services these routes use, and no other. */
export interface CompaniesRouteServices {
  contractCompanies: ContractCompanies;
  reference: ReferenceData;
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

export function companyLogoRoutes(app: App, services: CompaniesRouteServices): void {
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
}
