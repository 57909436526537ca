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

/** Where the house's code and docs live (node_modules, dist and artifacts aside). */
const ROOT = path.resolve(import.meta.dirname, '..');
const CODE_DIRS = [
  'src',
  'app/src',
  'widget/src',
  'scripts',
  'bench',
  'test',
  'clients/typescript/src',
  'clients/typescript/test',
];
const DOCS = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'docs'];
/** Written by a generator, not by hand. */
const GENERATED = new Set(['clients/typescript/src/schema.ts']);

function filesUnder(relative: string, extensions: RegExp): string[] {
  const full = path.join(ROOT, relative);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return extensions.test(relative) ? [relative] : [];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .flatMap((entry) => (entry.name === 'node_modules' ? [] : filesUnder(path.join(relative, entry.name), extensions)));
}

describe('the sources', () => {
  it('hold no file over 600 lines as Biome formats it (tests and generated files aside)', () => {
    const long = CODE_DIRS.flatMap((dir) => filesUnder(dir, /\.(ts|tsx|mjs)$/))
      .filter((file) => !/\.test\.tsx?$/.test(file) && !GENERATED.has(file))
      .map((file) => ({ file, lines: fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 600)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });

  it('name no work item: code and docs say what and why, not which issue brought them', () => {
    const workItem = /\b(issues?|part)[ -]?#?\d+\b|\bpart ?2\b|\bpart [AB]\b/i;
    const naming = [...CODE_DIRS, ...DOCS]
      .flatMap((dir) => filesUnder(dir, /\.(ts|tsx|mjs|cjs|md|css|html)$/))
      .filter((file) => !GENERATED.has(file))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            workItem.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 100)}`] : [],
          ),
      );
    expect(naming).toEqual([]);
  });
});
