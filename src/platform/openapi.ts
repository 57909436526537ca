/**
 * What the OpenAPI document needs beyond the route schemas, added in one place when the
 * document is built (never to the schemas that validate and serialise requests):
 * operationIds and the contract section of each operation, the headers every call reads,
 * named component schemas with `$ref`s, and request examples. The plan (which operation
 * is which, which schemas have names) is given by the caller; this file knows no area.
 *
 * An operation's id, contract section, examples and extra headers are written beside its
 * handler, in its route schema (`schema.operation`, or `schema.operationByMethod` for a route
 * of several methods); `collectOperation` gathers them into the plan as routes register.
 */
import { scopesNeeded } from './key-scopes.js';
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import type { TSchema } from 'typebox';

export interface HeaderDoc {
  /** As sent on the wire and shown to people (`Shop-Id`); matched case-insensitively. */
  name: string;
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
}

export interface ExampleDoc {
  summary: string;
  description?: string;
  value: unknown;
}

export interface OperationDoc {
  /** The operationId: a verb and the resource, e.g. `confirmOrders`. */
  id: string;
  /** The section of the contract (api-v2.md) that defines it, e.g. `4.4`; none for extensions. */
  contract?: string;
  /** Headers the operation reads that its route schema does not validate. */
  headers?: HeaderDoc[];
  /** JSON request bodies that succeed (shown on the docs page, replayed by a test). */
  examples?: Record<string, ExampleDoc>;
}

declare module 'fastify' {
  interface FastifySchema {
    /** The operation's id, contract section, examples and headers (read by the OpenAPI plan, never by validation). */
    operation?: OperationDoc;
    /** The same for a route of several methods (a list that also answers POST): one per method. */
    operationByMethod?: Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', OperationDoc>>;
  }
}

/** The Shop-Id header as the house reads it (DESIGN.md section 5). */
export const SHOP_ID_HEADER: HeaderDoc = {
  name: 'Shop-Id',
  required: false,
  description:
    'A shop of the account. Where the operation needs a shop it selects it; elsewhere it is still checked (an unknown shop or one a shop API key may not reach is refused).',
  schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
};

/** Shop-Id for an operation that needs a shop, saying what the shop is for. */
export const requiredShopHeader = (description: string): HeaderDoc => ({
  ...SHOP_ID_HEADER,
  required: true,
  description,
});

interface RouteWithOperation {
  method: string | string[];
  url: string;
  schema?: { operation?: OperationDoc; operationByMethod?: Partial<Record<string, OperationDoc>> };
}

/**
 * Adds a registering route's operation(s) to `operations` (an `onRoute` hook calls it). HEAD
 * routes Fastify derives from GET are not operations of the document.
 */
export function collectOperation(route: RouteWithOperation, operations: Record<string, OperationDoc>): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  for (const method of methods) {
    if (method === 'HEAD') continue;
    const doc = route.schema?.operationByMethod?.[method] ?? route.schema?.operation;
    if (doc) operations[`${method} ${documentPath(route.url)}`] = doc;
  }
}

export interface DocumentPlan {
  /** Keyed `METHOD /path/{param}` as in the document. */
  operations: Record<string, OperationDoc>;
  /** Response schemas published under a name in components.schemas, found by identity. */
  schemas: Record<string, TSchema>;
  /** On every authenticated operation under `/v2/`. */
  everyCall: HeaderDoc[];
  /** On every authenticated POST. */
  everyPost: HeaderDoc[];
  /** What each status means, for answers that do not say more than "Error". */
  statuses: Record<string, string>;
  /** Answers any `/v2/` operation may give besides its own (rate limits): status → description; the body is the schema named `Error`. */
  everyV2Response: Record<string, string>;
  /** Headers of every answer (published in components.headers under their own names). */
  everyResponseHeaders: Record<string, { description: string; schema: Record<string, unknown> }>;
  /** The tags of the operations, described (the contract sections they cover). */
  tags: Array<{ name: string; description: string }>;
}

type Node = Record<string, unknown>;
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
}
interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Node> };
  responses?: Record<string, Response>;
}
interface OpenApiObject {
  tags?: Array<{ name: string; description: string }>;
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; headers?: Record<string, unknown> };
}

/** Carries a schema's published name from the route transform to the document transform. */
const NAME = 'x-component-name';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** `/v2/orders/:id` → `/v2/orders/{id}`, the document's spelling and the plan's keys. */
export function documentPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** An operationId for a route the plan does not name: `POST /v2/orders/pack` → `postOrdersPack`. */
export function fallbackOperationId(method: string, path: string): string {
  const words = path
    .replace(/^\/v2\//, '/')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word[0].toUpperCase() + word.slice(1));
  return method.toLowerCase() + words.join('');
}

/**
 * A copy of `node` where every named schema is a copy marked with its name; untouched
 * branches are shared, and the live schema objects are never changed.
 */
function markNamed(node: unknown, names: Map<object, string>, depth = 0): unknown {
  if (!isNode(node) || depth > 40) return node;
  let copy: Node | unknown[] | null = null;
  const entries = Array.isArray(node) ? node.entries() : Object.entries(node);
  for (const [key, value] of entries) {
    const marked = markNamed(value, names, depth + 1);
    if (marked === value) continue;
    copy ??= Array.isArray(node) ? [...node] : { ...node };
    (copy as Record<string | number, unknown>)[key] = marked;
  }
  const name = names.get(node);
  if (name !== undefined) return { ...(copy ?? node), [NAME]: name };
  return copy ?? node;
}

/** Moves every marked schema under `node` to `schemas` and leaves a `$ref` in its place. */
function hoistNamed(node: unknown, schemas: Record<string, unknown>): unknown {
  if (!isNode(node)) return node;
  if (Array.isArray(node)) return node.map((item) => hoistNamed(item, schemas));
  const copy: Node = {};
  for (const [key, value] of Object.entries(node)) if (key !== NAME) copy[key] = hoistNamed(value, schemas);
  const name = node[NAME];
  if (typeof name !== 'string') return copy;
  schemas[name] ??= copy;
  return { $ref: `#/components/schemas/${name}` };
}

function headerParameter(header: HeaderDoc): Parameter {
  return {
    in: 'header',
    name: header.name,
    required: header.required,
    description: header.description,
    schema: header.schema,
  };
}

/**
 * Declares `headers` on the operation. One it already has (validated by its route) keeps its
 * schema and takes the display name; `specific` headers (the operation's own) also give their
 * description and whether they are required.
 */
function declareHeaders(operation: Operation, headers: HeaderDoc[], specific = false): void {
  const parameters = (operation.parameters ??= []);
  for (const header of headers) {
    const existing = parameters.find(
      (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === header.name.toLowerCase(),
    );
    if (!existing) {
      parameters.push(headerParameter(header));
      continue;
    }
    existing.name = header.name;
    if (specific) {
      existing.description = header.description;
      existing.required = header.required || existing.required === true;
    } else existing.description ??= header.description;
  }
}

/** The name of a published schema a `$ref` points at. */
function refName(schema: unknown): string | undefined {
  const ref = isNode(schema) && typeof schema.$ref === 'string' ? schema.$ref : undefined;
  return ref?.slice(ref.lastIndexOf('/') + 1);
}

/** A response described only as "Error" or by @fastify/swagger's placeholder says what it is. */
function describeResponse(status: string, response: Response, statuses: Record<string, string>): void {
  if (response.description !== 'Error' && response.description !== 'Default Response') return;
  const schema = response.content?.['application/json']?.schema;
  const name = refName(schema) ?? (isNode(schema) && schema.type === 'array' ? refName(schema.items) : undefined);
  if (statuses[status]) response.description = statuses[status];
  else if (name) response.description = isNode(schema) && schema.type === 'array' ? `Array of ${name}` : name;
  else response.description = 'Success';
}

function describe(operation: Operation, doc: OperationDoc | undefined): void {
  const text = operation.description ?? operation.summary ?? '';
  const source = doc?.contract
    ? `Contract ${doc.contract} (api-v2.md).`
    : 'Extension: not in the contract (api-v2.md).';
  operation.description = text ? `${text}\n\n${source}` : source;
}

/** The `transform` and `transformObject` options of @fastify/swagger that apply `plan`. */
export function openapiTransforms(plan: DocumentPlan): {
  transform: SwaggerTransform;
  transformObject: SwaggerTransformObject;
} {
  const names = new Map<object, string>(Object.entries(plan.schemas).map(([name, schema]) => [schema, name]));

  const transform: SwaggerTransform = ({ schema, url }) => {
    if (!isNode(schema)) return { schema, url };
    // the plan carries the operation's metadata; the document's operation object is built from the rest
    const { operation: _operation, operationByMethod: _byMethod, ...documented } = schema as FastifySchema;
    if (!isNode(documented.response)) return { schema: documented, url };
    return { schema: { ...documented, response: markNamed(documented.response, names) } as FastifySchema, url };
  };

  const transformObject: SwaggerTransformObject = (documentObject) => {
    if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
    const document = documentObject.openapiObject as OpenApiObject;
    const components = (document.components ??= {});
    const schemas = (components.schemas ??= {});
    components.headers = { ...components.headers, ...plan.everyResponseHeaders };
    const everyResponseHeader = Object.fromEntries(
      Object.keys(plan.everyResponseHeaders).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
    );
    // a route of several methods gives them one operation object: each method needs its own
    const seen = new Set<Operation>();
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, shared] of Object.entries(item)) {
        if (!METHODS.has(method)) continue;
        const operation = seen.has(shared) ? (item[method] = structuredClone(shared)) : shared;
        seen.add(operation);
        const doc = plan.operations[`${method.toUpperCase()} ${path}`];
        operation.operationId = doc?.id ?? fallbackOperationId(method, path);
        describe(operation, doc);
        const authenticated = !(Array.isArray(operation.security) && operation.security.length === 0);
        if (doc?.headers) declareHeaders(operation, doc.headers, true);
        if (authenticated && path.startsWith('/v2/')) {
          declareHeaders(operation, plan.everyCall);
          // which scopes of a scoped API key allow it (key-scopes.ts derives them; empty: an account token or an owner only)
          (operation as Operation & { 'x-key-scopes'?: string[] })['x-key-scopes'] = scopesNeeded(
            method.toUpperCase(),
            path.replace(/\{(\w+)\}/g, ':$1'),
          );
        }
        if (authenticated && method === 'post') declareHeaders(operation, plan.everyPost);
        if (operation.parameters?.length === 0) delete operation.parameters;
        // the JSON media only: a form body spells nested values in bracket keys
        const content = operation.requestBody?.content;
        if (doc?.examples && content?.['application/json'])
          content['application/json'] = { ...content['application/json'], examples: doc.examples };
        const responses = (operation.responses ??= {});
        if (path.startsWith('/v2/')) {
          for (const [status, description] of Object.entries(plan.everyV2Response)) {
            responses[status] ??= {
              description,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            };
          }
        }
        for (const [status, response] of Object.entries(responses)) {
          for (const media of Object.values(response.content ?? {})) media.schema = hoistNamed(media.schema, schemas);
          describeResponse(status, response, plan.statuses);
          response.headers = { ...everyResponseHeader, ...response.headers };
        }
      }
    }
    document.tags = plan.tags;
    return documentObject.openapiObject;
  };

  return { transform, transformObject };
}
