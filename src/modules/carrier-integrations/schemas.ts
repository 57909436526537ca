import Type, { type Static } from 'typebox';
import { CodeId, Nullable } from '../../platform/schemas.js';

const LocalText = Type.Object({ ru: Type.String(), en: Type.String() });

export const CarrierIntegration = Type.Object(
  {
    companyId: Type.Integer({
      description:
        "The company's id in calculator answers and orders: 1001 CDEK, 1002 Boxberry, 1003 Russian Post, 1004 Yandex Delivery",
    }),
    code: Type.String({ description: "The calculator's deliveryDriver for this company" }),
    name: Type.String(),
    logo: Type.String({ description: 'URL' }),
    deliveryTypes: Type.Array(Type.Integer(), {
      description: 'Delivery types the connector quotes: 1 pickup point, 2 courier, 3 post',
    }),
    connected: Type.Boolean({
      description: "The account's parameters were checked with the company and are stored (sealed)",
    }),
    testMode: Type.Boolean({
      description: "The contract is with the company's test environment: registrations there ship nothing",
    }),
    hasTestEnvironment: Type.Boolean({
      description: 'Whether the company has a test environment testMode can switch to',
    }),
    connectedAt: Nullable(Type.String({ format: 'date-time' })),
    integrationParams: Type.Array(
      Type.Object({
        key: Type.String(),
        name: LocalText,
        value: Type.String({
          description: 'Masked: only the last 4 characters of values of 8 or more are shown; empty when not connected',
        }),
      }),
    ),
  },
  { description: 'A real delivery company an account may connect its own contract with (extension)' },
);
export type CarrierIntegration = Static<typeof CarrierIntegration>;

export const CarrierIntegrationBody = Type.Object(
  {
    params: Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 4096 }), {
      maxProperties: 20,
      description: "Exactly the keys of the company's integrationParams",
    }),
    testMode: Type.Optional(
      Type.Boolean({
        description: "Use the company's test environment (only where hasTestEnvironment); default false: live",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CarrierIntegrationBody = Static<typeof CarrierIntegrationBody>;

export const CarrierCompanyParams = Type.Object({
  companyId: CodeId('A real delivery company (GET /v2/carrier-integrations)'),
});

export const CarrierWebhookParams = Type.Object({
  company: Type.Enum(['cdek'], {
    description: 'cdek: CDEK (the only company with status webhooks yet)',
    'x-message': 'must be cdek',
  }),
  token: Type.String({ minLength: 1, maxLength: 100, description: "The account's signed token of the address" }),
});
export type CarrierWebhookParams = Static<typeof CarrierWebhookParams>;

/** The company's own update as it sends it (CDEK: `{type, date_time, uuid, attributes: {cdek_number, code, ...}}`); read leniently by its mapper. */
export const CarrierWebhookBody = Type.Object(
  {
    type: Type.String({ maxLength: 100, description: 'CDEK: ORDER_STATUS (others are ignored)' }),
    attributes: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);
export type CarrierWebhookBody = Static<typeof CarrierWebhookBody>;

export const CONNECTION_OUTCOMES = [
  'accepted',
  'refused',
  'unreachable',
  'timeout',
  'unavailable',
  'unexpected',
] as const;
export type ConnectionOutcome = (typeof CONNECTION_OUTCOMES)[number];

export const ConnectionCheckBody = Type.Object(
  {
    params: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 4096 }), {
        maxProperties: 20,
        description:
          "Credentials to check before connecting them (exactly the keys of the company's integrationParams); nothing is stored. Without them, the account's stored contract is checked (404 when it has none)",
      }),
    ),
    testMode: Type.Optional(
      Type.Boolean({ description: "With params: check them with the company's test environment; default false" }),
    ),
  },
  { additionalProperties: false },
);
export type ConnectionCheckBody = Static<typeof ConnectionCheckBody>;

export const ConnectionCheck = Type.Object(
  {
    companyId: Type.Integer(),
    outcome: Type.Enum([...CONNECTION_OUTCOMES], {
      description:
        "accepted: the company's authentication took the credentials; refused: it turned them down (companyMessage: its own words); unreachable: no answer at its address; timeout: no answer in time; unavailable: it answered an error of its own (5xx) or asked to wait (429); unexpected: an answer its API does not describe",
    }),
    message: LocalText,
    companyMessage: Nullable(Type.String({ description: "The company's own words for a refusal, as it sent them" })),
    durationMs: Type.Integer({ description: 'How long the check took' }),
  },
  { description: 'What a delivery company answered a check of credentials (extension)' },
);
export type ConnectionCheck = Static<typeof ConnectionCheck>;
