// Builds the checkout widget (widget/src) into <out>/v1/: widget.<hash>.js (the page's script,
// an IIFE), saferoute-compat.<hash>.js (the widget era's SafeRouteCartWidget), widget-map.<hash>.js (Leaflet and the map, an ES module loaded only when a map is
// shown), widget.js (the same bytes as the hashed file, for pages that want the latest), and
// manifest.json with each file's SRI hash and gzipped size; each script's Brotli and gzip forms
// beside it (precompress.mjs: `.br`, `.gz`), which the service sends to a browser that takes
// them (the SRI hash is of the script's own bytes, which the browser checks after decoding).
// Plain JavaScript: it runs from build-if-stale.mjs before anything is compiled.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { precompress } from './precompress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function hashed(bytes) {
  return {
    short: createHash('sha256').update(bytes).digest('hex').slice(0, 12),
    integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}`,
    gzipBytes: gzipSync(bytes, { level: 9 }).length,
    bytes: bytes.length,
  };
}

/** Builds into `outDir` (default dist/widget); answers the manifest. */
export async function buildWidget(outDir = path.join(root, 'dist', 'widget')) {
  const esbuild = await import('esbuild');
  const common = {
    bundle: true,
    minify: true,
    write: false,
    target: ['es2020'],
    loader: { '.css': 'text' },
    legalComments: 'none',
    absWorkingDir: root,
  };
  const map = await esbuild.build({ ...common, entryPoints: [path.join(root, 'widget/src/map.ts')], format: 'esm' });
  const mapBytes = Buffer.from(map.outputFiles[0].contents);
  const mapHash = hashed(mapBytes);
  const mapFile = `widget-map.${mapHash.short}.js`;
  const core = await esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'widget/src/index.ts')],
    format: 'iife',
    define: { MAP_FILE: JSON.stringify(mapFile) },
  });
  const coreBytes = Buffer.from(core.outputFiles[0].contents);
  const coreHash = hashed(coreBytes);
  const coreFile = `widget.${coreHash.short}.js`;
  // the widget era's SafeRouteCartWidget, our widget inside (a page loads one or the other)
  const compat = await esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'widget/src/compat.ts')],
    format: 'iife',
    define: { MAP_FILE: JSON.stringify(mapFile) },
  });
  const compatBytes = Buffer.from(compat.outputFiles[0].contents);
  const compatHash = hashed(compatBytes);
  const compatFile = `saferoute-compat.${compatHash.short}.js`;
  const dir = path.join(outDir, 'v1');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, coreFile), coreBytes);
  fs.writeFileSync(path.join(dir, 'widget.js'), coreBytes);
  fs.writeFileSync(path.join(dir, mapFile), mapBytes);
  fs.writeFileSync(path.join(dir, compatFile), compatBytes);
  fs.writeFileSync(path.join(dir, 'saferoute-compat.js'), compatBytes);
  const manifest = {
    widget: { file: coreFile, integrity: coreHash.integrity, bytes: coreHash.bytes, gzipBytes: coreHash.gzipBytes },
    map: { file: mapFile, integrity: mapHash.integrity, bytes: mapHash.bytes, gzipBytes: mapHash.gzipBytes },
    compat: {
      file: compatFile,
      integrity: compatHash.integrity,
      bytes: compatHash.bytes,
      gzipBytes: compatHash.gzipBytes,
    },
  };
  // before manifest.json is written: only the scripts are precompressed (the manifest is a
  // small JSON answer the service sends itself)
  await precompress(dir);
  fs.writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outArg = process.argv[2];
  const manifest = await buildWidget(outArg ? path.resolve(outArg) : undefined);
  if (process.argv.includes('--print')) process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
}
