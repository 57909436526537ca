import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { errorResponses, NoContent } from '../../platform/schemas.js';
import type { CarrierIntegrationService } from './service.js';
import type { CarrierWebhooks } from './webhooks.js';
import { PushResult } from '../orders/schemas.js';
import {
  CarrierCompanyParams,
  CarrierIntegration,
  CarrierIntegrationBody,
  CarrierWebhookBody,
  CarrierWebhookParams,
  ConnectionCheck,
  ConnectionCheckBody,
} from './schemas.js';

const tags = ['Delivery company contracts (extension)'];

/** The services these routes use, and no other. */
export interface CarrierIntegrationsRouteServices {
  carrierIntegrations: CarrierIntegrationService;
  carrierWebhooks: CarrierWebhooks;
}
export function carrierIntegrationRoutes(app: App, services: CarrierIntegrationsRouteServices): void {
  app.get(
    '/v2/carrier-integrations',
    {
      schema: {
        operation: { id: 'listCarrierIntegrations' },
        tags,
        summary: "Real delivery companies and the account's contracts with them",
        description:
          'No paging. Without a contract an account ships with the simulated companies (the sandbox); a connected company appears in the calculator with its deliveryDriver (`cdek`, `boxberry`, `russian-post`, `yandex-delivery`). Parameters are shown masked.',
        response: { 200: Type.Array(CarrierIntegration), ...errorResponses() },
      },
    },
    async (request) => services.carrierIntegrations.list(request.scope),
  );

  app.post(
    '/v2/carrier-integrations/:companyId',
    {
      schema: {
        operation: { id: 'connectCarrierIntegration' },
        tags,
        summary: "Connect the account's own contract with a delivery company",
        description:
          "The body's params hold exactly the keys of the company's integrationParams. They are checked with the company first (a token asked for): a refusal is 422 carrier_auth_failed, a company that does not answer 503 carrier_unavailable; nothing is stored then. " +
          "Stored sealed with the instance secret (AES-256-GCM), never shown or logged in clear. testMode=true uses the company's test environment (400 where it has none). Connecting again replaces the contract. Account tokens only.",
        params: CarrierCompanyParams,
        body: CarrierIntegrationBody,
        response: { 204: NoContent, ...errorResponses(403, 404, 422, 503) },
      },
    },
    async (request, reply) => {
      await services.carrierIntegrations.connect(request.scope, request.params.companyId, request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/carrier-integrations/:companyId/check',
    {
      schema: {
        operation: { id: 'checkCarrierIntegration' },
        tags,
        summary: "Check connection: ask the company's authentication and say what it answered",
        description:
          "With params: those credentials are checked and nothing is stored (before connecting). Without: the account's stored contract is checked (404 when the account has none). " +
          "The call goes through the company's driver as registration does (the instance's URL of the company, its timeout, breaker and rate limit). A refusal, a company down or a timeout is a 200 whose outcome and message (ru, en) say so; companyMessage holds the company's own words. Account tokens and owners only.",
        params: CarrierCompanyParams,
        body: Type.Optional(ConnectionCheckBody),
        response: { 200: ConnectionCheck, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.carrierIntegrations.check(request.scope, request.params.companyId, request.body ?? {}),
  );

  app.delete(
    '/v2/carrier-integrations/:companyId',
    {
      schema: {
        operation: { id: 'disconnectCarrierIntegration' },
        tags,
        summary: "Disconnect the account's contract with a delivery company",
        description:
          "The company leaves the account's calculator. Orders already registered keep their track numbers (their tracking stops). Not connected: 404. " +
          "Where the company sends status webhooks (CDEK), a job then deletes the account's subscription with it (retried while the company does not answer; the disconnect itself never waits for it); the sealed credentials are kept only until that job has run, then deleted.",
        params: CarrierCompanyParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.carrierIntegrations.disconnect(request.scope, request.params.companyId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/carrier-webhooks/:company/:token',
    {
      config: { public: true },
      schema: {
        operation: { id: 'receiveCarrierWebhook' },
        tags,
        summary: 'A real delivery company sends a status update of a parcel (CDEK webhooks)',
        description:
          "The address is the account's own (its token is signed with the instance secret) and is subscribed with the company when the contract is connected (CDEK: POST /v2/webhooks, type ORDER_STATUS); no bearer token. " +
          "The update is mapped to our status codes and applied to that account's order with the track number, as a poll would. Other types, unknown statuses and unknown track numbers answer 200 and are listed in ignored or left out; an address we did not give (or a contract since disconnected) is 404.",
        security: [],
        params: CarrierWebhookParams,
        body: CarrierWebhookBody,
        response: { 200: PushResult, ...errorResponses(404) },
      },
    },
    async (request) => services.carrierWebhooks.receive(request.params.company, request.params.token, request.body),
  );
}
