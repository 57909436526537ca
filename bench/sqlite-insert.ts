/**
 * What one order row costs SQLite to write, as the group commit writes it (write-batch.ts): groups of
 * 20 inserts, each in its own savepoint, one COMMIT with `synchronous=FULL`, on the real schema
 * (17 indexes on orders). Compares where SQLite keeps a savepoint's journal (`temp_store`): a
 * temporary file (SQLite's default once the journal passes 64 KiB, which a new order's ~20 changed
 * pages do) or memory; and, for scale, the same rows with no secondary index.
 * Run: npx tsx bench/sqlite-insert.ts
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { seedAccount, seedShop, startBenchService } from './fixture.js';

const GROUPS = 200;
const PER_GROUP = 20;

const bench = await startBenchService({}, 'database');
const account = await seedAccount(bench.runtime.services, 'Insert bench');
const shopId = await seedShop(bench.runtime.services, account);
const db = new DatabaseSync(path.join(bench.config.dataDir, 'service.db'));
db.exec('pragma journal_mode = WAL; pragma synchronous = FULL; pragma cache_size = -65536');

const columns = (
  db.prepare("select name from pragma_table_info('orders') where name <> 'id'").all() as { name: string }[]
).map((row) => row.name);
const insert = db.prepare(
  `insert into orders (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')}) returning id`,
);
// a packed order document is ~1.5 kB
const packedDoc = Buffer.alloc(1500, 7);
let written = 0;
function rowValues(index: number): Array<string | number | null | Buffer> {
  const byColumn: Record<string, string | number | null | Buffer> = {
    account_id: account.accountId,
    shop_id: shopId,
    warehouse_id: account.warehouseId,
    doc_packed: packedDoc,
    cms_id: `WC-${index}`,
    search_text: `wc-${index} | петр сидоров | +79990001122 | 79990001122`,
    recipient_city: 'санкт-петербург',
    recipient_country: 'RU',
  };
  return columns.map((column) => {
    if (column in byColumn) return byColumn[column] as string | number | Buffer;
    if (column.endsWith('_at')) return new Date(Date.now() + index).toISOString();
    if (['track_number', 'error', 'hold_until', 'pickup_date', 'own_method_id', 'point_id'].includes(column))
      return null;
    return 1;
  });
}

function measure(): { insertUs: number; commitUs: number } {
  let commitNs = 0n;
  const started = process.hrtime.bigint();
  for (let group = 0; group < GROUPS; group++) {
    db.exec('begin');
    for (let index = 0; index < PER_GROUP; index++) {
      db.exec(`savepoint write_${index}`);
      insert.get(...rowValues(written++));
      db.exec(`release write_${index}`);
    }
    const commitStarted = process.hrtime.bigint();
    db.exec('commit');
    commitNs += process.hrtime.bigint() - commitStarted;
  }
  const totalNs = process.hrtime.bigint() - started;
  const count = GROUPS * PER_GROUP;
  return { insertUs: Number(totalNs - commitNs) / 1000 / count, commitUs: Number(commitNs) / 1000 / count };
}

const rows: string[] = [];
const report = (label: string) => {
  const { insertUs, commitUs } = measure();
  rows.push(`| ${label} | ${(insertUs + commitUs).toFixed(0)} | ${insertUs.toFixed(0)} | ${commitUs.toFixed(0)} |`);
};
measure(); // warm-up
for (let round = 1; round <= 3; round++) {
  db.exec('pragma temp_store = DEFAULT');
  report(`temp_store DEFAULT (round ${round})`);
  db.exec('pragma temp_store = MEMORY');
  report(`temp_store MEMORY (round ${round})`);
}
const indexes = db
  .prepare("select name from sqlite_master where type = 'index' and tbl_name = 'orders' and sql is not null")
  .all() as { name: string }[];
for (const index of indexes) db.exec(`drop index ${index.name}`);
report('temp_store MEMORY, no secondary index');
db.close();
await bench.cleanup();

console.log(
  `\nAn order row, ${GROUPS} groups of ${PER_GROUP} with savepoints, synchronous=FULL (node ${process.version})`,
);
console.log('| variant | µs an order | of which the insert | of which its share of COMMIT |');
console.log('|---|---:|---:|---:|');
for (const row of rows) console.log(row);
