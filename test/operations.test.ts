import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../src/config.js';
import { API_VERSION } from '../src/app.js';
import { createTestApp, usingPostgres, type TestApp } from './support/app.js';
import type { ApiClient } from './support/client.js';
import { startFakeCarrier } from './support/fake-carrier.js';
import { PermanentJobError } from '../src/platform/jobs.js';
import { shopBody, warehouseBody } from './support/fixtures.js';

/** The value of the sample `name` whose labels include `labels`, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) found[pair[1]] = pair[2];
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

let t: TestApp;
let owner: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await t.newAccount('Operations')).client;
});
afterAll(async () => t.close());

describe('GET /version', () => {
  it('names the service, Node.js and API versions and the database kind, without a token', async () => {
    const response = await t.client().get('/version');
    expect(response.status).toBe(200);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(response.body).toEqual({
      version: pkg.version,
      node: process.version,
      database: usingPostgres ? 'postgres' : 'sqlite',
      apiVersion: API_VERSION,
    });
  });
});

describe('X-Request-Id', () => {
  it("takes a caller's id as the log id and echoes it, on answers and on errors", async () => {
    const id = 'shop-42.9f1c:retry=2';
    const ok = await owner.get('/v2/lists/order-statuses', { headers: { 'x-request-id': id } });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-request-id']).toBe(id);
    expect(ok.headers['x-log-id']).toBe(id);
    const refused = await t.client().get('/v2/shops', { headers: { 'x-request-id': id } });
    expect(refused.status).toBe(401);
    expect(refused.body.logId).toBe(id);
    expect(refused.headers['x-request-id']).toBe(id);
  });

  it('replaces an id that is too long or has unsafe characters, and makes one when none is sent', async () => {
    for (const hostile of ['<script>alert(1)</script>', 'a'.repeat(129), 'two words', '"quoted"']) {
      const response = await owner.get('/v2/lists/order-statuses', { headers: { 'x-request-id': hostile } });
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
      expect(response.headers['x-log-id']).toBe(response.headers['x-request-id']);
    }
    const none = await owner.get('/v2/lists/order-statuses');
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(none.headers['x-log-id']).toBe(none.headers['x-request-id']);
  });
});

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, never by raw URL', async () => {
    const before = await t.client().get('/metrics');
    expect(before.status).toBe(200);
    expect(String(before.headers['content-type'])).toContain('text/plain');
    const labels = { method: 'GET', route: '/v2/shops/:id', status: '404' };
    const counted = sample(before.text, 'http_requests_total', labels) ?? 0;

    expect((await owner.get('/v2/shops/987654')).status).toBe(404);
    expect((await owner.get('/v2/shops/987655')).status).toBe(404);
    expect((await t.client().get('/no/such/path/123')).status).toBe(404);

    const after = (await t.client().get('/metrics')).text;
    expect(sample(after, 'http_requests_total', labels)).toBe(counted + 2);
    expect(sample(after, 'http_request_duration_seconds_count', labels)).toBe(counted + 2);
    expect(sample(after, 'http_requests_total', { route: '(unmatched)', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('987654');
    expect(after).not.toContain('/no/such/path');
    // the process's own metrics come along
    expect(sample(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('reports the job queue by kind and status, a drained kind staying at 0', async () => {
    const jobs = t.runtime.services.jobs;
    const kind = `ops.metrics.${Date.now()}`;
    await jobs.enqueue(null, kind, {});
    await jobs.enqueue(null, kind, {});
    const pending = (await t.client().get('/metrics')).text;
    expect(sample(pending, 'delivery_jobs', { kind, status: 'pending' })).toBe(2);

    const [first, second] = await jobs.claim([kind], 2);
    const running = (await t.client().get('/metrics')).text;
    expect(sample(running, 'delivery_jobs', { kind, status: 'running' })).toBe(2);
    expect(sample(running, 'delivery_jobs', { kind, status: 'pending' })).toBe(0);

    await jobs.complete(first);
    await jobs.fail(second, new PermanentJobError('the company refused it'));
    const later = (await t.client().get('/metrics')).text;
    expect(sample(later, 'delivery_jobs', { kind, status: 'running' })).toBe(0);
    expect(sample(later, 'delivery_jobs', { kind, status: 'failed' })).toBe(1);
  });

  it.runIf(usingPostgres)('reports the PostgreSQL pool', async () => {
    const text = (await t.client().get('/metrics')).text;
    // exact numbers depend on what else this process runs at that moment
    for (const state of ['idle', 'in_use', 'waiting'])
      expect(sample(text, 'delivery_db_pool_connections', { state })).toBeGreaterThanOrEqual(0);
  });

  it("times each delivery company's calculator answer and counts those that miss the deadline", async () => {
    const warehouseId = (await owner.post('/v2/warehouses', warehouseBody())).body.id;
    const shopId = (await owner.post('/v2/shops', shopBody(warehouseId))).body.id;
    // answers far later than the calculator waits: a timeout whatever the machine's speed
    const silent = await startFakeCarrier({ delayMs: 60_000 });
    const registry = t.runtime.services.reference.registry;
    registry.add({
      driver: 'http',
      deliveryTypes: [2],
      coverage: { minPopulation: 0 },
      id: 191,
      code: 'silent',
      name: 'Молчаливый',
      baseUrl: silent.baseUrl,
    });
    try {
      const response = await owner.post(
        '/v2/calculator',
        { reception: { cityName: 'Санкт-Петербург', countryCode: 'RU' }, type: 2, timeout: 50 },
        { headers: { 'shop-id': String(shopId) } },
      );
      expect(response.status).toBe(200);
    } finally {
      registry.remove(191);
      await silent.close();
    }
    const text = (await t.client().get('/metrics')).text;
    expect(sample(text, 'delivery_calculator_company_timeouts_total', { company: '191' })).toBe(1);
    expect(
      sample(text, 'delivery_calculator_company_duration_seconds_count', { company: '191', outcome: 'timeout' }),
    ).toBe(1);
    // a built-in company answered
    expect(
      sample(text, 'delivery_calculator_company_duration_seconds_count', { company: '1', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await createTestApp({ env: { METRICS_TOKEN: 'scrape-token-0123456789' } });
  });
  afterAll(async () => guarded.close());

  it('answers only the bearer of the token', async () => {
    const none = await guarded.client().get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'unauthorized', errors: [], logId: none.headers['x-log-id'] });
    expect((await guarded.client('scrape-token-wrong-0000').get('/metrics')).status).toBe(401);
    const right = await guarded.client('scrape-token-0123456789').get('/metrics');
    expect(right.status).toBe(200);
    expect(right.text).toContain('http_requests_total');
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', LOGIN_RATE_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(async () => limited.close());

  it('refuses a token past its budget with 429, Retry-After and the error body; other tokens go on', async () => {
    const first = (await limited.newAccount('First')).client;
    const second = (await limited.newAccount('Second')).client;
    for (let i = 0; i < 3; i++) {
      const allowed = await first.get('/v2/lists/order-statuses');
      expect(allowed.status).toBe(200);
      expect(allowed.headers['x-ratelimit-remaining']).toBe(String(2 - i));
    }
    const refused = await first.get('/v2/lists/order-statuses');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      code: 'rate_limited',
      message: expect.stringContaining('at most 3 a minute'),
      errors: [],
      logId: refused.headers['x-log-id'],
    });
    expect((await second.get('/v2/lists/order-statuses')).status).toBe(200);
    // service routes are outside the API's budget
    expect((await first.get('/health')).status).toBe(200);
  });

  it('counts calls without a token by address, before authentication', async () => {
    const anonymous = limited.client();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await anonymous.get('/v2/shops')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('limits login attempts per address and e-mail', async () => {
    // an app of its own: calls without a token above used up this address's budget for /v2
    const login = await createTestApp({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      await loginAttempts(login);
    } finally {
      await login.close();
    }
  });
});

async function loginAttempts(app: TestApp): Promise<void> {
  const anonymous = app.client();
  const attempt = (email: string) => anonymous.post('/v2/auth/login', { email, password: 'not the password' });
  expect((await attempt('guessed@shop.example')).status).toBe(401);
  expect((await attempt('Guessed@Shop.example')).status).toBe(401);
  const refused = await attempt('guessed@shop.example');
  expect(refused.status).toBe(429);
  expect(refused.body.code).toBe('rate_limited');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  // another e-mail from the same address has its own attempts
  expect((await attempt('other@shop.example')).status).toBe(401);
}

describe('CORS', () => {
  const origin = 'https://shop.example';
  let open: TestApp;
  beforeAll(async () => {
    open = await createTestApp({ env: { CORS_ORIGINS: `${origin}, http://localhost:3000` } });
  });
  afterAll(async () => open.close());

  it('answers a preflight from an allowed origin for Authorization and Shop-Id', async () => {
    const response = await open.app.inject({
      method: 'OPTIONS',
      url: '/v2/orders',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, shop-id',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    const allowed = String(response.headers['access-control-allow-headers'])
      .toLowerCase()
      .split(/\s*,\s*/);
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'shop-id', 'content-type', 'idempotency-key', 'x-request-id']),
    );
    expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('names the origin on answers and refusals and exposes paging and support headers', async () => {
    const { token } = await open.newAccount();
    const list = await open.client(token).get('/v2/shops', { headers: { origin } });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe(origin);
    const exposed = String(list.headers['access-control-expose-headers']).toLowerCase();
    for (const header of ['x-total-count', 'x-page', 'x-per-page', 'x-log-id', 'x-request-id', 'retry-after'])
      expect(exposed).toContain(header);
    const refused = await open.client().get('/v2/shops', { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(origin);
  });

  it('does not name an origin that is not allowed', async () => {
    const response = await open.app.inject({
      method: 'OPTIONS',
      url: '/v2/orders',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends no CORS headers unless CORS_ORIGINS is set', async () => {
    const response = await owner.get('/v2/lists/order-statuses', { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('operations settings', () => {
  it('reads CORS_ORIGINS, rate limits and METRICS_TOKEN with defaults', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      corsOrigins: [],
      rateLimitPerMinute: 1200,
      loginRateLimitPerMinute: 10,
      metricsToken: null,
    });
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:3000/' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute).toBe(0);
  });

  it('refuses origins with a path or another scheme, short metrics tokens and bad limits, naming each', () => {
    let problems: string[] = [];
    try {
      loadConfig({
        CORS_ORIGINS: 'https://a.example/shop,ftp://b.example',
        METRICS_TOKEN: 'short',
        RATE_LIMIT_PER_MINUTE: 'many',
      });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems.filter((problem) => problem.startsWith('CORS_ORIGINS'))).toHaveLength(2);
    expect(problems.some((problem) => problem.startsWith('METRICS_TOKEN'))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('RATE_LIMIT_PER_MINUTE'))).toBe(true);
  });
});
