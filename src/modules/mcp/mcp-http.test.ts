/**
 * The MCP server over Streamable HTTP, driven by the SDK's own client against a listening app:
 * the tools a full key and a read-only key see, pricing, a draft order, labels, refusals (a
 * read-only key calling a destructive tool, another account's order, bad input), no token,
 * and each tool call being the API's own request (caller's address, rate limit).
 *
 * The read-only key is a real scoped key made through `POST /v2/api-keys` with the `read` scope.
 */
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { nextWorkday, productBody } from '../../../test/support/fixtures.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';
import { MAX_RESULT_CHARS, boundedJson } from './answers.js';
import { TOOLS } from './tools.js';

let t: TestApp;
let mcpUrl: URL;
let shop: OrderingAccount;
let stranger: OrderingAccount;
/** The API requests the tools made: path, address and user agent as the API saw them. */
const seen: { url: string; ip: string; userAgent: string }[] = [];

async function listening(app: TestApp): Promise<URL> {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  return new URL('/mcp', `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`);
}

async function connect(token: string, url = mcpUrl, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
    }),
  );
  return client;
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

function jsonOf(result: CallToolResult): Record<string, unknown> {
  expect(result.isError, textOf(result)).toBeFalsy();
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('no text');
  return JSON.parse(first.text) as Record<string, unknown>;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

beforeAll(async () => {
  t = await createTestApp({
    configure: (app) =>
      app.addHook('onRequest', async (request) => {
        if (request.url.startsWith('/v2/'))
          seen.push({ url: request.url, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });
      }),
  });
  mcpUrl = await listening(t);
  shop = await orderingAccount(t);
  stranger = await orderingAccount(t, { name: 'Stranger' });
});
afterAll(async () => {
  await t?.close();
});

describe('MCP over HTTP: who sees which tools', () => {
  it('lists every tool and the reference lists for a full key, with their input schemas and hints', async () => {
    const client = await connect(shop.owner.token as string);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('create_draft_order')?.annotations).toMatchObject({
        destructiveHint: true,
        readOnlyHint: false,
      });
      expect(byName.get('confirm_orders')?.annotations).toMatchObject({ destructiveHint: true });
      expect(byName.get('book_pickup')?.annotations).toMatchObject({ destructiveHint: true });
      expect(byName.get('price_parcel')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(byName.get('track_order')?.annotations).toMatchObject({ readOnlyHint: true });
      // the operation's own schema: POST /v2/orders's required fields and bounds
      const draft = byName.get('create_draft_order')?.inputSchema as {
        required: string[];
        properties: Record<string, { maxItems?: number }>;
      };
      expect(draft.required).toEqual(expect.arrayContaining(['deliveryAddress', 'recipient', 'delivery']));
      expect(draft.properties.products.maxItems).toBe(1000);
      expect(Object.keys(draft.properties)).toEqual(expect.arrayContaining(['asShopId', 'idempotencyKey']));
      const stickers = byName.get('get_stickers')?.inputSchema as { properties: Record<string, { maxItems?: number }> };
      expect(stickers.properties.ids.maxItems).toBe(100);

      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toContain('delivery://lists/order-statuses');
      const statuses = await client.readResource({ uri: 'delivery://lists/order-statuses' });
      const text = statuses.contents[0] && 'text' in statuses.contents[0] ? statuses.contents[0].text : '';
      expect(JSON.parse(text)).toMatchObject({ '11': 'Черновик' });
    } finally {
      await client.close();
    }
  });

  it('lists only the read tools for a read-only key, and refuses a destructive tool called anyway', async () => {
    const account = await t.newAccount('Read-only key');
    const made = await account.client.post('/v2/api-keys', { name: 'An agent that reads', scopes: ['read'] });
    expect(made.status, made.text).toBe(201);
    const token = made.body.key as string;
    const client = await connect(token);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(
        TOOLS.filter((tool) => tool.method === 'GET' || tool.url === '/v2/calculator')
          .map((tool) => tool.name)
          .sort(),
      );
      expect(names).not.toContain('create_draft_order');
      const before = seen.length;
      const refused = await call(client, 'create_draft_order', orderBody({ shopId: 1, pointId: 1 }));
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^This key may not call create_draft_order/);
      const inRussian = await connect(token, mcpUrl, { 'accept-language': 'ru' });
      try {
        const ru = await call(inRussian, 'confirm_orders', { ids: [1] });
        expect(ru.isError).toBe(true);
        expect(textOf(ru)).toMatch(/^Этому ключу нельзя вызывать confirm_orders/);
      } finally {
        await inRussian.close();
      }
      expect(seen.length).toBe(before); // nothing reached the API
      // its reads work
      const priced = await call(client, 'price_parcel', {
        reception: { cityName: 'Санкт-Петербург', countryCode: 'RU' },
        sender: { cityName: 'Москва', countryCode: 'RU' },
        pickupType: 1,
        weight: 1,
      });
      expect(Object.keys(jsonOf(priced)).sort()).toEqual(['1', '2', '3']);
    } finally {
      await client.close();
    }
  });
});

describe('MCP over HTTP: the tools call the API', () => {
  it("prices a parcel from the shop's warehouse, as the API's own request from the caller's address", async () => {
    const client = await connect(shop.owner.token as string);
    try {
      const result = await call(client, 'price_parcel', {
        asShopId: shop.shopId,
        reception: { cityName: 'Санкт-Петербург', countryCode: 'RU' },
        weight: 1.2,
      });
      const offers = jsonOf(result) as Record<string, unknown[]>;
      expect(Object.keys(offers).sort()).toEqual(['1', '2', '3']);
      expect(offers['1'].length + offers['2'].length).toBeGreaterThan(0);
      const request = seen.findLast((entry) => entry.url === '/v2/calculator');
      expect(request?.ip).toBe('127.0.0.1');
      expect(request?.userAgent).toMatch(/mcp-tool\/price_parcel$/);
    } finally {
      await client.close();
    }
  });

  it('creates a draft order (the API writes it as a draft), and refuses bad input writing nothing', async () => {
    const client = await connect(shop.owner.token as string);
    try {
      const created = jsonOf(await call(client, 'create_draft_order', orderBody(shop, { cmsId: 'MCP-1' })));
      const order = await shop.owner.get(`/v2/orders/${created.id}`);
      expect(order.status).toBe(200);
      expect(order.body).toMatchObject({ cmsId: 'MCP-1', status: 11 }); // a draft

      const countBefore = (await shop.owner.get('/v2/orders')).headers['x-total-count'];
      // a rule beyond the schema (no such delivery company): the API's refusal comes back as the tool's error
      const refused = await call(
        client,
        'create_draft_order',
        orderBody(shop, { delivery: { company: { id: 999_999 }, type: 1, point: { id: shop.pointId } } }),
      );
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^HTTP 4\d\d [a-z_]+: /);
      // the operation's schema (the tool's input schema) refuses a malformed phone and a missing field
      const badPhone = await call(
        client,
        'create_draft_order',
        orderBody(shop, { recipient: { fullName: 'Светлана Котова', phone: 'not a phone' } }),
      );
      expect(badPhone.isError).toBe(true);
      expect(textOf(badPhone)).toMatch(/phone/);
      const missing = await call(client, 'create_draft_order', { products: [] });
      expect(missing.isError).toBe(true);
      expect((await shop.owner.get('/v2/orders')).headers['x-total-count']).toBe(countBefore);
    } finally {
      await client.close();
    }
  });

  it("answers another account's order as the API does: not found, as a tool error", async () => {
    const theirs = (await stranger.owner.post('/v2/orders', orderBody(stranger))).body.id as number;
    const client = await connect(shop.owner.token as string);
    try {
      for (const [tool, args] of [
        ['get_order', { id: theirs }],
        ['track_order', { id: theirs }],
      ] as const) {
        const result = await call(client, tool, args);
        expect(result.isError, tool).toBe(true);
        expect(textOf(result), tool).toMatch(/^HTTP 404 not_found/);
      }
      const confirm = await call(client, 'confirm_orders', { ids: [theirs] });
      expect(confirm.isError).toBe(true);
      expect((await stranger.owner.get(`/v2/orders/${theirs}`)).body.status).toBe(11); // still a draft
    } finally {
      await client.close();
    }
  });

  it('confirms an order and returns its labels as a link and an embedded PDF', async () => {
    const { id } = await preparedOrder(shop.owner, shop.worker, orderBody(shop, { cmsId: 'MCP-LABEL' }));
    const client = await connect(shop.owner.token as string);
    try {
      const linkOnly = await call(client, 'get_stickers', { ids: [id], type: 1 });
      expect(linkOnly.isError, textOf(linkOnly)).toBeFalsy();
      expect(textOf(linkOnly)).toMatch(/http:\/\/delivery\.test\/files\/\S+\.pdf/);
      const embedded = await call(client, 'get_stickers', { ids: [id], type: 1, embedPdf: true });
      const resource = embedded.content.find((part) => part.type === 'resource');
      expect(resource?.type === 'resource' && resource.resource.mimeType).toBe('application/pdf');
      const blob = resource?.type === 'resource' && 'blob' in resource.resource ? resource.resource.blob : '';
      expect(Buffer.from(blob, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
      // more orders than one call takes: the tool's bound
      const tooMany = await call(client, 'get_stickers', { ids: Array.from({ length: 101 }, (_, i) => i + 1) });
      expect(tooMany.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('MCP over HTTP: the other tools', () => {
  it('finds pickup points, reads stock, tracks, lists the collecting companies and books a pickup', async () => {
    const client = await connect(shop.owner.token as string);
    try {
      const points = jsonOf(await call(client, 'find_pickup_points', { companyId: 1, perPage: 3 })) as unknown as {
        id: number;
      }[];
      expect(points).toHaveLength(3);

      const productId = (await shop.owner.post('/v2/products', productBody({ shopId: shop.shopId }))).body.id as number;
      const product = jsonOf(await call(client, 'get_product_stock', { id: productId, asShopId: shop.shopId }));
      expect(product).toMatchObject({ id: productId, vendorCode: 'TSHIRT-RED' });
      expect(product).toHaveProperty('quantity');

      const { id: orderId } = await preparedOrder(shop.owner, shop.worker, orderBody(shop, { cmsId: 'MCP-TRACK' }));
      const tracked = jsonOf(await call(client, 'track_order', { id: orderId }));
      expect(tracked).toMatchObject({
        id: orderId,
        statusHistory: expect.arrayContaining([expect.objectContaining({ code: 13 })]),
      });

      const companies = await call(client, 'pickup_companies', { warehouseId: shop.warehouseId, type: 4 });
      expect(companies.isError, textOf(companies)).toBeFalsy();
      const booked = jsonOf(
        await call(client, 'book_pickup', {
          warehouseId: shop.warehouseId,
          companyId: 1,
          type: 4,
          date: nextWorkday(),
          idempotencyKey: 'mcp-pickup-1',
        }),
      );
      expect(booked.id).toEqual(expect.any(Number));
      // the same key again: the API's idempotency answers the first pickup, nothing twice
      const again = jsonOf(
        await call(client, 'book_pickup', {
          warehouseId: shop.warehouseId,
          companyId: 1,
          type: 4,
          date: nextWorkday(),
          idempotencyKey: 'mcp-pickup-1',
        }),
      );
      expect(again.id).toBe(booked.id);
      expect((await shop.owner.get('/v2/pickups')).headers['x-total-count']).toBe('1');
    } finally {
      await client.close();
    }
  });
});

describe('MCP over HTTP: the door', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const json = async (response: Response): Promise<any> => response.json();
  const post = (headers: Record<string, string>, body: unknown = initialize) =>
    fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it('refuses a request without a token, or with an unknown one, in the house error shape', async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ code: 'unauthorized', errors: [], logId: expect.any(String) });
    const unknown = await post({ authorization: 'Bearer not-a-token-of-anyone' });
    expect(unknown.status).toBe(401);
    expect((await json(unknown)).code).toBe('invalid_token');
    const ru = await post({ 'accept-language': 'ru' });
    expect((await json(ru)).message).toMatch(/авторизац/i);
  });

  it("reads no session cookie: a dashboard session (or a cross-site page's use of it) is a 401", async () => {
    const email = 'mcp-owner@shop.example';
    const password = 'mcp owner password 7';
    await t.runtime.services.accounts.addEmployee(shop.accountId, { name: 'Owner', email, password });
    const signIn = await t.app.inject({ method: 'POST', url: '/v2/auth/session', payload: { email, password } });
    const cookie = ([] as string[])
      .concat(signIn.headers['set-cookie'] ?? [])
      .map((line) => line.split(';')[0])
      .join('; ');
    expect(cookie).toMatch(/dashboard_session/);
    const withCookie = await post({ cookie });
    expect(withCookie.status).toBe(401);
    expect((await json(withCookie)).code).toBe('unauthorized');
  });

  it("answers the transport's refusals in the house error body", async () => {
    const noAccept = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${shop.owner.token}` },
      body: JSON.stringify(initialize),
    });
    expect(noAccept.status).toBe(406);
    expect(await json(noAccept)).toMatchObject({ code: 'not_acceptable', errors: [], logId: expect.any(String) });
    const notRpc = await post({ authorization: `Bearer ${shop.owner.token}` }, { hello: 'world' });
    expect(notRpc.status).toBe(400);
    expect((await json(notRpc)).code).toBe('bad_request');
  });

  it('answers a plain JSON request, takes POST only, and bounds the body', async () => {
    const answered = await post({ authorization: `Bearer ${shop.owner.token}` });
    expect(answered.status).toBe(200);
    expect((await json(answered)).result.serverInfo.name).toBe('delivery-service');
    const get = await fetch(mcpUrl, { headers: { authorization: `Bearer ${shop.owner.token}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await json(get)).code).toBe('method_not_allowed');
    const huge = await post(
      { authorization: `Bearer ${shop.owner.token}` },
      { ...initialize, params: { ...initialize.params, padding: 'x'.repeat(1024 * 1024) } },
    );
    expect(huge.status).toBe(413);
    expect((await json(huge)).code).toBe('body_too_large');
  });

  it("spends the token's API budget on every tool call, and limits MCP messages alike (RATE_LIMIT_PER_MINUTE)", async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const url = await listening(limited);
      const { token } = await limited.newAccount('Limited');
      const args = { sender: { cityName: 'Москва' }, reception: { cityName: 'Казань' }, pickupType: 1, weight: 1 };
      // the API budget of the token: three direct calls spend it
      for (let i = 0; i < 3; i++) expect((await limited.client(token).post('/v2/calculator', args)).status).toBe(200);
      const client = await connect(token, url); // MCP messages 1 and 2 (initialize, initialized)
      try {
        const refused = await call(client, 'price_parcel', args); // message 3, the API's 4th call
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(/^HTTP 429 rate_limited/);
        // the 4th MCP message of the minute: refused at the door, before any work
        await expect(client.listTools()).rejects.toThrow(/rate_limited/);
      } finally {
        await client.close();
      }
    } finally {
      await limited.close();
    }
  });
});

describe('tool results are bounded', () => {
  it('cuts long lists and says so, in the caller’s language', () => {
    const points = Array.from({ length: 5000 }, (_, id) => ({
      id,
      name: `Пункт выдачи ${id}`,
      address: 'x'.repeat(40),
    }));
    const { text, note } = boundedJson({ points }, 'ru');
    expect(text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect((JSON.parse(text) as { points: unknown[] }).points.length).toBe(50);
    expect(note).toMatch(/сокращён до первых 50/);
    expect(boundedJson({ small: [1, 2] }, 'en')).toEqual({ text: '{"small":[1,2]}', note: null });
  });
});
