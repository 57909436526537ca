/**
 * The published OpenAPI document: an operationId and a contract section on every
 * operation, named models, the headers calls read, and examples that succeed: the docs page's
 * warehouse, shop, calculator and order examples are taken out of /openapi.json and sent, in
 * that order, as a new user of a fresh instance would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DOCUMENT_PLAN } from '../src/api-document.js';
import { createTestApp, type TestApp } from './support/app.js';

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: Record<string, unknown>;
}
interface Operation {
  operationId?: string;
  description?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: unknown; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

let t: TestApp;
let document: Document;
const operations: Array<{ key: string; method: string; path: string; operation: Operation }> = [];

beforeAll(async () => {
  t = await createTestApp();
  document = (await t.client().get('/openapi.json')).body as Document;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item))
      operations.push({ key: `${method.toUpperCase()} ${path}`, method, path, operation });
  }
});
afterAll(async () => t.close());

const isPublic = (operation: Operation) => Array.isArray(operation.security) && operation.security.length === 0;
const header = (operation: Operation, name: string) =>
  operation.parameters?.find((parameter) => parameter.in === 'header' && parameter.name === name);

describe('descriptions as the docs page renders them', () => {
  it('hold no <placeholder> outside a code span: the docs page renders Markdown and drops it as a tag', async () => {
    const whole = (await t.client().get('/openapi.json')).body as unknown;
    const found: string[] = [];
    const walk = (value: unknown, at: string): void => {
      if (typeof value === 'string') {
        if (/(^|\.)description$/.test(at) && /<[A-Za-z][^>]*>/.test(value.replace(/`[^`]*`/g, '')))
          found.push(`${at}: ${value}`);
      } else if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${at}[${index}]`));
      else if (value && typeof value === 'object')
        for (const [key, item] of Object.entries(value)) walk(item, at ? `${at}.${key}` : key);
    };
    walk(whole, '');
    expect(found).toEqual([]);
  });
});

describe('operations', () => {
  it('gives every operation a unique operationId from the plan, and the plan names no missing operation', () => {
    expect(operations.length).toBeGreaterThan(80);
    expect(operations.filter(({ key }) => !(key in API_DOCUMENT_PLAN.operations)).map(({ key }) => key)).toEqual([]);
    expect(
      Object.keys(API_DOCUMENT_PLAN.operations).filter((key) => !operations.some((operation) => operation.key === key)),
    ).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/v2/orders/confirm'].post.operationId).toBe('confirmOrders');
    expect(document.paths['/v2/lists/points'].get.operationId).toBe('listPickupPoints');
    expect(document.paths['/v2/lists/points'].post.operationId).toBe('listPickupPointsByPost');
  });

  it('names the contract section of each operation in its description, or says it is an extension', () => {
    for (const { key, operation } of operations)
      expect(operation.description, key).toMatch(
        /\S[\s\S]*(Contract \d+\.\d+ \(api-v2\.md\)|Extension: not in the contract)/,
      );
    expect(document.paths['/v2/orders/{id}'].get.description).toContain('Contract 4.4');
    expect(document.paths['/v2/calculator'].post.description).toContain('Contract 4.12');
    expect(document.paths['/v2/events'].get.description).toContain('Extension');
  });
});

describe('tags and answers', () => {
  it('declares and describes every tag, and says what every answer is', () => {
    const tags = (document as unknown as { tags: Array<{ name: string; description: string }> }).tags;
    const declared = new Map(tags.map((tag) => [tag.name, tag.description]));
    const used = new Set(operations.flatMap(({ operation }) => (operation as { tags?: string[] }).tags ?? []));
    expect([...used].filter((tag) => !declared.get(tag))).toEqual([]);
    expect(declared.get('Orders')).toContain('Contract 4.4');
    const vague = operations.flatMap(({ key, operation }) =>
      Object.entries(operation.responses)
        .filter(([, response]) =>
          ['Error', 'Default Response', '', undefined].includes((response as { description?: string }).description),
        )
        .map(([status]) => `${key} ${status}`),
    );
    expect(vague).toEqual([]);
    expect(document.paths['/v2/orders/confirm'].post.responses['409']).toMatchObject({
      description: expect.stringContaining('Conflict'),
    });
    expect(document.paths['/v2/orders'].get.responses['429'].content?.['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    const withoutLogId = operations.flatMap(({ key, operation }) =>
      Object.entries(operation.responses)
        .filter(([, response]) => !(response as { headers?: Record<string, unknown> }).headers?.['x-log-id'])
        .map(([status]) => `${key} ${status}`),
    );
    expect(withoutLogId).toEqual([]);
  });
});

describe('code tables', () => {
  /** Enum schemas without a description on themselves, their parameter or the union or array holding them. */
  function undescribed(node: unknown, at: string, described: boolean, found: string[]): void {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node))
      return node.forEach((item, index) => undescribed(item, `${at}/${index}`, described, found));
    const schema = node as Record<string, unknown>;
    const here = described || typeof schema.description === 'string';
    if (Array.isArray(schema.enum) && !here) found.push(at);
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties')
        for (const [name, property] of Object.entries(value as object))
          undescribed(property, `${at}.${name}`, false, found);
      else if (key === 'anyOf' || key === 'items') undescribed(value, at, here, found);
      else if (key !== 'enum' && key !== 'examples' && key !== 'example') undescribed(value, at, false, found);
    }
  }

  it('describes the values of every enumerated field and parameter', () => {
    const found: string[] = [];
    for (const { key, operation } of operations) {
      for (const parameter of operation.parameters ?? [])
        undescribed(
          parameter.schema,
          `${key} ${parameter.in}:${parameter.name}`,
          typeof (parameter as { description?: string }).description === 'string',
          found,
        );
      undescribed(operation.requestBody?.content['application/json']?.schema, `${key} body`, false, found);
      for (const [status, response] of Object.entries(operation.responses))
        undescribed(response.content?.['application/json']?.schema, `${key} ${status}`, false, found);
    }
    for (const [name, schema] of Object.entries(document.components.schemas))
      undescribed(schema, `#/components/schemas/${name}`, false, found);
    expect(found).toEqual([]);
  });
});

describe('named schemas', () => {
  it('publishes the models under their names and refers to them', () => {
    for (const name of ['Order', 'Product', 'Shop', 'Warehouse', 'DeliveryCompany', 'Error', 'TrackingRecord'])
      expect(document.components.schemas[name], name).toBeDefined();
    const json = (operation: Operation, status: string) =>
      operation.responses[status].content?.['application/json'].schema;
    expect(json(document.paths['/v2/orders/{id}'].get, '200')).toEqual({ $ref: '#/components/schemas/Order' });
    expect(json(document.paths['/v2/orders'].get, '200')).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/Order' },
    });
    expect(json(document.paths['/v2/orders'].post, '400')).toEqual({ $ref: '#/components/schemas/Error' });
    expect(document.components.schemas.CalculatorResult.properties).toMatchObject({
      '1': { items: { $ref: '#/components/schemas/DeliveryCompany' } },
    });
    expect(document.components.schemas.Error).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['code', 'message', 'errors', 'logId']),
    });
  });
});

describe('headers', () => {
  it('declares Shop-Id on every authenticated /v2 operation and Idempotency-Key on every authenticated POST', () => {
    const authenticated = operations.filter(({ path, operation }) => path.startsWith('/v2/') && !isPublic(operation));
    expect(authenticated.length).toBeGreaterThan(70);
    expect(authenticated.filter(({ operation }) => !header(operation, 'Shop-Id')).map(({ key }) => key)).toEqual([]);
    expect(
      authenticated
        .filter(({ method, operation }) => method === 'post' && !header(operation, 'Idempotency-Key'))
        .map(({ key }) => key),
    ).toEqual([]);
    expect(header(document.paths['/v2/tracking/events/{companyId}'].post, 'Shop-Id')).toBeUndefined();
  });

  it('declares the required headers of /v2/calculator/one', () => {
    const one = document.paths['/v2/calculator/one'].post;
    for (const name of ['Shop-Id', 'Type', 'Company-Id'])
      expect(header(one, name), name).toMatchObject({ required: true });
    expect(header(document.paths['/v2/calculator'].post, 'Shop-Id')).toMatchObject({ required: false });
  });
});

describe('examples of the docs page', () => {
  const example = (path: string, name: string) =>
    document.paths[path].post.requestBody?.content['application/json'].examples?.[name].value;

  it('succeed on a fresh instance: warehouse, shop, calculator (200 with companies), order (201)', async () => {
    const { client } = await t.newAccount('Docs reader');
    const warehouse = await client.post('/v2/warehouses', example('/v2/warehouses', 'warehouse'));
    expect(warehouse.status, warehouse.text).toBe(201);
    expect(warehouse.body.id, 'the shop example names warehouse 1').toBe(1);
    const shop = await client.post('/v2/shops', example('/v2/shops', 'shop'));
    expect(shop.status, shop.text).toBe(201);
    expect(shop.body.id, 'the order example names shop 1').toBe(1);

    const calculated = await client.post('/v2/calculator', example('/v2/calculator', 'calculator'));
    expect(calculated.status, calculated.text).toBe(200);
    expect(calculated.body['1'].length + calculated.body['2'].length + calculated.body['3'].length).toBeGreaterThan(0);

    const order = await client.post('/v2/orders', example('/v2/orders', 'order'));
    expect(order.status, order.text).toBe(201);
    const created = await client.get(`/v2/orders/${order.body.id}`);
    expect(created.body).toMatchObject({ status: 11, error: null });
  });
});
