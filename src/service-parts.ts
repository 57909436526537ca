/** Parts of the composition root (services.ts) that read the configuration at length: kept apart so it stays readable. */
import type { ServiceConfig } from './config.js';
import { ContractCompanies } from './carriers/contracts.js';
import { DEFAULT_REMOTE_POLICY } from './carriers/remote-call.js';
import { marketplaceAdapters } from './marketplaces/registry.js';
import type { Metrics } from './platform/metrics.js';

/** The real delivery companies' clients, at the configured addresses, with the configured deadline. */
export function contractCompaniesFor(config: ServiceConfig, metrics: Metrics): ContractCompanies {
  return new ContractCompanies(
    {
      cdek: config.carrierCdekUrl,
      cdekTest: config.carrierCdekTestUrl,
      boxberry: config.carrierBoxberryUrl,
      russianPost: config.carrierRussianPostUrl,
      russianPostTracking: config.carrierRussianPostTrackingUrl,
      yandexDelivery: config.carrierYandexDeliveryUrl,
      yandexDeliveryTest: config.carrierYandexDeliveryTestUrl,
    },
    { ...DEFAULT_REMOTE_POLICY, timeoutMs: config.carrierTimeoutMs },
    metrics,
  );
}

/** The marketplaces' clients at the configured addresses (the sandbox's own pace of new orders). */
export function marketplaceAdaptersFor(config: ServiceConfig): ReturnType<typeof marketplaceAdapters> {
  return marketplaceAdapters({
    ozonUrl: config.marketplaceOzonUrl,
    wildberriesUrl: config.marketplaceWildberriesUrl,
    yandexMarketUrl: config.marketplaceYandexUrl,
    sandboxOrderSeconds: config.marketplaceSandboxOrderSeconds,
  });
}
