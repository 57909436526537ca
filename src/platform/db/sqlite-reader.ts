/**
 * Hand-written, and why. Figure: pages of orders never read before, gzip, 1190–1354 → 1514–2065
 * a second (random pages) and 1145–1324 → 1637–1935 (in turn) on 2 cores, p50 31–37 → 19–30 ms
 * (three rounds, both servers alive and loaded in turn). Reproduce: `SCENARIO=pages npx tsx
 * bench/orders.ts`. Measured against: the page read and assembled on the event loop. No library
 * runs node:sqlite statements in a worker thread.
 *
 * Pages of packed documents (a page of orders never read before) read and assembled as gzip in
 * a worker thread with a read-only connection of its own, so that the event loop does not wait
 * for them. node:sqlite answers in the calling thread: reading a cold page's 50 documents (one
 * buffer each) and assembling them was about half of the event loop's time per page, and the
 * second core sat partly idle.
 *
 * WAL lets this connection read while others write; each read sees what was committed when it
 * began, so a page asked after an acknowledged write includes it, as on the event loop. What
 * comes back is the page's ids (the list remembers far pages' positions by them), the assembled
 * gzip (its memory handed over, not copied), the length of the JSON once unzipped, and for a
 * client that takes no gzip the JSON unzipped there too (0.57 ms of the event loop a page before).
 *
 * A database in memory has no second connection: its pages stay on the event loop, as do
 * reads after the worker died (`usable` is false; a read in flight then fails with
 * `ReaderUnavailable` and is made again on the event loop: reading twice is harmless).
 */
import type { Worker } from 'node:worker_threads';
import { CONNECTION_SOURCE, sqliteThread } from './sqlite-thread.js';

/** A page as json-pieces.ts `gzipIdentifiedObjects` assembles it, with the ids of its rows in order. */
export interface GzippedPage {
  ids: number[];
  gzip: Buffer;
  length: number;
  /** The JSON unzipped, when it was asked for (a client that takes no gzip). */
  plain?: Buffer;
}

interface ReportedFailure {
  message: string;
  errcode?: number;
}

type Answer =
  | { seq: number; ids: number[]; gzip: Uint8Array; length: number; plain: Uint8Array | null }
  | { seq: number; failure: ReportedFailure };

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The page reader's statement for a select of `id` and `packed` (a packed document): one row
 * holding the page, so that SQLite hands over one buffer instead of one per document. Reading
 * a page of 50 this way cost 144–182 µs against 231–295 µs row by row (node:sqlite makes an
 * ArrayBuffer for every BLOB), measured on a copy of the orders bench's database.
 */
export function pageConcatenation(rowsSql: string): string {
  return `select group_concat(id) as ids, cast(group_concat(packed, '') as blob) as docs, group_concat(length(packed)) as lengths from (${rowsSql})`;
}

/** The reader cannot read now (stopped or died); the caller reads on the event loop instead. */
export class ReaderUnavailable extends Error {}

/** The reader's source (sqlite-thread.ts gives it its connection). */
const WORKER_SOURCE = `${CONNECTION_SOURCE}
const { gunzipSync } = require('node:zlib');
// bytes in memory of their own, to be handed over whole: a view into Node's pool (a small page) or a larger area is copied
const own = (bytes) =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
parentPort.on('message', async ({ seq, sql, parameters, wantsPlain }) => {
  try {
    const { gzipIdentifiedObjects } = await pieces;
    const page = prepared(sql).get(...parameters.map(bindable));
    const items = [];
    if (page && page.ids !== null) {
      const lengths = page.lengths.split(',');
      let offset = page.docs.byteOffset;
      for (const [index, id] of page.ids.split(',').entries()) {
        const length = Number(lengths[index]);
        items.push({ id: Number(id), packed: Buffer.from(page.docs.buffer, offset, length) });
        offset += length;
      }
      if (offset !== page.docs.byteOffset + page.docs.byteLength) throw new Error('the page reader got documents of other lengths than it was told');
      // the three lists come from one pass over the rows, so they agree; only their order is SQLite's to choose
      for (let index = 1; index < items.length; index++)
        if (items[index - 1].id < items[index].id) {
          items.sort((a, b) => b.id - a.id);
          break;
        }
    }
    const ids = items.map((item) => item.id);
    const assembled = gzipIdentifiedObjects(items);
    const gzip = own(assembled.gzip);
    const plain = wantsPlain ? own(gunzipSync(assembled.gzip)) : null;
    parentPort.postMessage({ seq, ids, gzip, length: assembled.length, plain }, plain ? [gzip.buffer, plain.buffer] : [gzip.buffer]);
  } catch (error) {
    parentPort.postMessage({ seq, failure: failureOf(error) });
  }
});
`;

export interface SqliteReaderOptions {
  file: string;
  /** The connection's settings (database.ts), made read-only here. */
  pragmas: string[];
  /** Makes an Error of a failure as the event loop's connection does (code: SQLITE_...). */
  failure: (message: string, errcode: number | undefined) => Error;
}

export class SqliteReader {
  private worker: Worker | null = null;
  private broken: Error | null = null;
  private readonly waiting = new Map<number, (answer: Answer | ReaderUnavailable) => void>();
  private lastSeq = 0;

  constructor(private readonly options: SqliteReaderOptions) {}

  /** False once the worker has failed or the database closed; pages are then read on the event loop. */
  get usable(): boolean {
    return this.broken === null;
  }

  /**
   * Runs `sql` and assembles the page it answers, newest (highest id) first, also unzipped when
   * `wantsPlain`. `sql` answers one row over the page's rows (`pageConcatenation`): `ids` and
   * `lengths` joined with commas, `docs` the packed documents one after another. Rejects with the SQLite error as the event loop would, or with
   * `ReaderUnavailable`.
   */
  async gzipPage(sql: string, parameters: readonly unknown[], wantsPlain = false): Promise<GzippedPage> {
    if (this.broken) throw new ReaderUnavailable(this.broken.message);
    const worker = this.started();
    const seq = ++this.lastSeq;
    const answer = await new Promise<Answer | ReaderUnavailable>((resolve) => {
      this.waiting.set(seq, resolve);
      // a read in flight keeps the process alive, as a query would; an idle worker does not
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ seq, sql, parameters, wantsPlain });
    });
    if (answer instanceof ReaderUnavailable) throw answer;
    if ('failure' in answer) throw this.options.failure(answer.failure.message, answer.failure.errcode);
    const page: GzippedPage = { ids: answer.ids, gzip: asBuffer(answer.gzip), length: answer.length };
    if (answer.plain) page.plain = asBuffer(answer.plain);
    return page;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    // its heap holds one page at a time
    const worker = sqliteThread(
      WORKER_SOURCE,
      { file: this.options.file, pragmas: [...this.options.pragmas, 'query_only = ON'] },
      16,
    );
    worker.unref();
    worker.on('message', (answer: Answer) => {
      const resolve = this.waiting.get(answer.seq);
      this.waiting.delete(answer.seq);
      if (this.waiting.size === 0) worker.unref();
      resolve?.(answer);
    });
    const fail = (error: Error) => {
      this.broken ??= error;
      this.worker = null;
      this.failWaiting(`the SQLite reader stopped: ${error.message}`);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.worker === worker) fail(new Error(`exit code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private failWaiting(message: string): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const resolve of waiting) resolve(new ReaderUnavailable(message));
  }

  /** Stops the worker; reads in flight are made on the event loop by their callers. */
  async close(): Promise<void> {
    this.broken = new Error('the database is closed');
    const worker = this.worker;
    this.worker = null;
    this.failWaiting('the database is closed');
    await worker?.terminate();
  }
}

const readers = new WeakMap<object, SqliteReader>();

/** The page reader of a database's query builder (`createDatabase` attaches it to a SQLite file's). */
export function attachPageReader(db: object, reader: SqliteReader): void {
  readers.set(db, reader);
}

/** The page reader for `db`, if it has a usable one: none for PostgreSQL, a database in memory, a transaction. */
export function pageReaderOf(db: object): SqliteReader | null {
  const reader = readers.get(db);
  return reader?.usable ? reader : null;
}
