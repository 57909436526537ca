/** Parts of the composition root (services.ts) that read the configuration at length: kept apart so it stays readable. */
import type { ServiceConfig } from './config.js';
import { ContractCompanies } from './carriers/contracts.js';
import { DEFAULT_REMOTE_POLICY } from './carriers/remote-call.js';
import { marketplaceAdapters } from './marketplaces/registry.js';
import type { Metrics } from './platform/metrics.js';
import type { SecretBox } from './platform/crypto.js';
import type { Kysely } from 'kysely';
import type { Tables } from './platform/db/tables.js';
import { AddressCleaner } from './modules/addresses/clean.js';
import { DadataClient } from './modules/addresses/dadata-client.js';
import { AddressDirectory } from './modules/addresses/directory.js';
import { AddressSearch } from './modules/addresses/search.js';
import { AddressService } from './modules/addresses/service.js';
import { AddressStore } from './modules/addresses/store.js';
import { SuggestionAnswers } from './modules/addresses/suggestion-answers.js';

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

/** The address register's service with its shares of CACHE_MB: the streets of localities, and suggestion answers. */
export function addressServiceFor(
  config: ServiceConfig,
  db: Kysely<Tables>,
  secretBox: SecretBox,
  metrics: Metrics,
): AddressService {
  const store = new AddressStore(db);
  // an eighth of CACHE_MB: the streets of the localities addresses are typed in (the read cache gave it up)
  const directory = new AddressDirectory(store, { cacheBytes: (config.cacheMb / 8) * 1024 * 1024 });
  const search = new AddressSearch(directory, store);
  return new AddressService(
    search,
    new AddressCleaner(directory, store, search.walk),
    store,
    directory,
    secretBox,
    new DadataClient({ suggestions: config.dadataSuggestionsUrl, cleaner: config.dadataCleanerUrl }, metrics),
    // a sixteenth of CACHE_MB (the read cache gave it up): street suggestions gzipped are ~0.9 kB, so ~4,500 by default
    new SuggestionAnswers((config.cacheMb / 16) * 1024 * 1024),
  );
}
