import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, usingPostgres, type TestApp } from '../../../test/support/app.js';
import { createDatabase } from './database.js';
import type { Tables } from './tables.js';
import { WriteBatcher } from './write-batch.js';

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
