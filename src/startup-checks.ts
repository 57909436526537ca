/**
 * What commonly keeps the service from starting, said in one sentence with exit code 2 instead
 * of a stack trace: a DATA_DIR it cannot write, a database it cannot open or reach, a port it
 * cannot listen on. Why: these are the operator's to fix, and a stack trace hides the one line
 * that says how. Anything else that fails at start keeps its stack trace: that is a bug.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import { createDatabase, type Database } from './platform/db/database.js';

export class StartupError extends Error {}

/** How long an unreachable database server (packets dropped, no refusal) may keep the start waiting. */
const DATABASE_ANSWER_MS = 10_000;

/** The first line of an error's message, without its final period. */
function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    (text.split('\n')[0] ?? '').trim().replace(/\.$/, '') || ((error as { code?: string }).code ?? 'unknown error')
  );
}

/** Where DATABASE_URL points, without its password. */
export function describeDatabase(url: string): string {
  if (url.startsWith('sqlite:')) return `the SQLite file ${url.slice('sqlite:'.length)}`;
  try {
    const parsed = new URL(url);
    const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    return `the PostgreSQL server ${parsed.hostname}:${parsed.port || '5432'}${name ? `, database ${name}` : ''}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** DATA_DIR exists (or is created) and a file can be written there. */
export function ensureWritableDataDir(dataDir: string): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    // Permission bits do not tell about a read-only file system or a full disk: write a file.
    const probe = path.join(dataDir, `.write-test-${process.pid}-${randomBytes(4).toString('hex')}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (error) {
    throw new StartupError(
      `DATA_DIR ${dataDir} is not a directory this process can write (${reason(error)}): set DATA_DIR to one it can write.`,
    );
  }
}

/**
 * The database of DATABASE_URL opens and answers a trivial query, within DATABASE_ANSWER_MS.
 * Asked before the migrations: a failing migration is a bug and keeps its stack trace.
 */
export async function ensureDatabaseAnswers(config: Pick<Config, 'databaseUrl'>): Promise<void> {
  let database: Database | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    database = createDatabase({ url: config.databaseUrl, poolMax: 1 });
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${DATABASE_ANSWER_MS / 1000} s`)), DATABASE_ANSWER_MS);
    });
    await Promise.race([database.ping(), late]);
  } catch (error) {
    // a connection still hanging is not waited for: the process ends on this error
    void database?.close().catch(() => undefined);
    throw new StartupError(
      `Cannot use the database of DATABASE_URL (${describeDatabase(config.databaseUrl)}): ${reason(error)}.`,
    );
  } finally {
    clearTimeout(timer);
  }
  await database.close();
}

/** The sentence for an error of `listen`, or null when it is not one the operator fixes by configuration. */
export function listenProblem(error: unknown, at: Pick<Config, 'host' | 'port'>): StartupError | null {
  switch ((error as { code?: string }).code) {
    case 'EADDRINUSE':
      return new StartupError(
        `Port ${at.port} on ${at.host} is already in use: stop the process that holds it or set PORT to another port.`,
      );
    case 'EACCES':
      return new StartupError(
        `This process may not listen on port ${at.port} on ${at.host} (ports below 1024 need privileges): set PORT to a higher port.`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(
        `HOST ${at.host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all.`,
      );
    default:
      return null;
  }
}
