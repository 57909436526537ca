/**
 * What a start loads: the libraries deferred to their first use (platform/lazy-require.ts) stay
 * unloaded until a request needs them. One static `import` of exceljs (the products export)
 * loaded it and its ~190 modules at every start (+15 MB of RSS, bench/memory.ts); this keeps
 * the next one from slipping in unseen.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The packages loaded through `onFirstUse` only (each one's specifier there). */
const DEFERRED = ['pdfkit', 'fontkit', 'bwip-js', 'archiver', 'exceljs', 'nodemailer', 'pg'];

describe('a start', () => {
  it('loads none of the libraries deferred to their first use', () => {
    const root = path.resolve(import.meta.dirname, '..');
    // the composition root and the HTTP app: everything `serve` imports before its first request
    const script = `
      const { createRequire } = await import('node:module');
      await import('./src/bootstrap.ts');
      await import('./src/app.ts');
      const require = createRequire(import.meta.url);
      console.log(JSON.stringify(Object.keys(require.cache)));`;
    const loaded = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: root,
        encoding: 'utf8',
      }),
    ) as string[];
    const packages = new Set(
      loaded.map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1]).filter(Boolean),
    );
    expect(DEFERRED.filter((name) => packages.has(name))).toEqual([]);
    // the check sees packages at all (a CommonJS one every start needs)
    expect(packages.has('fastify')).toBe(true);
  }, 60_000);
});
