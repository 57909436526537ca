/** Which adapter speaks to which marketplace of data/marketplaces.json (by its `code`). */
import { OzonAdapter } from './ozon/index.js';
import { SandboxAdapter } from './sandbox/index.js';
import type { MarketplaceAdapter } from './types.js';
import { WildberriesAdapter } from './wildberries/index.js';
import { YandexMarketAdapter } from './yandex/index.js';

export interface MarketplaceEndpoints {
  ozonUrl: string;
  wildberriesUrl: string;
  yandexMarketUrl: string;
  sandboxOrderSeconds: number;
}

export function marketplaceAdapters(endpoints: MarketplaceEndpoints): Map<string, MarketplaceAdapter> {
  const trim = (url: string) => url.replace(/\/+$/, '');
  return new Map<string, MarketplaceAdapter>([
    ['ozon', new OzonAdapter(trim(endpoints.ozonUrl))],
    ['wildberries', new WildberriesAdapter(trim(endpoints.wildberriesUrl))],
    ['yandex', new YandexMarketAdapter(trim(endpoints.yandexMarketUrl))],
    ['sandbox', new SandboxAdapter(endpoints.sandboxOrderSeconds * 1000)],
  ]);
}
