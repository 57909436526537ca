/**
 * The database's tables as Kysely sees them. The platform declares its own here and knows no
 * area's: `src/tables.ts` adds every area's tables to `AreaTables` (a declaration merge) from
 * the one list of modules, so the type is whole wherever the program is compiled.
 */
import type { AuditTables } from '../audit.js';
import type { FileTables } from '../files.js';
import type { IdempotencyTables } from '../idempotency.js';
import type { JobTables } from '../jobs.js';

/** The platform's own tables. */
export interface PlatformTables extends FileTables, JobTables, IdempotencyTables, AuditTables {}

/** Filled by `src/tables.ts` with the tables of every module in `src/modules.ts`. */
export interface AreaTables {}

export interface Tables extends PlatformTables, AreaTables {}
