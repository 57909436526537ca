/** TypeBox models of the scoped API keys (extension under /v2/api-keys). */
import Type, { type Static } from 'typebox';
import { KEY_SCOPE_TITLES, KEY_SCOPES } from '../../platform/key-scopes.js';
import { Instant, Nullable, RecordId } from '../../platform/schemas.js';

export const KeyScopeName = Type.Union(
  [
    Type.Literal('read'),
    Type.Literal('orders'),
    Type.Literal('documents'),
    Type.Literal('catalogue'),
    Type.Literal('fulfilment'),
    Type.Literal('pickups'),
    Type.Literal('billing'),
    Type.Literal('settings'),
  ],
  {
    description: `What the key may do: ${KEY_SCOPES.map((scope) => `\`${scope}\` (${KEY_SCOPE_TITLES[scope].en})`).join('; ')}. A scope of an area also reads that area.`,
  },
);

export const ApiKeyCreate = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'What the key is for',
    examples: ['Warehouse script'],
  }),
  scopes: Type.Array(KeyScopeName, { minItems: 1, maxItems: 8, uniqueItems: true, examples: [['read', 'orders']] }),
  shopIds: Type.Optional(
    Nullable(
      Type.Array(RecordId('A shop of the account'), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        description:
          'The shops the key may act for (each request for one: the Shop-Id header, default the first); absent or null: every shop',
      }),
    ),
  ),
  allowedIps: Type.Optional(
    Nullable(
      Type.Array(Type.String({ minLength: 2, maxLength: 49 }), {
        minItems: 1,
        maxItems: 50,
        description:
          'Addresses or CIDR blocks the key works from (`203.0.113.0/24`, `2001:db8::/32`); absent or null: any',
      }),
    ),
  ),
  expiresAt: Type.Optional(Nullable(Instant)),
});
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;

export const ApiKeyView = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    hint: Type.String({ description: "The key's first characters, to tell keys apart" }),
    scopes: Type.Array(KeyScopeName),
    shopIds: Nullable(Type.Array(Type.Integer())),
    allowedIps: Nullable(Type.Array(Type.String())),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String({ description: '`employee:<id>` or `account-token`' }),
    lastUsedAt: Nullable(Type.String({ format: 'date-time', description: 'Kept to within a minute' })),
    revokedAt: Nullable(Type.String({ format: 'date-time' })),
    state: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')], {
      description: 'active: works; expired: past its expiresAt; revoked: revoked by an owner',
    }),
  },
  { description: 'ApiKey' },
);
export type ApiKeyView = Static<typeof ApiKeyView>;

export const ApiKeyCreated = Type.Object(
  {
    ...ApiKeyView.properties,
    key: Type.String({ description: 'The key itself, shown this once: only its hash is kept' }),
  },
  { description: 'ApiKeyCreated' },
);
