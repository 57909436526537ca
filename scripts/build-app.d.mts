/** Builds the dashboard into `outDir` (default dist/app); answers its scripts with their sizes. */
export function buildApp(outDir?: string): Promise<Array<{ file: string; bytes: number; gzipBytes: number }>>;
