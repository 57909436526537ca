import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';

/**
 * The lists of GET /v2/orders?list= as of this migration (orders/state.ts LIST_STATUSES),
 * written out so that the migration stays what it was when the table changes later.
 */
const LISTS: ReadonlyArray<readonly [number, readonly number[]]> = [
  [1, [11]],
  [2, [12, 13]],
  [3, [14, 15, 31, 32, 41, 411, 412, 43, 46]],
  [4, [42]],
  [5, [44, 47]],
  [6, [83, 461, 462]],
  [7, [33, 51, 52, 61, 62, 71, 72, 74]],
  [8, [10]],
];

/**
 * Each order keeps the list its status puts it in and whether it is a problem (a problem
 * status or an error), each indexed with the id: a list page is then one index range in id
 * order, on any page. Filtering by `status IN (…)` and `OR error IS NOT NULL` made SQLite
 * sort every match, or scan the table down from a far page's start until it found 50, and
 * count the problems list by reading every order of the account.
 */
export const orderLists: SchemaMigration = {
  name: '0010_order_lists',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    await db.schema
      .alterTable('orders')
      .addColumn('list_code', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('orders')
      .addColumn('problem', kit.types.flag, (c) => kit.flagDefaultFalse(c))
      .execute();
    const listOf = sql.join(
      LISTS.map(
        ([list, statuses]) =>
          sql`when status in (${sql.join(statuses.map((status) => sql.lit(status)))}) then ${sql.lit(list)}`,
      ),
      sql` `,
    );
    const problemStatuses = sql.join((LISTS.find(([list]) => list === 6)?.[1] ?? []).map((status) => sql.lit(status)));
    await sql`update orders set list_code = case ${listOf} else 0 end, problem = (status in (${problemStatuses}) or error is not null)`.execute(
      db,
    );
    await db.schema
      .createIndex('orders_account_list')
      .on('orders')
      .columns(['account_id', 'list_code', 'id'])
      .execute();
    await db.schema
      .createIndex('orders_account_problem')
      .on('orders')
      .columns(['account_id', 'problem', 'id'])
      .execute();
  },
};
