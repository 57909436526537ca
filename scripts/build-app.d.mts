import type { Precompressed } from './precompress.mjs';
/** Builds the dashboard into `outDir` (default dist/app), its scripts and styles precompressed beside them; answers them with their sizes. */
export function buildApp(outDir?: string): Promise<Precompressed[]>;
