/**
 * `npm run cli -- audit verify` as an operator runs it: a child process (`node --import tsx
 * src/main.ts audit verify`) on the test app's database exits 0 over sound chains and 1, naming
 * the entry, once a sealed entry is edited. SQLite: the test app on a file (a database in memory
 * is not shared with a child process); PostgreSQL: the test app's own database.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../../../test/support/app.js';
import { warehouseBody } from '../../../test/support/fixtures.js';
import { PROJECT_ROOT } from '../../platform/reference-data.js';

let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  const before = process.env.TEST_SQLITE_FILES;
  process.env.TEST_SQLITE_FILES = '1';
  try {
    t = await createTestApp();
  } finally {
    if (before === undefined) delete process.env.TEST_SQLITE_FILES;
    else process.env.TEST_SQLITE_FILES = before;
  }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-'));
});
afterAll(async () => {
  await t?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function verify(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'audit', 'verify', ...args],
      {
        cwd: PROJECT_ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: t.config.databaseUrl,
          DATA_DIR: dataDir,
          SECRET_KEY: TEST_SECRET,
          PUBLIC_URL: 'http://delivery.test',
          CARRIER_POINTS_IMPORT_HOURS: '0',
          TRACKING_POLL_SECONDS: '0',
        },
        timeout: 60_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

describe('audit verify, the command', () => {
  it('exits 0 over sound chains, then 1 naming an edited entry', async () => {
    const account = await t.newAccount('Verified');
    for (let index = 0; index < 3; index++)
      expect((await account.client.post('/v2/warehouses', warehouseBody())).status).toBe(201);
    await t.runtime.services.audit.seal();

    const sound = await verify();
    expect(sound.code, sound.stderr).toBe(0);
    expect(sound.stdout).toMatch(/The audit trail verifies: \d+ entries in \d+ chain/);

    const db = t.runtime.database.db;
    const victim = await db
      .selectFrom('audit_entries')
      .select(['id', 'operation'])
      .where('account_id', '=', account.accountId)
      .orderBy('seq')
      .executeTakeFirstOrThrow();
    await db.updateTable('audit_entries').set({ operation: 'nothing happened' }).where('id', '=', victim.id).execute();
    const broken = await verify('--account', String(account.accountId));
    expect(broken.code).toBe(1);
    expect(`${broken.stdout}${broken.stderr}`).toContain(`broken at entry ${victim.id}`);
    // put back, the chain verifies again (in process: each spawn costs seconds)
    await db.updateTable('audit_entries').set({ operation: victim.operation }).where('id', '=', victim.id).execute();
    expect((await t.runtime.services.audit.verify()).broken).toBeNull();
  }, 120_000);
});
