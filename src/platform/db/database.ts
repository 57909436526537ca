/**
 * Hand-written, and why. Figure: better-sqlite3 12.11.1 (what Kysely's SqliteDialect expects)
 * aborts the process on Node 24 (exit 134); node:sqlite reads as fast (a cold list page 21.1 ms
 * against 23.1 ms) and needs no native build. Reproduce: `BENCH_BETTER_SQLITE3=<dir> npx tsx
 * bench/sqlite-drivers.ts`. Measured against: better-sqlite3 under Kysely's SqliteDialect.
 *
 * One query code base over two engines: SQLite (embedded default) and PostgreSQL.
 *
 * Values are normalised at the driver edge so callers see the same types from both:
 * 64-bit integers and numerics as numbers, instants as ISO-8601 UTC strings, dates as
 * `YYYY-MM-DD` strings. Booleans are bound as 1/0 on SQLite; read them with `flag()`.
 * JSON columns are jsonb on PostgreSQL and text on SQLite; read them with `fromJson()`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type pgModule from 'pg';
import { onFirstUse } from '../lazy-require.js';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SqliteDatabase,
  type SqliteStatement,
  type UnknownRow,
} from 'kysely';
import type { Tables } from './tables.js';
import { ObservedDialect, observersOf, type GroupWrite, type WriteObserver } from './driver.js';
import { SqliteWriter, WriteTurns } from './sqlite-writer.js';
import { SqliteReader, attachPageReader } from './sqlite-reader.js';
import { writeBatcherOf } from './write-batch.js';

/** PostgreSQL's driver, loaded only by a service that uses PostgreSQL (platform/lazy-require.ts). */
const postgresDriver = onFirstUse<typeof pgModule>('pg');

export type DatabaseKind = 'sqlite' | 'postgres';

export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Kysely<Tables>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Messages between the processes sharing this database (PostgreSQL LISTEN/NOTIFY; null
   * with SQLite, which one process owns).
   */
  readonly messages: DatabaseMessages | null;
  /** From now on `observer` sees every write, inside its transaction (driver.ts), beside those given before. */
  observeWrites(observer: WriteObserver): void;
  /** PostgreSQL: the connection pool's occupancy now, for the metrics (null with SQLite, which has one connection). */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
}

export interface MessageHandlers {
  message(payload: string): void;
  /** Listening (again): messages from now on arrive. */
  up(): void;
  /** The listening connection is lost: messages may be missed until `up`. */
  down(): void;
}

export interface DatabaseMessages {
  /** Listens on `channel` through a connection of its own, reconnecting when it is lost; resolves after the first attempt. */
  subscribe(channel: string, handlers: MessageHandlers): Promise<void>;
  /** Sends `payload` to every process listening on `channel` (this one included). */
  publish(channel: string, payload: string): Promise<void>;
}

const RESUBSCRIBE_AFTER_MS = 1000;

export interface DatabaseOptions {
  /** `sqlite:<path>`, `sqlite::memory:` or `postgres://...` */
  url: string;
  poolMax?: number;
  /** PostgreSQL schema to work in (tests use a throw-away schema each). */
  schema?: string;
  /**
   * SQLite: `full` (default) syncs the WAL at every commit, so an acknowledged write survives
   * power loss; `normal` syncs only at checkpoints and may lose the last commits.
   */
  sqliteSynchronous?: 'full' | 'normal';
  /**
   * SQLite in memory: a database file whose tables, indexes, triggers and rows the new database
   * starts with (the tests start each app from one migrated database holding the reference data,
   * ~1 s less per app than migrating and loading it).
   */
  sqliteSeed?: string;
  /** SQLite: the page cache of the event loop's connection, in MB (CACHE_MB's quarter by default: 16). */
  sqliteCacheMb?: number;
}

const PG_TYPE = { INT8: 20, NUMERIC: 1700, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 } as const;

function pgInstantToIso(text: string): string {
  // PostgreSQL prints "2026-11-21 10:40:00.123+00"; make it the ISO form SQLite stores.
  return new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
}

const pgTypes = {
  getTypeParser(oid: number, format?: string): (text: string) => unknown {
    switch (oid) {
      case PG_TYPE.INT8:
      case PG_TYPE.NUMERIC:
        return (text: string) => Number(text);
      case PG_TYPE.DATE:
        return (text: string) => text;
      case PG_TYPE.TIMESTAMPTZ:
        return pgInstantToIso;
      case PG_TYPE.TIMESTAMP:
        return (text: string) => new Date(`${text.replace(' ', 'T')}Z`).toISOString();
      default:
        return postgresDriver().types.getTypeParser(oid, (format ?? 'text') as 'text');
    }
  },
};

function bindable(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

/** SQLite's result codes by number: the primary ones, and the constraint kinds the stores tell apart. */
const SQLITE_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  25: 'SQLITE_RANGE',
  26: 'SQLITE_NOTADB',
  275: 'SQLITE_CONSTRAINT_CHECK',
  787: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  1299: 'SQLITE_CONSTRAINT_NOTNULL',
  1555: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  1811: 'SQLITE_CONSTRAINT_TRIGGER',
  2067: 'SQLITE_CONSTRAINT_UNIQUE',
  2579: 'SQLITE_CONSTRAINT_ROWID',
  3091: 'SQLITE_CONSTRAINT_DATATYPE',
};

/**
 * node:sqlite marks every SQLite failure `code: 'ERR_SQLITE_ERROR'` with the number in `errcode`;
 * the stores tell a unique violation by `code` (`SQLITE_CONSTRAINT_UNIQUE`, as PostgreSQL's
 * 23505), so the error gets SQLite's own name there.
 */
function sqliteCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    const failure = error as { code?: unknown; errcode?: unknown };
    if (failure.code === 'ERR_SQLITE_ERROR' && typeof failure.errcode === 'number') {
      failure.code = sqliteCodeName(failure.errcode);
    }
    throw error;
  }
}

function sqliteCodeName(errcode: number): string {
  return SQLITE_CODES[errcode] ?? SQLITE_CODES[errcode & 0xff] ?? 'SQLITE_ERROR';
}

/** A failure the writer thread reported (sqlite-writer.ts), named as `sqliteCall` names the event loop's. */
function writerFailure(message: string, errcode: number | undefined): Error {
  const error = new Error(message) as Error & { code: string; errcode?: number };
  error.code = errcode === undefined ? 'SQLITE_ERROR' : sqliteCodeName(errcode);
  error.errcode = errcode;
  return error;
}

/**
 * node:sqlite gives BLOBs as plain Uint8Arrays; the code reading them (packed documents) uses
 * Buffer's methods, as it did with better-sqlite3. A view over the same memory, no copy.
 */
function withBuffers<T>(row: T): T {
  const record = row as Record<string, unknown>;
  for (const key in record) {
    const value = record[key];
    if (value instanceof Uint8Array && !Buffer.isBuffer(value))
      record[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  return row;
}

/**
 * Kysely's SQLite dialect over node:sqlite. Binds booleans as 1/0 and dates as ISO strings, and
 * keeps prepared statements for reuse (preparing is a good part of a short query's cost).
 */
function wrapSqlite(connection: DatabaseSync, cacheSize = 500): SqliteDatabase {
  const cache = new Map<string, { statement: StatementSync; reader: boolean }>();
  const prepare = (text: string): { statement: StatementSync; reader: boolean } => {
    let entry = cache.get(text);
    if (!entry) {
      const statement = sqliteCall(() => connection.prepare(text));
      // a statement that gives rows (a select, or a write with RETURNING) has result columns
      entry = { statement, reader: statement.columns().length > 0 };
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
      cache.set(text, entry);
    }
    return entry;
  };
  return {
    close: () => connection.close(),
    prepare(text: string): SqliteStatement {
      const { statement, reader } = prepare(text);
      return {
        reader,
        all: (parameters) => sqliteCall(() => statement.all(...parameters.map(bindable))).map(withBuffers),
        run: (parameters) => sqliteCall(() => statement.run(...parameters.map(bindable))),
        iterate: function* (parameters) {
          const rows = sqliteCall(() => statement.iterate(...parameters.map(bindable)));
          for (;;) {
            const next = sqliteCall(() => rows.next());
            if (next.done) return;
            yield withBuffers(next.value);
          }
        },
      };
    },
  };
}

/**
 * SQLite's page cache of the event loop's connection when nothing says otherwise: 16 MB, filled by
 * use. Reads of a file go through its map (mmap_size), so the cache mostly holds what the map
 * does not: it was 64 MB, held in malloc's heap among the process's other allocations.
 */
export const DEFAULT_SQLITE_CACHE_MB = 16;

/** The cache_size pragma's value for `megabytes` (negative: in KiB). */
export function sqliteCacheSize(megabytes: number): number {
  return -Math.max(1024, Math.round(megabytes * 1024));
}

/** The writer thread's page cache (sqlite-writer.ts): it holds the pages of a group's writes, reads go through the map. */
const WRITER_CACHE_SIZE = -8192;

/** The page reader's cache (sqlite-reader.ts): its pages come through the map. */
const READER_CACHE_SIZE = -8192;

/** The settings of a connection to `file`, in the order they are made. */
function sqliteSettings(file: string, synchronous: 'full' | 'normal', cacheSize: number): string[] {
  return [
    'journal_mode = WAL',
    // Group commit (write-batch.ts, for single statements too) shares one sync among the writes arriving together,
    // which is what makes FULL affordable as the default.
    `synchronous = ${synchronous === 'normal' ? 'NORMAL' : 'FULL'}`,
    'foreign_keys = ON',
    'busy_timeout = 5000',
    `cache_size = ${cacheSize}`,
    // Each write of a group commit runs in a savepoint (write-batch.ts), whose journal of the pages it changes (a new
    // order: ~20 index pages, past SQLite's 64 KiB in-memory limit) otherwise spills to a temporary file: 190–201 →
    // 105–110 µs an order row (`npx tsx bench/sqlite-insert.ts`). The price: a sort or temporary table larger than the
    // 64 MB page cache stays in memory instead of a file; lists, exports and reports read by index or keyset.
    'temp_store = MEMORY',
    // Reads straight from the mapped file instead of a read() call per page: a page of 50 orders
    // touches about 100 pages of a database far larger than the page cache (at most ~2 GB mapped).
    ...(file === ':memory:' ? [] : ['mmap_size = 2147418112']),
  ];
}

function openSqlite(file: string, synchronous: 'full' | 'normal', cacheSize: number, seed?: string): DatabaseSync {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const connection = sqliteCall(() => new DatabaseSync(file));
  if (seed && file === ':memory:') {
    // the seed is one file many processes read at once: a reader finding another one recovering its WAL waits (it once failed "database is locked")
    sqliteCall(() => connection.exec('pragma busy_timeout = 10000'));
    sqliteCall(() => copySqliteDatabase(connection, seed));
  }
  for (const setting of sqliteSettings(file, synchronous, cacheSize))
    sqliteCall(() => connection.exec(`pragma ${setting}`));
  return connection;
}

/**
 * Makes an empty database (`connection`) a copy of the file `source`: its schema in the order it
 * was made, then every table's rows, then its indexes and triggers. A virtual table's own
 * tables (an FTS5 index's `_data`, `_idx`…) come with it, so they are left to it, and it starts
 * empty (the catalogue's search index is, in a database of reference data only).
 */
function copySqliteDatabase(connection: DatabaseSync, source: string): void {
  connection.exec(`attach database '${source.replaceAll("'", "''")}' as seed`);
  try {
    const objects = connection
      .prepare(
        "select type, name, sql from seed.sqlite_master where sql is not null and name not like 'sqlite_%' order by rowid",
      )
      .all() as Array<{ type: string; name: string; sql: string }>;
    const virtual = objects.filter((object) => /^create virtual table/i.test(object.sql)).map((object) => object.name);
    const ownedByVirtual = (name: string) => virtual.some((table) => name.startsWith(`${table}_`));
    const tables = objects.filter((object) => object.type === 'table' && !ownedByVirtual(object.name));
    connection.exec('begin');
    for (const table of tables) connection.exec(table.sql);
    for (const table of tables) {
      if (virtual.includes(table.name)) continue;
      const quoted = `"${table.name.replaceAll('"', '""')}"`;
      connection.exec(`insert into main.${quoted} select * from seed.${quoted}`);
    }
    const sequences = connection.prepare("select 1 from seed.sqlite_master where name = 'sqlite_sequence'").get();
    if (sequences) connection.exec('insert into main.sqlite_sequence select * from seed.sqlite_sequence');
    for (const object of objects) if (object.type === 'index' || object.type === 'trigger') connection.exec(object.sql);
    connection.exec('commit');
  } finally {
    connection.exec('detach database seed');
  }
}

/** The longest stretch of SQLite queries run without letting the event loop turn. */
const SQLITE_TURN_BUDGET_MS = 10;

/**
 * SQLite (node:sqlite) answers in the calling thread, so a chain of awaited queries (a job working
 * through a batch, a large import) never leaves the event loop: requests, timers and I/O
 * waited until the whole chain ended. After SQLITE_TURN_BUDGET_MS of queries in one turn,
 * the next answer is handed back only after the loop has turned once.
 */
export class YieldToEventLoop implements KyselyPlugin {
  private turnStartedAt = 0;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const now = performance.now();
    if (this.turnStartedAt === 0) {
      this.turnStartedAt = now;
      setImmediate(() => {
        this.turnStartedAt = 0;
      });
    } else if (now - this.turnStartedAt > SQLITE_TURN_BUDGET_MS) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return args.result;
  }
}

export function createDatabase(options: DatabaseOptions): Database {
  let observer: WriteObserver | null = null;
  const observers: WriteObserver[] = [];
  const observe = (next: WriteObserver) => {
    observers.push(next);
    observer = observers.length === 1 ? next : observersOf(observers);
  };
  if (options.url.startsWith('sqlite:')) {
    const file = options.url.slice('sqlite:'.length) || ':memory:';
    const synchronous = options.sqliteSynchronous ?? 'full';
    const connection = openSqlite(
      file,
      synchronous,
      sqliteCacheSize(options.sqliteCacheMb ?? DEFAULT_SQLITE_CACHE_MB),
      options.sqliteSeed,
    );
    let group: GroupWrite | undefined;
    // A database in memory is this connection's alone: no thread of its own for writing
    const turns = file === ':memory:' ? undefined : new WriteTurns();
    const observed = new ObservedDialect(new SqliteDialect({ database: wrapSqlite(connection) }), {
      groupCommit: true,
      observer: () => observer,
      group: () => group,
      turns,
    });
    const db = new Kysely<Tables>({ dialect: observed, plugins: [new YieldToEventLoop()] });
    const batcher = writeBatcherOf(db, 'sqlite');
    group = (query) => batcher.statement(query);
    const writer = turns
      ? new SqliteWriter({
          file,
          pragmas: sqliteSettings(file, synchronous, WRITER_CACHE_SIZE),
          turns,
          failure: writerFailure,
        })
      : null;
    // a write whose idempotency key is marked in its own transaction stays on the event loop (driver.ts); an
    // observer that adds its own statement to a recipe (the audit trail) lets it go
    if (writer)
      batcher.useWriter(writer, () => !observers.some((each) => each.recipeStep === undefined && each.observing()));
    batcher.useRecipeSteps(observers);
    const reader = turns
      ? new SqliteReader({
          file,
          pragmas: sqliteSettings(file, synchronous, READER_CACHE_SIZE).filter(
            (setting) => !setting.startsWith('journal_mode') && !setting.startsWith('synchronous'),
          ),
          failure: writerFailure,
        })
      : null;
    if (reader) attachPageReader(db, reader);
    return asDatabase('sqlite', db, observe, null, () => null, writer, reader);
  }

  const pool = new (postgresDriver().Pool)({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    types: pgTypes,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
  });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const messages = new PostgresMessages(options.url, pool, options.schema);
  const observed = new ObservedDialect(new PostgresDialect({ pool }), { groupCommit: false, observer: () => observer });
  const stats = (): PoolStats => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return asDatabase('postgres', new Kysely<Tables>({ dialect: observed }), observe, messages, stats);
}

/**
 * LISTEN/NOTIFY. Channels are per database, not per schema, so a schema's channels carry its
 * name: services on other schemas of the same database (tests) do not hear each other.
 */
class PostgresMessages implements DatabaseMessages {
  private readonly stops: Array<() => Promise<void>> = [];
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly pool: pgModule.Pool,
    private readonly schema: string | undefined,
  ) {}

  private scoped(channel: string): string {
    return this.schema ? `${channel}_${this.schema}` : channel;
  }

  async publish(channel: string, payload: string): Promise<void> {
    const text = 'select pg_notify($1, $2)';
    const values = [this.scoped(channel), payload];
    if (!this.pool.ending) {
      await this.pool.query(text, values);
      return;
    }
    // A request that outlived the shutdown committed a write after the pool closed: the
    // other processes must still hear of it, or they would answer from stale memory.
    const client = new (postgresDriver().Client)({ connectionString: this.url });
    await client.connect();
    try {
      await client.query(text, values);
    } finally {
      await client.end();
    }
  }

  subscribe(channel: string, handlers: MessageHandlers): Promise<void> {
    const name = this.scoped(channel);
    let current: pgModule.Client | null = null;
    let retry: NodeJS.Timeout | null = null;
    const gone = new WeakSet<pgModule.Client>();
    const lost = (client: pgModule.Client) => {
      // 'error' and 'end' both come: one loss per connection
      if (gone.has(client)) return;
      gone.add(client);
      if (current === client) current = null;
      handlers.down();
      client.end().catch(() => undefined);
      if (this.closed || retry) return;
      retry = setTimeout(() => {
        retry = null;
        void connect();
      }, RESUBSCRIBE_AFTER_MS);
      retry.unref();
    };
    const connect = async () => {
      const client = new (postgresDriver().Client)({
        connectionString: this.url,
        application_name: `listen ${name}`.slice(0, 63),
      });
      client.on('notification', (message) => {
        if (message.channel === name) handlers.message(message.payload ?? '');
      });
      client.on('error', () => lost(client));
      client.on('end', () => lost(client));
      try {
        await client.connect();
        await client.query(`listen ${client.escapeIdentifier(name)}`);
        if (this.closed) {
          await client.end();
          return;
        }
        current = client;
        handlers.up();
      } catch {
        lost(client);
      }
    };
    this.stops.push(async () => {
      if (retry) clearTimeout(retry);
      const client = current;
      current = null;
      await client?.end().catch(() => undefined);
    });
    return connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.stops.map((stop) => stop()));
  }
}

function asDatabase(
  kind: DatabaseKind,
  db: Kysely<Tables>,
  observeWrites: (observer: WriteObserver) => void,
  messages: PostgresMessages | null = null,
  poolStats: () => PoolStats | null = () => null,
  writer: SqliteWriter | null = null,
  reader: SqliteReader | null = null,
): Database {
  return {
    kind,
    db,
    messages,
    observeWrites,
    poolStats,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await messages?.close();
      await reader?.close();
      await writer?.close();
      await db.destroy();
    },
  };
}
