import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/schemas.js';
import type { EventService } from './service.js';
import { EventListQuery, EventSchema } from './schemas.js';

const tags = ['Events'];

/** The services these routes use, and no other. */
export interface EventsRouteServices {
  events: EventService;
}
export function eventRoutes(app: App, services: EventsRouteServices): void {
  app.get(
    '/v2/events',
    {
      schema: {
        operation: { id: 'listEvents' },
        tags,
        summary: 'Order events after a cursor (extension)',
        description:
          "The account's order events in id order, for syncing statuses without polling every order: call with afterId=0, then with the id of the last event received, until the answer is empty. " +
          "Ids only grow, and an event never appears behind an id already answered. Events are kept 30 days. A shop API key sees only its shop's events.",
        querystring: EventListQuery,
        response: { 200: Type.Array(EventSchema), ...errorResponses(403) },
      },
    },
    async (request) => services.events.list(request.scope, request.query),
  );
}
