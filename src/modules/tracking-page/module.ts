/** modules/tracking-page, the area definition (src/modules.ts lists it): The recipients' public tracking page behind every trackingUrl of a built-in company. */
import { defineModule } from '../../platform/module.js';
import { trackingPageRoutes, type TrackingPageRouteServices } from './routes.js';

export const trackingPageModule = defineModule<TrackingPageRouteServices>({
  area: 'tracking-page',
  purpose: "The recipients' public tracking page behind every trackingUrl of a built-in company.",
  offers: ['trackingPage'],
  dependsOn: ['orders', 'companies', 'lists', 'accounts'],
  migrationHistory: [],
  routes: trackingPageRoutes,
});
