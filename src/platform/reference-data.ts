/** Reference data shipped with the service under `data/` (versioned JSON). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'data'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the project's data/ directory above ${start}`);
    dir = parent;
  }
}

/** The directory holding package.json and data/, whether run from src/ or dist/. */
export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

export function dataFilePath(name: string): string {
  return path.join(PROJECT_ROOT, 'data', name);
}

export function readDataFile<T>(name: string): T {
  return JSON.parse(fs.readFileSync(dataFilePath(name), 'utf8')) as T;
}
