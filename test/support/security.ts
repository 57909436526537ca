/**
 * One helper, driven by the published OpenAPI document, that proves for every operation the
 * three refusals of DESIGN.md section 5: no token is a 401, another account's id is a 404, a
 * shop API key naming another shop of its account is a 403. An operation none of them applies
 * to (public, or taking no id) is skipped by the rule that says why; an operation a rule
 * should reach but cannot is named in `exemptions` with its reason, so every gap is written down.
 */
import type { ApiClient, ApiResponse } from './client.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface DocumentOperation {
  security?: unknown[];
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentOperation>>;
}

export interface DocumentedOperation {
  /** `METHOD /path/{param}`, as the document spells it. */
  key: string;
  method: Method;
  path: string;
  operation: DocumentOperation;
}

export function operationsOf(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase() as Method,
      path,
      operation,
    })),
  );
}

export const isPublic = (operation: DocumentOperation): boolean =>
  Array.isArray(operation.security) && operation.security.length === 0;

/** The path parameters of an operation that are ids of an account's records. */
export const recordIds = (operation: DocumentedOperation): string[] =>
  (operation.operation.parameters ?? [])
    .filter((parameter) => parameter.in === 'path' && /^(id|\w+Id)$/.test(parameter.name))
    .map((parameter) => parameter.name);

/** The operation's own example body (the docs page's), else an empty object for a body it takes. */
function bodyOf(operation: DocumentedOperation, bodies: Record<string, unknown>): unknown {
  if (operation.key in bodies) return bodies[operation.key];
  const json = operation.operation.requestBody?.content['application/json'];
  if (!json) return undefined;
  const example = Object.values(json.examples ?? {})[0];
  return example ? example.value : {};
}

export function call(
  client: ApiClient,
  operation: DocumentedOperation,
  ids: Record<string, number | string>,
  headers: Record<string, string> = {},
  bodies: Record<string, unknown> = {},
): Promise<ApiResponse> {
  const url = operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
    encodeURIComponent(String(ids[name] ?? 1)),
  );
  return client.call(operation.method, url, bodyOf(operation, bodies), { headers });
}

export interface Refusal {
  key: string;
  status: number;
  code?: string;
}

export interface SweepOptions {
  /** Clients: none (no token), the stranger (another account), the shop key (of a second shop of the owner's account). */
  anonymous: ApiClient;
  stranger: ApiClient;
  shopKey: ApiClient;
  /** A shop of the owner's account the shop key may not reach. */
  otherShopId: number;
  /** The owner's records: path parameter name → an id in the owner's account. */
  ownerIds: (operation: DocumentedOperation) => Record<string, number | string>;
  /** `METHOD /path` → a valid body, for an operation whose body is validated before its record is looked up. */
  bodies?: Record<string, unknown>;
  /** `METHOD /path` → why a rule cannot reach it (kept by the caller, with each rule's name). */
  exemptions: Record<'401' | '403' | '404', Record<string, string>>;
}

/** Runs the three rules over `operations`; answers the operations that broke a rule. */
export async function sweepRefusals(
  operations: DocumentedOperation[],
  options: SweepOptions,
): Promise<Record<'401' | '403' | '404', Refusal[]>> {
  const broken: Record<'401' | '403' | '404', Refusal[]> = { '401': [], '403': [], '404': [] };
  for (const operation of operations) {
    if (isPublic(operation.operation)) continue;
    const ids = options.ownerIds(operation);
    if (!(operation.key in options.exemptions['401'])) {
      const answer = await call(options.anonymous, operation, ids, {}, options.bodies);
      if (answer.status !== 401)
        broken['401'].push({ key: operation.key, status: answer.status, code: answer.body?.code });
    }
    if (operation.path.startsWith('/v2/') && !(operation.key in options.exemptions['403'])) {
      const answer = await call(
        options.shopKey,
        operation,
        ids,
        { 'Shop-Id': String(options.otherShopId) },
        options.bodies,
      );
      if (answer.status !== 403)
        broken['403'].push({ key: operation.key, status: answer.status, code: answer.body?.code });
    }
    if (recordIds(operation).length > 0 && !(operation.key in options.exemptions['404'])) {
      const answer = await call(options.stranger, operation, ids, {}, options.bodies);
      if (answer.status !== 404)
        broken['404'].push({ key: operation.key, status: answer.status, code: answer.body?.code });
    }
  }
  return broken;
}
