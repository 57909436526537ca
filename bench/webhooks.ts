/**
 * Figures of the webhooks, on one machine:
 *   1. events a second delivered to a fast receiver (10,000 events of 1,000 orders, one endpoint);
 *   2. how long a backlog of 10,000 events takes to drain once a receiver that was down is up
 *      again (WEBHOOK_RETRY_FIRST_SECONDS=1 here: the wait for the next try is part of it);
 *   3. API p99 (POST /v2/orders) while 5 endpoints' receiver hangs, against the same without
 *      webhooks and with 5 endpoints at a fast receiver (what webhooks cost at all).
 * The sender runs in the service's process, as `serve` runs it; receivers in their own.
 * Run: npx tsx bench/webhooks.ts   (BENCH_DATABASE_URL=postgres://... for PostgreSQL; EVENTS, DURATION)
 */
import { outboxRows, writeOrderEvents } from '../src/modules/events/outbox.js';
import { WebhookPump } from '../src/modules/webhooks/pump.js';
import { seedAccount, seedShop, startBenchService } from './fixture.js';
import { load, startServer, type LoadResult } from './lib.js';

const EVENTS = Number(process.env.EVENTS ?? 10_000);
const ORDERS = 1_000;
const duration = Number(process.env.DURATION ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 20);

const receiver = await startServer('webhook-receiver-server.ts');
const setMode = (mode: string) => fetch(`${receiver.url}/mode?to=${mode}`, { method: 'POST' });
const count = async () => (await (await fetch(`${receiver.url}/count`)).json()) as { taken: number; unique: number };

const bench = await startBenchService({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_FIRST_SECONDS: '1' });
const { services, database } = bench.runtime;
const account = await seedAccount(services, 'Webhook figures');
const shopId = await seedShop(services, account);
const pump = new WebhookPump(
  services.webhooks,
  services.jobs,
  { error: () => undefined, warn: (object, message) => console.warn(message, object) },
  { concurrency: bench.config.webhookConcurrency, pollMs: 500 },
);

/** EVENTS status changes of ORDERS orders, written to the outbox as order changes write them. */
async function writeEvents(): Promise<void> {
  const at = new Date().toISOString();
  for (let start = 0; start < EVENTS; start += 1000) {
    await database.db.transaction().execute(async (trx) => {
      for (let index = start; index < Math.min(EVENTS, start + 1000); index++) {
        const orderId = 1 + (index % ORDERS);
        const step = Math.floor(index / ORDERS);
        await writeOrderEvents(
          trx,
          outboxRows(
            account.accountId,
            shopId,
            orderId,
            [
              {
                type: 'order.status_changed',
                statusFrom: 11 + step,
                statusTo: 12 + step,
                payload: { cmsId: `WC-${orderId}`, trackNumber: `PU${orderId}` },
              },
            ],
            at,
          ),
        );
      }
    });
  }
}

async function delivered(endpointId: number): Promise<number> {
  const row = await database.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'delivered')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
async function queued(endpointId: number): Promise<number> {
  const row = await database.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
async function until(check: () => Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// 1. a fast receiver
const fast = await services.webhooks.create(account.scope, { url: `${receiver.url}/hooks` });
pump.start();
let started = performance.now();
await writeEvents();
await until(async () => (await delivered(fast.id)) >= EVENTS);
const fastSeconds = (performance.now() - started) / 1000;
const afterFast = await count();
await services.webhooks.delete(account.scope, fast.id);

// 2. a backlog after an outage
await setMode('fail');
const backlog = await services.webhooks.create(account.scope, { url: `${receiver.url}/hooks?backlog` });
await writeEvents();
await until(async () => (await queued(backlog.id)) >= EVENTS);
// down for a while: a few tries failed, the back-off grew
await new Promise((resolve) => setTimeout(resolve, 4000));
const failedTries = Number(
  (
    await database.db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('endpoint_id', '=', backlog.id)
      .executeTakeFirstOrThrow()
  ).n,
);
await setMode('ok');
started = performance.now();
await until(async () => (await delivered(backlog.id)) >= EVENTS);
const drainSeconds = (performance.now() - started) / 1000;
const afterBacklog = await count();
await pump.stop();
await bench.cleanup();

// 3. API p99 while a receiver hangs
await setMode('hang');
const fastReceiver = await startServer('webhook-receiver-server.ts');
async function orderLoad(endpoints: number, receiverUrl: string, what: string): Promise<LoadResult> {
  const server = await startServer('webhooks-server.ts', { ENDPOINTS: String(endpoints), RECEIVER_URL: receiverUrl });
  const result = await load({
    name: endpoints ? `POST /v2/orders, ${endpoints} endpoints, ${what}` : 'POST /v2/orders, no webhooks',
    url: `${server.url}/v2/orders`,
    method: 'POST',
    headers: { authorization: `Bearer ${String(server.info.token)}`, 'content-type': 'application/json' },
    body: JSON.stringify(server.info.body),
    connections,
    durationSeconds: duration,
  });
  await server.stop();
  return result;
}
const without = await orderLoad(0, receiver.url, '');
const answering = await orderLoad(5, fastReceiver.url, 'receiver answers at once');
const hanging = await orderLoad(5, receiver.url, 'receiver hangs (10 s timeout)');
await receiver.stop();
await fastReceiver.stop();

console.log(`\nWebhooks on ${bench.config.databaseKind} (node ${process.version})`);
console.log('| figure | value |');
console.log('|---|---:|');
console.log(
  `| ${EVENTS} events (${ORDERS} orders) to a fast receiver | ${fastSeconds.toFixed(1)} s, ${Math.round(EVENTS / fastSeconds)} events/s (taken ${afterFast.taken}, distinct ids ${afterFast.unique}) |`,
);
console.log(
  `| backlog of ${EVENTS} after an outage (${failedTries} failed tries) drained in | ${drainSeconds.toFixed(1)} s, ${Math.round(EVENTS / drainSeconds)} events/s (taken in all ${afterBacklog.taken}) |`,
);
console.log('\n| API scenario | req/s | p50 ms | p99 ms | errors | non-2xx |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const result of [without, answering, hanging])
  console.log(
    `| ${result.name} | ${result.requestsPerSecond} | ${result.p50} | ${result.p99} | ${result.errors} | ${result.non2xx} |`,
  );
