/**
 * The plan of the published OpenAPI document (see platform/openapi.ts), generated: each
 * operation's id, contract section, examples and headers come from its route schema beside its
 * handler (collected as routes register: `collectOperation`), the tags and published models
 * from the areas' module definitions (`src/modules.ts`); what is left here is what holds for
 * every call: the headers every call reads, what each status means, the service's own tags.
 */
import type { DocumentPlan, HeaderDoc, OperationDoc } from './platform/openapi.js';
import { SHOP_ID_HEADER } from './platform/openapi.js';
import { ErrorBody, ErrorCodeSchema, Created } from './platform/schemas.js';
import { MODULES } from './modules.js';

export { SHOP_ID_HEADER };

export const IDEMPOTENCY_KEY_HEADER: HeaderDoc = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'Any string chosen by the caller (a UUID). The first answer is kept 24 hours and replayed for the same key and body; the same key with another body, or while the first request runs, is a 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/**
 * Every operation of the document, keyed `METHOD /path`: filled by `collectOperation` as the
 * routes of an app register (every app registers the same routes, so every app fills it alike).
 */
const OPERATIONS: Record<string, OperationDoc> = {};

export const API_DOCUMENT_PLAN: DocumentPlan = {
  operations: OPERATIONS,
  schemas: {
    Error: ErrorBody,
    ErrorCode: ErrorCodeSchema,
    Created,
    ...Object.assign({}, ...MODULES.map((area) => area.schemas ?? {})),
  },
  everyCall: [SHOP_ID_HEADER],
  everyPost: [IDEMPOTENCY_KEY_HEADER],
  // DESIGN.md section 5
  statuses: {
    '400': 'Bad input: errors[] names each field ({field, message}).',
    '401': 'No token, or a token that is unknown, revoked or expired.',
    '403': 'A shop API key reaching outside its shop.',
    '404':
      'Not found (a record of another account is not found either). Batch operations list each missing id in errors[] ({id, message}).',
    '409':
      'Conflict: the state does not allow it (errors[] lists each refused id in batch operations), a duplicate, or an Idempotency-Key reused with another body or still running.',
    '413': 'The body is too large.',
    '422': 'A business rule refuses it (e.g. a delivery that cannot be priced, an import over 2000 rows).',
    '503': 'The service is stopping or its database does not answer: retry later.',
  },
  everyResponseHeaders: {
    'x-log-id': {
      description: 'The log id of this request: quote it to support (also logId in error bodies).',
      schema: { type: 'string' },
    },
    'x-request-id': {
      description:
        "The caller's X-Request-Id when it is a safe token (letters, digits, ._:=+/-, up to 128), else the log id.",
      schema: { type: 'string' },
    },
  },
  everyV2Response: {
    '429': 'Too many requests for this token (or address) this minute: retry after the Retry-After header.',
  },
  tags: [
    { name: 'Service', description: 'Health, readiness, version and metrics of the process (extensions).' },
    {
      name: 'Files',
      description: 'Generated files (labels, acts, reports) behind the signed URLs the API answers (extension).',
    },
    ...MODULES.flatMap((area) => area.tags ?? []),
  ],
};
