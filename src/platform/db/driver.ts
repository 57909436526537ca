/**
 * Hand-written, and why. Figure: the write observer is what lets an idempotency key be marked in
 * its effect's own transaction (a crash between commit and answer runs nothing twice), and single
 * writes join the one group commit (write-batch.ts: ~470 → 170 µs an order insert). Reproduce:
 * `npx vitest run src/platform/idempotency.test.ts`, `npx tsx bench/orders.ts`. Measured against:
 * Kysely's own drivers, which have no hook inside a statement's transaction.
 *
 * The path every statement takes to the database, wrapped around Kysely's own drivers for two
 * reasons:
 *
 * - Group commit of single statements (SQLite). With `synchronous=FULL` every commit waits for
 *   the disk; a write that is not in a transaction of its own (most creates and updates) was
 *   its own commit. Such a write is handed to `group` (write-batch.ts, the one group-commit
 *   path): it joins the writes of several statements arriving in the same turn of the event
 *   loop, each in its own savepoint, under one COMMIT.
 *
 * - A write observer (idempotency keys): after a write statement succeeds, inside its
 *   transaction, the observer may add statements of its own, which then commit or roll back
 *   with the write. A write outside any transaction is given one when the observer asks.
 */
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { RecipeStep, WriteTurns } from './sqlite-writer.js';

export type RunStatement = (query: CompiledQuery) => Promise<QueryResult<unknown>>;

export interface WriteObserver {
  /** Whether writes made now (in this async context) are to be observed. Called often: keep it cheap. */
  observing(): boolean;
  /**
   * A write statement succeeded inside `transaction` (an object standing for one database
   * transaction; the same object for every write of it). Statements run through `run` are
   * part of that transaction; throwing undoes the write.
   */
  afterWrite(
    run: RunStatement,
    result: QueryResult<unknown>,
    transaction: object,
    query?: CompiledQuery,
  ): Promise<void>;
  /**
   * A SQLite recipe (statements known whole, sqlite-writer.ts) about to run: one more statement
   * the observer adds to it instead of observing its writes; null when it adds nothing. An
   * observer without this keeps recipes on the event loop while it observes.
   */
  recipeStep?(firstSql: string): RecipeStep | null;
  /** Runs `work` unobserved by this observer (a recipe that carries its step). */
  offContext?<T>(work: () => T): T;
}

/** Several observers as one: each sees every write. */
export function observersOf(observers: readonly WriteObserver[]): WriteObserver {
  return {
    observing: () => observers.some((observer) => observer.observing()),
    async afterWrite(run, result, transaction, query) {
      for (const observer of observers)
        if (observer.observing()) await observer.afterWrite(run, result, transaction, query);
    },
  };
}

/** Statements that change data, as far as observing writes goes. */
function isWrite(query: CompiledQuery): boolean {
  switch (query.query.kind) {
    case 'InsertQueryNode':
    case 'UpdateQueryNode':
    case 'DeleteQueryNode':
    case 'MergeQueryNode':
      return true;
    case 'RawNode':
      return /^\s*(insert|update|delete|replace)\b/i.test(query.sql);
    default:
      return false;
  }
}

const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/** What Kysely holds as "a connection": the real one is taken when a statement or a transaction needs it. */
class Connection implements DatabaseConnection {
  real: DatabaseConnection | null = null;
  /** Set while a transaction is open on `real`. */
  transaction: object | null = null;
  /** Ends the transaction's turn at writing (SQLite with a writer thread: sqlite-writer.ts). */
  endTurn: (() => void) | null = null;

  constructor(private readonly driver: ObservedDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return (await this.driver.execute(this, query)) as QueryResult<R>;
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const real = this.real ?? (await this.driver.inner.acquireConnection());
    try {
      yield* real.streamQuery<R>(query, chunkSize);
    } finally {
      if (real !== this.real) await this.driver.inner.releaseConnection(real);
    }
  }
}

/** Runs one write statement in the shared group transaction (write-batch.ts) and answers its result after the group's COMMIT. */
export type GroupWrite = (query: CompiledQuery) => Promise<QueryResult<unknown>>;

export interface ObservedOptions {
  /** SQLite: single writes go to `group()`, and the one real connection is held only while a statement or transaction runs. */
  groupCommit: boolean;
  observer: () => WriteObserver | null;
  /** Where single writes go when `groupCommit`. */
  group?: () => GroupWrite | undefined;
  /** SQLite: every transaction takes a turn, shared with the writer thread's groups (sqlite-writer.ts). */
  turns?: WriteTurns;
}

class ObservedDriver implements Driver {
  constructor(
    readonly inner: Driver,
    private readonly options: ObservedOptions,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = new Connection(this);
    // PostgreSQL: one pooled client per Kysely connection, as Kysely expects (sessions, advisory
    // locks). SQLite has one connection behind a lock: taken only while a statement or a
    // transaction runs, so that single writes can wait for their group without holding it.
    if (!this.options.groupCommit) connection.real = await this.inner.acquireConnection();
    return connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const own = connection as Connection;
    if (own.real) await this.inner.releaseConnection(own.real);
    own.real = null;
    own.transaction = null;
    own.endTurn?.();
    own.endTurn = null;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const own = connection as Connection;
    own.endTurn = (await this.options.turns?.take()) ?? null;
    try {
      if (!own.real) own.real = await this.inner.acquireConnection();
      await this.inner.beginTransaction(own.real, settings);
    } catch (error) {
      await this.dropLazy(own);
      throw error;
    }
    own.transaction = {};
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as Connection;
    try {
      await this.inner.commitTransaction(own.real as DatabaseConnection);
    } finally {
      own.transaction = null;
      await this.dropLazy(own);
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as Connection;
    try {
      await this.inner.rollbackTransaction(own.real as DatabaseConnection);
    } finally {
      own.transaction = null;
      await this.dropLazy(own);
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.((connection as Connection).real as DatabaseConnection, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.rollbackToSavepoint?.((connection as Connection).real as DatabaseConnection, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.releaseSavepoint?.((connection as Connection).real as DatabaseConnection, name, compile);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** SQLite: the real connection goes back as soon as the transaction ends, and so does its turn at writing. */
  private async dropLazy(connection: Connection): Promise<void> {
    connection.endTurn?.();
    connection.endTurn = null;
    if (!this.options.groupCommit || !connection.real) return;
    const real = connection.real;
    connection.real = null;
    await this.inner.releaseConnection(real);
  }

  private observer(): WriteObserver | null {
    const observer = this.options.observer();
    return observer && observer.observing() ? observer : null;
  }

  async execute(connection: Connection, query: CompiledQuery): Promise<QueryResult<unknown>> {
    const write = isWrite(query);
    if (connection.transaction && connection.real) {
      const real = connection.real;
      const result = await real.executeQuery(query);
      const observer = write ? this.observer() : null;
      if (observer) await observer.afterWrite((next) => real.executeQuery(next), result, connection.transaction, query);
      return result;
    }
    const group = write && this.options.groupCommit ? this.options.group?.() : undefined;
    if (group) return group(query);
    // On SQLite what comes here is a read, or a schema statement of the start (before any recipe): no turn at writing
    const real = connection.real ?? (await this.inner.acquireConnection());
    try {
      const observer = write ? this.observer() : null;
      if (!observer) return await real.executeQuery(query);
      // a write the observer wants to add to: in a transaction of its own
      await real.executeQuery(BEGIN);
      try {
        const result = await real.executeQuery(query);
        await observer.afterWrite((next) => real.executeQuery(next), result, {}, query);
        await real.executeQuery(COMMIT);
        return result;
      } catch (error) {
        await real.executeQuery(ROLLBACK).catch(() => undefined);
        throw error;
      }
    } finally {
      if (real !== connection.real) await this.inner.releaseConnection(real);
    }
  }
}

/** A Kysely dialect whose driver groups single writes (SQLite) and lets an observer add to writes. */
export class ObservedDialect implements Dialect {
  constructor(
    private readonly inner: Dialect,
    private readonly options: ObservedOptions,
  ) {}

  createDriver(): Driver {
    return new ObservedDriver(this.inner.createDriver(), this.options);
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}
