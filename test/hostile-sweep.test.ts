/**
 * A seeded sweep of hostile input over every operation of /openapi.json. For each
 * operation it sends a plausible request built from the operation's schemas, then variants
 * with one hostile value in a path parameter, a query parameter, a header or a body field
 * (JSON and form-encoded): NUL bytes, lone surrogates, huge numbers, deep nesting, empty
 * strings, wrong types, over-long strings. Whatever the answer, it must not be a 5xx, must
 * carry x-log-id, and an error must be the house body. The PRNG is seeded, so a failure
 * repeats; a few hundred requests in all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { phpForm } from './support/client.js';
import { boxBody, kitBody, productBody, shopBody, warehouseBody } from './support/fixtures.js';
import { orderBody, orderingAccount, type OrderingAccount } from './support/orders.js';
import { seededRandom } from '../src/platform/seeded-random.js';

/** Fixed, so CI repeats the same requests; `HOSTILE_SEED=n` explores other ones locally. */
const SEED = Number(process.env.HOSTILE_SEED ?? 20261123);

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  format?: string;
  pattern?: string;
}

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: SchemaNode;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: SchemaNode }> };
}

interface HostileRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  what: string;
}

function typesOf(node: SchemaNode): string[] {
  return Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
}

/** A plausible value of a schema node: examples, enums and lower bounds, required fields only. */
function sample(node: SchemaNode, depth = 0): unknown {
  if (node.examples?.length) return node.examples[0];
  if (node.const !== undefined) return node.const;
  if (node.enum?.length) return node.enum[0];
  if (node.default !== undefined) return node.default;
  if (node.anyOf) return sample(node.anyOf.find((branch) => !typesOf(branch).includes('null')) ?? node.anyOf[0], depth);
  const types = typesOf(node).filter((type) => type !== 'null');
  const type = types[0];
  if (type === 'object') {
    const result: Record<string, unknown> = {};
    if (depth > 6) return result;
    for (const key of node.required ?? []) {
      const child = node.properties?.[key];
      if (child) result[key] = sample(child, depth + 1);
    }
    return result;
  }
  if (type === 'array')
    return node.items
      ? Array.from({ length: Math.max(1, node.minItems ?? 1) }, () => sample(node.items as SchemaNode, depth + 1))
      : [];
  if (type === 'integer' || type === 'number')
    return Math.max(1, node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : 1));
  if (type === 'boolean') return false;
  if (type === 'string') {
    if (node.format === 'date') return '2026-12-01';
    if (node.format === 'date-time') return '2026-12-01T10:00:00+03:00';
    if (node.format === 'email') return 'shop@example.com';
    if (node.format === 'uri' || node.format === 'url') return 'https://example.com/a';
    if (node.pattern === '^[A-Za-z]{2}$') return 'RU';
    return 'x'.repeat(Math.max(1, node.minLength ?? 1));
  }
  return null;
}

interface Field {
  path: Array<string | number>;
  node: SchemaNode;
}

/** Body fields (`a.b[0].c`) the schema names, a few levels deep, with their schemas. */
function fieldPaths(node: SchemaNode, prefix: Array<string | number>, found: Field[], depth = 0): void {
  if (depth > 4) return;
  const branch = node.anyOf?.find((item) => !typesOf(item).includes('null')) ?? node;
  if (branch !== node) return fieldPaths(branch, prefix, found, depth);
  const types = typesOf(node);
  if (types.includes('object') && node.properties) {
    for (const [key, child] of Object.entries(node.properties)) {
      found.push({ path: [...prefix, key], node: child });
      fieldPaths(child, [...prefix, key], found, depth + 1);
    }
  } else if (types.includes('array') && node.items) {
    found.push({ path: [...prefix, 0], node: node.items });
    fieldPaths(node.items, [...prefix, 0], found, depth + 1);
  }
}

/**
 * Values a field's own rules let through, at their edges: these reach the services and the
 * SQL, where a bound that does not fit the column shows.
 */
function edgeValues(node: SchemaNode): unknown[] {
  const concrete = node.anyOf?.find((item) => !typesOf(item).includes('null')) ?? node;
  const types = typesOf(concrete);
  if (types.includes('integer') || types.includes('number')) {
    const values: unknown[] = [];
    if (concrete.maximum !== undefined) values.push(concrete.maximum, String(concrete.maximum));
    if (concrete.minimum !== undefined) values.push(concrete.minimum);
    if (types.includes('number') && concrete.maximum !== undefined) values.push(concrete.maximum - 0.001);
    return values;
  }
  if (types.includes('string') && !concrete.pattern && !concrete.format && !concrete.enum) {
    const length = Math.min(concrete.maxLength ?? 10_000, 10_000);
    return [
      'я'.repeat(length),
      '🍵'.repeat(Math.floor(length / 2)),
      ' '.repeat(length),
      "'; drop table orders; --",
      '%_\\',
    ];
  }
  return [];
}

function setAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  path.forEach((part, index) => {
    if (index === path.length - 1) {
      at[part] = value;
      return;
    }
    if (typeof at[part] !== 'object' || at[part] === null) at[part] = typeof path[index + 1] === 'number' ? [] : {};
    at = at[part] as Record<string | number, unknown>;
  });
  return copy;
}

function nested(levels: number): unknown {
  let value: unknown = 'x';
  for (let level = 0; level < levels; level += 1) value = { a: [value] };
  return value;
}

/** Hostile values of a JSON body field. */
const JSON_VALUES: Array<{ name: string; value: () => unknown }> = [
  { name: 'NUL', value: () => 'a\u0000b' },
  { name: 'lone surrogate', value: () => 'x\ud800' },
  { name: 'lone low surrogate', value: () => '\udfffy' },
  { name: 'huge number', value: () => 1e20 },
  { name: 'huge numeric string', value: () => '99999999999999999999' },
  { name: 'negative huge', value: () => -1e300 },
  { name: 'max safe integer + 2', value: () => 9007199254740993 },
  { name: 'fraction', value: () => 1.5 },
  { name: 'empty string', value: () => '' },
  { name: 'object', value: () => ({ a: 'b' }) },
  { name: 'array', value: () => ['a', 1, null] },
  { name: 'boolean', value: () => true },
  { name: 'null', value: () => null },
  { name: 'nested 12 levels', value: () => nested(6) },
  { name: 'over-long string', value: () => 'я'.repeat(100_000) },
  { name: 'string of 2^31 digits', value: () => '2147483648' },
  {
    name: 'proto key',
    value: () => JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}}') as unknown,
  },
];

/** Hostile values of a query or form field, as they appear in the URL or body text. */
const TEXT_VALUES: Array<{ name: string; text: (name: string) => string }> = [
  { name: 'NUL', text: (name) => `${name}=a%00b` },
  { name: 'invalid UTF-8', text: (name) => `${name}=%ED%A0%80x` },
  { name: 'bad escape', text: (name) => `${name}=%ZZ%` },
  { name: 'huge number', text: (name) => `${name}=99999999999999999999` },
  { name: 'negative huge', text: (name) => `${name}=-1e300` },
  { name: 'empty', text: (name) => `${name}=` },
  { name: 'array', text: (name) => `${name}[]=1&${name}[]=2` },
  { name: 'object', text: (name) => `${name}[a]=1` },
  { name: 'deep brackets', text: (name) => `${name}${'[a]'.repeat(40)}=1` },
  { name: 'over-long', text: (name) => `${name}=${'x'.repeat(20_000)}` },
  { name: 'repeated', text: (name) => `${name}=1&${name}=2&${name}=3` },
  { name: 'null word', text: (name) => `${name}=null` },
];

const PATH_VALUES = [
  '0',
  '-1',
  '1.5',
  'abc',
  '1e3',
  '9007199254740991',
  '9007199254740992',
  '99999999999999999999',
  '%00',
  '%ZZ',
  '%ED%A0%80',
  'x'.repeat(600),
  '%2e%2e',
  ' 1',
];

const WHOLE_BODIES: Array<{ name: string; payload: string; type: string }> = [
  { name: 'JSON nested 40 levels', payload: JSON.stringify(nested(20)), type: 'application/json' },
  { name: 'JSON array', payload: '[1,2,3]', type: 'application/json' },
  { name: 'JSON string', payload: '"x"', type: 'application/json' },
  { name: 'JSON null', payload: 'null', type: 'application/json' },
  { name: 'broken JSON', payload: '{"a":', type: 'application/json' },
  { name: 'JSON with NUL key', payload: '{"\\u0000":1}', type: 'application/json' },
  { name: 'form of junk', payload: '&&==&a[=1&[]=2&%ZZ=%ZZ', type: 'application/x-www-form-urlencoded' },
  { name: 'unknown media type', payload: '<a/>', type: 'application/xml' },
];

let t: TestApp;
let a: OrderingAccount;
let document: { paths: Record<string, Record<string, Operation>> };
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  a = await orderingAccount(t);
  const owner = a.owner;
  ids.warehouses = a.warehouseId;
  ids.shops = a.shopId;
  ids.boxes = (await owner.post('/v2/boxes', boxBody())).body.id as number;
  ids.products = (await owner.post('/v2/products', productBody())).body.id as number;
  ids.kits = (await owner.post('/v2/kits', kitBody(a.shopId, [ids.products]))).body.id as number;
  ids.orders = (await owner.post('/v2/orders', orderBody(a))).body.id as number;
  document = (await t.client().get('/openapi.json')).body as typeof document;
});
afterAll(async () => t.close());

/**
 * Valid bodies of the main writes, so that hostile values beside them get past validation of
 * the rest and reach the services and the SQL. Other operations start from their schema.
 */
function knownBody(method: string, path: string): unknown {
  const key = `${method.toUpperCase()} ${path.replace('/{id}', '')}`;
  switch (key) {
    case 'POST /v2/orders':
    case 'PUT /v2/orders':
      return orderBody(a);
    case 'POST /v2/boxes':
    case 'PUT /v2/boxes':
    case 'PATCH /v2/boxes':
      return boxBody();
    case 'POST /v2/products':
    case 'PUT /v2/products':
    case 'PATCH /v2/products':
      return productBody({ vendorCode: 'SWEEP' });
    case 'POST /v2/warehouses':
    case 'PUT /v2/warehouses':
      return warehouseBody();
    case 'POST /v2/shops':
    case 'PUT /v2/shops':
      return shopBody(a.warehouseId);
    case 'POST /v2/kits':
    case 'PUT /v2/kits':
      return kitBody(a.shopId, [ids.products]);
    default:
      return undefined;
  }
}

/** A real id for `{id}` of a path, so the baseline request reaches the service. */
function idFor(path: string): string {
  const area = Object.keys(ids).find(
    (name) => path.includes(`/${name}/`) || path.includes(`/${name === 'orders' ? 'reservation' : name}`),
  );
  return String(area ? ids[area] : 1);
}

function buildRequests(random: () => number): HostileRequest[] {
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const requests: HostileRequest[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = operation.parameters ?? [];
      const pathParams = parameters.filter((parameter) => parameter.in === 'path');
      const queryParams = parameters.filter((parameter) => parameter.in === 'query');
      const headerParams = parameters.filter((parameter) => parameter.in === 'header');
      const bodySchema = operation.requestBody?.content['application/json']?.schema;
      const baseHeaders: Record<string, string> = { authorization: `Bearer ${a.owner.token}` };
      for (const header of headerParams) if (header.required) baseHeaders[header.name] = 'secret';
      const pathWith = (values: Record<string, string> = {}) =>
        path.replace(
          /\{(\w+)\}/g,
          (_all, name: string) => values[name] ?? (name === 'name' ? 'abc.pdf' : name === 'id' ? idFor(path) : '1'),
        );
      const baseQuery = queryParams
        .filter((parameter) => parameter.required)
        .map((parameter) => `${parameter.name}=${encodeURIComponent(String(sample(parameter.schema)))}`)
        .join('&');
      const url = (pathPart: string, query: string) => (query ? `${pathPart}?${query}` : pathPart);
      const body = bodySchema ? (knownBody(method, path) ?? sample(bodySchema)) : undefined;
      const json = (value: unknown) => ({
        payload: JSON.stringify(value),
        headers: { ...baseHeaders, 'content-type': 'application/json' },
      });
      const name = `${method.toUpperCase()} ${path}`;
      const upper = method.toUpperCase();

      requests.push({
        method: upper,
        url: url(pathWith(), baseQuery),
        ...(body === undefined ? { headers: baseHeaders } : json(body)),
        what: `${name}: plausible request`,
      });
      for (const parameter of pathParams) {
        const value = pick(PATH_VALUES);
        requests.push({
          method: upper,
          url: url(pathWith({ [parameter.name]: value }), baseQuery),
          ...(body === undefined ? { headers: baseHeaders } : json(body)),
          what: `${name}: path ${parameter.name}=${value.slice(0, 20)}`,
        });
      }
      const withQuery = (parameter: Parameter, text: string) =>
        [
          baseQuery
            .split('&')
            .filter((part) => !part.startsWith(`${parameter.name}=`))
            .join('&'),
          text,
        ]
          .filter((part) => part !== '')
          .join('&');
      for (let round = 0; round < Math.min(3, queryParams.length); round += 1) {
        const parameter = pick(queryParams);
        const value = pick(TEXT_VALUES);
        requests.push({
          method: upper,
          url: url(pathWith(), withQuery(parameter, value.text(parameter.name))),
          ...(body === undefined ? { headers: baseHeaders } : json(body)),
          what: `${name}: query ${parameter.name} ${value.name}`,
        });
      }
      const edgedQuery = queryParams.filter((parameter) => edgeValues(parameter.schema).length > 0);
      if (edgedQuery.length > 0) {
        const parameter = pick(edgedQuery);
        const value = String(pick(edgeValues(parameter.schema)));
        requests.push({
          method: upper,
          url: url(pathWith(), withQuery(parameter, `${parameter.name}=${encodeURIComponent(value)}`)),
          ...(body === undefined ? { headers: baseHeaders } : json(body)),
          what: `${name}: query ${parameter.name} edge ${value.slice(0, 20)}`,
        });
      }
      for (const header of headerParams) {
        const value = pick(['', 'abc', '99999999999999999999', '-1', '1.5', 'x'.repeat(5000)]);
        requests.push({
          method: upper,
          url: url(pathWith(), baseQuery),
          ...(body === undefined
            ? { headers: { ...baseHeaders, [header.name]: value } }
            : {
                payload: JSON.stringify(body),
                headers: { ...baseHeaders, 'content-type': 'application/json', [header.name]: value },
              }),
          what: `${name}: header ${header.name}=${value.slice(0, 20)}`,
        });
      }
      if (!bodySchema) continue;
      const fields: Field[] = [];
      fieldPaths(bodySchema, [], fields);
      for (let round = 0; round < 5 && fields.length > 0; round += 1) {
        const field = pick(fields);
        const value = pick(JSON_VALUES);
        requests.push({
          method: upper,
          url: url(pathWith(), baseQuery),
          ...json(setAt(body, field.path, value.value())),
          what: `${name}: JSON ${field.path.join('.')} ${value.name}`,
        });
      }
      const edged = fields.filter((field) => edgeValues(field.node).length > 0);
      for (let round = 0; round < 2 && edged.length > 0; round += 1) {
        const field = pick(edged);
        const value = pick(edgeValues(field.node));
        requests.push({
          method: upper,
          url: url(pathWith(), baseQuery),
          ...json(setAt(body, field.path, value)),
          what: `${name}: JSON ${field.path.join('.')} edge ${String(value).slice(0, 20)}`,
        });
      }
      for (let round = 0; round < 2 && fields.length > 0; round += 1) {
        const field = pick(fields).path;
        const value = pick(TEXT_VALUES);
        const key = field.map((part, index) => (index === 0 ? String(part) : `[${part}]`)).join('');
        const payload = [phpForm(body), value.text(key)].filter((part) => part !== '').join('&');
        requests.push({
          method: upper,
          url: url(pathWith(), baseQuery),
          payload,
          headers: { ...baseHeaders, 'content-type': 'application/x-www-form-urlencoded' },
          what: `${name}: form ${key} ${value.name}`,
        });
      }
      const whole = pick(WHOLE_BODIES);
      requests.push({
        method: upper,
        url: url(pathWith(), baseQuery),
        payload: whole.payload,
        headers: { ...baseHeaders, 'content-type': whole.type },
        what: `${name}: body ${whole.name}`,
      });
    }
  }
  return requests;
}

describe('hostile input over every operation of the OpenAPI document', () => {
  it('never answers 5xx, and always answers with x-log-id and, for errors, the house body', async () => {
    const requests = buildRequests(seededRandom(SEED));
    expect(requests.length).toBeGreaterThan(300);
    // grows with the operations (the own delivery methods took it past 800; the dashboard's, employees' and thermal labels' past 1200;
    // the one-time links, sessions and second factor past 1400; the returned parcels' inspection, the sandbox's partial
    // buyout, scoped keys, the audit trail and the returns past 1700)
    expect(requests.length).toBeLessThan(2300);
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    for (const request of requests) {
      const response = await t.app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        payload: request.payload,
      });
      const logId = response.headers['x-log-id'];
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      const problems: string[] = [];
      if (response.statusCode >= 500) problems.push(`status ${response.statusCode}`);
      if (typeof logId !== 'string' || !/^[0-9a-f]{32}$/.test(logId)) problems.push('no x-log-id');
      // The recipient's tracking page, a buyer's unsubscribe and returns pages answer errors as HTML pages (naming the log id), by design.
      const trackingPage =
        (request.url.startsWith('/track/') ||
          request.url.startsWith('/buyer/unsubscribe/') ||
          request.url.startsWith('/site/returns/')) &&
        String(response.headers['content-type']).startsWith('text/html');
      if (trackingPage && response.statusCode >= 400 && !response.body.includes(String(logId)))
        problems.push('an error page without its log id');
      if (response.statusCode >= 400 && !trackingPage) {
        let body: Record<string, unknown> | undefined;
        try {
          body = response.json();
        } catch {
          body = undefined;
        }
        if (
          !body ||
          typeof body.code !== 'string' ||
          typeof body.message !== 'string' ||
          !Array.isArray(body.errors) ||
          body.logId !== logId
        )
          problems.push('not the house error body');
      }
      if (problems.length > 0)
        failures.push(
          `${request.what} (${request.method} ${request.url.slice(0, 120)}): ${problems.join(', ')}: ${response.body.slice(0, 300)}`,
        );
    }
    expect(failures, `seed ${SEED}, answers by status ${JSON.stringify(statuses)}`).toEqual([]);
  });
});
