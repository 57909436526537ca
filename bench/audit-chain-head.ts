/**
 * Why the audit trail's chain is sealed after the change and not in it (PostgreSQL): CONNECTIONS
 * writers each commit TRANSACTIONS transactions of one insert (an order's row, an entry's row), with
 * the chain head of one account read `for update` and advanced in each (hashing in the transaction),
 * beside the same without the head (the entry sealed later). Throughput in transactions a second.
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/audit-chain-head.ts
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const connections = Number(process.env.CONNECTIONS ?? 16);
const transactions = Number(process.env.TRANSACTIONS ?? 150);
const schema = `chain_bench_${randomBytes(4).toString('hex')}`;
const pool = new pg.Pool({ connectionString: url, max: connections, options: `-c search_path=${schema}` });

const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`create schema ${schema}`);
await admin.query(`set search_path = ${schema}`);
await admin.query('create table changes (id bigserial primary key, account_id bigint, body text)');
await admin.query(
  'create table entries (id bigserial primary key, account_id bigint, body text, seq bigint, hash text)',
);
await admin.query('create table heads (account_id bigint primary key, seq bigint, hash text)');
await admin.query("insert into heads values (1, 0, '')");

async function run(withHead: boolean): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = await pool.connect();
      try {
        for (let index = 0; index < transactions; index++) {
          await client.query('begin');
          await client.query("insert into changes (account_id, body) values (1, repeat('x', 2000))");
          if (withHead) {
            const head = (await client.query('select seq, hash from heads where account_id = 1 for update')).rows[0];
            const body = `{"operation":"createOrder","n":${index}}`;
            const hash = createHash('sha256').update(head.hash).update(body).digest('hex');
            await client.query('insert into entries (account_id, body, seq, hash) values (1, $1, $2, $3)', [
              body,
              Number(head.seq) + 1,
              hash,
            ]);
            await client.query('update heads set seq = seq + 1, hash = $1 where account_id = 1', [hash]);
          } else {
            await client.query('insert into entries (account_id, body) values (1, \'{"operation":"createOrder"}\')');
          }
          await client.query('commit');
        }
      } finally {
        client.release();
      }
    }),
  );
  return (connections * transactions) / ((performance.now() - started) / 1000);
}

const figures: string[] = [];
for (const withHead of [false, true, false, true]) {
  const perSecond = await run(withHead);
  figures.push(
    `  ${withHead ? 'chain head locked in the change' : 'entry only, sealed later      '}  ${Math.round(perSecond)} tx/s`,
  );
}
process.stdout.write(
  `${connections} writers of one account, ${transactions} transactions each:\n${figures.join('\n')}\n`,
);
await pool.end();
await admin.query(`drop schema ${schema} cascade`);
await admin.end();
