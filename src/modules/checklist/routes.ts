import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/schemas.js';
import { Checklist } from './schemas.js';
import type { ChecklistService } from './service.js';

/** The services these routes use, and no other. */
export interface ChecklistRouteServices {
  checklist: ChecklistService;
}

export function checklistRoutes(app: App, services: ChecklistRouteServices): void {
  app.get(
    '/v2/account/checklist',
    {
      schema: {
        operation: { id: 'getSetUpChecklist' },
        tags: ['First-run checklist (extension)'],
        summary: "The account's first-run checklist: which set-up steps are done",
        description:
          "Each tick is computed from the account's data when asked: a warehouse, a shop, a contract with a real company, a shop's widget key with an allowed origin, an order from a widget selection with its sticker, a shop's API key that has called. Account tokens and owners only (a manager or a shop key: 403).",
        response: { 200: Checklist, ...errorResponses(403) },
      },
    },
    async (request) => services.checklist.of(request.scope),
  );
}
