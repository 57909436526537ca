import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, usingPostgres, type TestApp } from '../../../test/support/app.js';
import { createDatabase, type Database } from './database.js';
import { SqliteWriter, WriteTurns, type Recipe } from './sqlite-writer.js';
import type { Tables } from './tables.js';
import { packObject, unpackObject } from '../json-pieces.js';
import { runRecipe, WriteBatcher, writeBatcherOf } from './write-batch.js';

let t: TestApp;
let db: Kysely<Tables>;

beforeAll(async () => {
  t = await createTestApp();
  db = t.runtime.database.db;
  await sql`create table write_batch_probe (id integer primary key, label text not null unique)`.execute(db);
});
afterAll(async () => t.close());

const insert = (id: number, label: string) => (trx: Kysely<Tables>) =>
  sql`insert into write_batch_probe (id, label) values (${id}, ${label})`.execute(trx).then(() => id);
const labels = async () =>
  (await sql<{ label: string }>`select label from write_batch_probe order by id`.execute(db)).rows.map(
    (row) => row.label,
  );

describe('write batcher', () => {
  it('commits writes that arrive together, and a failing one alone is rolled back with its own error', async () => {
    const writes = new WriteBatcher(db, t.runtime.database.kind);
    const results = await Promise.allSettled([
      writes.run(insert(1, 'a')),
      writes.run(insert(2, 'b')),
      // violates the unique label: only this one fails
      writes.run(insert(3, 'a')),
      // writes, then fails: its insert must not survive
      writes.run(async (trx) => {
        await insert(4, 'd')(trx);
        throw new Error('refused after writing');
      }),
      writes.run(insert(5, 'e')),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ message: 'refused after writing' });
    expect(
      results
        .filter((result) => result.status === 'fulfilled')
        .map((result) => (result as PromiseFulfilledResult<number>).value),
    ).toEqual([1, 2, 5]);
    expect(await labels()).toEqual(['a', 'b', 'e']);
  });

  it('keeps answering after a batch, for writes that come one at a time', async () => {
    const writes = new WriteBatcher(db, t.runtime.database.kind, 2);
    expect(await writes.run(insert(10, 'j'))).toBe(10);
    // more than one batch's worth at once
    expect(
      await Promise.all([writes.run(insert(11, 'k')), writes.run(insert(12, 'l')), writes.run(insert(13, 'm'))]),
    ).toEqual([11, 12, 13]);
    expect(await labels()).toEqual(['a', 'b', 'e', 'j', 'k', 'l', 'm']);
  });
});

describe('single writes on SQLite', () => {
  it.skipIf(usingPostgres)('share one commit when they arrive together; a failing one fails alone', async () => {
    const database = createDatabase({ url: 'sqlite::memory:' });
    try {
      await sql`create table single_probe (id integer primary key, label text not null unique)`.execute(database.db);
      const transactions: object[] = [];
      database.observeWrites({
        observing: () => true,
        afterWrite: async (_run, _result, transaction) => void transactions.push(transaction),
      });
      const results = await Promise.allSettled(
        ['a', 'b', 'a', 'c'].map((label) =>
          database.db
            .insertInto('single_probe' as never)
            .values({ label } as never)
            .executeTakeFirst(),
        ),
      );
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
      expect(
        (await sql<{ label: string }>`select label from single_probe order by id`.execute(database.db)).rows.map(
          (row) => row.label,
        ),
      ).toEqual(['a', 'b', 'c']);
      // one transaction, hence one sync of the disk, for the whole group
      expect(new Set(transactions).size).toBe(1);
      expect(transactions).toHaveLength(3);
    } finally {
      await database.close();
    }
  });
});

describe('recipes in the writer thread (SQLite file)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-writer-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const recipeOf = (label: string, notes: string[]): Recipe => [
    { sql: 'insert into parent_probe (label) values (?)', parameters: [label] },
    ...notes.map((note) => ({
      sql: 'insert into child_probe (parent_id, note) values (?, ?)',
      parameters: [0, note],
      firstIdAt: [0],
    })),
  ];
  const rowsOf = async (db: Kysely<Tables>) => ({
    parents: (await sql<{ id: number; label: string }>`select id, label from parent_probe order by id`.execute(db))
      .rows,
    children: (
      await sql<{ parent_id: number; note: string }>`select parent_id, note from child_probe order by id`.execute(db)
    ).rows,
  });

  async function openProbe(name: string): Promise<Database> {
    const database = createDatabase({ url: `sqlite:${path.join(dir, name)}` });
    await sql`create table if not exists parent_probe (id integer primary key, label text not null unique)`.execute(
      database.db,
    );
    await sql`create table if not exists child_probe (id integer primary key, parent_id integer not null references parent_probe (id), note text not null)`.execute(
      database.db,
    );
    return database;
  }

  it.skipIf(usingPostgres)(
    'commits recipes that arrive together in one group off the event loop; a failing one fails alone, named as SQLite names it',
    async () => {
      const database = await openProbe('group.db');
      try {
        const writes = writeBatcherOf(database.db, 'sqlite');
        const results = await Promise.allSettled([
          writes.recipe(recipeOf('a', ['a1', 'a2'])),
          writes.recipe(recipeOf('b', [])),
          // the unique label: only this recipe fails, its child with it
          writes.recipe(recipeOf('a', ['lost'])),
          writes.recipe(recipeOf('c', ['c1'])),
        ]);
        expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
        expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
        const ids = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
        const { parents, children } = await rowsOf(database.db);
        expect(parents.map((row) => row.label)).toEqual(['a', 'b', 'c']);
        expect(parents.map((row) => row.id)).toEqual(ids);
        // each child got its own recipe's new id
        expect(children).toEqual([
          { parent_id: ids[0], note: 'a1' },
          { parent_id: ids[0], note: 'a2' },
          { parent_id: ids[2], note: 'c1' },
        ]);
      } finally {
        await database.close();
      }
    },
  );

  it.skipIf(usingPostgres)(
    "takes turns with the event loop's transactions, so that neither meets the other's lock, and what it acknowledged is on disk",
    async () => {
      const database = await openProbe('turns.db');
      const writes = writeBatcherOf(database.db, 'sqlite');
      const pause = () => new Promise((resolve) => setTimeout(resolve, 2));
      const writing: Promise<unknown>[] = [];
      for (let round = 0; round < 10; round += 1) {
        for (let index = 0; index < 30; index += 1)
          writing.push(writes.recipe(recipeOf(`r${round}.${index}`, [`n${round}.${index}`])));
        // transactions that read, wait, then write: a commit of the other writer in between would be SQLITE_BUSY
        for (let index = 0; index < 3; index += 1)
          writing.push(
            database.db.transaction().execute(async (trx) => {
              const { rows } = await sql<{ count: number }>`select count(*) as count from parent_probe`.execute(trx);
              await pause();
              await sql`insert into parent_probe (label) values (${`t${round}.${index} after ${rows[0]?.count}`})`.execute(
                trx,
              );
            }),
          );
        await pause();
      }
      const outcomes = await Promise.allSettled(writing);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      await database.close();

      // opened again: every acknowledged write is there
      const reopened = await openProbe('turns.db');
      try {
        const { parents, children } = await rowsOf(reopened.db);
        expect(parents).toHaveLength(330);
        expect(children).toHaveLength(300);
      } finally {
        await reopened.close();
      }
    },
  );

  it.skipIf(usingPostgres)('packs a JSON text in the writer thread as the event loop packs it', async () => {
    const database = await openProbe('packed.db');
    try {
      await sql`create table packed_probe (id integer primary key, doc blob not null)`.execute(database.db);
      const text = JSON.stringify({ name: 'Светлана Котова', goods: Array.from({ length: 30 }, (_, index) => index) });
      const step = { sql: 'insert into packed_probe (doc) values (?)', parameters: [text], packAt: [0] };
      const offThread = await writeBatcherOf(database.db, 'sqlite').recipe([step]);
      const onTheLoop = await database.db.transaction().execute((trx) => runRecipe(trx, [step]));
      const { rows } = await sql<{ id: number; doc: Uint8Array }>`select id, doc from packed_probe order by id`.execute(
        database.db,
      );
      expect(rows.map((row) => row.id)).toEqual([offThread, onTheLoop]);
      const expected = packObject(Buffer.from(text));
      for (const row of rows) expect(Buffer.from(row.doc).equals(expected)).toBe(true);
      expect(unpackObject(Buffer.from(rows[0]?.doc ?? [])).toString()).toBe(text);
    } finally {
      await database.close();
    }
  });

  it.skipIf(usingPostgres)('writes on the event loop what a writer that cannot start was given', async () => {
    const database = await openProbe('unstarted.db');
    try {
      const writer = new SqliteWriter({
        file: path.join(dir, 'unstarted.db'),
        pragmas: [],
        turns: new WriteTurns(),
        failure: (message) => new Error(message),
        piecesUrl: pathToFileURL(path.join(dir, 'no-such-module.js')).href,
      });
      const writes = new WriteBatcher(database.db, 'sqlite');
      writes.useWriter(writer, () => true);
      // the first group goes to the worker, which stops before it is ready; the later one finds it stopped
      const first = await Promise.all([writes.recipe(recipeOf('x', ['x1'])), writes.recipe(recipeOf('y', []))]);
      const later = await writes.recipe(recipeOf('z', ['z1']));
      expect(writer.usable).toBe(false);
      const { parents, children } = await rowsOf(database.db);
      expect(parents.map((row) => row.id)).toEqual([...first, later]);
      expect(children.map((row) => row.note)).toEqual(['x1', 'z1']);
      await writer.close();
    } finally {
      await database.close();
    }
  });

  it.skipIf(usingPostgres)(
    'runs a recipe on the event loop when its writes must be seen there (an idempotency key in the same transaction)',
    async () => {
      const database = await openProbe('observed.db');
      try {
        const seen: string[] = [];
        database.observeWrites({
          observing: () => true,
          afterWrite: async (_run, result) => void seen.push(String(result.insertId)),
        });
        const id = await writeBatcherOf(database.db, 'sqlite').recipe(recipeOf('kept', ['k1']));
        // the observer saw the recipe's statements inside the event loop's transaction
        expect(seen).toEqual([String(id), expect.any(String)]);
        expect((await rowsOf(database.db)).children).toEqual([{ parent_id: id, note: 'k1' }]);
      } finally {
        await database.close();
      }
    },
  );
});
