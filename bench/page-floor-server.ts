/**
 * The floor under a cold page of orders: a bare Fastify server that reads a page of packed
 * documents from the orders bench's SQLite file with the service's very statement
 * (`pageConcatenation` over the page's ids from the (account, id) index), assembles its gzip
 * with the service's `gzipIdentifiedObjects` and sends it. No authentication, validation,
 * list positions, logging or worker thread: only what every cold page must do.
 * FLOOR_DATABASE: the SQLite file (read only). `/page?perPage=N&page=P` reads on the event
 * loop; `/page?thread=1&...` in the service's page reader thread (sqlite-reader.ts).
 */
import { DatabaseSync } from 'node:sqlite';
import Fastify from 'fastify';
import { gzipIdentifiedObjects } from '../src/platform/json-pieces.js';
import { pageConcatenation, SqliteReader } from '../src/platform/db/sqlite-reader.js';

const file = process.env.FLOOR_DATABASE;
if (!file) throw new Error('FLOOR_DATABASE: the orders bench database to read');
const db = new DatabaseSync(file, { readOnly: true });
db.exec('pragma mmap_size = 1073741824');
const { accountId, newest } = db.prepare('select account_id as accountId, max(id) as newest from orders').get() as {
  accountId: number;
  newest: number;
};
const pageSql = pageConcatenation(
  'select id, doc_packed as packed from orders where account_id = ? and id in (select id from orders where account_id = ? and id <= ? order by id desc limit ?) order by id desc',
);
const page = db.prepare(pageSql);
const reader = new SqliteReader({
  file,
  pragmas: ['mmap_size = 1073741824', 'cache_size = -8000'],
  failure: (message) => new Error(message),
});
const app = Fastify({ logger: false });
app.get<{ Querystring: { perPage?: string; page?: string; thread?: string } }>('/page', async (request, reply) => {
  const perPage = Number(request.query.perPage ?? 50);
  const upTo = newest - (Number(request.query.page ?? 1) - 1) * perPage;
  const gzipped = reply.type('application/json; charset=utf-8').header('content-encoding', 'gzip');
  if (request.query.thread)
    return gzipped.send((await reader.gzipPage(pageSql, [accountId, accountId, upTo, perPage])).gzip);
  const row = page.get(accountId, accountId, upTo, perPage) as { ids: string; docs: Uint8Array; lengths: string };
  const lengths = row.lengths.split(',');
  const ids = row.ids.split(',');
  const docs = Buffer.from(row.docs.buffer, row.docs.byteOffset, row.docs.byteLength);
  const items: Array<{ id: number; packed: Buffer }> = [];
  let offset = 0;
  for (const [index, id] of ids.entries()) {
    const length = Number(lengths[index]);
    items.push({ id: Number(id), packed: docs.subarray(offset, offset + length) });
    offset += length;
  }
  items.sort((a, b) => b.id - a.id);
  return gzipped.send(gzipIdentifiedObjects(items).gzip);
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`READY ${JSON.stringify({ url: address })}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
