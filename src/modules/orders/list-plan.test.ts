/**
 * How SQLite reads a page of each order list: one range of an index ending in the id, on the
 * first page and on a far one (which starts below a remembered id). The plan is what makes a
 * page cost 50 index entries rather than a sort of every match or a scan of the table down
 * from the page's start until 50 match (a `status IN (…)` list on a far page did that), or
 * every order of the account (the problems list, `… OR error IS NOT NULL`, did that).
 * The embedded database decides without statistics, so an empty one plans as a full one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { createDatabase, type Database } from '../../platform/db/database.js';
import { migrateToLatest } from '../../platform/db/migrate.js';
import { OrderStore, type OrderFilter } from './store.js';
import { LIST_PROBLEMS, LIST_STATUSES } from './state.js';

let database: Database;
let store: OrderStore;

beforeAll(async () => {
  database = createDatabase({ url: 'sqlite::memory:' });
  await migrateToLatest(database);
  store = new OrderStore(database.db, database.kind);
});
afterAll(async () => database.close());

async function planOf(filter: OrderFilter, beforeId?: number): Promise<string> {
  const compiled = store.pageIds(7, filter, 50, beforeId === undefined ? { skip: 0 } : { beforeId, skip: 0 }).compile();
  const result = await database.db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
  );
  return result.rows.map((row) => row.detail).join(' | ');
}

describe('order list pages on SQLite', () => {
  const lists = Object.entries(LIST_STATUSES)
    .filter(([, statuses]) => statuses !== null)
    .map(([list]) => Number(list));

  it.each(lists)('reads list %i from one index range, first page and far page', async (list) => {
    const filter: OrderFilter = list === LIST_PROBLEMS ? { problem: true } : { list };
    for (const beforeId of [undefined, 123_456]) {
      const plan = await planOf(filter, beforeId);
      const index = list === LIST_PROBLEMS ? 'orders_account_problem' : 'orders_account_list';
      expect(plan, `list ${list}, before ${beforeId}`).toMatch(
        new RegExp(`^SEARCH orders USING COVERING INDEX ${index} \\(account_id=\\? AND \\w+=\\?( AND id<\\?)?\\)$`),
      );
    }
  });
});
