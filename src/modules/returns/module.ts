/** modules/returns, the area definition (src/modules.ts lists it): returns a buyer starts, their parcels, the buyer's page. */
import type { App } from '../../platform/http.js';
import { defineModule } from '../../platform/module.js';
import { returnsTable } from './migrations/0103_returns.js';
import { returnSettingsTable } from './migrations/0104_return_settings.js';
import type { ReturnParcels } from './parcels.js';
import { returnRoutes, type ReturnRouteServices } from './routes.js';
import { ReturnSchema, ReturnSettingsView } from './schemas.js';
import { returnPageRoutes, type ReturnPageRouteServices } from './site-routes.js';
import type { ReturnTables } from './tables.js';

export const returnsModule = defineModule<
  ReturnRouteServices & ReturnPageRouteServices & { returnParcels: ReturnParcels },
  ReturnTables
>({
  area: 'returns',
  purpose:
    "Returns a buyer starts from a delivered order: the shop's rules, approval, the return parcel with the company, the buyer's returns page.",
  offers: ['returns', 'returnPages', 'returnParcels'],
  dependsOn: ['orders', 'shops', 'companies', 'events', 'accounts'],
  migrationHistory: [],
  migrations: [returnsTable, returnSettingsTable],
  tags: [
    {
      name: 'Returns (extension)',
      description:
        "Extension: a buyer returns goods of a delivered order on the shop's returns page (/site/returns/…, by a signed link from the tracking page and the delivered message, or by order number and phone), or the shop makes the return itself. Lines with a reason from a closed list and photos; the way back the shop allows (a point of a chosen company near the buyer, its courier, the post) with its cost and who pays; a return code and QR code. The shop approves it, or its rules do (reason, value, days since delivery); on approval the return parcel, an order in the reverse direction (returnOf), is registered with the company (its own return product where it has one), and its statuses move the return. Events return.* carry the lines, sums and costs to webhooks and CMS callbacks, so a CMS can refund.",
    },
  ],
  schemas: { Return: ReturnSchema, ReturnSettings: ReturnSettingsView },
  routes: (app: App, services) => {
    returnRoutes(app, services);
    returnPageRoutes(app, services);
  },
  jobs: (worker, services) => services.returnParcels.registerJobs(worker),
  schedules: async (services) => {
    await services.returnParcels.scheduleDispatch();
  },
});

declare module '../../platform/cache.js' {
  interface CacheTopics {
    returns: 'pages and counts of the account’s returns (returns/service.ts)';
  }
}
