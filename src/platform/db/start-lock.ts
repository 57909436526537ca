/**
 * Work that several processes starting at once on one PostgreSQL database must do one after
 * another: migrations, the reference data import, the first account. A session advisory lock
 * named after the schema (tests share a database, each in a schema of its own) is held on one
 * pooled connection while `work` runs on the others; a process that dies holding it loses it
 * with its connection. SQLite has one owner: the work just runs.
 */
import { sql } from 'kysely';
import type { Database } from './database.js';

export async function underStartLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.kind !== 'postgres') return work();
  return database.db.connection().execute(async (connection) => {
    const key = sql`hashtext('delivery start ' || current_schema())`;
    await sql`select pg_advisory_lock(${key})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}
