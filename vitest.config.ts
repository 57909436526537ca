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
    // throw-away PostgreSQL schema when DATABASE_URL points at PostgreSQL).
    fileParallelism: true,
  },
});
