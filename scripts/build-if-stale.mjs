// `npm start` runs this first: it compiles src/ into dist/ only when a source changed since the
// last build (`npm run build` runs it with --force: always). Why: tsc takes ~20 s, which every
// start used to pay; and an install with production dependencies only (no TypeScript) can start
// from a dist/ built beforehand.
// Plain JavaScript on purpose: it must run before anything is compiled, without dev dependencies.
import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Written after each successful build, with the time the build started: a source saved during
// a build is newer, so the next start builds again.
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = [
  'src',
  'widget',
  'app',
  'clients/typescript/src',
  'scripts/build-widget.mjs',
  'scripts/build-app.mjs',
  'scripts/precompress.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
].map((name) => path.join(root, name));

/** The newest modification time under `file`; directories count too (a deleted or renamed source). */
function newest(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  let latest = stat.mtimeMs;
  if (stat.isDirectory())
    for (const entry of fs.readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

const built = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const force = process.argv.includes('--force');
if (!force && built > 0 && inputs.every((input) => newest(input) <= built)) process.exit(0);

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // production dependencies only: whoever installed so has built dist/ beforehand
  if (built > 0 && !force) {
    process.stderr.write(
      'Sources are newer than dist/, but TypeScript is not installed (production dependencies only): starting from dist/ as it is.\n',
    );
    process.exit(0);
  }
  process.stderr.write(
    'dist/ is not built and TypeScript is not installed (production dependencies only): run `npm ci && npm run build` first, then `npm prune --omit=dev` if you wish.\n',
  );
  process.exit(2);
}
const startedAt = new Date();
if (!force) process.stderr.write('Compiling src/ into dist/ (sources changed since the last build)...\n');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
  cwd: root,
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);
// the checkout widget (esbuild, a dev dependency like TypeScript): served from dist/widget/
await (await import('./build-widget.mjs')).buildWidget();
// the merchant dashboard (Vite, a dev dependency): served from dist/app/ at /app/
await (await import('./build-app.mjs')).buildApp();
fs.writeFileSync(stamp, `${startedAt.toISOString()}\n`);
fs.utimesSync(stamp, startedAt, startedAt);
