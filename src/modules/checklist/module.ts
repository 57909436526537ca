/** modules/checklist, the area definition (src/modules.ts lists it): the first-run checklist of an account, computed from its data. */
import { defineModule } from '../../platform/module.js';
import { checklistRoutes, type ChecklistRouteServices } from './routes.js';
import { Checklist } from './schemas.js';

export const checklistModule = defineModule<ChecklistRouteServices>({
  area: 'checklist',
  purpose: "The first-run checklist of an account: each set-up step's tick computed from its data.",
  offers: ['checklist'],
  dependsOn: ['warehouses', 'shops', 'carrier-integrations', 'widget', 'orders'],
  migrationHistory: [],
  tags: [
    {
      name: 'First-run checklist (extension)',
      description:
        "Extension: what an account has set up of warehouse, shop, delivery companies, checkout widget, a test order and a CMS plugin, each read from the data (the dashboard's landing page while a step is left).",
    },
  ],
  schemas: { Checklist },
  routes: checklistRoutes,
});
