/**
 * A ZIP (an uploaded xlsx) opened with its work bounded before any parser sees it: entries
 * inflated in small slices while their real bytes are counted (a header's declared size is
 * never trusted), stopped as soon as the count or the size passes its limit. What passed is
 * zipped again without compression, so the parser reads exactly the bytes counted here and
 * nothing a crafted central directory might point it to instead. fflate does the zip work.
 */
import { Unzip, UnzipInflate, type Unzipped, zipSync } from 'fflate';

/** Compressed bytes pushed at a time: deflate expands at most ~1032 times, so one push inflates to at most ~4 MB. */
const SLICE_BYTES = 4096;

export interface ZipLimits {
  maxEntries: number;
  /** All entries together, inflated. */
  maxBytes: number;
}

export type BoundedZip =
  | { ok: true; entries: Unzipped }
  | { ok: false; problem: 'not_a_zip' | 'too_many_entries' | 'too_large'; detail: string };

/** Inflates every entry of `zip`, never more than the limits; a refusal says which limit and by how much. */
export function unzipBounded(zip: Uint8Array, limits: ZipLimits): BoundedZip {
  const entries: Unzipped = {};
  let entryCount = 0;
  let inflated = 0;
  let refusal: BoundedZip | null = null;
  const unzip = new Unzip((file) => {
    if (refusal) return;
    entryCount += 1;
    if (entryCount > limits.maxEntries) {
      refusal = { ok: false, problem: 'too_many_entries', detail: `more than ${limits.maxEntries} files` };
      return;
    }
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    file.ondata = (error, chunk, final) => {
      if (refusal) return;
      if (error) {
        refusal = { ok: false, problem: 'not_a_zip', detail: error.message };
        return;
      }
      inflated += chunk.length;
      if (inflated > limits.maxBytes) {
        refusal = { ok: false, problem: 'too_large', detail: `more than ${limits.maxBytes} bytes once unzipped` };
        file.terminate();
        return;
      }
      chunks.push(chunk as Uint8Array<ArrayBuffer>);
      if (final) entries[file.name] = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < zip.length && !refusal; offset += SLICE_BYTES) {
      unzip.push(zip.subarray(offset, offset + SLICE_BYTES), offset + SLICE_BYTES >= zip.length);
    }
  } catch (error) {
    return { ok: false, problem: 'not_a_zip', detail: error instanceof Error ? error.message : String(error) };
  }
  return refusal ?? { ok: true, entries };
}

/** The entries zipped again, stored (no compression): a parser of the result inflates nothing. */
export function zipStored(entries: Unzipped): Uint8Array {
  return zipSync(entries, { level: 0 });
}
