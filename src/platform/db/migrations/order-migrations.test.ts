/**
 * Migrations of a database that already holds orders: 0009_packed_orders (every order reads
 * back the same, the storage flag becomes a column), then 0010_order_lists (each order gets
 * its list and problem flag, as new writes derive them).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../../../../test/support/app.js';
import { createDatabase, type Database } from '../database.js';
import { MIGRATIONS, migrateToLatest } from '../migrate.js';
import { OrderStore } from '../../../modules/orders/store.js';
import { isProblem, listOfStatus, STATUS } from '../../../modules/orders/state.js';
import { packObject } from '../../json-pieces.js';

const url = usingPostgres ? (process.env.DATABASE_URL as string) : 'sqlite::memory:';
const schema = usingPostgres ? `test_migration_${randomBytes(4).toString('hex')}` : undefined;
let database: Database;

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(text);
  await client.end();
}

beforeAll(async () => {
  if (schema) await admin(`create schema ${schema}`);
  database = createDatabase({ url, schema });
});
afterAll(async () => {
  await database.close();
  if (schema) await admin(`drop schema if exists ${schema} cascade`);
});

/** An order as 0006 stored it: the answered order without its id, as JSON (bytes on SQLite, text on PostgreSQL). */
function storedDoc(index: number, storagingEnds: boolean): Record<string, unknown> {
  return {
    status: storagingEnds ? 42 : 11,
    cmsId: `OLD-${index}`,
    recipient: { fullName: `Получатель ${index}`, phone: '+79990000000' },
    delivery: {
      company: { id: 1 },
      type: 1,
      point: storagingEnds ? { id: 5, holdDate: '2026-11-25', storagingEnds: true } : null,
    },
  };
}

describe('migration 0009: orders packed', () => {
  it('packs every stored order and keeps what it answers; storagingEnds becomes a column', async () => {
    const before = MIGRATIONS.filter((migration) => migration.name < '0009');
    await migrateToLatest(database, before);
    const db = database.db;
    const postgres = database.kind === 'postgres';
    const accountId = (
      await sql<{
        id: number;
      }>`insert into accounts (name, time_zone, created_at) values ('Old', 'Europe/Moscow', ${new Date().toISOString()}) returning id`.execute(
        db,
      )
    ).rows[0].id;
    const docs = Array.from({ length: 1203 }, (_, index) => storedDoc(index, index % 100 === 7));
    for (const [index, doc] of docs.entries()) {
      const text = JSON.stringify(doc);
      const now = new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
      await sql`insert into orders (account_id, status, created_at, updated_at, status_at, company_id, delivery_type, search_text, recipient_city, recipient_country, payment_type, doc)
        values (${accountId}, ${doc.status}, ${now}, ${now}, ${now}, 1, 1, ${`old-${index}`}, 'москва', 'RU', 1, ${postgres ? text : Buffer.from(text)})`.execute(
        db,
      );
    }

    expect(
      await migrateToLatest(
        database,
        MIGRATIONS.filter((migration) => migration.name < '0010'),
      ),
    ).toEqual(['0009_packed_orders']);
    const store = new OrderStore(db, database.kind);
    const ids = (await sql<{ id: number }>`select id from orders order by id`.execute(db)).rows.map((row) =>
      Number(row.id),
    );
    const records = await store.getMany(accountId, ids);
    expect(records.size).toBe(docs.length);
    ids.forEach((id, index) =>
      expect(JSON.parse((records.get(id) as { doc: Buffer }).doc.toString('utf8'))).toEqual(docs[index]),
    );
    const flagged = (
      await sql<{
        id: number;
      }>`select id from orders where storaging_ends = ${postgres ? true : 1} order by id`.execute(db)
    ).rows.map((row) => Number(row.id));
    expect(flagged).toEqual(ids.filter((_, index) => index % 100 === 7));
    // the JSON column is gone
    await expect(sql`select doc from orders`.execute(db)).rejects.toThrow();
  });
});

describe('migration 0010: order lists', () => {
  it('gives every stored order the list of its status and its problem flag', async () => {
    const db = database.db;
    const postgres = database.kind === 'postgres';
    const accountId = (await sql<{ id: number }>`select id from accounts order by id limit 1`.execute(db)).rows[0].id;
    const statuses = Object.values(STATUS);
    for (const [index, status] of statuses.entries()) {
      for (const error of [null, 'Не удалось рассчитать доставку']) {
        const now = new Date(Date.UTC(2026, 1, 1, 0, 0, index)).toISOString();
        const doc = packObject(Buffer.from(JSON.stringify({ status, error })));
        await sql`insert into orders (account_id, status, error, created_at, updated_at, status_at, company_id, delivery_type, search_text, recipient_city, recipient_country, payment_type, doc_packed)
          values (${accountId}, ${status}, ${error}, ${now}, ${now}, ${now}, 1, 1, ${`new-${index}`}, 'москва', 'RU', 1, ${doc})`.execute(
          db,
        );
      }
    }

    // up to 0010 only: later migrations are not this test's business
    expect(
      await migrateToLatest(
        database,
        MIGRATIONS.filter((migration) => migration.name < '0011'),
      ),
    ).toEqual(['0010_order_lists']);
    const rows = (
      await sql<{
        status: number;
        error: string | null;
        list_code: number;
        problem: boolean | number;
      }>`select status, error, list_code, problem from orders`.execute(db)
    ).rows;
    expect(rows.length).toBe(1203 + statuses.length * 2);
    for (const row of rows) {
      expect({
        status: row.status,
        error: row.error,
        list: row.list_code,
        problem: postgres ? row.problem : row.problem === 1,
      }).toEqual({
        status: row.status,
        error: row.error,
        list: listOfStatus(row.status),
        problem: isProblem(row.status, row.error),
      });
    }
    // every list but 0 (all) and 9 (preorders, by reservation) is one status list
    expect(new Set(rows.map((row) => row.list_code))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8]));
  });
});
