import type { ColumnType, Generated } from 'kysely';

/** Auto-increment primary key. */
export type Id = Generated<number>;
/** Boolean column: read back through `flag()` (SQLite gives 1/0). */
export type Flag = ColumnType<boolean | number, boolean, boolean>;
/** JSON column: read back through `fromJson()` (SQLite gives text). */
export type Json = ColumnType<unknown, string, string>;
/** Instant, ISO-8601 UTC string on both engines. */
export type Instant = string;
/** Calendar date `YYYY-MM-DD`. */
export type DateText = string;
