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
    // Vitest's own default in a run is one worker fewer than the cores: one on a 2-core machine,
    // where the files wait on databases, timers and Chromium half the time. One per core
    // (TEST_WORKERS to choose): see docs/decisions/platform.md for the figures.
    maxWorkers: Number(process.env.TEST_WORKERS) || os.availableParallelism(),
  },
});
