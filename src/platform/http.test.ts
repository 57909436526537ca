import { PassThrough } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, usingPostgres, type TestApp } from '../../test/support/app.js';
import type { ApiClient } from '../../test/support/client.js';
import { boxBody } from '../../test/support/fixtures.js';

const logLines: Array<Record<string, unknown>> = [];
let t: TestApp;
let client: ApiClient;

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
  });
  t = await createTestApp({
    env: { LOG_LEVEL: 'info' },
    logStream: stream,
    configure(app) {
      app.get('/v2/test/explode', async () => {
        throw new Error('secret internal detail at /srv/app.js:42');
      });
    },
  });
  client = (await t.newAccount()).client;
});
afterAll(async () => t.close());

describe('log ids', () => {
  it('puts x-log-id on every response and on the log lines of that request', async () => {
    const responses = [
      await client.get('/v2/lists/order-statuses'),
      await t.client().get('/v2/shops'),
      await client.get('/v2/no-such-endpoint'),
      await client.get('/v2/boxes?perPage=0'),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 401, 404, 400]);
    for (const response of responses) {
      const logId = response.headers['x-log-id'] as string;
      expect(logId).toMatch(/^[0-9a-f]{32}$/);
      if (response.status >= 400) expect(response.body.logId).toBe(logId);
      await new Promise((resolve) => setImmediate(resolve));
      expect(logLines.some((line) => line.logId === logId)).toBe(true);
    }
    expect(new Set(responses.map((response) => response.headers['x-log-id'])).size).toBe(4);
  });

  it('never logs the bearer token', async () => {
    await client.get('/v2/boxes');
    expect(JSON.stringify(logLines)).not.toContain(client.token as string);
  });
});

describe('error bodies', () => {
  it('answers an unknown route with a 404 body', async () => {
    const response = await client.post('/v2/nothing-here', { a: 1 });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      code: 'route_not_found',
      message: 'There is no POST /v2/nothing-here endpoint.',
      errors: [],
      logId: response.headers['x-log-id'],
    });
  });

  it('hides the details of a bug from the client but logs them', async () => {
    const response = await client.get('/v2/test/explode');
    expect(response.status).toBe(500);
    expect(response.body.code).toBe('internal_error');
    expect(response.text).not.toContain('secret internal detail');
    expect(response.text).not.toContain('.js:');
    const logged = logLines.find((line) => line.logId === response.headers['x-log-id'] && line.level === 50);
    expect(JSON.stringify(logged)).toContain('secret internal detail');
  });

  it('refuses a body over the limit with 413 and an unknown media type with 415', async () => {
    const huge = await client.post('/v2/boxes', {
      name: 'x'.repeat(3 * 1024 * 1024),
      dimensions: { width: 1, height: 1, length: 1 },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('body_too_large');
    const xml = await client.call('POST', '/v2/boxes', undefined, { headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(415);
    expect(xml.body.code).toBe('unsupported_media_type');
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, and writes once', async () => {
    const headers = { 'idempotency-key': 'create-box-1' };
    const first = await client.post('/v2/boxes', boxBody({ name: 'Idempotent' }), { headers });
    const second = await client.post('/v2/boxes', boxBody({ name: 'Idempotent' }), { headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect((await client.get(`/v2/boxes?name=Idempotent`)).body).toHaveLength(1);
  });

  it('refuses the same key with another body (409)', async () => {
    const headers = { 'idempotency-key': 'create-box-2' };
    expect((await client.post('/v2/boxes', boxBody({ name: 'One' }), { headers })).status).toBe(201);
    const reused = await client.post('/v2/boxes', boxBody({ name: 'Two' }), { headers });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('idempotency_key_reused');
    expect((await client.get('/v2/boxes?name=Two')).body).toEqual([]);
  });

  it('keeps keys per account, does not store refusals, and lets concurrent duplicates write once', async () => {
    const other = (await t.newAccount('Other')).client;
    const headers = { 'idempotency-key': 'shared-key' };
    expect((await client.post('/v2/boxes', boxBody({ name: 'Mine' }), { headers })).status).toBe(201);
    expect((await other.post('/v2/boxes', boxBody({ name: 'Theirs' }), { headers })).status).toBe(201);

    const bad = await client.post('/v2/boxes', { name: 'bad' }, { headers: { 'idempotency-key': 'bad-first' } });
    expect(bad.status).toBe(400);
    expect(
      (await client.post('/v2/boxes', boxBody({ name: 'bad' }), { headers: { 'idempotency-key': 'bad-first' } }))
        .status,
    ).toBe(201);

    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.post('/v2/boxes', boxBody({ name: 'Racing' }), { headers: { 'idempotency-key': 'race' } }),
      ),
    );
    const statuses = racing.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect((await client.get('/v2/boxes?name=Racing')).body).toHaveLength(1);
  });
});

describe('service endpoints', () => {
  it('answers /health and /ready without a token', async () => {
    expect((await t.client().get('/health')).body).toEqual({ status: 'ok' });
    expect((await t.client().get('/ready')).body).toEqual({ status: 'ready' });
  });

  it('answers /ready with 503 when the database does not', async () => {
    const database = t.runtime.database as { ping: () => Promise<void> };
    const ping = database.ping;
    database.ping = async () => {
      throw new Error('connection refused');
    };
    try {
      const response = await t.client().get('/ready');
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('not_ready');
    } finally {
      database.ping = ping;
    }
  });

  it('serves an OpenAPI 3 document built from the request schemas, and a docs page', async () => {
    const response = await t.client().get('/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toMatch(/^3\./);
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    const createBox = document.paths['/v2/boxes'].post;
    expect(Object.keys(createBox.requestBody.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    expect(
      createBox.requestBody.content['application/json'].schema.properties.dimensions.properties.width,
    ).toMatchObject({ type: 'integer', minimum: 1, maximum: 999 });
    expect(document.paths['/v2/shops'].get.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['name', 'brand', 'warehouseId', 'onlyFulfilment', 'onlyMergedPickup', 'page', 'perPage']),
    );
    expect(document.paths['/v2/shops/{id}'].get.responses['200']).toBeTruthy();
    expect(document.paths['/v2/auth/login'].post.security).toEqual([]);
    const docs = await t.client().get('/docs/');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger');
  });
});

describe.skipIf(usingPostgres)('durability', () => {
  it('keeps an acknowledged write across a restart (SQLite file in WAL mode)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-restart-'));
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'service.db')}`, DATA_DIR: dir };
    const first = await createTestApp({ env });
    const account = await first.newAccount();
    const id = (await account.client.post('/v2/boxes', boxBody({ name: 'Survivor' }))).body.id;
    await first.close();
    const second = await createTestApp({ env });
    try {
      const again = second.client(account.token);
      expect((await again.get(`/v2/boxes/${id}`)).body.name).toBe('Survivor');
    } finally {
      await second.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('record ids in paths', () => {
  it('refuses an id beyond 2^53-1 on every {id} path with a 400 naming it (PostgreSQL answered its bigint overflow with a 500)', async () => {
    const document = (await t.client().get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const calls = Object.entries(document.paths)
      .filter(([pathName]) => pathName.endsWith('/{id}'))
      .flatMap(([pathName, methods]) =>
        ['get', 'delete']
          .filter((method) => method in methods)
          .map((method) => ({
            method: method.toUpperCase() as 'GET' | 'DELETE',
            url: pathName.replace('{id}', '99999999999999999999'),
          })),
      );
    expect(calls.length).toBeGreaterThan(5);
    for (const call of calls) {
      const response = await client.call(call.method, call.url);
      expect(response.status, `${call.method} ${call.url}: ${response.text}`).toBe(400);
      expect(response.body.errors, call.url).toEqual([{ field: 'id', message: expect.any(String) }]);
    }
  });
});
