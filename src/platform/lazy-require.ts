/**
 * A dependency loaded on its first use instead of at start. Figure: pdfkit, fontkit, bwip-js,
 * archiver, exceljs and nodemailer loaded at start cost ~95 MB of RSS in a process that may
 * never print a label, send a mail or read a workbook (`node --expose-gc bench/memory.ts`:
 * after start 408 → see the bench for today's figure). Node's own `require` does the loading
 * (CommonJS and, since Node 22.12, ES modules); this only defers it. A dynamic `import()`
 * would do the same but make every renderer asynchronous.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `load()` gives the module, loading it the first time. */
export function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(specifier) as T;
    return loaded;
  };
}
