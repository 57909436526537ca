import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { openDatabase } from '../../bootstrap.js';
import { usingPostgres } from '../../../test/support/app.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-durability-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What SQLite reports for `pragma synchronous`: 1 NORMAL, 2 FULL. */
async function synchronousOf(env: Record<string, string>): Promise<number> {
  const config = loadConfig({
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${path.join(dir, `${Object.values(env).join('-') || 'default'}.db`)}`,
    ...env,
  });
  const database = await openDatabase(config);
  try {
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db);
    return rows[0].synchronous;
  } finally {
    await database.close();
  }
}

describe('SQLite durability', () => {
  it.skipIf(usingPostgres)('syncs every commit by default, so an acknowledged write survives power loss', async () => {
    expect(await synchronousOf({})).toBe(2);
  });

  it.skipIf(usingPostgres)('lets the operator trade that for speed with SQLITE_SYNCHRONOUS=normal', async () => {
    expect(await synchronousOf({ SQLITE_SYNCHRONOUS: 'normal' })).toBe(1);
    expect(await synchronousOf({ SQLITE_SYNCHRONOUS: 'FULL' })).toBe(2);
  });

  it('refuses any other value at start, naming the setting', () => {
    expect(loadConfig({}).sqliteSynchronous).toBe('full');
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: 'off' })).toThrow(ConfigError);
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: 'off' })).toThrow(
      /SQLITE_SYNCHRONOUS must be one of full, normal, got "off"/,
    );
  });
});
