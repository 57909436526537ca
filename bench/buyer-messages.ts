/**
 * Figures of buyers' messages, in one process on a fresh database:
 *   1. messages sent per second to a fast fake gateway (the SMS.ru fake on loopback, in its own process): 3000 SMS
 *      made by the dispatcher from real order events, sent by a job worker (concurrency 8);
 *   2. the cost to the API: orders created and moved through statuses (confirm, registration, 41,
 *      42) with a shop's SMS on (three moments) against the same run with the shop's messages
 *      off, rounds alternating; CPU-ms per order for that work, and apart from it the CPU the
 *      messages took to make and send (per order and per message) — background work a job
 *      worker does after the API has answered.
 * Run: npx tsx bench/buyer-messages.ts
 */
import { JobWorker } from '../src/platform/jobs.js';
import { SMSRU_API_ID } from '../test/support/fake-sms-gateways.js';
import { seedAccount, seedShop, startBenchService } from './fixture.js';
import { startServer } from './lib.js';

const ORDERS_PER_ROUND = Number(process.env.ORDERS ?? 300);
// the gateway in a process of its own: its answering is not the service's CPU
const sms = await startServer('sms-fake-server.ts');
const bench = await startBenchService({
  SMSRU_URL: sms.url,
  SIMULATION_STEP_SECONDS: '0',
  PICKUP_SIMULATION_SECONDS: '0',
});
const { services } = bench.runtime;
const quiet = { error: () => undefined, warn: () => undefined };
const worker = new JobWorker(services.jobs, quiet, { concurrency: 8 });
services.tracking.registerJobs(worker);
services.buyerMessageDispatcher.registerJobs(worker);
const account = await seedAccount(services, 'Messages bench');
const shopId = await seedShop(services, account);
const spb = services.reference.localities.find({ countryCode: 'RU', name: 'Санкт-Петербург' });
const pointId = spb ? services.reference.registry.pointsIn(1, spb.id)[0]?.id : undefined;
const moscow = services.reference.localities.find({ countryCode: 'RU', name: 'Москва' });
const dropOffPointId = moscow ? services.reference.registry.pointsIn(1, moscow.id)[0]?.id : undefined;
if (!pointId || !dropOffPointId) throw new Error('company 1 has no points in Санкт-Петербург and Москва');

async function messages(on: boolean): Promise<void> {
  await services.buyerMessages.saveSettings(account.scope, shopId, {
    sandbox: true,
    quietHours: null,
    email: { enabled: on },
    sms: { enabled: on, gateway: 'smsru', apiId: SMSRU_API_ID, moments: ['registered', 'handed_over', 'at_point'] },
  });
}

/** Orders created, confirmed, registered and moved to 41 and 42; their tracking pushed as a company would. */
async function orders(count: number, cmsPrefix: string): Promise<void> {
  const ids: number[] = [];
  for (let index = 0; index < count; index++)
    ids.push(
      await services.orders.create(
        account.scope,
        {
          shopId,
          cmsId: `${cmsPrefix}-${index}`,
          products: [{ name: 'Книга', priceDeclared: 800, count: 1, weight: 0.5 }],
          deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Невский', house: '1' },
          recipient: { fullName: 'Пётр Сидоров', phone: `+7999${String(index).padStart(7, '0')}`, email: null },
          delivery: { company: { id: 1 }, type: 1, point: { id: pointId as number } },
          pickup: { pointId: dropOffPointId },
        },
        undefined,
      ),
    );
  await services.orders.confirm(account.scope, { ids });
  await worker.runDue();
  const tracks = (await services.orders.getMany(account.scope, ids)).values();
  const events = [...tracks].flatMap((order) =>
    [41, 42].map((statusCode) => ({
      trackNumber: order.trackNumber ?? '',
      statusCode,
      at: new Date().toISOString(),
      description: '',
    })),
  );
  await services.tracking.applyEvents(1, events, account.accountId);
}

async function drain(): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) {
    const read = await services.buyerMessageDispatcher.dispatch();
    const ran = await worker.runDue();
    if (read === 0 && ran === 0) return;
  }
}

// 1. send rate: messages made first, then sent and timed
await messages(true);
await orders(1000, 'RATE');
const counted = () =>
  bench.runtime.database.db
    .selectFrom('buyer_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'sent')
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
const before = await counted();
await services.buyerMessageDispatcher.dispatch();
const started = performance.now();
await drain();
const sentCount = (await counted()) - before;
const seconds = (performance.now() - started) / 1000;
console.log(
  `sent ${sentCount} SMS in ${seconds.toFixed(2)} s: ${Math.round(sentCount / seconds)} messages/s (fake SMS.ru on loopback, 8 at once)`,
);

// 2. orders with messages on and off, alternating rounds: the API's work (create, confirm,
// register, two statuses) timed apart from the messages' (made from the events and sent after)
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
for (let round = 1; round <= 3; round++) {
  for (const on of [true, false]) {
    await messages(on);
    const messagesBefore = on ? await counted() : 0;
    const since = process.cpuUsage();
    const wall = performance.now();
    await orders(ORDERS_PER_ROUND, `R${round}-${on ? 'ON' : 'OFF'}`);
    const apiMs = cpuMs(since);
    const apiWall = performance.now() - wall;
    const afterApi = process.cpuUsage();
    await drain();
    const messagesMs = cpuMs(afterApi);
    const sent = on ? (await counted()) - messagesBefore : 0;
    console.log(
      `round ${round}, messages ${on ? 'on ' : 'off'}: ${ORDERS_PER_ROUND} orders created, confirmed, registered and moved twice: ${(apiMs / ORDERS_PER_ROUND).toFixed(2)} CPU-ms an order (${(apiWall / ORDERS_PER_ROUND).toFixed(2)} ms wall); then ${sent} messages made and sent: ${(messagesMs / ORDERS_PER_ROUND).toFixed(2)} CPU-ms an order${sent ? `, ${(messagesMs / sent).toFixed(2)} a message` : ''}`,
    );
  }
}
await worker.stop(100);
await sms.stop();
await bench.cleanup();
process.exit(0);
