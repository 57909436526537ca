import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { Instant, Nullable, RecordId, ZeroOne } from '../../platform/schemas.js';
import { NOTIFICATION_TYPES } from './rules.js';

export const NotificationListQuery = Type.Object({
  unread: Type.Optional(ZeroOne),
  ...PagingQueryFields,
});
export type NotificationListQuery = Static<typeof NotificationListQuery>;

export const NotificationView = Type.Object(
  {
    id: Type.Integer(),
    type: Type.Enum([...NOTIFICATION_TYPES], {
      description: 'The shop flag (notifications.events.*) that asked for it',
    }),
    text: Type.String({ description: 'A sentence for the person' }),
    eventId: Type.Integer({
      description:
        'The order event it was made from (GET /v2/events); for webhookDisabled, the webhook delivery that failed last (GET /v2/webhooks/{id}/deliveries)',
    }),
    orderId: Nullable(Type.Integer({ description: 'null for a notice of no order (a supply accepted)' })),
    shopId: Nullable(Type.Integer()),
    createdAt: Instant,
    read: Type.Boolean(),
    readAt: Nullable(Instant),
    email: Type.Enum(['none', 'pending', 'sent', 'failed'], {
      description: 'E-mail delivery: none (no SMTP server or no address), pending, sent, failed (after every retry)',
    }),
  },
  { description: 'A notification of the caller' },
);
export type NotificationView = Static<typeof NotificationView>;

export const ReadBody = Type.Object({
  ids: Type.Array(RecordId(), { minItems: 1, maxItems: 1000, description: 'Notification ids' }),
});
export type ReadBody = Static<typeof ReadBody>;
