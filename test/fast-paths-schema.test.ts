/**
 * The answers built as JSON text without Fastify's response serializer (GET /v2/orders/{id},
 * the orders list, the calculator and calculator/one) against the published OpenAPI document:
 * for a range of real answers, the schema's own serializer (fast-json-stringify, what Fastify
 * would run) given the parsed answer writes the very bytes that were sent, and the answer
 * validates against the schema. A field added to the schema but not to the fast path (or the
 * other way round) fails here.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fastJson from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from './support/orders.js';

type Schema = Record<string, unknown>;
interface Document {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

let t: TestApp;
let a: OrderingAccount;
let document: Document;

beforeAll(async () => {
  t = await createTestApp();
  a = await orderingAccount(t);
  document = (await t.client().get('/openapi.json')).body as Document;
});
afterAll(async () => t.close());

/** The published schema of an operation's answer, with the document's components beside it so that its $refs resolve. */
function published(path: string, method: string, status: string): Schema {
  const schema = document.paths[path][method].responses[status].content?.['application/json'].schema;
  if (!schema) throw new Error(`${method} ${path} ${status} has no JSON schema`);
  return { ...schema, components: document.components };
}

/** The bytes sent equal what the schema's serializer writes of them, and they validate against it. */
function expectSerializerBytes(schema: Schema, sent: string, label: string): void {
  const serialize = fastJson(schema as unknown as Parameters<typeof fastJson>[0]);
  const parsed: unknown = JSON.parse(sent);
  const written = serialize(parsed);
  if (written !== sent) {
    // the first difference with some context: whole answers are hundreds of kB
    let at = 0;
    while (at < sent.length && sent[at] === written[at]) at++;
    expect.fail(
      `${label}: the schema's serializer writes ${JSON.stringify(written.slice(Math.max(0, at - 120), at + 120))}\nwhere the fast path sent ${JSON.stringify(sent.slice(Math.max(0, at - 120), at + 120))}`,
    );
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  expect(validate(parsed), `${label}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
}

async function raw(
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const response = await t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${a.owner.token}`,
      'shop-id': String(a.shopId),
      ...(payload ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    payload: payload ? JSON.stringify(payload) : undefined,
  });
  return { status: response.statusCode, body: response.body };
}

describe('orders: by id and pages, built from the stored documents', () => {
  it('orders of several kinds and statuses are written as the Order schema writes them', async () => {
    const ids: number[] = [];
    const create = async (overrides: Record<string, unknown>) => {
      const created = await a.owner.post('/v2/orders', orderBody(a, overrides));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids.push(created.body.id as number);
      return created.body.id as number;
    };
    // a pickup-point draft with cash on delivery
    await create({ cmsId: 'KIND-1' });
    // a courier order with several goods, comments and an e-mail
    await create({
      cmsId: 'KIND-2',
      delivery: { company: { id: 1 }, type: 2 },
      deliveryAddress: {
        city: { countryCode: 'RU', name: 'Санкт-Петербург' },
        street: 'Невский проспект',
        house: '10',
        flat: '5',
      },
      recipient: { fullName: 'Пётр Сидоров', phone: '+79990001122', email: 'petr@example.com' },
      products: [
        {
          name: 'Кружка "с цитатой"',
          vendorCode: 'MUG\\1',
          priceDeclared: 350.5,
          priceCod: 0,
          count: 2,
          weight: 0.4,
          dimensions: { width: 10, height: 10, length: 12 },
        },
        {
          name: 'Носки',
          vendorCode: 'SOCK-1',
          priceDeclared: 200,
          priceCod: 250,
          count: 3,
          weight: 0.1,
          dimensions: { width: 10, height: 2, length: 20 },
        },
      ],
      comment: 'Позвонить за час\nдо приезда',
    });
    // without a shop's cash on delivery (prepaid)
    await create({
      cmsId: 'KIND-3',
      products: [
        {
          name: 'Книга',
          vendorCode: 'BOOK-2',
          priceDeclared: 800,
          priceCod: 0,
          count: 1,
          weight: 0.5,
          dimensions: { width: 15, height: 4, length: 22 },
        },
      ],
    });
    // prepared (13): registered with its company, a track number
    ids.push((await preparedOrder(a.owner, a.worker, orderBody(a, { cmsId: 'KIND-4' }))).id);
    // cancelled
    const cancelled = await create({ cmsId: 'KIND-5' });
    expect((await a.owner.post('/v2/orders/cancel', { ids: [cancelled] })).status).toBe(204);
    // confirmed, not yet registered
    const confirmed = await create({ cmsId: 'KIND-6' });
    expect((await a.owner.post('/v2/orders/confirm', { ids: [confirmed] })).status).toBe(204);

    const one = published('/v2/orders/{id}', 'get', '200');
    const statuses = new Set<number>();
    for (const id of ids) {
      const answer = await raw('GET', `/v2/orders/${id}`);
      expect(answer.status).toBe(200);
      statuses.add((JSON.parse(answer.body) as { status: number }).status);
      expectSerializerBytes(one, answer.body, `order ${id}`);
    }
    expect(statuses.size).toBeGreaterThanOrEqual(3);

    const page = published('/v2/orders', 'get', '200');
    for (const url of [
      '/v2/orders?list=0&perPage=50',
      '/v2/orders?list=0&perPage=2&page=2',
      '/v2/orders?list=1&perPage=50',
      '/v2/orders?list=0&deliveryType=2',
      '/v2/orders?list=0&search=NOTHING-MATCHES',
    ]) {
      const answer = await raw('GET', url);
      expect(answer.status).toBe(200);
      expectSerializerBytes(page, answer.body, url);
    }
  });
});

describe('the calculator: answers joined from pre-serialised parts', () => {
  const cargo = { weight: 1.2, dimensions: { width: 20, height: 15, length: 30 }, priceDeclared: 3000, priceCod: 3000 };
  const bodies: Array<[string, Record<string, unknown>]> = [
    ['a big city, every company, full points', { reception: { cityName: 'Москва' }, ...cargo }],
    [
      'a big city, points by id only',
      { reception: { cityName: 'Санкт-Петербург' }, hidePointFullInfo: true, ...cargo },
    ],
    ['a small town (far points)', { reception: { cityName: 'Удомля', region: 'Тверская область' }, ...cargo }],
    [
      'courier only, services shown',
      { reception: { cityName: 'Санкт-Петербург' }, type: 2, services: [4, 6], ...cargo },
    ],
    ['the cheapest only, prepaid', { reception: { cityName: 'Казань' }, onlyCheap: true, weight: 0.3 }],
    ['a place nobody delivers to', { reception: { cityName: 'Нет-такого-города' }, weight: 1 }],
  ];

  it('answers with points, tariffs and empty lists are written as the CalculatorResult schema writes them', async () => {
    const schema = published('/v2/calculator', 'post', '200');
    let points = 0;
    for (const [label, body] of bodies) {
      const answer = await raw('POST', '/v2/calculator', body);
      expect(answer.status, answer.body.slice(0, 300)).toBe(200);
      points += (JSON.parse(answer.body) as { '1': Array<{ points?: unknown[] }> })['1'].reduce(
        (sum, company) => sum + (company.points?.length ?? 0),
        0,
      );
      expectSerializerBytes(schema, answer.body, label);
    }
    expect(points).toBeGreaterThan(100);
  });

  it('calculator/one: one company, or [] when it cannot deliver', async () => {
    const schema = published('/v2/calculator/one', 'post', '200');
    for (const [type, companyId] of [
      ['1', '1'],
      ['2', '1'],
      ['1', '999'],
    ]) {
      const answer = await raw(
        'POST',
        '/v2/calculator/one',
        { reception: { cityName: 'Санкт-Петербург' }, ...cargo },
        { type, 'company-id': companyId },
      );
      expect(answer.status, answer.body.slice(0, 300)).toBe(200);
      expectSerializerBytes(schema, answer.body, `type ${type}, company ${companyId}`);
    }
  });

  it('errors of the calculator are written as the published error schema writes them', async () => {
    const schema = published('/v2/calculator', 'post', '400');
    const answer = await raw('POST', '/v2/calculator', { weight: 1 });
    expect(answer.status).toBe(400);
    expectSerializerBytes(schema, answer.body, 'no reception');
  });
});
