/**
 * What the SQLite worker threads (sqlite-writer.ts, sqlite-reader.ts) share: the start of their
 * plain-JavaScript source, run with `eval` (no build step and no TypeScript loader, in
 * `npm start`, in tests and in the benches alike), and where they load json-pieces from.
 *
 * The source opens the connection with the settings in `workerData.pragmas`, keeps up to 200
 * prepared statements, binds values as the event loop's connection does (database.ts) and
 * reports failures with SQLite's result code. `pieces` resolves to json-pieces, the very module
 * the event loop uses; a thread that cannot load it fails its first message.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export const CONNECTION_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file);
for (const setting of workerData.pragmas) db.exec('pragma ' + setting);
const pieces = import(workerData.piecesUrl);
const statements = new Map();
function prepared(text) {
  let statement = statements.get(text);
  if (!statement) {
    statement = db.prepare(text);
    if (statements.size >= 200) statements.delete(statements.keys().next().value);
    statements.set(text, statement);
  }
  return statement;
}
const failureOf = (error) => ({ message: String(error && error.message), errcode: error && error.errcode });
const bindable = (value) =>
  typeof value === 'boolean' ? (value ? 1 : 0) : value instanceof Date ? value.toISOString() : value;
`;

/** json-pieces as this module was loaded: `.ts` from the sources (tests, benches), `.js` when built. */
export const PIECES_URL = new URL(`../json-pieces${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url)
  .href;

/**
 * A thread running `source` (which begins with CONNECTION_SOURCE) on `file`, its heap limited to
 * `oldSpaceMb` (it holds one message's work at a time) and its young generation to 2 MB: an idle
 * worker collects nothing, so what its heap grew to under load stays resident (bench/memory.ts).
 */
export function sqliteThread(
  source: string,
  connection: { file: string; pragmas: string[]; piecesUrl?: string },
  oldSpaceMb: number,
): Worker {
  return new Worker(source, {
    eval: true,
    workerData: { file: connection.file, pragmas: connection.pragmas, piecesUrl: connection.piecesUrl ?? PIECES_URL },
    resourceLimits: { maxOldGenerationSizeMb: oldSpaceMb, maxYoungGenerationSizeMb: 2 },
  });
}
