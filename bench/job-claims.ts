/**
 * What a worker's claim of due jobs costs as finished jobs pile up (they are kept 7 days: a shop
 * making 1,000 orders a day leaves tens of thousands): the milliseconds of one claim with 0,
 * 20,000 and 100,000 done jobs in the table, with 50 due and with none, on a fresh database (SQLite, or the
 * PostgreSQL of DATABASE_URL). A claim on SQLite runs on the thread that answers requests.
 * Run: npx tsx bench/job-claims.ts
 */
import { sql } from 'kysely';
import { JobQueue } from '../src/platform/jobs.js';
import { startBenchService } from './fixture.js';

const bench = await startBenchService({});
const { db, kind } = bench.runtime.database;
const queue = new JobQueue(db, kind);
const KINDS = ['bench.send', 'bench.register', 'bench.other'];
const CLAIMS = 200;

async function addDone(count: number): Promise<void> {
  const at = Date.now();
  for (let from = 0; from < count; from += 500) {
    const rows = Array.from({ length: Math.min(500, count - from) }, (_, index) => {
      const when = new Date(at - (from + index) * 1000).toISOString();
      return {
        account_id: null,
        kind: KINDS[(from + index) % 2],
        payload: '{}',
        status: 'done',
        attempts: 1,
        max_attempts: 8,
        run_at: when,
        unique_key: null,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: when,
        updated_at: when,
      };
    });
    await db.insertInto('jobs').values(rows).execute();
  }
  if (kind === 'postgres') await sql`analyze jobs`.execute(db);
  else await sql`analyze`.execute(db);
}

let done = 0;
for (const target of [0, 20_000, 100_000]) {
  await addDone(target - done);
  done = target;
  await queue.enqueueMany(
    'bench.send',
    Array.from({ length: 50 }, () => ({ accountId: null, payload: {} })),
  );
  // claims that find their jobs and give them back: the table stays as it was between claims
  const started = performance.now();
  for (let turn = 0; turn < CLAIMS; turn++) {
    const claimed = await queue.claim(KINDS, 8);
    await db
      .updateTable('jobs')
      .set({ status: 'pending', locked_by: null, locked_until: null })
      .where(
        'id',
        'in',
        claimed.map((job) => job.id),
      )
      .execute();
  }
  const perClaim = (performance.now() - started) / CLAIMS;
  await db.deleteFrom('jobs').where('kind', '=', 'bench.send').where('status', '=', 'pending').execute();
  // a worker's poll when nothing is due: a read only, what an idle service does all day
  const idleStarted = performance.now();
  for (let turn = 0; turn < CLAIMS; turn++) await queue.claim(KINDS, 8);
  const perPoll = (performance.now() - idleStarted) / CLAIMS;
  console.log(
    `${kind}: ${target} done jobs: ${perClaim.toFixed(2)} ms a claim of 8 of 50 due (and its release), ${perPoll.toFixed(2)} ms a poll finding nothing due`,
  );
}
await bench.cleanup();
process.exit(0);
