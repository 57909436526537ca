/** modules/widget, the area definition (src/modules.ts lists it): The checkout widget: publishable keys, the page API, selections confirmed by the shop server. */
import { defineModule } from '../../platform/module.js';
import { widgetPreviewKeys } from './migrations/0094_widget_preview_keys.js';
import { widgetCors, widgetRoutes, type WidgetRouteServices } from './routes.js';
import type { Config } from '../../config.js';
import type { WidgetTables } from './tables.js';

export const widgetModule = defineModule<
  WidgetRouteServices & { config: Pick<Config, 'widgetRateLimitPerMinute' | 'widgetDir'> },
  WidgetTables
>({
  area: 'widget',
  purpose: 'The checkout widget: publishable keys, the page API, selections confirmed by the shop server.',
  offers: ['widget'],
  dependsOn: ['shops', 'companies', 'calculator', 'orders', 'accounts'],
  migrationHistory: ['0040_checkout_widget'],
  migrations: [widgetPreviewKeys],
  tags: [
    {
      name: 'Checkout widget',
      description:
        "Extension: the shop's publishable widget key, the calls the checkout widget makes from a shop's page under /widget/v1/api/ (the key in `key`, CORS by the key's origins, prices from the shop's widget settings) and the shop server's confirm of a buyer's selection.",
    },
  ],
  cors: widgetCors,
  routes: (app, services) =>
    widgetRoutes(app, services, {
      perMinute: services.config.widgetRateLimitPerMinute,
      directory: services.config.widgetDir,
    }),
  hourly: (services) => ({ 'expired widget selection purge': () => services.widget.purgeExpiredSelections() }),
});
