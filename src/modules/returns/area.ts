/** The returns area's three parts built together: the rules, the buyer's page, and the parcels' follower. */
import type { Kysely } from 'kysely';
import { processScope } from '../../platform/auth.js';
import type { AccountReadCache } from '../../platform/cache.js';
import type { BuyerMessageService } from '../buyer-messages/service.js';
import type { Tables } from '../../platform/db/tables.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { FileStore } from '../../platform/files.js';
import type { ReferenceData } from '../companies/reference.js';
import type { EventService } from '../events/service.js';
import type { OrderService } from '../orders/service.js';
import type { AccountZones } from '../orders/tracking.js';
import type { ShopService } from '../shops/service.js';
import { type BrandStyle, ReturnPages } from './buyer.js';
import type { ReturnLinks } from './links.js';
import { ReturnParcels } from './parcels.js';
import { ReturnService } from './service.js';
import { ReturnStore } from './store.js';

export interface ReturnsArea {
  returns: ReturnService;
  returnPages: ReturnPages;
  returnParcels: ReturnParcels;
}

export function createReturnsArea(deps: {
  db: Kysely<Tables>;
  orders: OrderService;
  shops: ShopService;
  reference: ReferenceData;
  files: FileStore;
  links: ReturnLinks;
  readCache: AccountReadCache;
  accounts: AccountZones;
  events: EventService;
  jobs: JobQueue;
  buyerMessages: BuyerMessageService;
}): ReturnsArea {
  const { db, orders, shops, reference, links } = deps;
  const returns = new ReturnService(new ReturnStore(db), orders, shops, reference, deps.files, links, deps.readCache);
  // the page wears the shop's colours and logo as its buyer messages do
  const brandStyle: BrandStyle = async (accountId, shopId) => {
    const brand = (await deps.buyerMessages.settings(processScope(accountId), shopId)).brand;
    return { color: brand.color, logoUrl: brand.logoUrl };
  };
  const returnPages = new ReturnPages(links, returns, orders, shops, deps.accounts, reference, brandStyle);
  const returnParcels = new ReturnParcels(new ReturnStore(db), returns, orders, deps.events, deps.jobs, {
    dispatchSeconds: 5,
  });
  return { returns, returnPages, returnParcels };
}
