/**
 * Hand-written, and why. Figure: `POST /v2/orders` 1106–1503 → 1490–2148 orders a second on
 * 2 cores, `synchronous=FULL` (five runs each, alternated). Reproduce: `SCENARIO=post npx tsx
 * bench/orders.ts`. Measured against: every group committed on the event loop (write-batch.ts
 * alone). No library runs node:sqlite statements in a worker thread.
 *
 * SQLite's writes of a hot path, run in a worker thread with a connection of its own, so that the
 * event loop does not wait for them. node:sqlite answers in the calling thread: an order's two
 * inserts and its group's COMMIT (WAL frames and the sync that `synchronous=FULL` asks for) were
 * about a third of the event loop's time per order.
 *
 * What goes there is a recipe: statements whose text and values are known before they run, with
 * no read between them and no JavaScript rule (an order and its outbox events). A later statement
 * may take the id the first one inserted. Recipes arriving together run in one transaction, each
 * in a savepoint: one that fails is rolled back alone and its caller gets its error, the others
 * commit; every caller is answered after the COMMIT, so an acknowledged write is as durable as
 * one committed on the event loop. A value may be a JSON object's text that the worker packs
 * (json-pieces.ts, the very module the event loop uses): packing an order's document was ~11 % of
 * the event loop's time per order.
 *
 * Recipes run on the event loop instead, as writes of write-batch.ts's group, where no worker can
 * help: a database in memory (no second connection sees it), a write whose idempotency key must be
 * marked in its own transaction (the driver's observer lives on the event loop), and every write
 * after the worker died (the group in flight then fails with an error).
 *
 * SQLite has one writer. The worker's groups and the event loop's transactions take turns through
 * `WriteTurns` (driver.ts takes a turn for every transaction on the event loop), so neither ever
 * meets the other's lock: no SQLITE_BUSY, no event loop blocked in SQLite's busy handler. Reads
 * outside a transaction take no turn: WAL lets them read while the worker writes.
 */
import type { Worker } from 'node:worker_threads';
import { CONNECTION_SOURCE, sqliteThread } from './sqlite-thread.js';

/** One statement of a recipe, its values bound as SQLite takes them (numbers, text, bytes, null). */
export interface RecipeStep {
  sql: string;
  parameters: unknown[];
  /** The positions of `parameters` that take the rowid the recipe's first statement inserted. */
  firstIdAt?: number[];
  /** The positions of `parameters` holding a JSON object's text, bound packed (json-pieces.ts `packObject`). */
  packAt?: number[];
}

/** Statements run together, in order, in one savepoint. The recipe's answer is the first one's new rowid. */
export type Recipe = RecipeStep[];

/** A SQLite failure as the worker reports it: node:sqlite's message and SQLite's result code. */
interface ReportedFailure {
  message: string;
  errcode?: number;
}

type Outcome = { id: number } | { failure: ReportedFailure };

type Answer = { outcomes: Outcome[] } | { failure: ReportedFailure; unstarted?: boolean };

/**
 * The writer cannot take the group, and nothing of it was written: the worker is stopped, or
 * stopped before it was ready. The caller runs the group's recipes on the event loop instead.
 */
export class WriterUnavailable extends Error {}

/**
 * A view into a larger buffer (Node's pooled small Buffers share 8 kB) would be copied whole to
 * the worker: each recipe's bytes are copied to buffers of their own size first.
 */
function exactBytes(recipe: Recipe): Recipe {
  return recipe.map((step) => ({
    ...step,
    parameters: step.parameters.map((value) =>
      value instanceof Uint8Array && value.byteLength !== value.buffer.byteLength ? new Uint8Array(value) : value,
    ),
  }));
}

/**
 * Turns at writing between the event loop's transactions and the worker's groups: one at a time,
 * in the order asked.
 */
export class WriteTurns {
  private last: Promise<void> = Promise.resolve();

  /** Waits for the turn; the returned function ends it. */
  async take(): Promise<() => void> {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const before = this.last;
    this.last = ended;
    await before;
    return end;
  }
}

/** The writer's source (sqlite-thread.ts gives it its connection). */
const WORKER_SOURCE = `${CONNECTION_SOURCE}
// the writer says when it is ready: before, a group it dies in was not begun
let packObject = null;
const ready = pieces.then((loaded) => {
  packObject = loaded.packObject;
  parentPort.postMessage({ ready: true });
});
function runRecipe(recipe) {
  let id = null;
  for (const step of recipe) {
    if (step.firstIdAt) for (const at of step.firstIdAt) step.parameters[at] = id;
    if (step.packAt) for (const at of step.packAt) step.parameters[at] = packObject(Buffer.from(step.parameters[at]));
    const result = prepared(step.sql).run(...step.parameters.map(bindable));
    if (id === null) id = Number(result.lastInsertRowid);
  }
  return id;
}
parentPort.on('message', async (group) => {
  await ready;
  const outcomes = [];
  try {
    db.exec('begin immediate');
    for (const recipe of group) {
      db.exec('savepoint recipe');
      try {
        const id = runRecipe(recipe);
        db.exec('release recipe');
        outcomes.push({ id });
      } catch (error) {
        db.exec('rollback to recipe');
        db.exec('release recipe');
        outcomes.push({ failure: failureOf(error) });
      }
    }
    db.exec('commit');
  } catch (error) {
    try { db.exec('rollback'); } catch {}
    parentPort.postMessage({ failure: failureOf(error) });
    return;
  }
  parentPort.postMessage({ outcomes });
});
`;

export interface SqliteWriterOptions {
  file: string;
  /** The settings of the event loop's own connection (database.ts), the worker's page cache smaller. */
  pragmas: string[];
  turns: WriteTurns;
  /** Makes an Error of a failure as the event loop's connection does (code: SQLITE_...). */
  failure: (message: string, errcode: number | undefined) => Error;
  /** Where the worker loads `packObject` from (tests name a wrong one). */
  piecesUrl?: string;
}

/** Recipes are grouped by the caller (write-batch.ts); this sends one group at a time and answers each recipe. */
export class SqliteWriter {
  private worker: Worker | null = null;
  /** Set when the worker died: the caller runs its recipes on the event loop from then on. */
  private broken: Error | null = null;
  private waiting: ((answer: Answer) => void) | null = null;
  /** The worker has loaded what it needs: from then on, a group it dies in may have been written. */
  private ready = false;

  constructor(private readonly options: SqliteWriterOptions) {}

  /** False once the worker has failed; recipes then run on the event loop. */
  get usable(): boolean {
    return this.broken === null;
  }

  /**
   * Runs `group` in one transaction of the worker, in a turn of its own. Resolves per recipe
   * with its new id or its error; rejects when the transaction itself failed (nothing written).
   */
  async run(group: Recipe[]): Promise<Array<{ id: number } | { error: Error }>> {
    const end = await this.options.turns.take();
    try {
      const answer = await this.send(group);
      if ('failure' in answer && answer.unstarted) throw new WriterUnavailable(answer.failure.message);
      if ('failure' in answer) throw this.options.failure(answer.failure.message, answer.failure.errcode);
      return answer.outcomes.map((outcome) =>
        'id' in outcome ? outcome : { error: this.options.failure(outcome.failure.message, outcome.failure.errcode) },
      );
    } finally {
      end();
    }
  }

  private send(group: Recipe[]): Promise<Answer> {
    if (this.broken) return Promise.reject(new WriterUnavailable(this.broken.message));
    const worker = this.started();
    return new Promise<Answer>((resolve) => {
      this.waiting = resolve;
      // a group in flight keeps the process alive, as a query would; an idle worker does not
      worker.ref();
      worker.postMessage(group.map(exactBytes));
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    // its heap holds a group of recipes at a time (at most 200, a few MB); a larger limit let an idle
    // worker keep what it grew under load (bench/memory.ts: 90 s after the load 359 → 257 MB RSS with 16 MB
    // and a 2 MB young generation, reader and writer alike; 24 here for a group of large documents)
    const worker = sqliteThread(WORKER_SOURCE, this.options, 24);
    worker.on('message', (answer: Answer | { ready: true }) => {
      if ('ready' in answer) {
        this.ready = true;
        return;
      }
      worker.unref();
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.(answer);
    });
    const fail = (error: Error) => {
      this.broken = error;
      this.worker = null;
      const waiting = this.waiting;
      this.waiting = null;
      // before it was ready, no group began; after, the one in flight may have been committed: not to be run again
      waiting?.({ failure: { message: `the SQLite writer stopped: ${error.message}` }, unstarted: !this.ready });
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.worker === worker) fail(new Error(`exit code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  /** Waits for the group in flight, then stops the worker. */
  async close(): Promise<void> {
    const end = await this.options.turns.take();
    const worker = this.worker;
    this.worker = null;
    this.broken = new Error('the database is closed');
    end();
    await worker?.terminate();
  }
}
