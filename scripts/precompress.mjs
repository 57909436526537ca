// Writes each built text file's Brotli and gzip forms beside it (`x.js` → `x.js.br`, `x.js.gz`),
// once, at build time, at the strongest settings (Brotli quality 11, gzip level 9): the service
// then sends the dashboard's and the widget's files compressed without compressing anything
// per request (@fastify/static's `preCompressed` for /app/assets/, the widget's own routes for
// /widget/v1/). Why the strongest: the files change only with a build, so the build pays once
// (~1 s for the dashboard, on the thread pool) and every browser gets the smallest bytes.
// Plain JavaScript: it runs from build-app.mjs and build-widget.mjs before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What is worth compressing: text. Images and fonts are compressed formats already. */
const TEXT = /\.(js|mjs|css|svg|json|html|txt|map)$/;
/** Below this a compressed answer saves less than its headers weigh. */
export const PRECOMPRESS_FROM_BYTES = 1024;

/**
 * Writes `.br` and `.gz` beside every text file of `dir` (not below it) of 1 kB or more; a form
 * no smaller than the file is not written (the file is then sent as it is). Answers what it
 * wrote: [{file, bytes, brBytes, gzipBytes}] (null for a form not written).
 */
export async function precompress(dir) {
  const names = fs
    .readdirSync(dir)
    .filter((name) => TEXT.test(name) && fs.statSync(path.join(dir, name)).isFile())
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const bytes = fs.readFileSync(file);
      if (bytes.length < PRECOMPRESS_FROM_BYTES)
        return { file: name, bytes: bytes.length, brBytes: null, gzipBytes: null };
      const [br, gz] = await Promise.all([
        brotliAsync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzipAsync(bytes, { level: 9 }),
      ]);
      const written = (suffix, compressed) => {
        if (compressed.length >= bytes.length) return null;
        fs.writeFileSync(`${file}${suffix}`, compressed);
        return compressed.length;
      };
      return { file: name, bytes: bytes.length, brBytes: written('.br', br), gzipBytes: written('.gz', gz) };
    }),
  );
}
