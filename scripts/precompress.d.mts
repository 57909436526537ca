/** Types of precompress.mjs for the TypeScript that imports it (tests, benches). */
export interface Precompressed {
  file: string;
  bytes: number;
  /** The `.br` file's size, or null when none was written (a small file, or no gain). */
  brBytes: number | null;
  gzipBytes: number | null;
}
export const PRECOMPRESS_FROM_BYTES: number;
/** Writes `.br` and `.gz` beside every text file of `dir` of 1 kB or more; answers what it wrote. */
export function precompress(dir: string): Promise<Precompressed[]>;
