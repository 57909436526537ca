/** modules/events, the area definition (src/modules.ts lists it): The order events outbox every order change writes, read by cursor. */
import { defineModule } from '../../platform/module.js';
import { eventRoutes, type EventsRouteServices } from './routes.js';
import { EventSchema } from './schemas.js';
import type { EventTables } from './tables.js';

export const eventsModule = defineModule<EventsRouteServices, EventTables>({
  area: 'events',
  purpose: 'The order events outbox every order change writes, read by cursor.',
  offers: ['events'],
  dependsOn: [],
  migrationHistory: ['0008_events'],
  tags: [{ name: 'Events', description: 'Order events after a cursor (extension; contract 6 leaves delivery open).' }],
  schemas: { Event: EventSchema },
  routes: eventRoutes,
  jobs: (worker, services) => {
    services.events.registerJobs(worker);
  },
  schedules: async (services) => {
    await services.events.schedulePurge();
  },
});
