/**
 * The house's map stays true: ARCHITECTURE.md's operations table is the one the sources give
 * (npm run docs:architecture), and every area's module definition agrees with the composition
 * root and the folders (what it offers is built there, what it depends on is an area, its
 * migration history exists).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE_FILE, architectureTable, withTable } from '../scripts/architecture-table.js';
import { MIGRATIONS } from '../src/platform/db/migrate.js';
import { AREAS } from '../src/modules.js';
import { createTestApp } from './support/app.js';

/** Services the platform builds for everyone, offered by no area. */
const PLATFORM_SERVICES = ['readCache', 'tokens', 'files', 'jobs', 'metrics', 'sessionCsrfKey'];

describe('ARCHITECTURE.md', () => {
  it('holds the current section → module → file → test table', async () => {
    const current = fs.readFileSync(ARCHITECTURE_FILE, 'utf8');
    expect(
      current === withTable(current, await architectureTable()),
      'ARCHITECTURE.md is stale: npm run docs:architecture',
    ).toBe(true);
  }, 60_000);
});

describe('the module definitions', () => {
  it('name every folder of src/modules once', () => {
    const folders = fs
      .readdirSync(path.resolve(import.meta.dirname, '../src/modules'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(AREAS.map((area) => area.area).sort()).toEqual(folders.sort());
  });

  it('offer between them every service the composition root builds, each once', async () => {
    const t = await createTestApp();
    try {
      const built = Object.keys(t.runtime.services).sort();
      const offered = [...PLATFORM_SERVICES, ...AREAS.flatMap((area) => area.offers)];
      expect(offered.sort()).toEqual(built);
    } finally {
      await t.close();
    }
  });

  it('depend only on areas, and point at migrations that exist', () => {
    const names = new Set(AREAS.map((area) => area.area));
    const migrations = new Set(MIGRATIONS.map((migration) => migration.name));
    for (const area of AREAS) {
      expect(
        area.dependsOn.filter((other) => !names.has(other)),
        area.area,
      ).toEqual([]);
      expect(
        area.migrationHistory.filter((name) => !migrations.has(name)),
        area.area,
      ).toEqual([]);
    }
  });
});
