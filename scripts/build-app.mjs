// Builds the merchant dashboard (app/, React and Vite) into <out> (default dist/app), served by
// the service at /app/. Answers the built JavaScript files with their gzipped sizes (the bench
// reports them). Plain JavaScript: it runs from build-if-stale.mjs before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Builds into `outDir` (default dist/app); answers [{file, bytes, gzipBytes}] of its scripts. */
export async function buildApp(outDir = path.join(root, 'dist', 'app')) {
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'app', 'vite.config.ts'), build: { outDir, emptyOutDir: true } });
  const assets = path.join(outDir, 'assets');
  return fs
    .readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => {
      const bytes = fs.readFileSync(path.join(assets, name));
      return { file: name, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
    });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outArg = process.argv[2];
  const files = await buildApp(outArg ? path.resolve(outArg) : undefined);
  if (process.argv.includes('--print')) process.stdout.write(`${JSON.stringify(files, null, 2)}\n`);
}
