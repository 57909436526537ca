/**
 * Hand-written, and why. Figure: with `synchronous=FULL`, an order insert cost about 470 µs
 * with its own commit and 170 µs plus a share of one commit in a group. Reproduce:
 * `npx tsx bench/orders.ts` (POST /v2/orders). Measured against: one Kysely transaction per write
 * (no npm library groups commits for node:sqlite; SQLite's own WAL has no group commit).
 *
 * Group commit for the embedded (SQLite) mode: the one path every write outside a
 * transaction of its own takes, whether one statement (driver.ts hands those here), several
 * (`run`), or a recipe (`recipe`, an order and its events: statements known whole, which go in
 * groups of their own to the writer thread of sqlite-writer.ts when there is one).
 *
 * SQLite has one writer, and each commit writes every page the write touched (a new order
 * touches a dozen index pages) to the WAL. Short writes that arrive together are therefore
 * run in one transaction, each inside its own savepoint: a write that fails is rolled back
 * alone and its caller gets its error, the others still commit. Every caller is answered
 * only after the shared COMMIT, so an acknowledged write is as durable as before.
 *
 * With PostgreSQL each write is simply its own transaction: the server runs them in
 * parallel, and batching would only make them wait for each other.
 *
 * A write given to `run` must only use the transaction it is handed and must not wait on
 * anything else (no network, no other `run`): the whole batch waits for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type Kysely, type QueryResult, type Transaction } from 'kysely';
import { packObject } from '../json-pieces.js';
import type { DatabaseKind } from './database.js';
import type { WriteObserver } from './driver.js';
import { WriterUnavailable, type Recipe, type SqliteWriter } from './sqlite-writer.js';
import type { Tables } from './tables.js';

type Write<T> = (trx: Transaction<Tables>) => Promise<T>;

interface Pending {
  write: Write<unknown>;
  /** Runs the write in its caller's async context (whose request it is: idempotency.ts). */
  inContext: <R>(fn: () => R) => R;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface PendingRecipe {
  recipe: Recipe;
  resolve(id: number): void;
  reject(error: unknown): void;
}

/** Runs `recipe` in `trx` on the event loop: its answer is the new rowid of its first statement. */
export async function runRecipe(trx: Transaction<Tables>, recipe: Recipe): Promise<number> {
  let id: number | null = null;
  for (const step of recipe) {
    const parameters = [...step.parameters];
    for (const at of step.firstIdAt ?? []) parameters[at] = id;
    for (const at of step.packAt ?? []) parameters[at] = packObject(Buffer.from(parameters[at] as string));
    const result = await trx.executeQuery(CompiledQuery.raw(step.sql, parameters));
    id ??= Number(result.insertId);
  }
  if (id === null) throw new TypeError('a recipe needs a statement');
  return id;
}

interface SavepointStatements {
  open: CompiledQuery;
  release: CompiledQuery;
  rollback: CompiledQuery;
}

/** The statements of the savepoint of the batch's write number `index`, compiled once (two or three per write). */
const savepoints: SavepointStatements[] = [];
function savepointStatements(index: number): SavepointStatements {
  let statements = savepoints[index];
  if (!statements) {
    statements = {
      open: CompiledQuery.raw(`savepoint write_${index}`),
      release: CompiledQuery.raw(`release write_${index}`),
      rollback: CompiledQuery.raw(`rollback to write_${index}`),
    };
    savepoints[index] = statements;
  }
  return statements;
}

/** One batcher per database, so that every writer of it shares the same group (and the same COMMIT). */
const shared = new WeakMap<Kysely<Tables>, WriteBatcher>();

/** The batcher of `db`: single statements (driver.ts) and every store's writes join the same groups. */
export function writeBatcherOf(db: Kysely<Tables>, kind: DatabaseKind): WriteBatcher {
  let batcher = shared.get(db);
  if (!batcher) {
    batcher = new WriteBatcher(db, kind);
    shared.set(db, batcher);
  }
  return batcher;
}

export class WriteBatcher {
  private queue: Pending[] = [];
  private flushing = false;
  private recipes: PendingRecipe[] = [];
  private sendingRecipes = false;
  private offThread: { writer: SqliteWriter; mayLeave: () => boolean } | null = null;
  private observers: readonly WriteObserver[] = [];

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly kind: DatabaseKind,
    private readonly maxBatch = 200,
  ) {}

  /** One write statement made outside any transaction, in the group (driver.ts). */
  statement(query: CompiledQuery): Promise<QueryResult<unknown>> {
    return this.run((trx) => trx.executeQuery(query));
  }

  /**
   * From now on recipes go to `writer`'s thread (a SQLite file), unless `mayLeave` says the
   * caller's writes must be seen on the event loop (an idempotency key marked in the same transaction).
   */
  useWriter(writer: SqliteWriter, mayLeave: () => boolean): void {
    this.offThread = { writer, mayLeave };
  }

  /** Observers of writes that may add a statement of their own to each recipe (the audit trail's entry). */
  useRecipeSteps(observers: readonly WriteObserver[]): void {
    this.observers = observers;
  }

  /**
   * Statements known whole before they run (sqlite-writer.ts), SQLite only: run in the writer's
   * thread in groups of their own when there is one, else as a write of the group on the event loop.
   * Resolves with the first statement's new rowid, after the group's COMMIT.
   */
  recipe(given: Recipe): Promise<number> {
    let recipe = given;
    let unobserved = <R>(work: () => R): R => work();
    for (const observer of this.observers) {
      const step = observer.recipeStep && observer.observing() ? observer.recipeStep(given[0]?.sql ?? '') : null;
      if (!step || !observer.offContext) continue;
      recipe = [...recipe, step];
      // the step is the observer's part: it must not also observe the recipe's writes
      const outer = unobserved;
      const off = observer.offContext.bind(observer);
      unobserved = (work) => outer(() => off(work));
    }
    return unobserved(() => this.sendRecipe(recipe));
  }

  private sendRecipe(recipe: Recipe): Promise<number> {
    const offThread = this.offThread;
    if (!offThread?.writer.usable || !offThread.mayLeave()) return this.run((trx) => runRecipe(trx, recipe));
    return new Promise<number>((resolve, reject) => {
      this.recipes.push({ recipe, resolve, reject });
      if (!this.sendingRecipes) {
        this.sendingRecipes = true;
        setImmediate(() => void this.sendRecipes(offThread.writer));
      }
    });
  }

  private async sendRecipes(writer: SqliteWriter): Promise<void> {
    while (this.recipes.length > 0) {
      const group = this.recipes.splice(0, this.maxBatch);
      try {
        const outcomes = await writer.run(group.map((pending) => pending.recipe));
        for (const [index, outcome] of outcomes.entries()) {
          const pending = group[index] as PendingRecipe;
          if ('id' in outcome) pending.resolve(outcome.id);
          else pending.reject(outcome.error);
        }
      } catch (error) {
        if (error instanceof WriterUnavailable) {
          // nothing of it reached the database: on the event loop instead
          for (const pending of group)
            this.run((trx) => runRecipe(trx, pending.recipe)).then(pending.resolve, pending.reject);
          continue;
        }
        // the group's transaction failed: nothing of it was written
        for (const pending of group) pending.reject(error);
      }
    }
    this.sendingRecipes = false;
  }

  run<T>(write: Write<T>): Promise<T> {
    if (this.kind !== 'sqlite') return this.db.transaction().execute(write);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        write: write as Write<unknown>,
        inContext: AsyncLocalStorage.snapshot(),
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (!this.flushing) {
        this.flushing = true;
        // the writes of requests being handled in this turn of the event loop join the batch
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      const outcomes: Array<() => void> = [];
      try {
        await this.db.transaction().execute(async (trx) => {
          for (const [index, pending] of batch.entries()) {
            const savepoint = savepointStatements(index);
            await trx.executeQuery(savepoint.open);
            try {
              const value = await pending.inContext(() => pending.write(trx));
              await trx.executeQuery(savepoint.release);
              outcomes.push(() => pending.resolve(value));
            } catch (error) {
              await trx.executeQuery(savepoint.rollback);
              await trx.executeQuery(savepoint.release);
              outcomes.push(() => pending.reject(error));
            }
          }
        });
        for (const settle of outcomes) settle();
      } catch (error) {
        // the commit itself failed: nothing of the batch was written
        for (const pending of batch) pending.reject(error);
      }
    }
    this.flushing = false;
  }
}
