/**
 * Figures of the audit trail and the key scopes, in one run on one machine:
 *   - POST /v2/orders (a priced order, 3 products) and GET /v2/orders/{id}, with the audit
 *     trail on (AUDIT_TRAIL=1, the default) and off, in alternated runs (on, off, off, on …)
 *     so that a drift of the machine falls on both sides;
 *   - the scope check's cost per request: `keyAllows` for a scoped key (a map read and a search
 *     in at most eight scopes), timed in a loop, in µs.
 * Run: npx tsx bench/audit.ts                   (SQLite)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/audit.ts
 *      ROUNDS=2 DURATION=5 CONNECTIONS=20 ORDERS=2000 (the defaults)
 */
import Fastify from 'fastify';
import type { Scope } from '../src/platform/auth.js';
import { installKeyScopes, keyAllows } from '../src/platform/key-scopes.js';
import { type LoadResult, load, startServer } from './lib.js';

const rounds = Number(process.env.ROUNDS ?? 2);
const duration = Number(process.env.DURATION ?? 5);
const connections = Number(process.env.CONNECTIONS ?? 20);
const orders = process.env.ORDERS ?? '2000';

const figures: Record<'on' | 'off', { post: LoadResult[]; get: LoadResult[] }> = {
  on: { post: [], get: [] },
  off: { post: [], get: [] },
};
for (let round = 0; round < rounds; round++) {
  const order: Array<'on' | 'off'> = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
  for (const mode of order) {
    const app = await startServer(
      'orders-server.ts',
      { ORDERS: orders, AUDIT_TRAIL: mode === 'on' ? '1' : '0' },
      600_000,
    );
    const info = app.info as { token: string; body: unknown };
    const auth = { authorization: `Bearer ${info.token}` };
    figures[mode].post.push(
      await load({
        name: `POST /v2/orders, audit ${mode}`,
        url: `${app.url}/v2/orders`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(info.body),
        connections,
        durationSeconds: duration,
        server: app,
      }),
    );
    figures[mode].get.push(
      await load({
        name: `GET /v2/orders/{id}, audit ${mode}`,
        url: `${app.url}/v2/orders/1`,
        paths: Array.from({ length: 1000 }, (_, index) => `/v2/orders/${index + 1}`),
        headers: auth,
        connections,
        durationSeconds: duration,
        server: app,
      }),
    );
    await app.stop();
  }
}

const line = (result: LoadResult) =>
  `  ${result.name.padEnd(34)} ${String(Math.round(result.requestsPerSecond)).padStart(7)} req/s   p50 ${String(result.p50).padStart(4)} ms   p99 ${String(result.p99).padStart(4)} ms   cpu ${result.cpuMsPerResponse?.toFixed(3) ?? '-'} ms/answer   non-2xx ${result.non2xx}`;
process.stdout.write(
  `\nAudit trail on vs off (${rounds} alternated rounds of ${duration} s, ${connections} connections)\n`,
);
for (const kind of ['post', 'get'] as const)
  for (let round = 0; round < rounds; round++)
    for (const mode of ['on', 'off'] as const) {
      const result = figures[mode][kind][round];
      if (result) process.stdout.write(`${line(result)}\n`);
    }

// the scope check, as the onRequest hook makes it: the routes registered, then keyAllows per request
const app = Fastify();
installKeyScopes(app);
const routes: Array<[string, string]> = [];
for (let index = 0; index < 300; index++) {
  const url = `/v2/area${index % 30}/thing${index}/:id`;
  const method = index % 3 === 0 ? 'GET' : 'POST';
  app.route({ method, url, schema: { tags: [index % 2 ? 'Orders' : 'Products'] }, handler: async () => ({}) });
  routes.push([method, url]);
}
await app.ready();
const scope: Scope = {
  accountId: 1,
  timeZone: 'UTC',
  kind: 'account',
  shopKeyShopId: null,
  employeeId: null,
  keyScopes: ['read', 'orders', 'documents'],
};
const calls = 2_000_000;
let allowed = 0;
const started = process.hrtime.bigint();
for (let index = 0; index < calls; index++) {
  const [method, url] = routes[index % routes.length] as [string, string];
  if (keyAllows(scope, method, url)) allowed++;
}
const microseconds = Number(process.hrtime.bigint() - started) / 1000 / calls;
process.stdout.write(
  `\nScope check (keyAllows, a scoped key of 3 scopes, 300 routes): ${microseconds.toFixed(3)} µs a request (${allowed} of ${calls} allowed)\n`,
);
await app.close();
