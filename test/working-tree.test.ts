/**
 * What `npm start` writes into its default data directory (./data, where the reference data
 * is shipped too) stays out of git: the database, the instance secret, generated files. Started
 * here on an empty directory as a first start would be, then every file it wrote is asked of
 * `git check-ignore` as if it lay under ./data.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { startRuntime } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { PROJECT_ROOT } from '../src/platform/reference-data.js';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

const inGitTree = (() => {
  try {
    execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: PROJECT_ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!inGitTree)('the working tree after a first start', () => {
  it('ignores every file the service wrote into its data directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-data-'));
    try {
      // the run's migrated database as this start's (its reference data is not what is asked here)
      fs.copyFileSync(inject('sqliteTemplate'), path.join(dataDir, 'service.db'));
      const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, FILE_STORE: 'local' });
      // no secret given: the first start writes DATA_DIR/secret.key, as npm start does
      const runtime = await startRuntime(config);
      const account = await runtime.services.accounts.createAccount({ name: 'Working tree' });
      await runtime.services.files.put(account.accountId, {
        bytes: Buffer.from('%PDF-1.4'),
        contentType: 'application/pdf',
        extension: 'pdf',
      });
      await runtime.database.close();
      const written = filesUnder(dataDir).map((file) => path.join('data', path.relative(dataDir, file)));
      expect(written).toEqual(expect.arrayContaining([path.join('data', 'secret.key')]));
      expect(written.some((file) => file.startsWith(path.join('data', 'files')))).toBe(true);
      const notIgnored = written.filter((file) => {
        try {
          execFileSync('git', ['check-ignore', '-q', '--no-index', file], { cwd: PROJECT_ROOT, stdio: 'ignore' });
          return false;
        } catch {
          return true;
        }
      });
      expect(notIgnored).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
