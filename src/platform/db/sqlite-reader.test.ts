import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../../../test/support/app.js';
import { gzipIdentifiedObjects, packObject } from '../json-pieces.js';
import { createDatabase, type Database } from './database.js';
import { pageConcatenation, pageReaderOf, ReaderUnavailable } from './sqlite-reader.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-reader-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const PAGE = 'select id, doc as packed from doc_probe where id <= ? order by id desc limit ?';

async function openProbe(name: string, documents: number): Promise<Database> {
  const database = createDatabase({ url: `sqlite:${path.join(dir, name)}` });
  await sql`create table doc_probe (id integer primary key, doc blob not null)`.execute(database.db);
  for (let id = 1; id <= documents; id++) await insert(database, id);
  return database;
}

function insert(database: Database, id: number) {
  // documents of varied sizes and text, as orders are
  const doc = packObject(Buffer.from(JSON.stringify({ n: id, note: 'Доставка '.repeat(id % 7), list: [id, id * 2] })));
  return sql`insert into doc_probe (id, doc) values (${id}, ${doc})`.execute(database.db);
}

/** The same page read and assembled on the event loop. */
async function onTheLoop(database: Database, upTo: number, limit: number) {
  const rows = (
    await sql
      .raw<{ id: number; packed: Buffer }>(PAGE.replace('?', String(upTo)).replace('?', String(limit)))
      .execute(database.db)
  ).rows;
  return { ids: rows.map((row) => row.id), ...gzipIdentifiedObjects(rows) };
}

describe.skipIf(usingPostgres)('pages read in the page reader thread (SQLite file)', () => {
  it('assembles the very bytes the event loop does, for full, partial and empty pages', async () => {
    const database = await openProbe('pages.db', 120);
    try {
      const reader = pageReaderOf(database.db);
      expect(reader).not.toBeNull();
      for (const [upTo, limit] of [
        [120, 50],
        [70, 50],
        [3, 50],
        [0, 50],
        [120, 1],
      ]) {
        const page = await reader?.gzipPage(pageConcatenation(PAGE), [upTo, limit]);
        const expected = await onTheLoop(database, upTo, limit);
        expect(page?.ids).toEqual(expected.ids);
        expect(page?.length).toBe(expected.length);
        expect(page?.gzip.equals(expected.gzip)).toBe(true);
        expect(
          JSON.parse(gunzipSync(page?.gzip ?? Buffer.alloc(0)).toString()).map((doc: { id: number }) => doc.id),
        ).toEqual(expected.ids);
        expect(page?.plain).toBeUndefined();
        // for a client that takes no gzip, unzipped in the thread too
        const both = await reader?.gzipPage(pageConcatenation(PAGE), [upTo, limit], true);
        expect(both?.gzip.equals(expected.gzip)).toBe(true);
        expect(both?.plain?.equals(gunzipSync(expected.gzip))).toBe(true);
      }
      // rows SQLite hands over in another order come back newest first all the same
      const ascending = await reader?.gzipPage(
        pageConcatenation('select id, doc as packed from doc_probe where id <= ? order by id asc limit ?'),
        [120, 120],
      );
      expect(ascending?.gzip.equals((await onTheLoop(database, 120, 120)).gzip)).toBe(true);
      // the small pages shared no memory of this thread's buffer pool with the worker
      expect(Buffer.from('still usable').toString()).toBe('still usable');
    } finally {
      await database.close();
    }
  });

  it('sees every write acknowledged before the read, and reports a failing read as SQLite names it', async () => {
    const database = await openProbe('writes.db', 10);
    try {
      const reader = pageReaderOf(database.db);
      const newest = [];
      for (let id = 11; id <= 30; id++) {
        await insert(database, id);
        newest.push((await reader?.gzipPage(pageConcatenation(PAGE), [1000, 1]))?.ids[0]);
      }
      expect(newest).toEqual(Array.from({ length: 20 }, (_, index) => 11 + index));
      await expect(reader?.gzipPage('select id, doc as packed from missing_table', [])).rejects.toMatchObject({
        code: 'SQLITE_ERROR',
      });
      // the reader reads only
      await expect(reader?.gzipPage('delete from doc_probe', [])).rejects.toThrow(/readonly|read-only|query_only/i);
      expect(
        await database.db
          .selectFrom('doc_probe' as never)
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirst(),
      ).toEqual({ n: 30 });
    } finally {
      await database.close();
    }
  });

  it('is given up once its database closes; a read in flight then fails as unavailable, to be made on the event loop', async () => {
    const database = await openProbe('closing.db', 60);
    const reader = pageReaderOf(database.db);
    const failed = expect(reader?.gzipPage(pageConcatenation(PAGE), [60, 50])).rejects.toBeInstanceOf(
      ReaderUnavailable,
    );
    await database.close();
    await failed;
    expect(pageReaderOf(database.db)).toBeNull();
  });

  it('is not there for a database in memory', async () => {
    const database = createDatabase({ url: 'sqlite::memory:' });
    try {
      expect(pageReaderOf(database.db)).toBeNull();
    } finally {
      await database.close();
    }
  });
});
