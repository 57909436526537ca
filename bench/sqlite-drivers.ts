/**
 * The SQLite drivers side by side, without HTTP: node:sqlite (what the service uses) against
 * better-sqlite3, on one file shaped like the orders table (200k rows with a ~1.6 KB packed
 * document each, the list index), with the service's pragmas. Rounds alternate between the
 * drivers so that a busy machine weighs on both alike.
 *   - page: the ids of a list page (index range, 50 ids), then their 50 documents (the list's two
 *     queries), among the newest 20k orders;
 *   - insert: 100 orders per transaction, one savepoint each (group commit).
 * better-sqlite3 is no dependency any more: install it somewhere and point at it, e.g.
 *   npm install --prefix /tmp/bs3 better-sqlite3@12.11.1 --nodedir=<this node's headers>
 *   BENCH_BETTER_SQLITE3=/tmp/bs3/node_modules/better-sqlite3 npx tsx bench/sqlite-drivers.ts
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

interface Statement {
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): unknown;
}
interface Driver {
  name: string;
  prepare(text: string): Statement;
  exec(text: string): void;
  close(): void;
}

const ROWS = Number(process.env.ROWS ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PAGES = Number(process.env.PAGES ?? 3000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-drivers-'));
const file = path.join(dir, 'orders.db');
const PRAGMAS = [
  'journal_mode = WAL',
  'synchronous = NORMAL',
  'foreign_keys = ON',
  'busy_timeout = 5000',
  'cache_size = -65536',
  'mmap_size = 2147418112',
];

// packed documents compress to ~1.6 KB: random-ish bytes of that size
const document = (index: number): Buffer => {
  const bytes = Buffer.allocUnsafe(1500 + (index % 200));
  for (let at = 0; at < bytes.length; at++) bytes[at] = (index * 31 + at * 7) & 0xff;
  return bytes;
};

function nodeSqlite(): Driver {
  const connection = new DatabaseSync(file);
  for (const pragma of PRAGMAS) connection.exec(`pragma ${pragma}`);
  return {
    name: 'node:sqlite',
    prepare(text) {
      const statement = connection.prepare(text);
      return {
        // as the service's adapter does: BLOBs handed over as Buffers
        all: (...parameters) =>
          statement.all(...(parameters as [])).map((row) => {
            for (const key in row) {
              const value = row[key];
              if (value instanceof Uint8Array) row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
            }
            return row;
          }),
        run: (...parameters) => statement.run(...(parameters as [])),
      };
    },
    exec: (text) => connection.exec(text),
    close: () => connection.close(),
  };
}

const keptAlive: unknown[] = [];
function betterSqlite3(): Driver | null {
  const where = process.env.BENCH_BETTER_SQLITE3;
  if (!where) return null;
  const Database = createRequire(import.meta.url)(where) as new (
    file: string,
  ) => { prepare(text: string): Statement; exec(text: string): void; close(): void };
  const connection = new Database(file);
  // better-sqlite3 12.11.1 on Node 24 aborts the process when it garbage-collects a Database or
  // Statement (Assertion (env) != nullptr in RemoveEnvironmentCleanupHook): keep them all alive,
  // and set the pragmas through exec (pragma() makes a statement of its own)
  for (const pragma of PRAGMAS) connection.exec(`pragma ${pragma}`);
  keptAlive.push(connection);
  return {
    name: 'better-sqlite3',
    prepare: (text) => {
      const statement = connection.prepare(text);
      keptAlive.push(statement);
      return statement;
    },
    exec: (text) => connection.exec(text),
    close: () => connection.close(),
  };
}

// the table, written once through node:sqlite
{
  const seed = new DatabaseSync(file);
  for (const pragma of PRAGMAS) seed.exec(`pragma ${pragma}`);
  seed.exec(
    'create table orders (id integer primary key, account_id integer not null, list_code integer not null, doc_packed blob not null)',
  );
  seed.exec('create index orders_list on orders (account_id, list_code, id)');
  const insert = seed.prepare('insert into orders (account_id, list_code, doc_packed) values (?, ?, ?)');
  seed.exec('begin');
  for (let index = 0; index < ROWS; index++) insert.run(1, index % 8, document(index));
  seed.exec('commit');
  seed.exec('pragma wal_checkpoint(truncate)');
  seed.close();
}

function pages(driver: Driver): number {
  const ids = driver.prepare(
    'select id from orders where account_id = ? and list_code = ? and id < ? order by id desc limit 50',
  );
  const placeholders = Array.from({ length: 50 }, () => '?').join(', ');
  const docs = driver.prepare(
    `select id, doc_packed as packed from orders where account_id = ? and id in (${placeholders}) order by id desc`,
  );
  let bytes = 0;
  const started = performance.now();
  for (let page = 0; page < PAGES; page++) {
    // pages among the newest 20k orders (~32 MB): the file's pages are in memory, as on a
    // server that has been reading them, so the figure is the driver's and SQLite's, not the disk's
    const before = ROWS - ((page * 7919) % 20_000);
    const found = (ids.all(1, page % 8, before) as Array<{ id: number }>).map((row) => row.id);
    while (found.length < 50) found.push(0);
    for (const row of docs.all(1, ...found) as Array<{ packed: Buffer }>)
      bytes += row.packed.readUInt8(0) >= 0 ? row.packed.length : 0;
  }
  if (bytes === 0) throw new Error('no documents read');
  return ((performance.now() - started) * 1000) / PAGES;
}

let inserted = 0;
function inserts(driver: Driver): number {
  const insert = driver.prepare('insert into orders (account_id, list_code, doc_packed) values (?, ?, ?) returning id');
  const started = performance.now();
  const batches = 20;
  for (let batch = 0; batch < batches; batch++) {
    driver.exec('begin');
    for (let index = 0; index < 100; index++) {
      driver.exec(`savepoint w${index}`);
      insert.all(2, index % 8, document(inserted++));
      driver.exec(`release w${index}`);
    }
    driver.exec('commit');
  }
  return ((performance.now() - started) * 1000) / (batches * 100);
}

const makers = [nodeSqlite, betterSqlite3];
const figures = new Map<string, { page: number[]; insert: number[] }>();
for (let round = 0; round < ROUNDS; round++) {
  for (const make of round % 2 === 0 ? makers : [...makers].reverse()) {
    const driver = make();
    if (!driver) continue;
    const entry = figures.get(driver.name) ?? { page: [], insert: [] };
    entry.page.push(pages(driver));
    entry.insert.push(inserts(driver));
    figures.set(driver.name, entry);
    driver.close();
  }
}
fs.rmSync(dir, { recursive: true, force: true });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`\nSQLite drivers, ${ROWS} orders, ${ROUNDS} rounds (node ${process.version}); median µs (every round)`);
console.log('| driver | list page: 50 ids + 50 documents | insert in a savepoint, 100 per commit |');
console.log('|---|---:|---:|');
for (const [name, entry] of figures) {
  const show = (values: number[]) =>
    `${median(values).toFixed(1)} (${values.map((value) => value.toFixed(0)).join(', ')})`;
  console.log(`| ${name} | ${show(entry.page)} | ${show(entry.insert)} |`);
}
