/**
 * Empty strings and hostile input, one test per finding, over HTTP on a real
 * database. The seeded sweep of every operation is in hostile-sweep.test.ts.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import type { ApiClient, ApiResponse } from './support/client.js';
import { boxBody, productBody } from './support/fixtures.js';
import { orderBody, orderingAccount, type OrderingAccount } from './support/orders.js';

let t: TestApp;
let a: OrderingAccount;
let owner: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  a = await orderingAccount(t);
  owner = a.owner;
});
afterAll(async () => t.close());

/** The house error body, with the x-log-id header it must repeat. */
function expectHouseError(response: ApiResponse, status: number): void {
  expect(response.status, response.text).toBe(status);
  const logId = response.headers['x-log-id'];
  expect(logId).toMatch(/^[0-9a-f]{32}$/);
  expect(response.body).toEqual({
    code: expect.any(String),
    message: expect.any(String),
    errors: expect.any(Array),
    logId,
  });
}

describe('an empty string for an optional field is "not given" (item 2)', () => {
  it('creates an order whose product has an empty producingCountry, form-encoded as WooCommerce sends it and as JSON', async () => {
    const body = orderBody(a, { cmsId: 'EMPTY-1' });
    const products = body.products as Array<Record<string, unknown>>;
    const withEmpty = {
      ...body,
      products: [{ ...products[0], producingCountry: '', vat: '', barcode: '' }],
      clientDeliveryDate: '',
      pickup: { ...(body.pickup as object), date: '' },
    };
    const form = await owner.post('/v2/orders', withEmpty, { form: true });
    expect(form.status, form.text).toBe(201);
    expect(form.body.id).toEqual(expect.any(Number));
    const json = await owner.post('/v2/orders', withEmpty);
    expect(json.status, json.text).toBe(201);
    for (const id of [form.body.id, json.body.id]) {
      const order = (await owner.get(`/v2/orders/${id}`)).body;
      expect(order.products[0]).toMatchObject({ producingCountry: null, vat: null, barcode: null });
    }
    const raw =
      `shopId=${a.shopId}&cmsId=EMPTY-2&products%5B0%5D%5Bname%5D=Tea&products%5B0%5D%5Bweight%5D=0.5&products%5B0%5D%5BproducingCountry%5D=` +
      `&deliveryAddress%5Bcity%5D%5BcountryCode%5D=RU&deliveryAddress%5Bcity%5D%5Bname%5D=${encodeURIComponent('Санкт-Петербург')}` +
      `&recipient%5BfullName%5D=Anna&recipient%5Bphone%5D=%2B79215556677&delivery%5Bcompany%5D%5Bid%5D=1&delivery%5Btype%5D=1&delivery%5Bpoint%5D%5Bid%5D=${a.pointId}`;
    expect((await owner.post('/v2/orders', raw, { form: true })).status).toBe(201);
  });

  it('still refuses an empty required field, and an empty PATCH value that cannot be emptied', async () => {
    const body = orderBody(a);
    const refused = await owner.post('/v2/orders', {
      ...body,
      recipient: { fullName: '', phone: '+79215556677' },
      deliveryAddress: { city: { countryCode: '', name: 'Санкт-Петербург' } },
    });
    expectHouseError(refused, 400);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'recipient.fullName', message: 'must not be empty' },
        { field: 'deliveryAddress.city.countryCode', message: 'must not be empty' },
      ]),
    );
    const product = (await owner.post('/v2/products', productBody({ vendorCode: 'EMPTY-P' }))).body.id as number;
    const patched = await owner.patch(`/v2/products/${product}`, { brand: '', producingCountry: '' });
    expect(patched.status, patched.text).toBe(204);
    expect((await owner.get(`/v2/products/${product}`)).body).toMatchObject({
      brand: null,
      producingCountry: null,
      name: 'Футболка красная',
    });
    const emptied = await owner.patch(`/v2/products/${product}`, 'name=', { form: true });
    expectHouseError(emptied, 400);
    expect(emptied.body.errors).toEqual([{ field: 'name', message: 'must not be empty' }]);
  });

  it('reads an empty query filter as no filter', async () => {
    await owner.post('/v2/boxes', boxBody({ name: 'Filtered' }));
    const all = await owner.get('/v2/boxes?name=&weight=&width=&page=&perPage=');
    expect(all.status, all.text).toBe(200);
    expect(all.body.length).toBeGreaterThan(0);
  });
});

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  additionalProperties?: boolean | SchemaNode;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ in: string; name: string; schema: SchemaNode }>;
        requestBody?: { content: Record<string, { schema: SchemaNode }> };
      }
    >
  >;
}

/** Every number node of a request schema, with where it is. */
function numberNodes(node: SchemaNode | undefined, at: string, found: Array<{ at: string; node: SchemaNode }>): void {
  if (!node || typeof node !== 'object') return;
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  if ((types.includes('integer') || types.includes('number')) && node.enum === undefined && node.const === undefined)
    found.push({ at, node });
  for (const [key, child] of Object.entries(node.properties ?? {})) numberNodes(child, `${at}.${key}`, found);
  numberNodes(node.items, `${at}[]`, found);
  for (const branch of node.anyOf ?? []) numberNodes(branch, at, found);
  if (typeof node.additionalProperties === 'object') numberNodes(node.additionalProperties, `${at}{}`, found);
}

describe('every number a request carries is bounded (item 12)', () => {
  it('refuses a page or a numeric filter beyond what the databases take with a 400 naming it', async () => {
    for (const [url, field] of [
      ['/v2/boxes?page=99999999999999999999', 'page'],
      ['/v2/boxes?weight=99999999999999999999', 'weight'],
      ['/v2/orders?list=0&page=2147483648', 'page'],
      ['/v2/orders?list=0&shopId=99999999999999999999', 'shopId'],
    ]) {
      const response = await owner.get(url);
      expectHouseError(response, 400);
      expect(response.body.errors, url).toEqual([{ field, message: expect.stringMatching(/^must be at most /) }]);
    }
    expect((await owner.get('/v2/boxes?page=2147483647&perPage=1000')).body).toEqual([]);
  });

  it('gives every integer and number of every request schema a minimum and a maximum', async () => {
    const document = (await t.client().get('/openapi.json')).body as OpenApiDocument;
    const found: Array<{ at: string; node: SchemaNode }> = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? [])
          numberNodes(parameter.schema, `${method.toUpperCase()} ${path} ${parameter.in}:${parameter.name}`, found);
        numberNodes(
          operation.requestBody?.content['application/json']?.schema,
          `${method.toUpperCase()} ${path} body`,
          found,
        );
      }
    }
    expect(found.length).toBeGreaterThan(100);
    const unbounded = found
      .filter(
        ({ node }) =>
          (node.minimum ?? node.exclusiveMinimum) === undefined ||
          (node.maximum ?? node.exclusiveMaximum) === undefined,
      )
      .map(({ at }) => at);
    expect(unbounded).toEqual([]);
  });
});

describe('deep and large free-form JSON (item 13)', () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 'x';
    for (let level = 0; level < levels; level += 1) value = [value];
    return value;
  };

  it('refuses a body nested thousands of levels deep with a 400 before parsing it', async () => {
    const deep = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;
    const send = (payload: string, url = '/v2/products') =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        payload,
      });
    const body = JSON.stringify(productBody({ vendorCode: 'DEEP-1', bindings: ['HERE'] })).replace('"HERE"', deep);
    const response = await send(body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      code: 'json_too_deep',
      message: expect.any(String),
      errors: [],
      logId: response.headers['x-log-id'],
    });
    const inString = await send(
      `{"name":"${'['.repeat(40)}","dimensions":{"width":1,"height":1,"length":1}}`,
      '/v2/boxes',
    );
    expect(inString.statusCode, 'brackets inside a string are text').toBe(201);
  });

  it('bounds each free-form value the API stores in depth and size, naming it', async () => {
    const deep = await owner.post(
      '/v2/products',
      productBody({ vendorCode: 'DEEP-2', bindings: [{ marketplaceId: 1, sku: 'a' }, nested(20)] }),
    );
    expectHouseError(deep, 400);
    expect(deep.body.errors).toEqual([{ field: 'bindings[1]', message: expect.stringMatching(/levels deep/) }]);
    const large = await owner.post(
      '/v2/products',
      productBody({ vendorCode: 'DEEP-3', bindings: [{ marketplaceId: 1, sku: 'x'.repeat(20_000) }] }),
    );
    expectHouseError(large, 400);
    expect(large.body.errors).toEqual([{ field: 'bindings[0]', message: expect.stringMatching(/characters long/) }]);
    const form = await owner.post('/v2/products', `name=a&vendorCode=DEEP-4&bindings[0]${'[a]'.repeat(40)}=1`, {
      form: true,
    });
    expectHouseError(form, 400);
    // refused by the form reader itself now (platform/form-body.ts), before validation
    expect(form.body.errors).toEqual([{ field: 'bindings[0]', message: expect.stringMatching(/brackets deep/) }]);
  });
});

describe('text that no database stores: NUL and lone surrogates (item 14)', () => {
  it('refuses them with a 400 naming the field, in bodies, query strings, path parameters and free-form JSON', async () => {
    const calls: Array<[() => Promise<ApiResponse>, string]> = [
      [() => t.client().post('/v2/auth/login', { email: 'a\u0000b', password: 'x' }), 'email'],
      [() => owner.post('/v2/boxes', boxBody({ name: 'Box\u0000' })), 'name'],
      [
        () =>
          owner.post('/v2/boxes', `name=Box%00&dimensions[width]=1&dimensions[height]=1&dimensions[length]=1`, {
            form: true,
          }),
        'name',
      ],
      [() => owner.get('/v2/boxes?name=a%00b'), 'name'],
      [() => owner.get('/v2/products?name=a%00b'), 'name'],
      [() => t.client().get('/files/a%00b.pdf'), 'name'],
      [() => owner.post('/v2/orders', orderBody(a, { cmsId: '\ud800' })), 'cmsId'],
      [
        () => owner.post('/v2/products', productBody({ vendorCode: 'SURROGATE', barcodes: ['46012\udc00'] })),
        'barcodes[0]',
      ],
      [
        () => owner.post('/v2/products', productBody({ vendorCode: 'NUL-BINDING', bindings: [{ sku: 'a\u0000' }] })),
        'bindings[0].sku',
      ],
      [
        () => owner.post('/v2/products', productBody({ vendorCode: 'KEY-BINDING', bindings: [{ ['s\ud83d']: 1 }] })),
        'bindings[0]',
      ],
    ];
    for (const [call, field] of calls) {
      const response = await call();
      expectHouseError(response, 400);
      expect(response.body.errors, response.text).toEqual([{ field, message: expect.stringMatching(/NUL|surrogate/) }]);
    }
    expect((await owner.post('/v2/boxes', boxBody({ name: 'Коробка 📦' }))).status).toBe(201);
  });
});

describe('answers Fastify gives itself follow the house conventions (item 15)', () => {
  it('answers a malformed %-escape in the path with the house body and x-log-id', async () => {
    for (const url of ['/v2/boxes%ZZ', '/v2/orders/%E0%A4%A', '/v2/boxes/%']) {
      expectHouseError(await owner.get(url), 400);
      expect((await owner.get(url)).body.code).toBe('bad_url');
    }
  });

  it('names an over-long id in a 400, and answers a path part beyond 500 characters with a house 414', async () => {
    const long = await owner.get(`/v2/orders/${'9'.repeat(200)}`);
    expectHouseError(long, 400);
    expect(long.body.errors).toEqual([{ field: 'id', message: expect.any(String) }]);
    const tooLong = await owner.get(`/v2/boxes/${'9'.repeat(600)}`);
    expectHouseError(tooLong, 414);
    expect(tooLong.body.code).toBe('path_parameter_too_long');
  });

  it('answers a request Node cannot parse with the house body and a log id, on the socket', async () => {
    const own = await createTestApp();
    try {
      await own.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = own.app.server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.write('GET /v2/boxes HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      const logId = /x-log-id: ([0-9a-f]{32})/.exec(answer)?.[1];
      expect(logId).toBeDefined();
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        code: 'bad_request',
        message: expect.any(String),
        errors: [],
        logId,
      });
    } finally {
      await own.close();
    }
  });

  it('answers a request that arrives while the server stops with a house 503', async () => {
    let during: { status: number; logId: string | null; body: unknown } | undefined;
    let port = 0;
    const own = await createTestApp({
      configure(app) {
        app.addHook('preClose', async () => {
          const response = await fetch(`http://127.0.0.1:${port}/health`);
          during = { status: response.status, logId: response.headers.get('x-log-id'), body: await response.json() };
        });
      },
    });
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    port = (own.app.server.address() as AddressInfo).port;
    await own.close();
    expect(during?.status).toBe(503);
    expect(during?.body).toEqual({
      code: 'shutting_down',
      message: expect.any(String),
      errors: [],
      logId: during?.logId,
    });
  });
});
