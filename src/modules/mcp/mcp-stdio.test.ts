/**
 * The MCP server over stdio: the SDK's own client starts `node --import tsx src/main.ts mcp`
 * (what `npm run -s cli -- mcp` runs) on the test app's database, lists the tools, prices a
 * parcel and creates a draft order; stdout carries protocol messages only (the client reads
 * every line as one), the log goes to stderr. SQLite: the test app on a file (a database in
 * memory is not shared with a child process); PostgreSQL: the test app's own database.
 *
 * A read-only key over stdio is left to the HTTP tests (the same server, the same filter): the
 * child process resolves real tokens only, and scoped keys come with the keys area.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../../../test/support/app.js';
import { orderBody, orderingAccount, type OrderingAccount } from '../../../test/support/orders.js';
import { PROJECT_ROOT } from '../../platform/reference-data.js';
import { TOOLS } from './tools.js';

let t: TestApp;
let shop: OrderingAccount;
let dataDir: string;

beforeAll(async () => {
  const before = process.env.TEST_SQLITE_FILES;
  process.env.TEST_SQLITE_FILES = '1';
  try {
    t = await createTestApp();
  } finally {
    if (before === undefined) delete process.env.TEST_SQLITE_FILES;
    else process.env.TEST_SQLITE_FILES = before;
  }
  shop = await orderingAccount(t);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-stdio-'));
});
afterAll(async () => {
  await t?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The answer's JSON: the result's first text (a second one may say the lists were shortened). */
function jsonOf(result: CallToolResult): unknown {
  expect(result.isError, textOf(result)).toBeFalsy();
  const first = result.content[0];
  return JSON.parse(first?.type === 'text' ? first.text : '');
}

/** The SDK's client on a `cli mcp` process for this token; its stderr is collected. */
async function stdioClient(token: string): Promise<{ client: Client; logged: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/main.ts', 'mcp'],
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: t.config.databaseUrl,
      DATA_DIR: dataDir,
      SECRET_KEY: TEST_SECRET,
      PUBLIC_URL: 'http://delivery.test',
      LOG_LEVEL: 'info',
      DELIVERY_API_TOKEN: token,
      CARRIER_POINTS_IMPORT_HOURS: '0',
      TRACKING_POLL_SECONDS: '0',
    },
    stderr: 'pipe',
  });
  let logged = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    logged += chunk.toString();
  });
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, logged: () => logged };
}

// With scoped keys merged: a read-only key made by the API, `stdioClient(key)`, and its
// tools/list holding the read tools only (the child process resolves real keys).
describe('MCP over stdio (cli mcp)', () => {
  it('lists the tools, prices a parcel and creates a draft order; logs only on stderr', async () => {
    const started = Date.now();
    const { client, logged } = await stdioClient(shop.owner.token as string);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());

      const priced = (await client.callTool({
        name: 'price_parcel',
        arguments: { asShopId: shop.shopId, reception: { cityName: 'Санкт-Петербург', countryCode: 'RU' }, weight: 1 },
      })) as CallToolResult;
      expect(Object.keys(jsonOf(priced) as object).sort()).toEqual(['1', '2', '3']);

      const created = (await client.callTool({
        name: 'create_draft_order',
        arguments: orderBody(shop, { cmsId: 'MCP-STDIO' }),
      })) as CallToolResult;
      const { id } = jsonOf(created) as { id: number };
      expect((await shop.owner.get(`/v2/orders/${id}`)).body).toMatchObject({ cmsId: 'MCP-STDIO', status: 11 });
    } finally {
      await client.close();
    }
    // the API's request lines went to stderr, naming the client and the tool
    expect(logged()).toMatch(/"url":"\/v2\/calculator"/);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('refuses to start without a token, saying how to give one, before opening the database', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'mcp'], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
      input: '',
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/--token T or the DELIVERY_API_TOKEN environment variable/);
  }, 30_000);
});
