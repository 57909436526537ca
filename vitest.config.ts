import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'clients/typescript/test/**/*.test.ts', 'app/src/**/*.test.ts'],
    pool: 'forks',
    // a migrated database holding the reference data, which every test app starts from
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file builds its own app on its own database (SQLite in memory, or a
    // throw-away PostgreSQL database when DATABASE_URL points at PostgreSQL).
    fileParallelism: true,
    // One module graph per worker, not per file: each file imported the whole service anew (~1.7 s,
    // 204 of a pass's 880 worker-seconds). The files share no state but what they build (each its
    // own app and database; no mocks, no environment changes), so a pass is the same: 478 → 314 s on
    // SQLite with the browser suites, 574 → 247 s on PostgreSQL without them (docs/decisions/platform.md).
    isolate: false,
    // Vitest's own default in a run is one worker fewer than the cores: one on a 2-core machine,
    // where the files wait on databases, timers and Chromium half the time. One per core
    // (TEST_WORKERS to choose): see docs/decisions/platform.md for the figures.
    maxWorkers: Number(process.env.TEST_WORKERS) || os.availableParallelism(),
  },
});
