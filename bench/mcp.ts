/**
 * What the MCP door costs beside the API it calls, in process (app.inject, no sockets), on a
 * throw-away database (fixture.ts): a tools/list, a tools/call of get_order (one MCP request
 * that makes one API request), and the same GET /v2/orders/{id} called directly. Every MCP
 * request builds its server (stateless), so the difference is that building plus JSON-RPC.
 *   npx tsx bench/mcp.ts            (ROUNDS=500 by default)
 */
import { buildApp } from '../src/app.js';
import { seedAccount, startBenchService } from './fixture.js';

const ROUNDS = Number(process.env.ROUNDS ?? 500);
const bench = await startBenchService();
try {
  const { services } = bench.runtime;
  const account = await seedAccount(services, 'MCP bench');
  const app = await buildApp({
    config: { ...bench.config, logLevel: 'silent', rateLimitPerMinute: 0 },
    database: bench.runtime.database,
    services,
  });
  await app.ready();
  const headers = {
    authorization: `Bearer ${account.token}`,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
  };
  const rpc = (method: string, params: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/mcp', headers, payload: { jsonrpc: '2.0', id: 1, method, params } });

  async function timed(what: string, work: () => Promise<{ statusCode: number }>): Promise<number> {
    for (let i = 0; i < 20; i++) await work(); // warm
    const started = performance.now();
    for (let i = 0; i < ROUNDS; i++) {
      const answer = await work();
      if (answer.statusCode >= 500) throw new Error(`${what}: ${answer.statusCode}`);
    }
    const ms = (performance.now() - started) / ROUNDS;
    console.log(`${what.padEnd(44)} ${ms.toFixed(3)} ms`);
    return ms;
  }

  const listed = await rpc('tools/list', {});
  console.log(`tools/list answer: ${listed.body.length} bytes`);
  await timed('POST /mcp tools/list', () => rpc('tools/list', {}));
  const viaMcp = await timed('POST /mcp tools/call get_order (a 404)', () =>
    rpc('tools/call', { name: 'get_order', arguments: { id: 999_999 } }),
  );
  const direct = await timed('GET /v2/orders/999999 directly (a 404)', () =>
    app.inject({ method: 'GET', url: '/v2/orders/999999', headers: { authorization: headers.authorization } }),
  );
  console.log(`MCP overhead of one tool call: ${(viaMcp - direct).toFixed(3)} ms (${bench.config.databaseKind})`);
  await app.close();
} finally {
  await bench.cleanup();
}
