/**
 * What an operator gets from a start that cannot work: one sentence on stderr and exit code 2.
 * Each case starts the real command line (`main.ts serve`) in a process of its own.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeDatabase } from './startup-checks.js';

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-checks-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A regular file: nothing can be created below it, whoever runs the tests (root included). */
const aFile = path.join(scratch, 'a-file');
fs.writeFileSync(aFile, 'not a directory');

/** Runs `serve` until it exits, or until its stdout shows `until` (then it is stopped). */
function serve(
  env: Record<string, string>,
  until?: RegExp,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve'], {
      env: { ...process.env, DATABASE_URL: '', SECRET_KEY: '', LOG_LEVEL: 'warn', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (until?.test(stdout)) child.kill('SIGTERM');
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

/** A port nothing listens on (taken from the system, then let go). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function expectOneSentence(result: { code: number | null; stderr: string }, pattern: RegExp): void {
  expect(result.stderr.trim(), 'one line, no stack trace').not.toContain('\n');
  expect(result.stderr.trim()).toMatch(pattern);
  expect(result.code).toBe(2);
}

// Five starts at once, each a process compiling the sources (tsx): on two cores beside the other test files they
// take more than the default 30 s now and then
describe('a start that cannot work', { timeout: 90_000 }, () => {
  it.concurrent('DATA_DIR that cannot be written', async () => {
    const dataDir = path.join(aFile, 'data');
    const result = await serve({ DATA_DIR: dataDir });
    expectOneSentence(
      result,
      new RegExp(
        `^DATA_DIR ${dataDir} is not a directory this process can write \\(.*ENOTDIR.*\\): set DATA_DIR to one it can write\\.$`,
      ),
    );
  });

  it.concurrent('PostgreSQL server that refuses the connection; the password is not shown', async () => {
    const port = await closedPort();
    const result = await serve({
      DATA_DIR: path.join(scratch, 'pg-refused'),
      DATABASE_URL: `postgres://shop:s3cret-pass@127.0.0.1:${port}/delivery`,
    });
    expectOneSentence(
      result,
      new RegExp(
        `^Cannot use the database of DATABASE_URL \\(the PostgreSQL server 127\\.0\\.0\\.1:${port}, database delivery\\): .*ECONNREFUSED.*\\.$`,
      ),
    );
    expect(result.stderr).not.toContain('s3cret-pass');
  });

  it.concurrent('SQLite file that cannot be created', async () => {
    const file = path.join(aFile, 'service.db');
    const result = await serve({ DATA_DIR: path.join(scratch, 'sqlite-bad-path'), DATABASE_URL: `sqlite:${file}` });
    expectOneSentence(
      result,
      new RegExp(`^Cannot use the database of DATABASE_URL \\(the SQLite file ${file}\\): .*(ENOTDIR|EEXIST).*\\.$`),
    );
  });

  it.concurrent('SQLite file that is not a database', async () => {
    const result = await serve({ DATA_DIR: path.join(scratch, 'sqlite-not-db'), DATABASE_URL: `sqlite:${aFile}` });
    expectOneSentence(
      result,
      /^Cannot use the database of DATABASE_URL \(the SQLite file .*\): file is not a database\.$/,
    );
  });

  it.concurrent('port already in use', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const dataDir = path.join(scratch, 'port-in-use');
      const result = await serve({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
      expectOneSentence(
        result,
        new RegExp(
          `^Port ${port} on 127\\.0\\.0\\.1 is already in use: stop the process that holds it or set PORT to another port\\.$`,
        ),
      );
      // the first account is made only once the port is ours: its token is shown by the start that works
      expect(result.stdout).not.toContain('First start');
      const next = await serve(
        { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' },
        /curl -H "Authorization: Bearer acc_\S+"/,
      );
      expect(next.stdout).toMatch(/First start: created account 1\. Its API token is shown only now:\n\n {3}acc_\S+/);
      // and the one-time link that sets up the owner's sign-in in the browser
      expect(next.stdout).toMatch(/ {3}http:\/\/127\.0\.0\.1:0\/app\/setup#stp_[\w-]{43}\n/);
    } finally {
      holder.close();
    }
  }, 120_000);
});

describe('describeDatabase', () => {
  it('names the server and database without the password', () => {
    expect(describeDatabase('postgres://user:secret@db.example.com:6543/shop%20db')).toBe(
      'the PostgreSQL server db.example.com:6543, database shop db',
    );
    expect(describeDatabase('postgresql://db.example.com')).toBe('the PostgreSQL server db.example.com:5432');
    expect(describeDatabase('sqlite:/var/lib/delivery/service.db')).toBe(
      'the SQLite file /var/lib/delivery/service.db',
    );
  });
});
