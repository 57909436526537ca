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

  it('loads neither the MCP SDK nor zod (ES modules) until an agent calls', () => {
    const root = path.resolve(import.meta.dirname, '..');
    // ES modules are not in require.cache: a resolve hook sees every module as it is imported
    const script = `
      const { registerHooks } = await import('node:module');
      const seen = new Set();
      registerHooks({ resolve(specifier, context, next) { const result = next(specifier, context); seen.add(result.url); return result; } });
      await import('./src/bootstrap.ts');
      await import('./src/app.ts');
      const atStart = [...seen];
      await import('./src/modules/mcp/exchange.ts');
      console.log(JSON.stringify({ atStart, afterFirstCall: [...seen] }));`;
    const { atStart, afterFirstCall } = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: root,
        encoding: 'utf8',
      }),
    ) as { atStart: string[]; afterFirstCall: string[] };
    const mcpPackages = (urls: string[]) =>
      urls.filter((url) => /node_modules\/(@modelcontextprotocol|zod)\//.test(url));
    expect(mcpPackages(atStart)).toEqual([]);
    // the hook sees them once the first MCP request loads its part (modules/mcp/exchange.ts)
    expect(mcpPackages(afterFirstCall).length).toBeGreaterThan(10);
  }, 60_000);
});
