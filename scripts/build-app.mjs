// Builds the merchant dashboard (app/, React and Vite) into <out> (default dist/app), served by
// the service at /app/, and writes the Brotli and gzip forms of its scripts and styles beside
// them (precompress.mjs), which the service sends to a browser that takes them. Answers the
// built scripts and styles with their sizes (the bench reports them). Plain JavaScript: it runs
// from build-if-stale.mjs before anything is compiled.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Builds into `outDir` (default dist/app); answers [{file, bytes, brBytes, gzipBytes}] of its scripts and styles. */
export async function buildApp(outDir = path.join(root, 'dist', 'app')) {
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'app', 'vite.config.ts'), build: { outDir, emptyOutDir: true } });
  const written = await precompress(path.join(outDir, 'assets'));
  return written.filter((entry) => /\.(js|css)$/.test(entry.file));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outArg = process.argv[2];
  const files = await buildApp(outArg ? path.resolve(outArg) : undefined);
  if (process.argv.includes('--print')) process.stdout.write(`${JSON.stringify(files, null, 2)}\n`);
}
