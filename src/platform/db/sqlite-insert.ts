/**
 * Hand-written, and why. Figure: Kysely builds and compiles the insert of an order row (36 columns)
 * in ~26 µs and of its event in ~7 µs, against ~105 µs for SQLite to write them
 * (`npx tsx bench/sqlite-insert.ts`); here the text is made once per table and columns, ~2 µs.
 * Measured against: `insertInto(table).values(row).compile()`, in an idle process.
 *
 * An insert on SQLite whose text depends only on the table and the columns (the hot writes:
 * an order and its outbox events), so that a write binds its values to a statement it already has.
 */
import { CompiledQuery, type Insertable } from 'kysely';
import type { RecipeStep } from './sqlite-writer.js';
import type { Tables } from './tables.js';

const texts = new Map<string, string>();
/** Only a few tables and column sets take this path; the bound keeps a mistake from growing the map. */
const MAX_TEXTS = 256;

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * `insert into <table> (<columns>) values (...), ... [returning <column>]`, the columns being those
 * the first row defines (as Kysely leaves out an `undefined` value). Every row must define the same, or it throws.
 */
export function sqliteInsert<T extends keyof Tables & string>(
  table: T,
  rows: readonly Insertable<Tables[T]>[],
  returning?: keyof Tables[T] & string,
): CompiledQuery {
  const records = rows as readonly Record<string, unknown>[];
  const first = records[0];
  if (!first) throw new TypeError(`an insert into ${table} needs a row`);
  const columns = definedColumns(first);
  const key = `${table} ${records.length} ${returning ?? ''} ${columns.join(',')}`;
  let text = texts.get(key);
  if (text === undefined) {
    const placeholders = `(${columns.map(() => '?').join(', ')})`;
    text =
      `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values ` +
      Array.from(records, () => placeholders).join(', ') +
      (returning ? ` returning ${quote(returning)}` : '');
    if (texts.size < MAX_TEXTS) texts.set(key, text);
  }
  const parameters: unknown[] = [];
  for (const record of records) {
    let defined = 0;
    for (const column in record) if (record[column] !== undefined) defined++;
    // a later row with a column the first lacks would lose it silently
    if (defined !== columns.length)
      throw new TypeError(`the rows of a multi-row insert into ${table} differ in columns`);
    for (const column of columns) {
      const value = record[column];
      if (value === undefined) throw new TypeError(`the rows of a multi-row insert into ${table} differ in columns`);
      parameters.push(value);
    }
  }
  return CompiledQuery.raw(text, parameters);
}

function definedColumns(row: Record<string, unknown>): string[] {
  return Object.keys(row).filter((column) => row[column] !== undefined);
}

/**
 * The insert of `rows` as a statement of a recipe (sqlite-writer.ts). In every row, `firstId` names
 * the column that takes the id the recipe's first statement inserted (the rows' own value is a
 * stand-in), and `packed` the column whose value, a JSON object's text, is stored packed.
 */
export function sqliteInsertStep<T extends keyof Tables & string>(
  table: T,
  rows: readonly Insertable<Tables[T]>[],
  columnsOf: { firstId?: keyof Tables[T] & string; packed?: keyof Tables[T] & string } = {},
): RecipeStep {
  const query = sqliteInsert(table, rows);
  const step: RecipeStep = { sql: query.sql, parameters: [...query.parameters] };
  const columns = definedColumns(rows[0] as Record<string, unknown>);
  const positions = (column: string): number[] => {
    const position = columns.indexOf(column);
    if (position < 0) throw new TypeError(`${table}.${column} is not among the inserted columns`);
    return rows.map((_, index) => index * columns.length + position);
  };
  if (columnsOf.firstId !== undefined) step.firstIdAt = positions(columnsOf.firstId);
  if (columnsOf.packed !== undefined) step.packAt = positions(columnsOf.packed);
  return step;
}
