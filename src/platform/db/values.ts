/** Reading and writing the values whose storage differs between SQLite and PostgreSQL. */

/** A boolean column: 1/0 on SQLite, true/false on PostgreSQL. */
export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

/** A JSON column: text on SQLite, jsonb (already parsed) on PostgreSQL. */
export function fromJson<T>(value: unknown): T {
  if (typeof value === 'string') return JSON.parse(value) as T;
  return value as T;
}

/** What to write into a JSON column on either engine. */
export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * Text kept beside a searchable column: lower case, `ё` as `е`, single spaces, so that a
 * substring search behaves the same (and case-insensitively for Cyrillic) on both engines.
 */
export function searchText(value: string | null | undefined): string {
  if (!value) return '';
  return value.toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();
}

/** A LIKE pattern matching `needle` anywhere, with LIKE's wildcards escaped (use ESCAPE '\'). */
export function containsPattern(needle: string): string {
  return `%${searchText(needle).replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Kilograms (3 decimals) <-> whole grams, so weights never accumulate float error. */
export function kgToGrams(kg: number): number {
  return Math.round(kg * 1000);
}

export function gramsToKg(grams: number): number {
  return grams / 1000;
}

/** A write refused by a unique index or primary key, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
