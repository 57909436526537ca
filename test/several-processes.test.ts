/**
 * Several processes of the service on one PostgreSQL database, as an operator scaling out
 * runs them (README "Several processes"): the same SECRET_KEY, each its own DATA_DIR and
 * port. PostgreSQL only: SQLite has one owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from './support/app.js';
import { shopBody, warehouseBody } from './support/fixtures.js';
import {
  call,
  eventually,
  startProcess,
  throwawayDatabase,
  untilReady,
  type ServiceProcess,
  type ThrowawayDatabase,
} from './support/processes.js';

const STARTED_TOGETHER = 3;

let database: ThrowawayDatabase;
let processes: ServiceProcess[] = [];
let token: string;
let shopId: number;
let pointId: number;

/** The first pickup point (type 1) of company 1 in a city, and a drop-off point of company 1 in Москва where the warehouse is. */
async function pointOfCompany1(city: string): Promise<number> {
  const rows = await database.query<{ id: number }>(
    `select p.id from delivery_points p join localities l on l.id = p.locality_id
     where p.company_id = 1 and p.type = 1 and l.country_code = 'RU' and l.name = $1 order by l.population desc, p.id limit 1`,
    [city],
  );
  return Number(rows[0].id);
}

async function newOrder(service: ServiceProcess): Promise<number> {
  const body = {
    shopId,
    pickup: { pointId: await pointOfCompany1('Москва') },
    products: [
      {
        name: 'Книга',
        vendorCode: 'BOOK-1',
        priceDeclared: 800,
        priceCod: 0,
        count: 1,
        weight: 0.5,
        dimensions: { width: 15, height: 4, length: 22 },
      },
    ],
    deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
    delivery: { company: { id: 1 }, type: 1, point: { id: pointId } },
  };
  const created = await call(service, token, 'POST', '/v2/orders', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as number;
}

async function statusOf(orderId: number): Promise<number> {
  return Number(
    (await database.query<{ status: number }>('select status from orders where id = $1', [orderId]))[0].status,
  );
}

beforeAll(async () => {
  if (!usingPostgres) return;
  database = await throwawayDatabase();
}, 20_000);
afterAll(async () => {
  await Promise.all(processes.map((service) => service.stop()));
  await database?.drop();
}, 30_000);

describe.skipIf(!usingPostgres)('several processes on one PostgreSQL', () => {
  it(`all ${STARTED_TOGETHER} serve when started at the same moment on an empty database, and make one first account between them`, async () => {
    // simulation off: the order of the file test stays Prepared (13)
    processes = await Promise.all(
      Array.from({ length: STARTED_TOGETHER }, () => startProcess(database.url, { SIMULATION_STEP_SECONDS: '0' })),
    );
    await Promise.all(processes.map((service) => untilReady(service)));
    // the first account is made once the port is listened on: its token comes just after /ready answers
    const printed = () => processes.flatMap((service) => /^\s+(acc_\S+)$/m.exec(service.output())?.[1] ?? []);
    await eventually(async () => printed().length > 0, 10_000, 'first token printed');
    // the others (one after another under the start lock) find the account and print nothing
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const tokens = printed();
    expect(tokens).toHaveLength(1);
    token = tokens[0];
    expect(await database.query('select id from accounts')).toHaveLength(1);
    for (const service of processes) expect(service.child.exitCode).toBeNull();
    const warehouseId = (await call(processes[0], token, 'POST', '/v2/warehouses', warehouseBody())).body.id as number;
    shopId = (await call(processes[1], token, 'POST', '/v2/shops', shopBody(warehouseId))).body.id as number;
    pointId = await pointOfCompany1('Санкт-Петербург');
  }, 60_000);

  it('a sticker made through one process downloads from every other', async () => {
    const orderId = await newOrder(processes[0]);
    expect((await call(processes[1], token, 'POST', '/v2/orders/confirm', { ids: [orderId] })).status).toBe(204);
    await eventually(async () => (await statusOf(orderId)) === 13, 10_000, 'registered');
    const made = await call(processes[2], token, 'POST', '/v2/orders/stickers', { ids: [orderId], type: 2 });
    expect(made.status).toBe(200);
    const path = new URL(made.body.file as string).pathname;
    const bodies = await Promise.all(
      processes.map(async (service) => {
        const response = await fetch(`${service.url}${path}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/pdf');
        return Buffer.from(await response.arrayBuffer());
      }),
    );
    expect(bodies[0].subarray(0, 5).toString()).toBe('%PDF-');
    for (const body of bodies) expect(Buffer.compare(body, bodies[0])).toBe(0);
  });

  it('a replaced shop key is refused by every process within a second', async () => {
    const oldKey = (await call(processes[0], token, 'GET', `/v2/shops/${shopId}`)).body.apiKey as string;
    // every process has it remembered (AUTH_CACHE_SECONDS, 5 s)
    for (const service of processes)
      expect((await call(service, oldKey, 'GET', `/v2/shops/${shopId}`)).status).toBe(200);
    const replaced = await call(processes[0], token, 'POST', `/v2/shops/${shopId}/api-key`);
    expect(replaced.status).toBe(200);
    const waits = await Promise.all(
      processes.map((service) =>
        eventually(
          async () => (await call(service, oldKey, 'GET', `/v2/shops/${shopId}`)).status === 401,
          1000,
          'old key refused',
        ),
      ),
    );
    expect(Math.max(...waits)).toBeLessThan(1000);
    for (const service of processes)
      expect((await call(service, replaced.body.apiKey as string, 'GET', `/v2/shops/${shopId}`)).status).toBe(200);
  });

  // Where a process dies: after the order's new status is written, before its next step is
  // queued (the two halves of one transaction now). The journey job of a registered order is
  // first queued by the registration, then by each step.
  it.each([
    { point: 'enqueue:orders.journey', where: 'between 13 and its first journey step', before: 12, after: 41 },
    { point: 'enqueue:orders.journey#2', where: 'between a journey step and the next', before: 13, after: 411 },
  ])(
    'a process killed $where leaves nothing stuck: the order moves on after another takes over',
    async ({ point, before, after }) => {
      await Promise.all(processes.map((service) => service.stop()));
      // journeys of earlier orders would reach the crash point first: this case is about its own order
      await database.query("update jobs set status = 'done' where status in ('pending', 'running')");
      const crashing = await startProcess(database.url, { SIMULATION_STEP_SECONDS: '1', TEST_CRASH_AT: point });
      processes = [crashing];
      await untilReady(crashing);
      const orderId = await newOrder(crashing);
      expect((await call(crashing, token, 'POST', '/v2/orders/confirm', { ids: [orderId] })).status).toBe(204);
      expect(await crashing.exited).toEqual({ code: null, signal: 'SIGKILL' });
      // the status of the transaction that died was never written; its job is still leased to the dead process
      expect(await statusOf(orderId)).toBe(before);
      const leased = await database.query<{ kind: string }>("select kind from jobs where status = 'running'");
      expect(leased.length).toBeGreaterThan(0);
      // its lease (15 s) runs out at once rather than in the test's time
      await database.query("update jobs set locked_until = now() - interval '1 second' where status = 'running'");
      const takingOver = await startProcess(database.url, { SIMULATION_STEP_SECONDS: '1' });
      processes = [takingOver];
      await untilReady(takingOver);
      await eventually(async () => (await statusOf(orderId)) === after, 15_000, `order at ${after}`);
      await takingOver.stop();
      processes = [];
    },
    60_000,
  );
});
