/** modules/webhooks, the area definition (src/modules.ts lists it): Webhook endpoints and the shops' CMS callbacks fed from the events outbox. */
import type { Config } from '../../config.js';
import type { JobQueue } from '../../platform/jobs.js';
import { defineModule } from '../../platform/module.js';
import { WebhookPump } from './pump.js';
import { webhookRoutes, type WebhooksRouteServices } from './routes.js';
import { AttemptView, CmsCallbacksView, DeliveryView, WebhookSecret, WebhookView } from './schemas.js';
import type { WebhookTables } from './tables.js';

export const webhooksModule = defineModule<
  WebhooksRouteServices & { jobs: JobQueue; config: Pick<Config, 'webhookConcurrency'> },
  WebhookTables
>({
  area: 'webhooks',
  purpose: "Webhook endpoints and the shops' CMS callbacks fed from the events outbox.",
  offers: ['webhooks'],
  dependsOn: ['events', 'shops', 'accounts', 'orders', 'notifications', 'fulfilment'],
  migrationHistory: ['0030_webhooks'],
  tags: [
    {
      name: 'Webhooks',
      description:
        "Extension: order events pushed to the account's endpoints (Standard Webhooks signatures), and the old shop plugins' CMS callbacks (order-status-update, product-quantity-update).",
    },
  ],
  schemas: {
    Webhook: WebhookView,
    WebhookSecret,
    WebhookDelivery: DeliveryView,
    WebhookAttempt: AttemptView,
    CmsCallbacks: CmsCallbacksView,
  },
  routes: webhookRoutes,
  hourly: (services) => ({ 'webhook delivery purge': () => services.webhooks.purgeOld() }),
  // the dispatcher of deliveries: one process sends to WEBHOOK_CONCURRENCY endpoints at once
  background: (services, log) => [
    new WebhookPump(services.webhooks, services.jobs, log, {
      concurrency: services.config.webhookConcurrency,
      pollMs: 500,
    }),
  ],
});
