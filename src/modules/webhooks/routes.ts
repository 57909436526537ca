import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { WebhookService } from './service.js';
import {
  AttemptListQuery,
  AttemptView,
  CmsCallbacksInput,
  CmsCallbacksView,
  CmsOptions,
  DeliveryListQuery,
  DeliveryParams,
  DeliveryView,
  Queued,
  WebhookInput,
  WebhookListQuery,
  WebhookSecret,
  WebhookView,
} from './schemas.js';

const tags = ['Webhooks'];
const SCHEME =
  'Messages are POSTed as JSON {type, timestamp, data} (data: the event as GET /v2/events answers it) and signed by the Standard Webhooks scheme: headers webhook-id (the event id, the same as in /v2/events: deduplicate by it), webhook-timestamp and webhook-signature (v1, HMAC-SHA256 with the whsec_ secret). ' +
  'Delivered at least once, in event order per endpoint; a non-2xx, a timeout (10 s) or a refused connection is retried with exponential back-off and jitter, and an endpoint failing for days is disabled and its account notified.';

/** The services these routes use, and no other. */
export interface WebhooksRouteServices {
  webhooks: WebhookService;
}
export function webhookRoutes(app: App, services: WebhooksRouteServices): void {
  const webhooks = services.webhooks;
  app.post(
    '/v2/webhooks',
    {
      schema: {
        operation: { id: 'createWebhook' },
        tags,
        summary: 'Create a webhook endpoint (extension)',
        description: `${SCHEME} The signing secret is in the answer and never shown again. A shop API key creates endpoints of its own shop only.`,
        body: WebhookInput,
        response: { 201: WebhookSecret, ...errorResponses(403) },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(request.scope, request.body)),
  );

  app.get(
    '/v2/webhooks',
    {
      schema: {
        operation: { id: 'listWebhooks' },
        tags,
        summary: 'List webhook endpoints (extension)',
        description: "Includes the shops' CMS callbacks (kind cms). A shop API key sees its shop's only.",
        querystring: WebhookListQuery,
        response: { 200: { ...Type.Array(WebhookView), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await webhooks.list(request.scope, request.query, at), at);
    },
  );

  app.get(
    '/v2/webhooks/:id',
    {
      schema: {
        operation: { id: 'getWebhook' },
        tags,
        summary: 'Get a webhook endpoint (extension)',
        params: IdParams,
        response: { 200: WebhookView, ...errorResponses(403, 404) },
      },
    },
    async (request) => webhooks.get(request.scope, request.params.id),
  );

  app.put(
    '/v2/webhooks/:id',
    {
      schema: {
        operation: { id: 'replaceWebhook' },
        tags,
        summary: 'Replace a webhook endpoint (extension)',
        description: 'enabled: true on a disabled endpoint starts it afresh.',
        params: IdParams,
        body: WebhookInput,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await webhooks.replace(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/webhooks/:id',
    {
      schema: {
        operation: { id: 'deleteWebhook' },
        tags,
        summary: 'Delete a webhook endpoint (extension)',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await webhooks.delete(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/webhooks/:id/rotate-secret',
    {
      schema: {
        operation: { id: 'rotateWebhookSecret' },
        tags,
        summary: 'Rotate the signing secret (extension)',
        description:
          'Answers the new secret (shown only now). Until previousSecretValidUntil every message carries two signatures, one per secret, so receivers verify with either while they switch.',
        params: IdParams,
        response: { 200: WebhookSecret, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => webhooks.rotateSecret(request.scope, request.params.id),
  );

  app.post(
    '/v2/webhooks/:id/test',
    {
      schema: {
        operation: { id: 'sendWebhookTest' },
        tags,
        summary: 'Send a test message (extension)',
        description: 'Queues a webhook.test message behind what the endpoint owes.',
        params: IdParams,
        response: { 202: Queued, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.sendTest(request.scope, request.params.id)),
  );

  app.get(
    '/v2/webhooks/:id/deliveries',
    {
      schema: {
        operation: { id: 'listWebhookDeliveries' },
        tags,
        summary: "An endpoint's deliveries, newest first (extension)",
        params: IdParams,
        querystring: DeliveryListQuery,
        response: { 200: { ...Type.Array(DeliveryView), headers: PAGING_HEADERS }, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await webhooks.deliveries(request.scope, request.params.id, request.query, at), at);
    },
  );

  app.get(
    '/v2/webhooks/:id/attempts',
    {
      schema: {
        operation: { id: 'listWebhookAttempts' },
        tags,
        summary: "An endpoint's delivery attempts, newest first (extension)",
        description: "Every attempt: time, duration, HTTP status (null: no answer), error, the answer's first bytes.",
        params: IdParams,
        querystring: AttemptListQuery,
        response: { 200: { ...Type.Array(AttemptView), headers: PAGING_HEADERS }, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await webhooks.attempts(request.scope, request.params.id, request.query, at), at);
    },
  );

  app.post(
    '/v2/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        operation: { id: 'redeliverWebhookDelivery' },
        tags,
        summary: 'Send a delivery again (extension)',
        description: 'Queues a copy (same webhook-id and body) behind what the endpoint owes now.',
        params: DeliveryParams,
        response: { 202: Queued, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.redeliver(request.scope, request.params.id, request.params.deliveryId)),
  );

  const cmsTags = ['Webhooks'];
  app.get(
    '/v2/shops/:id/cms-callbacks',
    {
      schema: {
        operation: { id: 'getCmsCallbacks' },
        tags: cmsTags,
        summary: "The shop's CMS callbacks (extension)",
        params: IdParams,
        response: { 200: CmsCallbacksView, ...errorResponses(403, 404) },
      },
    },
    async (request) => webhooks.cmsCallbacks(request.scope, request.params.id),
  );

  app.put(
    '/v2/shops/:id/cms-callbacks',
    {
      schema: {
        operation: { id: 'setCmsCallbacks' },
        tags: cmsTags,
        summary: "Set the shop's CMS callbacks (extension)",
        description:
          "The callbacks the shop plugins (WooCommerce, Bitrix, OpenCart, Diafan) wait for, in their own wire format: order-status-update (form: id, statusCMS, statusSR, trackNumber, trackUrl) on every status change, product-quantity-update (vendorCode, quantity; WooCommerce, when the shop sends quantity to its CMS) when a product's fulfilment stock runs low; header token = the shop's API key (Diafan also Shop-Id and Api-Key). Retried and logged like webhooks.",
        params: IdParams,
        body: CmsCallbacksInput,
        response: { 200: CmsCallbacksView, ...errorResponses(403, 404) },
      },
    },
    async (request) => webhooks.setCmsCallbacks(request.scope, request.params.id, request.body),
  );

  app.delete(
    '/v2/shops/:id/cms-callbacks',
    {
      schema: {
        operation: { id: 'deleteCmsCallbacks' },
        tags: cmsTags,
        summary: "Remove the shop's CMS callbacks (extension)",
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.deleteCmsCallbacks(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v2/shops/:id/cms-callbacks/options',
    {
      schema: {
        operation: { id: 'readCmsOptions' },
        tags: cmsTags,
        summary: "The CMS's statuses and payment methods (extension)",
        description: "Read now from the plugin's statuses.json and payment-methods.json, to choose the statusMap.",
        params: IdParams,
        response: { 200: CmsOptions, ...errorResponses(403, 404, 422) },
      },
    },
    async (request) => webhooks.cmsOptions(request.scope, request.params.id),
  );
}
