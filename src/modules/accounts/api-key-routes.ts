/** Scoped API keys (extension): owners make, list and revoke them. */
import type { App } from '../../platform/http.js';
import { errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import Type from 'typebox';
import { ApiKeyCreate, ApiKeyCreated, ApiKeyView } from './api-key-schemas.js';
import type { ApiKeyService } from './api-keys.js';

const tags = ['API keys (extension)'];
const OWNERS_ONLY =
  'Only the account token and owners (403 for managers, shop keys and scoped keys: a key never makes a wider one).';

export function apiKeyRoutes(app: App, services: { apiKeys: ApiKeyService }): void {
  app.get(
    '/v2/api-keys',
    {
      schema: {
        operation: { id: 'listApiKeys' },
        tags,
        summary: "The account's scoped API keys, revoked ones too, with when each was last used",
        description: `${OWNERS_ONLY} The keys themselves are never shown again: only their first characters.`,
        response: { 200: Type.Array(ApiKeyView), ...errorResponses(403) },
      },
    },
    async (request) => services.apiKeys.list(request.scope),
  );

  app.post(
    '/v2/api-keys',
    {
      schema: {
        operation: {
          id: 'createApiKey',
          examples: {
            readOrders: {
              summary: 'A key that reads everything and changes only orders',
              value: { name: 'Warehouse script', scopes: ['read', 'orders'], expiresAt: null },
            },
          },
        },
        tags,
        summary: 'Make a scoped API key: scopes, and optionally shops, an expiry and an IP allow-list',
        description: `${OWNERS_ONLY} The answer holds the key once (\`key_…\`, sent as \`Authorization: Bearer\`); only its hash is kept. A call outside its scopes is 403 key_scope_missing naming the scope it needs; from an address outside its allow-list, 403 key_address_refused; after its expiry or revocation, 401.`,
        body: ApiKeyCreate,
        response: { 201: ApiKeyCreated, ...errorResponses(403) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.apiKeys.create(request.scope, request.body)),
  );

  app.delete(
    '/v2/api-keys/:id',
    {
      schema: {
        operation: { id: 'revokeApiKey' },
        tags,
        summary: 'Revoke a scoped API key: it stops working at once on every process',
        description: `${OWNERS_ONLY} The key stays listed as revoked. Revoking a revoked key is 204 again.`,
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.apiKeys.revoke(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );
}
