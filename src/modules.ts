/**
 * The one list of areas. The app registers their hooks and routes from it (`app.ts`), the
 * CLI their jobs, schedules, upkeep and background work (`main.ts`), the migrator their
 * migrations (`bootstrap.ts`), the OpenAPI plan their tags and models (`api-document.ts`),
 * and the table type their tables (`src/tables.ts`). Adding an area: its folder with a
 * `module.ts`, a line here, its services in `services.ts` (CONTRIBUTING.md).
 */
import type { Config } from './config.js';
import type { ModuleDefinition } from './platform/module.js';
import type { Services } from './services.js';
import { accountsModule } from './modules/accounts/module.js';
import { addressesModule } from './modules/addresses/module.js';
import { auditModule } from './modules/audit/module.js';
import { buyerMessagesModule } from './modules/buyer-messages/module.js';
import { boxesModule } from './modules/boxes/module.js';
import { checklistModule } from './modules/checklist/module.js';
import { calculatorModule } from './modules/calculator/module.js';
import { carrierIntegrationsModule } from './modules/carrier-integrations/module.js';
import { companiesModule } from './modules/companies/module.js';
import { dashboardModule } from './modules/dashboard/module.js';
import { deliveryPromisesModule } from './modules/delivery-promises/module.js';
import { deliveryMethodsModule } from './modules/delivery-methods/module.js';
import { documentsModule } from './modules/documents/module.js';
import { eventsModule } from './modules/events/module.js';
import { fulfilmentModule } from './modules/fulfilment/module.js';
import { kitsModule } from './modules/kits/module.js';
import { listsModule } from './modules/lists/module.js';
import { localitiesModule } from './modules/localities/module.js';
import { marketplaceOrdersModule } from './modules/marketplace-orders/module.js';
import { marketplacesModule } from './modules/marketplaces/module.js';
import { mcpModule } from './modules/mcp/module.js';
import { notificationsModule } from './modules/notifications/module.js';
import { ordersModule } from './modules/orders/module.js';
import { pickupsModule } from './modules/pickups/module.js';
import { productsModule } from './modules/products/module.js';
import { reportsModule } from './modules/reports/module.js';
import { returnsModule } from './modules/returns/module.js';
import { sandboxModule } from './modules/sandbox/module.js';
import { shopsModule } from './modules/shops/module.js';
import { trackingPageModule } from './modules/tracking-page/module.js';
import { warehousesModule } from './modules/warehouses/module.js';
import { webhooksModule } from './modules/webhooks/module.js';
import { widgetModule } from './modules/widget/module.js';

/** In the order routes register (the order of the OpenAPI document's tags). */
export const MODULES = [
  accountsModule,
  listsModule,
  localitiesModule,
  addressesModule,
  warehousesModule,
  shopsModule,
  boxesModule,
  companiesModule,
  deliveryPromisesModule,
  calculatorModule,
  productsModule,
  kitsModule,
  ordersModule,
  documentsModule,
  eventsModule,
  notificationsModule,
  buyerMessagesModule,
  trackingPageModule,
  returnsModule,
  fulfilmentModule,
  pickupsModule,
  marketplacesModule,
  marketplaceOrdersModule,
  reportsModule,
  deliveryMethodsModule,
  carrierIntegrationsModule,
  sandboxModule,
  webhooksModule,
  widgetModule,
  checklistModule,
  dashboardModule,
  auditModule,
  mcpModule,
] as const;

/** What every area's routes, jobs and schedules are handed: the services and the configuration (each takes only what its type names). */
export type AreaContext = Services & { config: Config };

/** The same list, as the app and the CLI iterate it. */
export const AREAS: readonly ModuleDefinition<AreaContext>[] = MODULES;
