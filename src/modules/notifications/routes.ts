import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { errorResponses, NoContent } from '../../platform/schemas.js';
import type { NotificationService } from './service.js';
import { NotificationListQuery, NotificationView, ReadBody } from './schemas.js';

const tags = ['Notifications'];

/** The services these routes use, and no other. */
export interface NotificationsRouteServices {
  notifications: NotificationService;
}
export function notificationRoutes(app: App, services: NotificationsRouteServices): void {
  app.get(
    '/v2/notifications',
    {
      schema: {
        operation: { id: 'listNotifications' },
        tags,
        summary: "The caller's notifications, newest first (extension)",
        description:
          "An employee login sees the employee's notifications, an account token the account owner's. Which events notify whom is set per shop in Shop.notifications.",
        querystring: NotificationListQuery,
        response: { 200: { ...Type.Array(NotificationView), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.notifications.list(request.scope, request.query, at), at);
    },
  );

  app.post(
    '/v2/notifications/read',
    {
      schema: {
        operation: { id: 'markNotificationsRead' },
        tags,
        summary: "Mark the caller's notifications read (extension)",
        body: ReadBody,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.notifications.markRead(request.scope, request.body.ids);
      return reply.code(204).send();
    },
  );
}
