/** modules/dashboard, the area definition (src/modules.ts lists it): the merchant dashboard served at /app/. */
import type { Config } from '../../config.js';
import { defineModule } from '../../platform/module.js';
import { dashboardRoutes } from './routes.js';

export const dashboardModule = defineModule<{
  config: Pick<Config, 'appDir' | 'appMapTiles' | 'appMapAttribution' | 'signup'>;
}>({
  area: 'dashboard',
  purpose: 'The merchant dashboard (a React app at /app/) over the public API, signed in by a cookie session.',
  offers: [],
  dependsOn: ['accounts'],
  migrationHistory: [],
  routes: (app, services) => dashboardRoutes(app, services.config),
});
