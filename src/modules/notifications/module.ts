/** modules/notifications, the area definition (src/modules.ts lists it): Notifications made from order events, and their e-mails. */
import { defineModule } from '../../platform/module.js';
import { notificationRoutes, type NotificationsRouteServices } from './routes.js';
import { NotificationView } from './schemas.js';
import type { NotificationTables } from './tables.js';

export const notificationsModule = defineModule<NotificationsRouteServices, NotificationTables>({
  area: 'notifications',
  purpose: 'Notifications made from order events, and their e-mails.',
  offers: ['notifications'],
  dependsOn: ['events', 'shops', 'accounts', 'orders', 'lists'],
  migrationHistory: ['0008_events'],
  tags: [{ name: 'Notifications', description: 'Notifications of the caller (extension; contract 6).' }],
  schemas: { Notification: NotificationView },
  routes: notificationRoutes,
  jobs: (worker, services) => {
    services.notifications.registerJobs(worker);
  },
  schedules: async (services) => {
    await services.notifications.scheduleDispatch();
  },
});
