/**
 * What a worker thread owning the SQLite connection would cost the event loop per write: the
 * measurement behind the hot paths' next step for `POST /v2/orders` (docs/decisions/orders.md).
 * The event loop sends groups of writes (a ~1.6 kB packed document and a few columns each, as
 * an order's row) to a worker that runs them in one transaction with synchronous=FULL and
 * answers with the new ids; the next group goes when the answer comes, four groups in flight.
 * Printed per group size: writes per second, and CPU per write of the event loop alone
 * (`process.threadCpuUsage`) and of the whole process (event loop, worker and Node's threads).
 * Run: npx tsx bench/sqlite-worker.ts   (WRITES=20000)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

const WRITES = Number(process.env.WRITES ?? 20_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sqlite-worker-'));

/** The worker: plain JavaScript (it runs without tsx), one connection, one transaction per group. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file);
db.exec('pragma journal_mode = WAL; pragma synchronous = FULL');
db.exec('create table orders (id integer primary key, account_id integer, status integer, search_text text, doc_packed blob)');
db.exec('create index orders_account on orders (account_id, id)');
const insert = db.prepare('insert into orders (account_id, status, search_text, doc_packed) values (?, ?, ?, ?)');
parentPort.on('message', (group) => {
  db.exec('begin');
  const ids = group.map((row) => Number(insert.run(row.accountId, row.status, row.searchText, row.doc).lastInsertRowid));
  db.exec('commit');
  parentPort.postMessage(ids);
});
`;

interface Row {
  accountId: number;
  status: number;
  searchText: string;
  doc: Buffer;
}

async function run(groupSize: number): Promise<Record<string, string | number>> {
  const file = path.join(dir, `group-${groupSize}.db`);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file } });
  const doc = Buffer.alloc(1600, 7);
  let sent = 0;
  let answered = 0;
  const send = () => {
    const group: Row[] = [];
    for (; group.length < groupSize && sent < WRITES; sent += 1)
      group.push({ accountId: 1, status: 1, searchText: `заказ ${sent} получатель иванов`, doc });
    if (group.length > 0) worker.postMessage(group);
  };
  const processStart = process.cpuUsage();
  const loopStart = process.threadCpuUsage();
  const started = performance.now();
  await new Promise<void>((done) => {
    worker.on('message', (ids: number[]) => {
      answered += ids.length;
      if (answered >= WRITES) done();
      else send();
    });
    for (let inFlight = 0; inFlight < 4; inFlight += 1) send();
  });
  const seconds = (performance.now() - started) / 1000;
  const loopSpent = process.threadCpuUsage(loopStart);
  const processSpent = process.cpuUsage(processStart);
  await worker.terminate();
  const perWrite = (usage: NodeJS.CpuUsage) => ((usage.user + usage.system) / 1000 / WRITES).toFixed(4);
  return {
    'writes per group': groupSize,
    'writes/s': Math.round(WRITES / seconds),
    'event loop CPU-ms per write': perWrite(loopSpent),
    'process CPU-ms per write': perWrite(processSpent),
  };
}

const rows = [];
for (const groupSize of [1, 20, 50]) rows.push(await run(groupSize));
fs.rmSync(dir, { recursive: true, force: true });
console.log(`\nSQLite writes from a worker thread, synchronous=FULL, ${WRITES} writes (node ${process.version})`);
console.table(rows);
