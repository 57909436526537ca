/**
 * Real service processes (`node --import tsx src/main.ts serve`) on a throw-away PostgreSQL
 * database, for what only separate processes show: starting together, dying mid-way,
 * serving each other's files, hearing each other's revocations.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from '../../src/platform/reference-data.js';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when it has ended, with how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then waits for the end. */
  stop(): Promise<void>;
}

export interface ThrowawayDatabase {
  url: string;
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

/** A new, empty database on the server of DATABASE_URL. */
export async function throwawayDatabase(): Promise<ThrowawayDatabase> {
  const serverUrl = process.env.DATABASE_URL as string;
  const name = `processes_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    url: url.toString(),
    async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      return (await pool.query<R>(text, values)).rows;
    },
    async drop() {
      await pool.end();
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `serve` with its own DATA_DIR and port; `env` adds to (or overrides) the settings. */
export async function startProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-process-'));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      SECRET_KEY: 'several-processes-share-this-secret-key-0123',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      DATABASE_POOL_MAX: '4',
      MARKETPLACE_SANDBOX_ORDER_SECONDS: '0',
      MARKETPLACE_POLL_SECONDS: '0',
      CARRIER_POINTS_IMPORT_HOURS: '0',
      TRACKING_POLL_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  void exited.then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return {
    url,
    child,
    output: () => printed,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Waits until the process answers GET /ready; throws with its output if it ends or takes too long. */
export async function untilReady(service: ServiceProcess, timeoutMs = 45_000): Promise<void> {
  const started = Date.now();
  let ended = false;
  void service.exited.then(() => (ended = true));
  for (;;) {
    if (ended) throw new Error(`the process ended before serving:\n${service.output()}`);
    try {
      if ((await fetch(`${service.url}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs)
      throw new Error(`the process did not serve within ${timeoutMs} ms:\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls `check` every 50 ms until it holds; the time it took (ms). */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/** A JSON call to a process. */
export async function call(
  service: ServiceProcess,
  token: string | null,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.url}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
