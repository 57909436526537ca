import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { Instant, Nullable, RecordId } from '../../platform/schemas.js';
import { EventTypeSchema } from '../events/schemas.js';
import { CMS_PLATFORMS } from './cms-callbacks.js';

const Url = (description: string) =>
  Type.String({ minLength: 1, maxLength: 2000, description, examples: ['https://shop.example.com/hooks/delivery'] });

export const WebhookInput = Type.Object({
  url: Url(
    'Where events are POSTed (http or https). It may not resolve to a loopback, private, link-local or metadata address unless the instance allows private targets.',
  ),
  eventTypes: Type.Optional(
    Type.Array(EventTypeSchema, { maxItems: 20, description: 'Only these event types; empty or absent: every type' }),
  ),
  enabled: Type.Optional(
    Type.Boolean({
      default: true,
      description: 'false: nothing is queued for it; true again clears a disable after failures',
    }),
  ),
  description: Type.Optional(Type.String({ maxLength: 500, default: '' })),
  shopId: Type.Optional(
    RecordId("Only this shop's events; absent: every event of the account (a shop API key: its shop)"),
  ),
});
export type WebhookInput = Static<typeof WebhookInput>;

export const WebhookListQuery = Type.Object({
  shopId: Type.Optional(RecordId('Only endpoints of this shop')),
  ...PagingQueryFields,
});
export type WebhookListQuery = Static<typeof WebhookListQuery>;

export const WebhookView = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Enum(['webhook', 'cms'], {
      description: "webhook: Standard Webhooks JSON; cms: a shop plugin's callbacks (PUT /v2/shops/{id}/cms-callbacks)",
    }),
    url: Type.String(),
    shopId: Nullable(Type.Integer()),
    eventTypes: Type.Array(EventTypeSchema),
    enabled: Type.Boolean(),
    description: Type.String(),
    disabledReason: Nullable(
      Type.String({ description: 'Why the service disabled it (failing for longer than the disable window)' }),
    ),
    failingSince: Nullable(Instant),
    createdAt: Instant,
    updatedAt: Instant,
  },
  { description: 'A webhook endpoint' },
);
export type WebhookView = Static<typeof WebhookView>;

export const WebhookSecret = Type.Object({
  id: Type.Integer(),
  secret: Type.String({
    description:
      'The signing secret (whsec_ + base64), shown only now: verify webhook-signature with it by the Standard Webhooks scheme',
  }),
  previousSecretValidUntil: Nullable(Instant),
});

export const DeliveryListQuery = Type.Object({
  status: Type.Optional(
    Type.Enum(['pending', 'delivered', 'failed'], {
      description:
        'Only deliveries in this state: pending (owed), delivered (a 2xx taken), failed (given up when the endpoint was disabled)',
    }),
  ),
  ...PagingQueryFields,
});
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;

export const DeliveryView = Type.Object(
  {
    id: Type.Integer(),
    eventId: Nullable(Type.Integer({ description: 'The event (GET /v2/events); null for a test message' })),
    messageId: Type.String({
      description: 'webhook-id: the event id, so receivers deduplicate across retries and /v2/events',
    }),
    type: Type.String(),
    orderId: Nullable(Type.Integer()),
    resource: Nullable(Type.String({ description: 'cms: the plugin resource called' })),
    status: Type.Enum(['pending', 'delivered', 'failed'], {
      description: 'failed: given up when the endpoint was disabled; POST .../redeliver sends it again',
    }),
    attempts: Type.Integer(),
    lastStatus: Nullable(Type.Integer()),
    lastError: Nullable(Type.String()),
    deliveredAt: Nullable(Instant),
    createdAt: Instant,
  },
  { description: 'A message owed to an endpoint' },
);

export const AttemptListQuery = Type.Object({
  deliveryId: Type.Optional(RecordId('Only attempts of this delivery')),
  ...PagingQueryFields,
});
export type AttemptListQuery = Static<typeof AttemptListQuery>;

export const AttemptView = Type.Object(
  {
    id: Type.Integer(),
    deliveryId: Type.Integer(),
    at: Instant,
    durationMs: Type.Integer(),
    httpStatus: Nullable(
      Type.Integer({ description: 'null: no answer (timeout, refused connection, refused target)' }),
    ),
    error: Nullable(Type.String()),
    responseHead: Nullable(Type.String({ description: "The answer's first bytes" })),
  },
  { description: 'One attempt to deliver' },
);

export const DeliveryParams = Type.Object({ id: RecordId('Webhook endpoint'), deliveryId: RecordId('Delivery') });

export const Queued = Type.Object({
  deliveryId: Type.Integer({ description: 'The delivery queued; follow it in GET /v2/webhooks/{id}/deliveries' }),
});

export const CmsCallbacksInput = Type.Object({
  platform: Type.Enum([...CMS_PLATFORMS], { description: 'Which plugin: its wire format and headers' }),
  apiUrl: Url(
    'The plugin\'s API path as it documents it ("Путь к API CMS"), the resource name is appended: https://shop.ru/wp-json/saferoute-api/, https://shop.ru/bitrix/components/saferoute.widget/api/, https://shop.ru/index.php?route=extension/module/saferoute/api/, https://shop.ru/delivery/get/saferoute/api/',
  ),
  statusMap: Type.Optional(
    Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 100 }), {
      description:
        'Our status code -> the CMS status id (statusCMS), e.g. {"44": "wc-completed"}; ids from GET .../cms-callbacks/options',
    }),
  ),
  apiKey: Type.Optional(
    Type.String({ maxLength: 200, description: 'Diafan: its "API-ключ для интеграции", sent as Api-Key' }),
  ),
  enabled: Type.Optional(Type.Boolean({ default: true })),
});
export type CmsCallbacksInput = Static<typeof CmsCallbacksInput>;

export const CmsCallbacksView = Type.Object(
  {
    webhookId: Type.Integer({ description: 'Its deliveries and attempts: GET /v2/webhooks/{webhookId}/deliveries' }),
    platform: Type.Enum([...CMS_PLATFORMS], {
      description: 'woocommerce, bitrix, opencart or diafan: the plugin whose wire format is used',
    }),
    apiUrl: Type.String(),
    statusMap: Type.Record(Type.String(), Type.String()),
    apiKey: Nullable(Type.String({ description: 'Masked' })),
    enabled: Type.Boolean(),
    disabledReason: Nullable(Type.String()),
  },
  {
    description:
      "A shop's CMS callbacks: order-status-update on every status change, product-quantity-update (WooCommerce, when the shop sends quantity to its CMS)",
  },
);
export type CmsCallbacksView = Static<typeof CmsCallbacksView>;

export const CmsOptions = Type.Object({
  statuses: Type.Record(Type.String(), Type.String(), { description: "The CMS's statuses.json: {id: name}" }),
  paymentMethods: Type.Record(Type.String(), Type.String(), {
    description: "The CMS's payment-methods.json: {id: title}",
  }),
});
