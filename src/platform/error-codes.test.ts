import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './error-codes.js';

/** Every source file of the service (tests aside): where error bodies and AppErrors are made. */
function sources(dir = path.resolve(import.meta.dirname, '..')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const CODE_SITES = [
  /new AppError\(\s*\d+,\s*'([a-z_]+)'/g,
  /\b(?:conflict|unprocessable)\(\s*'([a-z_]+)'/g,
  /badRequest\([^;]*?,\s*'([a-z_]+)',?\s*\)/g,
  /\{ (?:status: \d+, (?:reason: '[^']*', )?)?code: '([a-z_]+)', message:/g,
  /\.send\(\{ code: '([a-z_]+)'/g,
  /^\s+code: '([a-z_]+)',\n\s+message:/gm,
];

describe('the error code catalogue', () => {
  const text = sources()
    .filter((file) => !file.endsWith('error-codes.ts'))
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
  const used = new Set(CODE_SITES.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1])));

  it('holds every code the service answers with', () => {
    expect([...used].filter((code) => !(code in ERROR_CODES)).sort()).toEqual([]);
  });

  it('holds no code the service never answers with', () => {
    expect(Object.keys(ERROR_CODES).filter((code) => !used.has(code) && !text.includes(`'${code}'`))).toEqual([]);
  });
});
