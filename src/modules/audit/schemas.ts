/** TypeBox models of the audit trail (extension under /v2/audit). */
import Type from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { Nullable } from '../../platform/schemas.js';

const RecordRef = Type.Object({
  type: Type.String({ description: 'The kind of record: a table (orders, shops, api_keys…)' }),
  ids: Type.Array(Type.Union([Type.Integer(), Type.String()])),
});

export const AuditEntryView = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
    actor: Type.Object({
      kind: Type.String({
        description:
          "employee, api-key, account-token, shop-key, operator (the CLI, an operator token), system (a job), widget (a shop's checkout widget, by its publishable key), carrier (a delivery company's status push or webhook), buyer (a buyer on a public page: returns, unsubscribe, a messenger), public (another public route)",
      }),
      id: Nullable(
        Type.String({
          description:
            "The employee's, key's or shop's id; the operator's user name, a warehouse staff token's id or `billing:<id>` (a billing operator's token); the widget's shop id; the carrier's company id; null for a buyer (see ip)",
        }),
      ),
    }),
    operation: Type.String({ description: 'The operationId of the route, `job:<kind>` or `cli:<command>`' }),
    records: Type.Array(RecordRef),
    changes: Nullable(
      Type.Array(
        Type.Object({
          type: Type.String(),
          ids: Type.Array(Type.Union([Type.Integer(), Type.String()])),
          before: Type.Optional(Type.Unknown()),
          after: Type.Optional(Type.Unknown()),
        }),
        { description: 'Settings: the values before and after (credentials hidden)' },
      ),
    ),
    ip: Nullable(Type.String()),
    userAgent: Nullable(Type.String()),
    seq: Nullable(
      Type.Integer({
        description: "The entry's place in the account's hash chain; null for a few seconds, until sealed",
      }),
    ),
    hash: Nullable(Type.String({ description: 'sha-256 of the previous hash and the entry' })),
  },
  { description: 'AuditEntry' },
);

const FilterFields = {
  actor: Type.Optional(
    Type.String({ maxLength: 60, description: 'A kind, or a kind and id: `employee:3`, `api-key:7`, `system`' }),
  ),
  operation: Type.Optional(
    Type.String({ maxLength: 100, description: 'An operationId, `job:<kind>`, `cli:<command>`' }),
  ),
  record: Type.Optional(Type.String({ maxLength: 80, description: 'A record: `orders:12`' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'From this instant (inclusive)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Before this instant' })),
};

export const AuditListQuery = Type.Object({ ...FilterFields, ...PagingQueryFields });

export const AuditExportQuery = Type.Object({
  ...FilterFields,
  format: Type.Optional(
    Type.Union([Type.Literal('csv'), Type.Literal('jsonl')], {
      default: 'jsonl',
      description: 'jsonl (default) or csv',
    }),
  ),
});

export const AuditSettings = Type.Object(
  {
    retentionDays: Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 3650,
        description: 'Entries older than this many days are deleted (the chain stays verifiable); null: kept',
      }),
    ),
  },
  { description: 'AuditSettings' },
);
