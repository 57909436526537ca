import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { loadConfig, ConfigError } from '../../config.js';
import { PROJECT_ROOT } from '../../platform/reference-data.js';

const run = promisify(execFile);
let t: TestApp;
let accountId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { LOGIN_TOKEN_DAYS: '1' } });
  accountId = (await t.newAccount('Shop owner')).accountId;
  await t.runtime.services.accounts.addEmployee(accountId, {
    name: 'Оператор',
    email: 'Operator@Shop.example',
    password: 'long enough password',
  });
});
afterAll(async () => t.close());

describe('POST /v2/auth/login', () => {
  it('gives an employee a token that works for the account', async () => {
    const login = await t
      .client()
      .post('/v2/auth/login', { email: 'operator@shop.example', password: 'long enough password' });
    expect(login.status).toBe(200);
    expect(login.body.token).toMatch(/^emp_/);
    expect(Date.parse(login.body.expiresAt)).toBeGreaterThan(Date.now());
    const employee = t.client(login.body.token);
    const created = await employee.post('/v2/boxes', { dimensions: { width: 1, height: 1, length: 1 } });
    expect(created.status).toBe(201);
    const owner = await t.runtime.services.accounts.issueAccountToken(accountId, 'test');
    expect((await t.client(owner).get(`/v2/boxes/${created.body.id}`)).status).toBe(200);
  });

  it('takes a form-encoded login', async () => {
    const login = await t
      .client()
      .post('/v2/auth/login', 'email=OPERATOR%40shop.example&password=long+enough+password', { form: true });
    expect(login.status).toBe(200);
  });

  it('refuses a wrong password and an unknown e-mail alike (401)', async () => {
    const wrong = await t
      .client()
      .post('/v2/auth/login', { email: 'operator@shop.example', password: 'nope nope nope' });
    const unknown = await t
      .client()
      .post('/v2/auth/login', { email: 'nobody@shop.example', password: 'long enough password' });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'invalid_credentials', message: 'The e-mail or password is wrong.' });
    }
  });

  it('refuses a login without fields (400)', async () => {
    const response = await t.client().post('/v2/auth/login', {});
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { field: 'email', message: 'is required' },
      { field: 'password', message: 'is required' },
    ]);
  });

  it('stops accepting a login token once it expires', async () => {
    const login = await t
      .client()
      .post('/v2/auth/login', { email: 'operator@shop.example', password: 'long enough password' });
    await t.runtime.database.db
      .updateTable('access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('employee_id', 'is not', null)
      .execute();
    const response = await t.client(login.body.token).get('/v2/boxes');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('invalid_token');
  });

  it('stores only hashes of tokens and passwords', async () => {
    const rows = await t.runtime.database.db.selectFrom('access_tokens').select('token_hash').execute();
    for (const row of rows) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const employee = await t.runtime.database.db
      .selectFrom('employees')
      .select('password_hash')
      .executeTakeFirstOrThrow();
    expect(employee.password_hash).toMatch(/^scrypt\$/);
    expect(employee.password_hash).not.toContain('long enough password');
  });
});

describe('the command line', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-cli-'));
  // As from a plain shell: `npm test --loglevel=...` hands its log level down to nested npm
  // calls, which would print npm's banner; the project's .npmrc keeps npm silent otherwise.
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.toLowerCase() !== 'npm_config_loglevel')),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'silent',
  };
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('npm run cli -- account create --json prints exactly one JSON line with a working token', async () => {
    const { stdout } = await run(
      'npm',
      [
        'run',
        'cli',
        '--',
        'account',
        'create',
        '--name',
        'CLI shop',
        '--email',
        'cli@shop.example',
        '--password',
        'cli password 1',
        '--json',
      ],
      { cwd: PROJECT_ROOT, env },
    );
    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]);
    expect(Object.keys(created)).toEqual(['accountId', 'token']);
    expect(created.accountId).toEqual(expect.any(Number));
    expect(created.token).toMatch(/^acc_/);

    const cli = await createTestApp({
      env: { DATABASE_URL: `sqlite:${path.join(dataDir, 'service.db')}`, DATA_DIR: dataDir },
    });
    try {
      expect((await cli.client(created.token).get('/v2/lists/order-statuses')).status).toBe(200);
      const login = await cli
        .client()
        .post('/v2/auth/login', { email: 'cli@shop.example', password: 'cli password 1' });
      expect(login.status).toBe(200);
    } finally {
      await cli.close();
    }
  }, 60_000);

  it('explains a bad setting and exits with 2', async () => {
    const failure = await run('npx', ['tsx', 'src/main.ts', 'migrate'], {
      cwd: PROJECT_ROOT,
      env: { ...env, PORT: 'eighty', TIME_ZONE: 'Mars/Olympus' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).toBe(2);
    expect((failure as { stderr: string }).stderr).toContain('PORT must be a whole number');
    expect((failure as { stderr: string }).stderr).toContain('TIME_ZONE must be an IANA time zone');
  }, 60_000);
});

describe('configuration', () => {
  it('has working defaults: SQLite under ./data', () => {
    const config = loadConfig({});
    expect(config.databaseKind).toBe('sqlite');
    expect(config.databaseUrl).toMatch(/data[/\\]service\.db$/);
    expect(config.port).toBe(8080);
    expect(config.timeZone).toBe('Europe/Moscow');
    expect(config.publicUrl).toBe('http://127.0.0.1:8080');
  });

  it('reads PostgreSQL, port, host, public URL, log level and time zone from the environment', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/delivery',
      PORT: '9000',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://api.example.com/',
      LOG_LEVEL: 'WARN',
      TIME_ZONE: 'Asia/Yekaterinburg',
    });
    expect(config).toMatchObject({
      databaseKind: 'postgres',
      port: 9000,
      host: '0.0.0.0',
      publicUrl: 'https://api.example.com',
      logLevel: 'warn',
      timeZone: 'Asia/Yekaterinburg',
    });
  });

  it('lists every bad value at once', () => {
    try {
      loadConfig({
        PORT: '70000',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://x',
        PUBLIC_URL: 'not a url',
        SECRET_KEY: 'short',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(5);
    }
  });
});
